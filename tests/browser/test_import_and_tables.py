"""Imports and a game's table, at 390x844: the same file imported twice is said so (open the
first, or import it again); a game of a table this phone keeps goes back to that table; a phone
that holds only a game's key files the game under its table."""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests

pytest.importorskip("playwright.sync_api")

from .conftest import VIEWPORT, check_accessibility, screenshot
from .helpers import create_table, expect, game_token, table_game, totals

pytestmark = pytest.mark.server


def export_of(server: Any, game_id: str, tmp_path: Any) -> Any:
    """The game's export, saved as a file."""
    exported = requests.get(f"{server.url}/api/v1/games/{game_id}/export", timeout=5).json()
    path = tmp_path / f"scorekeeper-{game_id}.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    return path


def choose(page: Any, path: Any) -> None:
    page.locator("#home-link").click()
    page.set_input_files("#import-file", [])
    page.set_input_files("#import-file", str(path))


def loose_game(page: Any, server: Any) -> str:
    """A game of its own, made through the API and kept on this phone, with one round."""
    body = {"ruleset": "jhyap", "players": ["Asha", "Bikash"], "dealer": 0, "name": "Saved"}
    game = requests.post(f"{server.url}/api/v1/games", json=body, timeout=5).json()
    ids = [p["id"] for p in game["players"]]
    answer = requests.post(
        f"{server.url}/api/v1/games/{game['id']}/rounds",
        json=totals(ids, 0, 2, 15),
        headers={"Authorization": f"Bearer {game['token']}"},
        timeout=5,
    )
    assert answer.status_code == 201
    return game["id"]


def test_the_same_file_imported_twice_is_said_so_and_opens_the_first(page, server, tmp_path):
    path = export_of(server, loose_game(page, server), tmp_path)
    choose(page, path)
    expect(page.get_by_test_id("players")).to_be_visible()
    first = page.url.split("#/game/")[1]

    choose(page, path)
    again = page.get_by_test_id("import-again")
    expect(again).to_contain_text("This file was imported on this phone on")
    expect(again).to_contain_text("as “Saved”")
    expect(page.get_by_test_id("open-imported")).to_be_focused()
    check_accessibility(page, "the same file again")
    screenshot(page, "import-the-same-file-again")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORT["width"]
    page.get_by_test_id("open-imported").click()
    expect(page.get_by_test_id("players")).to_be_visible()
    assert page.url.split("#/game/")[1] == first
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('scorekeeper.games.v1'))")
    imported = [g for g in kept if g.get("imported")]
    assert [g["id"] for g in imported] == [first]  # no second copy

    # Imported again all the same: a second copy, and the page says nothing more.
    choose(page, path)
    page.get_by_test_id("import-anyway").click()
    expect(page.get_by_test_id("players")).to_be_visible()
    assert page.url.split("#/game/")[1] != first


def test_an_imported_game_goes_back_to_its_table_on_this_phone(page, server, tmp_path):
    table_id = create_table(page, "Friday crew", ["Asha", "Bikash"])
    game_id = table_game(page, "jhyap", ["Asha", "Bikash"])
    path = export_of(server, game_id, tmp_path)
    # The game is deleted at the table (by another phone, say); its file is all there is.
    token = page.evaluate(
        "id => JSON.parse(localStorage.getItem('scorekeeper.tables.v1')).find(t => t.id === id)"
        ".token",
        table_id,
    )
    deleted = requests.delete(
        f"{server.url}/api/v1/games/{game_id}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=5,
    )
    assert deleted.status_code == 204

    choose(page, path)
    where = page.get_by_test_id("import-where")
    expect(where).to_contain_text("This game was played at Friday crew, which is on this phone.")
    expect(page.get_by_test_id("import-at-table")).to_have_text("Put it back at Friday crew")
    expect(page.get_by_test_id("import-on-its-own")).to_be_visible()
    check_accessibility(page, "an import offered back to its table")
    page.get_by_test_id("import-at-table").click()
    expect(page.get_by_test_id("players")).to_be_visible()
    expect(page.locator(".notice")).to_contain_text("The game was imported at Friday crew.")
    expect(page.locator(".subtitle")).to_contain_text("Friday crew")
    new_id = page.url.split("#/game/")[1]
    table = requests.get(f"{server.url}/api/v1/tables/{table_id}", timeout=5).json()
    assert [g["id"] for g in table["games"]] == [new_id]
    # On the home page it is under its table, not among the games of their own.
    page.locator("#home-link").click()
    expect(page.locator(".game-link")).to_have_count(1)  # the table's link only
    page.get_by_test_id("table-link").click()
    expect(page.get_by_test_id("table-game")).to_have_count(1)


def test_a_phone_with_only_a_games_key_files_it_under_its_table(page, server, browser):
    table_id = create_table(page, "Friday crew", ["Asha", "Bikash"])
    game_id = table_game(page, "jhyap", ["Asha", "Bikash"])
    token = game_token(page, game_id)  # the game's own key, as "Add a scorer" gives it
    # Another phone, given the game's own key by its scorer link: no table, no table's key.
    phone = browser.new_context(
        viewport=VIEWPORT, device_scale_factor=2, is_mobile=True, has_touch=True
    ).new_page()
    try:
        game = requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=5).json()
        own = requests.post(
            f"{server.url}/api/v1/games/{game_id}/rounds",
            json=totals([p["id"] for p in game["players"]], 0, 2, 15),
            headers={"Authorization": f"Bearer {token}"},
            timeout=5,
        )
        assert own.status_code == 201
        phone.goto(server.url + "/")
        phone.wait_for_selector("body.ready")
        phone.evaluate(
            """async ([game, token]) => {
                const { store } = await import('/static/js/store.js');
                store.saveGame(game, token);
            }""",
            [game, token],
        )
        phone.goto(f"{server.url}/#/game/{game_id}")
        phone.get_by_test_id("players").wait_for()
        phone.get_by_test_id("game-table").wait_for()
        phone.wait_for_function(
            "id => (JSON.parse(localStorage.getItem('scorekeeper.tables.v1')) || [])"
            ".some(t => t.id === id && !t.token)",
            arg=table_id,
        )
        phone.locator("#home-link").click()
        # Filed under Friday crew (kept read only, without its key), not "Games without a table".
        expect(phone.get_by_test_id("table-link")).to_contain_text("Friday crew")
        expect(phone.locator(".game-link")).to_have_count(1)  # the table's link only
        check_accessibility(phone, "a game filed under its table")
        phone.get_by_test_id("table-link").click()
        expect(phone.get_by_test_id("table-game")).to_have_count(1)
        expect(phone.locator(".watching")).to_be_visible()  # the table is read only here
        phone.get_by_test_id("table-game").click()
        expect(phone.get_by_test_id("record-round")).to_be_visible()  # the game's own key
    finally:
        phone.context.close()
