"""Made with no network (issue 30 item 1): a new game, a Play again and a new table are made on the
phone with the service stopped and the page opened cold from its installed copy, scored there, and
created on the service when it is back, exactly once, with the rounds queued behind them after
them and numbered as the phone numbered them."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests

pytest.importorskip("playwright.sync_api")

from .conftest import check_accessibility, screenshot
from .helpers import (
    confirm,
    create_game,
    create_table,
    expect,
    jhyap_entry,
    offline_round,
    open_entry,
    scores,
    start_game,
    table_game,
    wait_preview,
)
from .test_install import CONTROLLED, OFFLINE, cold_offline, first_visit

pytestmark = pytest.mark.server
CHOSEN_ID = re.compile(r"^[A-Za-z0-9_-]{22}$")
# The game's page asks the service for a game it does not have yet: 404 until it is created.
NOT_YET = r"Failed to load resource: the server responded with a status of 404"


def back_online(phone: Any, page: Any, server: Any) -> None:
    server.start()
    phone.set_offline(False)
    expect(page.get_by_test_id("pending")).to_have_count(0, timeout=20_000)
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=20_000)


def service_game(server: Any, game_id: str) -> dict[str, Any]:
    answer = requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=5)
    assert answer.status_code == 200, answer.text
    return answer.json()


def stored(page: Any, key: str, item_id: str) -> dict[str, Any] | None:
    """This phone's entry for game or table ``item_id`` (``games`` or ``tables``)."""
    return page.evaluate(
        "([key, id]) => (JSON.parse(localStorage.getItem(`scorekeeper.${key}.v1`)) || [])"
        ".find(item => item.id === id) ?? null",
        [key, item_id],
    )


def role(page: Any, badge: str) -> str:
    """The name of the player with the ``deal`` or ``start`` badge."""
    row = page.locator("[data-testid=player]").filter(has=page.locator(f".badge.{badge}"))
    return row.get_attribute("data-player")


def calls(server: Any, game_id: str) -> list[tuple[int, str]]:
    """Each recorded round's number and its caller's name, in order."""
    names = {p["id"]: p["name"] for p in service_game(server, game_id)["players"]}
    return [(r["number"], names[r["caller"]]) for r in server.rounds(game_id)]


def test_a_new_game_made_offline_is_created_with_its_rounds_when_the_network_is_back(
    browser, server, console, tmp_path
):
    console.allow(OFFLINE)
    console.allow(NOT_YET)
    profile = tmp_path / "profile"
    phone, page = first_visit(browser, profile, server, console)
    phone.close()

    phone, page = cold_offline(browser, profile, server, console)
    page.get_by_test_id("new-game").click()
    page.locator("input[name=ruleset][value=jhyap]").check()
    for seat, player in enumerate(["Asha", "Bikash", "Chandra"]):
        if page.locator(f"#player-{seat}").count() == 0:
            page.get_by_role("button", name="Add a player").click()
        page.fill(f"#player-{seat}", player)
    page.select_option("#dealer", "0")
    page.select_option("#starter", "1")
    game_id = start_game(page, None)
    assert CHOSEN_ID.match(game_id)
    assert (role(page, "deal"), role(page, "start")) == ("Asha", "Bikash")
    expect(page.get_by_test_id("pending")).to_contain_text("Offline — made on this phone")
    check_accessibility(page, "a game made offline")

    offline_round(page, "Bikash", [20, 2, 30])
    offline_round(page, "Asha", [1, 5, 9])
    offline_round(page, "Chandra", [10, 12, 3])
    expect(page.get_by_test_id("pending")).to_contain_text("Offline — 3 rounds kept on this phone")
    expect(page.locator(".round-number")).to_have_text("Round 4")
    on_phone = scores(page)
    assert stored(page, "games", game_id)["token"] is None
    screenshot(page, "made-offline-game")

    back_online(phone, page, server)
    expect(page.get_by_test_id("differs")).to_have_count(0)  # scored as the phone showed
    assert calls(server, game_id) == [(1, "Bikash"), (2, "Asha"), (3, "Chandra")]
    game = service_game(server, game_id)
    assert [p["name"] for p in game["players"]] == ["Asha", "Bikash", "Chandra"]
    assert game["rounds_played"] == 3
    assert scores(page) == on_phone
    expect(page.locator(".round-number")).to_have_text("Round 4")
    token = stored(page, "games", game_id)["token"]
    assert token and "made" not in stored(page, "games", game_id)
    check_accessibility(page, "a game made offline, created")

    # Its real token: the Record button works online, straight to the service.
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 7, 8])
    wait_preview(page)
    confirm(page)
    assert calls(server, game_id)[-1] == (4, "Asha")
    phone.close()
    assert console.unexpected() == []


