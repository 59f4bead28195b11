"""Undo and corrections from the History tab while other phones (or the network) get in the way."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from .helpers import (
    POLLED,
    create_game,
    expect,
    other_phone_corrects,
    other_phone_records,
    player_ids,
    tab,
    totals,
    wait_preview,
)

pytestmark = pytest.mark.server
NAMES = ["Asha", "Bikash", "Chandra"]
OFFLINE = r"Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|FAILED)"
HISTORY_READS = ("**/api/v1/games/*/rounds*", "**/api/v1/games/*/export")


def game_with_rounds(page, rounds, **options):
    """A Jhyap game with ``rounds`` (caller seat, totals...) recorded by another phone, opened
    on this phone's History tab."""
    game_id = create_game(page, "jhyap", NAMES, dealer=0, starter=1, options=options or None)
    ids = player_ids(page, game_id)
    for caller, *values in rounds:
        assert other_phone_records(page, game_id, totals(ids, caller, *values)) == 201
    page.reload()
    page.wait_for_selector("body.ready")
    tab(page, "History")
    expect(page.locator("li.round")).to_have_count(len(rounds))
    return game_id, ids


def test_undo_prompt_is_cancelled_when_another_phone_records(page, server):
    game_id, ids = game_with_rounds(page, [(0, 1, 10, 12)])
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("undo-confirm")).to_have_text("Yes, undo round 1")

    # Another phone records round 2 while the prompt is up; the page hears of it (the stream, or
    # where there is none the next poll, 10 s ± 20 %).
    body = {"number": 2, **totals(ids, 1, 5, 2, 9)}
    assert other_phone_records(page, game_id, body) == 201
    note = page.get_by_test_id("undo-note")
    expect(note).to_have_text("Round 2 was recorded meanwhile; undo cancelled.", timeout=POLLED)
    expect(note).to_be_in_viewport()
    expect(page.get_by_test_id("undo-confirm")).to_have_count(0)  # not "Yes, undo round 2"
    expect(page.get_by_test_id("undo")).to_have_text("Undo round 2")
    assert [r["number"] for r in server.rounds(game_id)] == [1, 2]


def test_undo_prompt_is_cancelled_when_another_phone_corrects_the_round(page, server):
    game_id, ids = game_with_rounds(page, [(0, 1, 10, 12)])
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("undo-confirm")).to_have_text("Yes, undo round 1")

    # Another phone corrects round 1 (same number, same created_at) while the prompt is up.
    assert other_phone_corrects(page, game_id, 1, totals(ids, 0, 1, 10, 40)) == 200
    note = page.get_by_test_id("undo-note")
    expect(note).to_have_text(
        "Round 1 changed meanwhile (perhaps on another phone); undo cancelled.", timeout=POLLED
    )
    expect(page.get_by_test_id("undo-confirm")).to_have_count(0)
    expect(page.get_by_test_id("undo")).to_have_text("Undo round 1")
    expect(page.get_by_test_id("round-1")).to_contain_text("40")
    rounds = server.rounds(game_id)
    assert len(rounds) == 1 and rounds[0]["results"][2]["hand"] == 40


def test_retry_after_a_half_finished_load_loads_the_rounds_and_polls(page, server, console):
    """The game came but its rounds did not: Retry loads them, and the page follows it again."""
    console.allow(OFFLINE)
    game_id, ids = game_with_rounds(page, [(0, 1, 10, 12)])

    def no_rounds(route):
        if route.request.method == "GET":
            route.abort()
        else:
            route.continue_()

    # The history, however the phone reads it: this phone may write, so it reads the export.
    for history in HISTORY_READS:
        page.route(history, no_rounds)
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.get_by_test_id("retry-route")).to_be_visible()
    for history in HISTORY_READS:
        page.unroute(history)
    page.get_by_test_id("retry-route").click()
    expect(page.get_by_test_id("round-1")).to_be_visible()
    expect(page.locator("#page-title")).to_be_focused()
    # The page follows the game: a round another phone records shows up without a tap.
    assert other_phone_records(page, game_id, {"number": 2, **totals(ids, 1, 5, 2, 9)}) == 201
    expect(page.get_by_test_id("round-2")).to_be_visible(timeout=POLLED)


