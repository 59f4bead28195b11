"""Scoring with no network: rounds, a correction, an undo and a seat change entered offline show
at once as a provisional game, and once sent the service's game is exactly the one shown."""

from __future__ import annotations

import json
import urllib.request
from datetime import UTC, datetime, timedelta

import pytest

pytest.importorskip("playwright.sync_api")

from .conftest import check_accessibility
from .helpers import (
    create_game,
    expect,
    next_round_is,
    offline_round,
    open_entry,
    player_row,
    scores,
    tab,
    trick_entry,
    wait_preview,
)

pytestmark = pytest.mark.server
OFFLINE = (
    r"Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|FAILED|CONNECTION_REFUSED"
    r"|CONNECTION_RESET|EMPTY_RESPONSE)"
)
ROUNDS = [
    ("Asha", [2, 20, 30]),
    ("Bikash", [11, 3, 9]),
    ("Chandra", [7, 8, 1]),
    ("Asha", [0, 14, 6]),
    ("Bikash", [5, 0, 22]),
]


def served_game(server, game_id):
    """The Game as the service answers it."""
    with urllib.request.urlopen(f"{server.url}/api/v1/games/{game_id}") as answer:
        return json.load(answer)


def shown(page):
    """What the table shows: scores, the next round's number, dealer and starter badges."""
    return {
        "scores": scores(page),
        "round": page.locator(".round-number").inner_text(),
        "deals": page.locator("[data-testid=player]:has(.badge.deal)").get_attribute("data-player"),
        "starts": page.locator("[data-testid=player]:has(.badge.start)").get_attribute(
            "data-player"
        ),
    }


def test_five_rounds_and_a_correction_offline_then_synced(page, server, console):
    console.allow(OFFLINE)
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    page.context.set_offline(True)
    for caller, hands in ROUNDS:
        offline_round(page, caller, hands)
    expect(page.get_by_test_id("provisional")).to_contain_text("5 not yet sent")
    next_round_is(page, 6)

    tab(page, "History")
    page.get_by_test_id("edit-2").click()
    expect(page.get_by_test_id("offline-note")).to_be_visible()
    page.get_by_test_id("hand-slot").filter(has_text="Chandra").click()
    page.get_by_test_id("pad-12").click()
    expect(page.locator("#preview .notice").last).to_contain_text("Chandra")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("round-2")).to_contain_text("12")
    tab(page, "Table")
    expect(page.get_by_test_id("provisional")).to_contain_text("6 not yet sent")
    before = shown(page)
    check_accessibility(page, "provisional table")
    assert server.rounds(game_id) == []  # nothing reached the service yet

    page.context.set_offline(False)
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=30_000)
    assert shown(page) == before
    game = served_game(server, game_id)
    assert {p["name"]: str(p["score"]) for p in game["players"]} == before["scores"]
    assert f"Round {game['next_round']['number']}" == before["round"]
    names = {p["id"]: p["name"] for p in game["players"]}
    assert names[game["next_round"]["dealer"]] == before["deals"]
    assert names[game["next_round"]["starter"]] == before["starts"]
    rounds = server.rounds(game_id)
    assert [r["number"] for r in rounds] == [1, 2, 3, 4, 5]  # each once
    assert rounds[1]["results"][2]["hand"] == 12  # the correction


def test_reload_and_server_restart_mid_queue_record_nothing_twice(page, server, console):
    console.allow(OFFLINE)
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    page.context.set_offline(True)
    for caller, hands in ROUNDS[:3]:
        offline_round(page, caller, hands)
    before = shown(page)
    server.stop()  # back online, but the service is down: the queue waits and retries
    page.context.set_offline(False)
    expect(page.get_by_test_id("pending")).to_contain_text("kept on this phone")
    expect(page.get_by_test_id("provisional")).to_contain_text("3 not yet sent")
    assert shown(page) == before
    page.goto("about:blank")  # the tab is closed; the service restarts; the page opens again
    server.start()
    page.goto(server.url + "/#/game/" + game_id)
    page.wait_for_selector("body.ready")
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=30_000)
    assert shown(page) == before
    assert [r["number"] for r in server.rounds(game_id)] == [1, 2, 3]


def test_undo_and_seat_change_offline(page, server, console):
    console.allow(OFFLINE)
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    page.context.set_offline(True)
    offline_round(page, *ROUNDS[0])
    offline_round(page, *ROUNDS[1])
    tab(page, "History")
    page.get_by_test_id("undo").click()
    page.get_by_test_id("undo-confirm").click()
    expect(page.get_by_test_id("round-2")).to_have_count(0)
    tab(page, "Table")
    page.get_by_test_id("someone-joins").click()
    page.fill("#join-name", "Dev")
    # The newcomer's seat and score before confirming, from the rules on the phone.
    expect(page.locator("#join-preview")).to_contain_text("Dev will join with")
    page.get_by_test_id("seat-submit").click()
    expect(page.get_by_test_id("provisional")).to_be_visible()
    expect(page.locator("[data-testid=player][data-player=Dev]")).to_be_visible()
    before = shown(page)
    page.context.set_offline(False)
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=30_000)
    assert shown(page) == before
    history = server.rounds(game_id)
    assert [r["number"] for r in history] == [1, 2]
    assert history[1]["seat_change"]["join"]["name"] == "Dev"


