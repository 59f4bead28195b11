"""The keyboard's Escape: it closes what is open, and never loses an entry or changes a game."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from .helpers import (
    confirm,
    create_game,
    expect,
    jhyap_entry,
    open_entry,
    other_phone_records,
    player_ids,
    tab,
    totals,
    trick_entry,
    wait_preview,
)

pytestmark = pytest.mark.server


def watch_escape(page):
    """Note, for each Escape, whether the page took it (a listener on window runs last)."""
    page.evaluate(
        """() => window.addEventListener('keydown', (event) => {
            if (event.key === 'Escape') window.escapeHandled = event.defaultPrevented;
        })"""
    )


def escape_handled(page):
    return page.evaluate("() => window.escapeHandled")


def test_escape_closes_the_round_entry_and_keeps_the_draft(page, server):
    create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    open_entry(page)
    page.get_by_test_id("caller").filter(has_text="Bikash").click()
    page.get_by_test_id("pad-12").click()
    page.keyboard.press("Escape")
    expect(page.locator("#page-title")).not_to_have_text("Record round 1")
    expect(page.get_by_test_id("record-round")).to_be_visible()
    assert not page.url.endswith("/round")

    open_entry(page)  # what was tapped is still there
    expect(page.get_by_test_id("caller").filter(has_text="Bikash")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.get_by_test_id("hand-slot").first).to_contain_text("12")
    page.get_by_test_id("pad-1").click()  # Bikash's turn on the pad, as before
    page.get_by_test_id("pad-7").click()
    assert "Bikash called Jhyap and won the call." in wait_preview(page)
    confirm(page)


def test_escape_cancels_an_undo_and_a_removal_but_does_nothing_else(page, server):
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    open_entry(page)
    jhyap_entry(page, "Bikash", [12, 1, 7])
    wait_preview(page)
    confirm(page)

    tab(page, "History")
    watch_escape(page)
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("undo-confirm")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("undo-confirm")).to_have_count(0)
    expect(page.get_by_test_id("undo")).to_be_focused()
    page.keyboard.press("Escape")  # nothing more to close: the round stays
    expect(page.locator("li.round")).to_have_count(1)
    assert len(server.rounds(game_id)) == 1
    # The key was handled by the time press() returns: had it been taken for something (the
    # page left, the prompt opened again), it would show right here.
    assert escape_handled(page) is False
    assert page.evaluate("() => location.hash") == f"#/game/{game_id}/history"
    expect(page.get_by_test_id("undo")).to_be_focused()
    expect(page.get_by_test_id("undo-confirm")).to_have_count(0)

    # A correction with nothing changed closes; one with a change stays open.
    page.get_by_test_id("edit-1").click()
    wait_preview(page)
    page.keyboard.press("Escape")
    expect(page.locator("li.round")).to_have_count(1)
    page.get_by_test_id("edit-1").click()
    wait_preview(page)
    page.get_by_test_id("hand-slot").first.click()
    page.get_by_test_id("pad-5").click()
    page.keyboard.press("Escape")
    expect(page.locator("#page-title")).to_have_text("Correct round 1")
    expect(page.get_by_test_id("hand-slot").first).to_contain_text("5")
    page.get_by_test_id("cancel-entry").click()

    page.locator("#home-link").click()
    page.locator("li.game-item").get_by_role("button", name="Remove").click()
    expect(page.get_by_role("button", name="Tap again to remove")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Tap again to remove")).to_have_count(0)
    expect(page.locator("li.game-item").get_by_role("button", name="Remove")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("a.game-link")).to_have_count(1)


def test_escape_in_a_correction_with_an_emptied_hand_keeps_it_open(page, server, console):
    """A correction whose hand had one card, now removed: Escape leaves nothing and throws
    nothing (the entry is incomplete, so it counts as changed)."""
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    ids = player_ids(page, game_id)
    body = totals(ids, 0, 2, 20, 30)
    body["hands"][1] = {"player": ids[1], "cards": ["KH"]}
    assert other_phone_records(page, game_id, body) == 201
    page.reload()
    page.wait_for_selector("body.ready")
    tab(page, "History")
    page.get_by_test_id("edit-1").click()
    wait_preview(page)
    page.get_by_test_id("hand-slot").filter(has_text="Bikash").click()
    page.get_by_test_id("mode-cards").click()
    page.get_by_role("button", name="Remove last card").click()
    expect(page.get_by_test_id("hand-slot").nth(1)).to_contain_text("not entered")

    watch_escape(page)
    page.keyboard.press("Escape")
    assert escape_handled(page) is True  # taken, and ignored: nothing leaves or is discarded
    expect(page.locator("#page-title")).to_have_text("Correct round 1")
    expect(page.get_by_test_id("hand-slot").nth(1)).to_contain_text("not entered")
    expect(page.get_by_test_id("confirm")).to_be_disabled()
    assert server.rounds(game_id)[0]["results"][1]["cards"] == ["KH"]
    assert console.unexpected() == []


def test_escape_stops_changing_a_card_then_closes_the_entry(page, server):
    create_game(page, "twenty-two", ["Dina", "Eli", "Faye"], dealer=0)
    open_entry(page)
    trick_entry(page, [("Eli", "9C"), ("Faye", "KD"), ("Dina", "4H")])
    wait_preview(page)
    plays = page.get_by_test_id("trick-play")
    plays.nth(1).click()
    page.get_by_test_id("rank-Q").click()
    page.keyboard.press("Escape")  # first the card picker
    expect(page.locator("#pad")).to_have_count(0)
    expect(plays.nth(1)).to_have_attribute("aria-pressed", "false")
    expect(plays.nth(1)).to_be_focused()
    expect(plays.nth(1)).to_contain_text("K♦")
    page.keyboard.press("Escape")  # then the entry, back to the table
    expect(page.get_by_test_id("record-round")).to_be_visible()
    open_entry(page)
    expect(plays).to_have_count(3)
    wait_preview(page)
    confirm(page)
