"""A table's page with no network: the phone keeps each table it reads, so that opened offline
(cold, from the installed copy) the table shows that copy and the games this phone keeps open from
it and play; a game it does not keep is shown, not linked; forgetting the table drops the copy."""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests

pytest.importorskip("playwright.sync_api")

from .conftest import check_accessibility, screenshot
from .helpers import (
    confirm,
    create_table,
    expect,
    jhyap_entry,
    offline_round,
    open_entry,
    scores,
    standings,
    table_game,
    wait_preview,
)
from .test_install import CONTROLLED, OFFLINE, cold_offline, first_visit

pytestmark = pytest.mark.server
KEPT = "Kept on this phone — no connection to the scorekeeper. This is the table as of"


def kept_table(page: Any, table_id: str) -> dict[str, Any] | None:
    """The copy of the table this phone keeps: {table, seen}, or None."""
    return page.evaluate(
        "id => (JSON.parse(localStorage.getItem('scorekeeper.kept-tables.v1')) || {})[id] ?? null",
        table_id,
    )


def table_token(page: Any, table_id: str) -> str:
    return page.evaluate(
        "id => JSON.parse(localStorage.getItem('scorekeeper.tables.v1'))"
        ".find(t => t.id === id).token",
        table_id,
    )


def another_phones_game(url: str, table_id: str, token: str, *, finish: bool) -> str:
    """A game another phone starts at the table (straight to the API); `finish`: Asha calls 1
    and Bikash goes out (25 over 20). Returns its id."""
    headers = {"Authorization": f"Bearer {token}"}
    roster = requests.get(f"{url}/api/v1/tables/{table_id}", timeout=5).json()["players"]
    body = {
        "ruleset": "jhyap",
        "players": [player["id"] for player in roster][:2],
        "dealer": 0,
        "starter": 0,
        "options": {"elimination_limit": 20, "halve_at": []},
    }
    answer = requests.post(
        f"{url}/api/v1/tables/{table_id}/games", json=body, headers=headers, timeout=5
    )
    assert answer.status_code == 201, answer.text
    game = answer.json()
    if finish:
        ids = [player["id"] for player in game["players"]]
        entry = {"caller": ids[0], "hands": [{"player": ids[0], "total": 1}]}
        entry["hands"].append({"player": ids[1], "total": 25})
        answer = requests.post(
            f"{url}/api/v1/games/{game['id']}/rounds", json=entry, headers=headers, timeout=5
        )
        assert answer.status_code == 201, answer.text
    return game["id"]


def open_table(page: Any, url: str, table_id: str) -> None:
    page.goto(f"{url}/#/tables/{table_id}")
    page.get_by_test_id("standings").or_(page.locator("main .empty")).first.wait_for()


def test_a_table_opens_cold_with_no_network_and_its_game_plays(browser, server, console, tmp_path):
    console.allow(OFFLINE)
    profile = tmp_path / "profile"
    phone, page = first_visit(browser, profile, server, console)
    table_id = create_table(page, "Friday crew", ["Asha", "Bikash", "Chandra"])
    token = table_token(page, table_id)
    finished = another_phones_game(server.url, table_id, token, finish=True)
    page.goto(f"{server.url}/#/tables/{table_id}")
    game_id = table_game(page, "jhyap", ["Asha", "Bikash", "Chandra"])
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20, 30])
    wait_preview(page)
    confirm(page)
    after_one = scores(page)
    open_table(page, server.url, table_id)
    expect(page.get_by_test_id("table-game")).to_have_count(2)
    online = {
        "roster": page.locator("main .subtitle").inner_text(),
        "standings": standings(page),
        "games": page.locator("[data-testid=table-game] .game-name").all_inner_texts(),
    }
    assert online["standings"]["Asha"]["games_won"] == "1"  # the finished game counts
    kept = kept_table(page, table_id)
    assert [game["id"] for game in kept["table"]["games"]] == [game_id, finished]
    phone.close()

    # No server and no network; the phone starts again from its profile.
    phone, page = cold_offline(browser, profile, server, console)
    page.get_by_test_id("table-link").filter(has_text="Friday crew").click()
    expect(page.get_by_test_id("table-kept")).to_contain_text(KEPT)
    expect(page.locator("main h1")).to_have_text("Friday crew")
    assert page.locator("main .subtitle").inner_text() == online["roster"]
    assert standings(page) == online["standings"]
    games = page.get_by_test_id("table-game")
    expect(games).to_have_count(1)  # the game this phone keeps: a link
    expect(games).to_have_attribute("href", f"#/game/{game_id}")
    assert games.locator(".game-name").inner_text() == online["games"][0]
    away = page.get_by_test_id("table-game-away")  # the other phone's: shown, not a link
    expect(away).to_contain_text(online["games"][1])
    expect(away).to_contain_text("Not on this phone")
    expect(page.locator(f'a[href="#/game/{finished}"]')).to_have_count(0)
    # A new game is made on the phone (tests/browser/test_offline_create.py).
    expect(page.get_by_test_id("table-new-game")).to_be_visible()
    check_accessibility(page, "kept table")
    screenshot(page, "kept-table")

    # Its game opens from what the phone kept, and a round goes to the outbox.
    games.click()
    assert page.url == f"{server.url}/#/game/{game_id}"
    assert scores(page) == after_one
    offline_round(page, "Bikash", [5, 1, 9])
    after_two = scores(page)
    page.goto(f"{server.url}/#/tables/{table_id}")
    expect(page.get_by_test_id("table-kept")).to_be_visible()

    # The service is back, another phone started a game meanwhile, then the network comes back.
    server.start()
    newer = another_phones_game(server.url, table_id, token, finish=False)
    phone.set_offline(False)
    expect(page.get_by_test_id("table-kept")).to_have_count(0, timeout=20_000)
    expect(page.get_by_test_id("table-game")).to_have_count(3)
    expect(page.get_by_test_id("table-game-away")).to_have_count(0)
    expect(page.get_by_test_id("table-new-game")).to_be_visible()
    expect(page.get_by_test_id("pending")).to_have_count(0, timeout=20_000)
    assert [r["number"] for r in server.rounds(game_id)] == [1, 2]  # sent once
    kept_now = kept_table(page, table_id)
    assert [game["id"] for game in kept_now["table"]["games"]] == [newer, game_id, finished]
    assert kept_now["seen"] > kept["seen"]
    page.get_by_test_id("table-game").filter(has_text=online["games"][0]).click()
    expect(page.get_by_test_id("provisional")).to_have_count(0)
    expect(page.locator(".round-number")).to_have_text("Round 3")
    assert scores(page) == after_two
    phone.close()
    assert console.unexpected() == []