def test_failed_undo_shows_one_error_by_the_button(page, server, console):
    console.allow(OFFLINE)
    game_id, _ = game_with_rounds(page, [(0, 1, 2, 3)] * 6)  # a long History page

    def no_delete(route):
        if route.request.method == "DELETE":
            route.abort()
        else:
            route.continue_()

    page.route("**/api/v1/games/*/rounds/*", no_delete)
    page.get_by_test_id("undo").click()
    confirm = page.get_by_test_id("undo-confirm")
    for _ in range(2):
        with page.expect_event("requestfailed"):
            confirm.click()
        expect(confirm).to_be_enabled()  # the answer was handled; the prompt stays to try again
        error = page.get_by_test_id("undo-error")
        expect(error).to_have_count(1)
        expect(error).to_contain_text("No connection")
        expect(error).to_be_in_viewport()
    assert len(server.rounds(game_id)) == 6

    page.unroute("**/api/v1/games/*/rounds/*")
    confirm.click()
    expect(page.locator("li.round")).to_have_count(5)
    expect(page.get_by_test_id("undo-error")).to_have_count(0)
    assert len(server.rounds(game_id)) == 5


def test_correction_that_clashes_with_a_later_round_says_which(page, server, console):
    console.allow(r"status of 409")  # the browser logs the refused dry run itself
    # Chandra ends round 1 on exactly 30 (the limit) and calls in round 2.
    game_with_rounds(page, [(0, 2, 20, 30), (2, 1, 2, 0)], elimination_limit="30")
    page.get_by_test_id("edit-1").click()
    wait_preview(page)
    page.get_by_test_id("hand-slot").filter(has_text="Chandra").click()
    page.get_by_test_id("pad-31").click()  # out in round 1, so round 2 no longer fits
    error = page.get_by_test_id("preview-error")
    expect(error.locator("p").first).to_have_text(
        "Round 2 no longer fits after this correction: "
        "Chandra was eliminated in round 1 and takes no part."
    )
    expect(error).not_to_contain_text("changed in the meantime")
    expect(page.get_by_test_id("confirm")).to_be_disabled()


def test_correction_offline_is_scored_on_the_phone_and_sent_later(page, server, console):
    console.allow(OFFLINE)
    game_id, _ = game_with_rounds(page, [(0, 2, 20, 30)])
    page.get_by_test_id("edit-1").click()
    wait_preview(page)

    page.context.set_offline(True)
    page.get_by_test_id("hand-slot").filter(has_text="Bikash").click()
    page.get_by_test_id("pad-18").click()
    # No dry run from the service: the rules on the phone score it, and it can be saved.
    expect(page.get_by_test_id("offline-note")).to_be_visible()
    expect(page.locator("#preview .notice").last).to_contain_text("Bikash: 20 → 18")
    save = page.get_by_test_id("confirm")
    expect(save).to_be_enabled()
    save.click()
    expect(page.get_by_test_id("round-1")).to_contain_text("18")
    assert server.rounds(game_id)[0]["results"][1]["hand"] == 20  # kept on the phone

    page.context.set_offline(False)  # the browser says "online": the outbox sends it
    page.wait_for_function(
        "id => !JSON.parse(localStorage.getItem('scorekeeper.outbox.v2') || '{}')[id]",
        arg=game_id,
    )
    assert server.rounds(game_id)[0]["results"][1]["hand"] == 18


def test_edit_opens_offline_from_what_the_phone_has(page, server, console):
    """The rounds' entries come with the game: a correction opens offline, scored on the phone."""
    console.allow(OFFLINE)
    game_with_rounds(page, [(0, 2, 20, 30)])
    page.context.set_offline(True)
    page.get_by_test_id("edit-1").click()
    expect(page.locator("h1")).to_have_text("Correct round 1")
    expect(page.get_by_test_id("offline-note")).to_be_visible()
    wait_preview(page)
    expect(page.get_by_test_id("confirm")).to_be_enabled()
    page.get_by_test_id("cancel-entry").click()
    expect(page.get_by_test_id("round-1")).to_be_visible()  # History, from what the phone has