def test_play_again_offline_at_a_table_keeps_the_starter_the_phone_showed(
    browser, server, console, tmp_path
):
    console.allow(OFFLINE)
    console.allow(NOT_YET)
    profile = tmp_path / "profile"
    phone, page = first_visit(browser, profile, server, console)
    table_id = create_table(page, "Friday crew", ["Asha", "Bikash", "Chandra"])
    first_id = table_game(
        page, "jhyap", ["Asha", "Bikash", "Chandra"], options={"elimination_limit": "30"}
    )
    open_entry(page)
    jhyap_entry(page, "Asha", [0, 10, 5])
    wait_preview(page)
    confirm(page)
    open_entry(page)
    jhyap_entry(page, "Asha", [0, 25, 5])  # Bikash at 35 is out
    wait_preview(page)
    confirm(page)
    open_entry(page)
    jhyap_entry(page, "Asha", [0, 30])  # Chandra at 40 is out: Asha wins
    wait_preview(page)
    confirm(page)
    expect(page.get_by_test_id("play-again")).to_be_visible()
    phone.close()

    phone, page = cold_offline(browser, profile, server, console)
    page.goto(f"{server.url}/#/game/{first_id}")
    page.get_by_test_id("play-again").click()
    expect(page.locator(".round-number")).to_have_text("Round 1")
    rematch_id = page.url.split("#/game/")[1].split("/")[0]
    assert CHOSEN_ID.match(rematch_id) and rematch_id != first_id
    dealer, starter = role(page, "deal"), role(page, "start")
    assert dealer == "Bikash"  # the seat after the first game's first dealer, as the service deals
    check_accessibility(page, "a rematch made offline")
    seats = ["Asha", "Bikash", "Chandra"]
    offline_round(page, starter, [0 if name == starter else 4 for name in seats])
    offline_round(page, "Chandra", [0 if name == "Chandra" else 3 for name in seats])
    on_phone = scores(page)

    back_online(phone, page, server)
    expect(page.get_by_test_id("differs")).to_have_count(0)
    rematch = service_game(server, rematch_id)
    assert rematch["table"] == table_id
    ids = {p["name"]: p["id"] for p in rematch["players"]}
    assert list(ids) == ["Asha", "Bikash", "Chandra"]
    rounds = server.rounds(rematch_id)
    assert [r["number"] for r in rounds] == [1, 2]
    assert rounds[0]["dealer"] == ids[dealer]
    assert rounds[0]["starter"] == ids[starter]  # the starter the phone showed
    assert [r["caller"] for r in rounds] == [ids[starter], ids["Chandra"]]
    assert scores(page) == on_phone
    assert stored(page, "games", rematch_id)["token"]
    table = requests.get(f"{server.url}/api/v1/tables/{table_id}", timeout=5).json()
    assert [g["id"] for g in table["games"]] == [rematch_id, first_id]
    phone.close()
    assert console.unexpected() == []


def test_a_new_table_and_a_game_at_it_made_offline_are_created_in_order(
    browser, server, console, tmp_path
):
    console.allow(OFFLINE)
    console.allow(NOT_YET)
    profile = tmp_path / "profile"
    phone, page = first_visit(browser, profile, server, console)
    phone.close()

    phone, page = cold_offline(browser, profile, server, console)
    table_id = create_table(page, "Saturday crew", ["Asha", "Bikash", "Chandra"])
    assert CHOSEN_ID.match(table_id)
    expect(page.get_by_test_id("table-kept")).to_be_visible()
    expect(page.locator("main h1")).to_have_text("Saturday crew")
    expect(page.get_by_test_id("pending")).to_contain_text(
        "Saturday crew was made on this phone: it is created on the scorekeeper when the"
    )
    check_accessibility(page, "a table made offline")
    game_id = table_game(page, "jhyap", ["Chandra", "Asha", "Bikash"])
    assert CHOSEN_ID.match(game_id)
    offline_round(page, "Asha", [4, 2, 30])
    offline_round(page, "Bikash", [9, 8, 1])
    on_phone = scores(page)
    page.goto(f"{server.url}/#/tables/{table_id}")
    expect(page.get_by_test_id("table-game")).to_have_attribute("href", f"#/game/{game_id}")
    screenshot(page, "made-offline-table")

    server.start()
    phone.set_offline(False)
    expect(page.get_by_test_id("table-kept")).to_have_count(0, timeout=20_000)
    expect(page.get_by_test_id("pending")).to_have_count(0, timeout=20_000)
    expect(page.get_by_test_id("differs")).to_have_count(0)
    table = requests.get(f"{server.url}/api/v1/tables/{table_id}", timeout=5).json()
    assert [p["name"] for p in table["players"]] == ["Asha", "Bikash", "Chandra"]
    assert [g["id"] for g in table["games"]] == [game_id]
    game = service_game(server, game_id)
    assert game["table"] == table_id
    roster = {p["name"]: p["id"] for p in table["players"]}
    assert [p["roster_id"] for p in game["players"]] == [
        roster["Chandra"],
        roster["Asha"],
        roster["Bikash"],
    ]
    assert calls(server, game_id) == [(1, "Asha"), (2, "Bikash")]
    assert stored(page, "tables", table_id)["token"]
    expect(page.get_by_test_id("table-new-game")).to_be_visible()
    page.get_by_test_id("table-game").click()
    expect(page.get_by_test_id("provisional")).to_have_count(0)
    assert scores(page) == on_phone
    phone.close()
    assert console.unexpected() == []