def test_twenty_two_offline_deals_and_piles(page, server, console):
    """Twenty Two offline: the next deal, the dealer and the score piles come from the rules on
    the phone, and are what the service has once the rounds are sent."""
    console.allow(OFFLINE)
    game_id = create_game(page, "twenty-two", ["Dina", "Eli", "Faye"], dealer=0)
    page.context.set_offline(True)
    open_entry(page)
    trick_entry(page, [("Eli", "9C"), ("Faye", "KD"), ("Dina", "4H")])
    preview = wait_preview(page)
    assert "Next: Faye deals 10 cards each." in preview
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("provisional")).to_be_visible()
    expect(page.get_by_test_id("cards-each")).to_have_text("Deal 10 cards each.")
    expect(player_row(page, "Faye").locator(".pile")).to_contain_text("K♦")
    before = shown(page)
    page.context.set_offline(False)
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=30_000)
    assert shown(page) == before
    expect(page.get_by_test_id("cards-each")).to_have_text("Deal 10 cards each.")
    assert served_game(server, game_id)["next_round"]["cards_each"] == 10


def test_rounds_entered_offline_are_shown_as_played_once_sent(page, server, console):
    console.allow(OFFLINE)
    console.allow(r"status of 422")  # the seat change's time, from a clock an hour fast
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    page.context.set_offline(True)
    entered = datetime.now(UTC).replace(microsecond=0)
    offline_round(page, *ROUNDS[0])
    page.wait_for_timeout(6_000)  # longer than a change sent at once takes
    page.context.set_offline(False)
    back = datetime.now(UTC)
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=30_000)
    played = datetime.fromisoformat(server.rounds(game_id)[0]["created_at"])
    assert entered <= played <= back - timedelta(seconds=4), (entered, played, back)

    # A phone whose clock is an hour fast: the service refuses that time, and the seat change
    # is sent again without it, stamped when it arrives.
    refused = []
    page.on("response", lambda answer: answer.status == 422 and refused.append(answer.url))
    page.clock.install(time=datetime.now(UTC) + timedelta(hours=1))
    page.context.set_offline(True)
    page.get_by_test_id("someone-joins").click()
    page.fill("#join-name", "Dev")
    page.get_by_test_id("seat-submit").click()
    expect(page.get_by_test_id("provisional")).to_be_visible()
    page.wait_for_timeout(6_000)
    page.context.set_offline(False)
    sent = datetime.now(UTC).replace(microsecond=0)
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=30_000)
    history = server.rounds(game_id)
    assert [item["number"] for item in history] == [1, 2]
    assert history[1]["seat_change"]["join"]["name"] == "Dev"
    assert datetime.fromisoformat(history[1]["created_at"]) >= sent
    assert refused == [f"{server.url}/api/v1/games/{game_id}/seats"]


def test_the_banner_says_offline_while_offline_and_sending_only_while_it_sends(
    page, server, console
):
    """Offline, the banner says how many rounds the phone keeps, never "Sending"; back online, it
    says "Sending" while the round is on its way, and goes once the service has them all."""
    console.allow(OFFLINE)
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    page.context.set_offline(True)
    banner = page.get_by_test_id("pending")
    for count, (caller, hands) in enumerate(ROUNDS[:3], start=1):
        offline_round(page, caller, hands)
        kept = "1 round" if count == 1 else f"{count} rounds"
        expect(banner).to_contain_text(f"Offline — {kept} kept on this phone")
    expect(banner).not_to_contain_text("Sending")
    page.wait_for_timeout(1500)  # however long the phone stays offline, nothing "is sending"
    expect(banner).not_to_contain_text("Sending")
    check_accessibility(page, "offline banner")

    held = []
    rounds_url = "**/api/v1/games/*/rounds"
    page.route(rounds_url, lambda route: held.append(route))
    page.context.set_offline(False)
    expect(banner).to_contain_text("Sending round 1")
    while not held:  # the POST the page is sending, held until the test lets it go
        page.wait_for_timeout(50)
    expect(banner).to_contain_text("Sending round 1")  # still, while it is on its way
    held[0].continue_()
    page.unroute(rounds_url)
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=20_000)
    expect(banner).to_have_count(0)
    assert [r["number"] for r in server.rounds(game_id)] == [1, 2, 3]