def test_a_game_this_phone_does_not_keep_says_so(page, server, console):
    console.allow(OFFLINE)
    page.wait_for_function(CONTROLLED)
    table_id = create_table(page, "Sunday crew", ["Asha", "Bikash", "Chandra"])
    game_id = table_game(page, "jhyap", ["Asha", "Bikash", "Chandra"])
    away_id = another_phones_game(server.url, table_id, table_token(page, table_id), finish=False)
    open_table(page, server.url, table_id)
    expect(page.get_by_test_id("table-game")).to_have_count(2)  # online, both are links
    expect(page.get_by_test_id("table-kept")).to_have_count(0)

    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.get_by_test_id("table-kept")).to_contain_text(KEPT)
    expect(page.get_by_test_id("table-game")).to_have_attribute("href", f"#/game/{game_id}")
    away = page.get_by_test_id("table-game-away")
    expect(away).to_have_count(1)
    expect(away).to_contain_text("Asha, Bikash")
    expect(away).to_contain_text("Not on this phone")
    expect(page.locator(f'a[href="#/game/{away_id}"]')).to_have_count(0)
    expect(page.locator("main a[href^='#/game/']")).to_have_count(1)
    check_accessibility(page, "kept table with a game not on this phone")

    page.get_by_test_id("table-game").click()
    expect(page.get_by_test_id("record-round")).to_be_visible()  # kept with the table's key


def test_forgetting_a_table_drops_its_kept_copy(page, server, console):
    console.allow(OFFLINE)
    page.wait_for_function(CONTROLLED)
    table_id = create_table(page, "Friday crew", ["Asha", "Bikash"])
    other_id = create_table(page, "Sunday crew", ["Chandra", "Dev"])
    assert kept_table(page, table_id)["table"]["name"] == "Friday crew"
    assert kept_table(page, other_id)["table"]["name"] == "Sunday crew"

    page.goto(server.url + "/#/")
    forget = page.locator(f'[data-key="forget-table:{table_id}"]')
    forget.click()
    forget.click()  # the second tap confirms
    expect(page.get_by_test_id("table-link")).to_have_count(1)
    assert kept_table(page, table_id) is None
    assert kept_table(page, other_id)["table"]["name"] == "Sunday crew"
    stored = page.evaluate("() => localStorage.getItem('scorekeeper.kept-tables.v1')")
    assert table_id not in json.loads(stored)

    # Offline, the forgotten table has nothing to show; the other one still opens.
    page.context.set_offline(True)
    page.goto(f"{server.url}/#/tables/{table_id}")
    expect(page.get_by_test_id("retry-route")).to_be_visible()
    expect(page.get_by_test_id("table-kept")).to_have_count(0)
    page.goto(f"{server.url}/#/tables/{other_id}")
    expect(page.get_by_test_id("table-kept")).to_contain_text(KEPT)
    expect(page.locator("main h1")).to_have_text("Sunday crew")