def test_a_game_whose_chosen_id_is_taken_says_so_in_the_pages_language(page, server, console):
    """Practically never: another game has the id this phone chose. The banner says the game
    could not be created, with the service's reason, in Nepali; Discard drops it from the phone."""
    console.allow(OFFLINE)
    console.allow(NOT_YET)
    console.allow(r"status of 409")
    page.wait_for_function(CONTROLLED)
    page.select_option("#lang-select", "ne")
    expect(page.locator("html")).to_have_attribute("lang", "ne")

    page.context.set_offline(True)
    page.goto(server.url + "/#/")
    page.get_by_test_id("new-game").click()
    for seat, player in enumerate(["Asha", "Bikash"]):
        page.fill(f"#player-{seat}", player)
    game_id = start_game(page, None)
    expect(page.get_by_test_id("pending")).to_contain_text("अफलाइन — यो फोनमा बनाइएको")
    offline_round(page, "Asha", [0, 5])
    taken = requests.post(
        f"{server.url}/api/v1/games",
        json={"id": game_id, "ruleset": "jhyap", "players": ["Dev", "Esha"]},
        timeout=5,
    )
    assert taken.status_code == 201, taken.text

    page.context.set_offline(False)
    failed = page.get_by_test_id("pending-failed")
    expect(failed).to_contain_text("स्कोरकिपरमा Asha, Bikash बनाउन सकिएन।", timeout=20_000)
    expect(failed).to_contain_text("कुनै खेल वा टेबलको आईडी पहिल्यै")  # the service's reason
    check_accessibility(page, "a game whose id was taken, in Nepali")
    assert server.rounds(game_id) == []  # its round was not sent to the other game
    assert list(scores(page)) == ["Asha", "Bikash"]  # the other game is not taken for it
    page.get_by_test_id("discard-refused").click()
    expect(page.get_by_test_id("new-game")).to_be_visible()  # home
    expect(page.locator(f'a[href="#/game/{game_id}"]')).to_have_count(0)
    expect(page.get_by_test_id("pending-failed")).to_have_count(0)
    assert service_game(server, game_id)["players"][0]["name"] == "Dev"  # theirs, untouched
    assert console.unexpected() == []


def test_a_game_without_a_table_moves_to_a_table_made_offline(browser, server, console, tmp_path):
    console.allow(OFFLINE)
    console.allow(NOT_YET)
    profile = tmp_path / "profile"
    phone, page = first_visit(browser, profile, server, console)
    game_id = create_game(
        page, "jhyap", ["Mia", "Noor", "Omar"], dealer=0, options={"elimination_limit": "30"}
    )
    open_entry(page)
    jhyap_entry(page, "Mia", [0, 31, 40])
    wait_preview(page)
    confirm(page)
    expect(page.get_by_test_id("winner")).to_contain_text("Mia wins!")
    phone.close()

    phone, page = cold_offline(browser, profile, server, console)
    page.goto(f"{server.url}/#/game/{game_id}")
    page.fill("#again-table-name", "Sunday crew")
    page.get_by_test_id("start-table").click()
    expect(page.get_by_test_id("next-round")).to_contain_text("Noor deals.")
    new_id = page.url.split("#/game/")[1].split("/")[0]
    assert CHOSEN_ID.match(new_id) and new_id != game_id
    starter = role(page, "start")
    offline_round(page, starter, [0 if name == starter else 2 for name in ["Mia", "Noor", "Omar"]])
    on_phone = scores(page)
    page.get_by_test_id("game-table").click()
    expect(page.locator("main h1")).to_have_text("Sunday crew")
    table_id = page.url.split("#/tables/")[1].split("/")[0]
    expect(page.get_by_test_id("table-game")).to_have_attribute("href", f"#/game/{new_id}")

    back_online(phone, page, server)
    expect(page.get_by_test_id("table-kept")).to_have_count(0, timeout=20_000)
    table = requests.get(f"{server.url}/api/v1/tables/{table_id}", timeout=5).json()
    assert [p["name"] for p in table["players"]] == ["Mia", "Noor", "Omar"]
    assert [g["id"] for g in table["games"]] == [new_id]
    game = service_game(server, new_id)
    assert [p["name"] for p in game["players"]] == ["Mia", "Noor", "Omar"]
    assert game["options"]["elimination_limit"] == 30
    rounds = server.rounds(new_id)
    assert [(r["number"], r["starter"]) for r in rounds] == [
        (1, next(p["id"] for p in game["players"] if p["name"] == starter))
    ]
    page.get_by_test_id("table-game").click()
    expect(page.get_by_test_id("provisional")).to_have_count(0)
    assert scores(page) == on_phone
    phone.close()
    assert console.unexpected() == []
