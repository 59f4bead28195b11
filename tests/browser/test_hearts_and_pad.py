"""Hearts and the score pad on the phone page: hearts and the queen, a plain pad, an end by hand."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from .conftest import check_accessibility, screenshot
from .helpers import (
    confirm,
    create_game,
    expect,
    next_round_is,
    open_entry,
    scores,
    tab,
    wait_preview,
)

pytestmark = pytest.mark.server


def hearts_hand(page, hearts: dict[str, int], queen: str) -> None:
    """Tap each player's slot and their hearts, then who took the queen of spades."""
    for name, count in hearts.items():
        page.get_by_test_id("hand-slot").filter(has_text=name).click()
        page.get_by_test_id(f"pad-{count}").click()
    page.get_by_test_id("queen").filter(has_text=queen).click()


def test_a_game_of_hearts_to_its_limit(page, server):
    create_game(page, "hearts", ["Asha", "Bikash", "Chandra", "Dipa"], options={"limit": "50"})
    next_round_is(page, 1)
    expect(page.get_by_test_id("pass")).to_have_text("Pass three cards to the left.")
    expect(page.get_by_test_id("next-round")).to_contain_text("Asha deals.")
    expect(page.locator(".limit")).to_have_text("The game ends at 50.")

    open_entry(page)
    check_accessibility(page, "hearts entry")
    hearts_hand(page, {"Asha": 0, "Bikash": 5, "Chandra": 8}, "Asha")
    expect(page.get_by_test_id("hearts-count")).to_have_text("All 13 hearts placed.")
    # The hearts still to place cap the pad: Dipa can have none left.
    page.get_by_test_id("hand-slot").filter(has_text="Dipa").click()
    expect(page.get_by_test_id("pad-1")).to_be_disabled()
    page.get_by_test_id("pad-0").click()
    preview = wait_preview(page)
    assert "Cards passed to the left." in preview
    screenshot(page, "hearts-entry")
    check_accessibility(page, "hearts entry with preview")
    confirm(page)
    next_round_is(page, 2)
    assert scores(page) == {"Asha": "13", "Bikash": "5", "Chandra": "8", "Dipa": "0"}
    expect(page.get_by_test_id("pass")).to_have_text("Pass three cards to the right.")

    # Dipa takes every heart and the queen: the moon, and everyone else scores 26.
    open_entry(page)
    hearts_hand(page, {"Asha": 0, "Bikash": 0, "Chandra": 0, "Dipa": 13}, "Dipa")
    assert "Dipa shot the moon." in wait_preview(page)
    confirm(page)
    next_round_is(page, 3)
    assert scores(page) == {"Asha": "39", "Bikash": "31", "Chandra": "34", "Dipa": "0"}

    open_entry(page)
    hearts_hand(page, {"Asha": 0, "Bikash": 3, "Chandra": 0, "Dipa": 10}, "Dipa")
    confirm(page)
    open_entry(page)
    hearts_hand(page, {"Asha": 0, "Bikash": 0, "Chandra": 0, "Dipa": 13}, "Asha")
    assert "Shared win: Bikash, Chandra!" in wait_preview(page)
    confirm(page)
    expect(page.get_by_test_id("winner")).to_contain_text("Shared win: Bikash, Chandra!")
    tab(page, "History")
    expect(page.locator("[data-testid=round-4] .results th").nth(1)).to_have_text("Taken")


def test_a_score_pad_with_negative_points_ended_by_the_table(page, server):
    create_game(page, "score-pad", ["Asha", "Bikash", "Chandra"])
    next_round_is(page, 1)
    expect(page.get_by_test_id("next-round")).to_contain_text("Bikash starts.")
    expect(page.get_by_test_id("end-game")).to_be_visible()

    open_entry(page)
    check_accessibility(page, "score pad entry")
    fields = page.get_by_test_id("points")
    fields.nth(0).fill("12")
    fields.nth(1).fill("5")
    page.get_by_test_id("sign").nth(1).click()
    fields = page.get_by_test_id("points")
    fields.nth(2).fill("0")
    preview = wait_preview(page)
    assert "\u22125" in preview  # a minus sign, as the results table writes it
    screenshot(page, "score-pad-entry")
    confirm(page)
    next_round_is(page, 2)
    assert scores(page) == {"Asha": "12", "Bikash": "-5", "Chandra": "0"}

    page.get_by_test_id("end-game").click()
    page.get_by_test_id("end-confirm").click()
    expect(page.get_by_test_id("winner")).to_contain_text("Asha wins!")
    check_accessibility(page, "score pad ended")
    tab(page, "History")
    expect(page.get_by_test_id("round-2")).to_contain_text("The table ended the game: Asha wins.")
    # The score sheet writes the minus sign too, and keys no mark a score pad does not have.
    page.get_by_test_id("history-sheet").click()
    first = page.get_by_test_id("sheet-round").first
    expect(first).to_be_visible()
    assert " ".join(first.inner_text().split()) == "1 +12 12 \u22125 -5 +0 0"
    expect(page.get_by_test_id("sheet-line")).to_have_text("The table ended the game: Asha wins.")
    expect(page.locator(".sheet-key")).to_have_text(
        "Each round: the points, and below them the total after the round."
    )
    page.get_by_test_id("history-cards").click()
    page.get_by_test_id("undo").click()
    page.get_by_test_id("undo-confirm").click()
    tab(page, "Table")
    next_round_is(page, 2)
