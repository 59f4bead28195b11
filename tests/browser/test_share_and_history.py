"""Watching from another phone, the games list, export and import."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest

pytest.importorskip("playwright.sync_api")

from .conftest import VIEWPORT, check_accessibility, screenshot
from .helpers import (
    POLLED,
    confirm,
    create_game,
    expect,
    jhyap_entry,
    next_round_is,
    open_entry,
    scores,
    wait_preview,
)

pytestmark = pytest.mark.server


def test_watch_link_follows_the_table(page, server, browser, console):
    create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1, name="Watched")
    link = page.get_by_test_id("share-link").input_value()
    assert "#/watch/" in link

    other = browser.new_context(viewport=VIEWPORT, color_scheme="dark")  # dark mode from the system
    watcher = other.new_page()
    watcher.on("console", lambda m: m.type == "error" and console.errors.append(m.text))
    watcher.goto(link)
    expect(watcher.locator(".watching")).to_be_visible()
    expect(watcher.get_by_test_id("record-round")).to_have_count(0)
    expect(watcher.locator(".round-number")).to_have_text("Round 1")
    check_accessibility(watcher, "watch view")

    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20, 30])
    wait_preview(page)
    confirm(page)
    # The watcher follows the game on its own (its stream, or where there is none a poll with
    # If-None-Match every 10 s ± 20 %).
    expect(watcher.locator(".round-number")).to_have_text("Round 2", timeout=POLLED)
    assert scores(watcher) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    screenshot(watcher, "watch-view")
    expect(watcher.get_by_test_id("edit-1")).to_have_count(0)
    other.close()


def test_games_list_export_and_import(page, server, tmp_path):
    game_id = create_game(
        page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1, name="Saved"
    )
    open_entry(page)
    jhyap_entry(page, "Bikash", [12, 1, 7])
    wait_preview(page)
    confirm(page)
    next_round_is(page, 2)

    with page.expect_download() as download:
        page.get_by_test_id("export").click()
    path = tmp_path / "export.json"
    download.value.save_as(path)
    document = json.loads(path.read_text())
    assert document["format"] == "scorekeeper.game"
    assert document["game"]["id"] == game_id
    assert "token" not in json.dumps(document)

    page.locator("#home-link").click()
    expect(page.locator("a.game-link")).to_have_count(1)
    expect(page.locator("a.game-link")).to_contain_text("Saved")
    page.set_input_files("#import-file", str(path))
    expect(page.locator("[data-testid=players]")).to_be_visible()
    new_id = page.url.split("#/game/")[1]
    assert new_id != game_id
    assert scores(page) == {"Asha": "12", "Bikash": "0", "Chandra": "7"}
    expect(page.get_by_test_id("record-round")).to_be_visible()  # the import came with a new token

    page.locator("#home-link").click()
    expect(page.locator("a.game-link")).to_have_count(2)
    screenshot(page, "games-list")
    # Removing a game from this phone takes two taps.
    page.locator("li.game-item").filter(has_text="Saved").first.get_by_role("button").click()
    page.get_by_role("button", name="Tap again to remove").click()
    expect(page.locator("a.game-link")).to_have_count(1)


def test_an_import_whose_answer_was_lost_is_made_once_when_the_file_is_chosen_again(
    page, server, tmp_path, console
):
    console.allow(r"Failed to load resource: net::ERR_CONNECTION_RESET")
    create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1, name="Saved")
    with page.expect_download() as download:
        page.get_by_test_id("export").click()
    path = tmp_path / "export.json"
    download.value.save_as(path)
    imported, keys = [], []

    def swallow_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        imported.append(route.fetch().json())  # the service makes the copy...
        route.abort("connectionreset")  # ...and the phone never hears back

    page.route("**/api/v1/games/import", swallow_answer)
    page.locator("#home-link").click()
    page.set_input_files("#import-file", str(path))
    expect(page.get_by_test_id("error")).to_contain_text("No connection to the scorekeeper")
    page.unroute("**/api/v1/games/import")
    page.on(
        "request", lambda r: r.url.endswith("/import") and keys.append(r.headers["idempotency-key"])
    )
    page.set_input_files("#import-file", [])
    page.set_input_files("#import-file", str(path))
    expect(page.locator("[data-testid=players]")).to_be_visible()

    assert page.url.split("#/game/")[1] == imported[0]["id"]  # the copy the first choice made
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]
    # Once answered, the same file chosen again is said to be the same; imported again all the
    # same, it makes another copy.
    page.locator("#home-link").click()
    page.set_input_files("#import-file", [])
    page.set_input_files("#import-file", str(path))
    page.get_by_test_id("import-anyway").click()
    expect(page.locator("[data-testid=players]")).to_be_visible()
    assert page.url.split("#/game/")[1] != imported[0]["id"]
    assert len(keys) == 3 and keys[2] != keys[0]


def test_an_imported_game_is_marked_on_the_games_list(page, server, tmp_path):
    create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1, name="Saved")
    with page.expect_download() as download:
        page.get_by_test_id("export").click()
    path = tmp_path / "export.json"
    download.value.save_as(path)

    page.clock.set_fixed_time(datetime(2025, 3, 14, 12, 0, tzinfo=UTC))
    page.locator("#home-link").click()
    page.set_input_files("#import-file", str(path))
    expect(page.locator("[data-testid=players]")).to_be_visible()

    page.locator("#home-link").click()
    games = page.locator("li.game-item").filter(has_text="Saved")
    expect(games).to_have_count(2)
    # Newest first: the copy says so in words (not only by colour), with the day it came in.
    expect(games.first.get_by_test_id("imported")).to_have_text("imported on Mar 14, 2025")
    expect(games.first.locator("time")).to_have_attribute("datetime", re.compile(r"^2025-03-14T"))
    expect(games.nth(1).get_by_test_id("imported")).to_have_count(0)
    check_accessibility(page, "games list with an imported game")
    screenshot(page, "games-list-imported")

    # Kept with the game on this phone, and said in the phone's language.
    page.reload()
    page.wait_for_selector("body.ready")
    page.select_option("#lang-select", "fil")
    expect(games.first.get_by_test_id("imported")).to_contain_text("na-import")
    expect(games.first.locator(".badge")).to_have_text("na-import")
