"""A Twenty Two game on the phone page: final tricks in the order played, to the winner."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api")

from .conftest import check_accessibility, screenshot
from .helpers import (
    confirm,
    create_game,
    expect,
    next_round_is,
    open_entry,
    player_row,
    scores,
    tab,
    trick_entry,
    wait_preview,
)

pytestmark = pytest.mark.server


def play(page, plays, expected_in_preview=()):
    open_entry(page)
    trick_entry(page, plays)
    preview = wait_preview(page)
    for text in expected_in_preview:
        assert text in preview, preview
    confirm(page)


def test_twenty_two_game_to_the_end(page, server):
    create_game(page, "twenty-two", ["Dina", "Eli", "Faye"], dealer=0)
    next_round_is(page, 1)
    expect(page.get_by_test_id("cards-each")).to_have_text("Deal 7 cards each.")
    expect(page.get_by_test_id("next-round")).to_contain_text("Dina deals.")
    expect(page.get_by_test_id("next-round")).to_contain_text("Eli leads the first trick.")

    # Round 1: Faye's king takes the final trick; the next deal is a king's value.
    open_entry(page)
    check_accessibility(page, "twenty two entry")
    trick_entry(page, [("Eli", "9C"), ("Faye", "KD"), ("Dina", "4H")])
    expect(page.get_by_test_id("trick").locator("li")).to_have_count(3)
    preview = wait_preview(page)
    assert "Faye took the final trick" in preview
    assert "Next: Faye deals 10 cards each." in preview
    screenshot(page, "twenty-two-round-entry")
    check_accessibility(page, "twenty two entry with preview")
    confirm(page)
    next_round_is(page, 2)
    expect(page.get_by_test_id("cards-each")).to_have_text("Deal 10 cards each.")
    assert scores(page) == {"Dina": "0", "Eli": "0", "Faye": "10"}
    expect(player_row(page, "Faye").locator(".pile")).to_contain_text("K♦")
    expect(player_row(page, "Faye").locator(".distance")).to_have_text("12 to the limit")

    # A card already in a score pile cannot be picked again.
    open_entry(page)
    page.get_by_test_id("rank-K").click()
    expect(page.get_by_test_id("suit-D")).to_be_disabled()
    expect(page.get_by_test_id("suit-S")).to_be_enabled()
    page.get_by_test_id("cancel-entry").click()

    play(page, [("Dina", "5S"), ("Eli", "AH"), ("Faye", "3C")], ["Eli took the final trick"])
    expect(page.get_by_test_id("cards-each")).to_have_text("Deal 11 cards each.")
    play(page, [("Faye", "AS"), ("Dina", "2D"), ("Eli", "7H")])
    play(page, [("Dina", "KS"), ("Eli", "6C"), ("Faye", "8D")])
    assert scores(page) == {"Dina": "10", "Eli": "11", "Faye": "21"}
    # Round 5: Eli and Faye tie with queens; both score, Faye is out and still deals once.
    play(page, [("Eli", "QH"), ("Faye", "QC"), ("Dina", "3S")], ["Eli, Faye took the final trick"])
    next_round_is(page, 6)
    assert scores(page) == {"Dina": "10", "Eli": "21", "Faye": "31"}
    expect(player_row(page, "Faye")).to_have_class("player out")
    expect(page.get_by_test_id("next-round")).to_contain_text("Faye deals.")
    play(page, [("Dina", "4C"), ("Eli", "JD")], ["Dina wins!"])
    expect(page.get_by_test_id("winner")).to_contain_text("Dina wins!")
    assert scores(page) == {"Dina": "10", "Eli": "31", "Faye": "31"}
    screenshot(page, "twenty-two-table-finished")
    check_accessibility(page, "twenty two table")

    tab(page, "Chart")
    expect(page.get_by_test_id("chart").locator("polyline.series")).to_have_count(3)
    screenshot(page, "twenty-two-chart")
    check_accessibility(page, "twenty two chart")

    # Undo round 6, then correct round 5 so that only Faye's queen scores.
    tab(page, "History")
    expect(page.locator("li.round")).to_have_count(6)
    page.get_by_test_id("undo").click()
    page.get_by_test_id("undo-confirm").click()
    expect(page.locator("li.round")).to_have_count(5)
    page.get_by_test_id("edit-5").click()
    expect(page.get_by_test_id("trick").locator("li")).to_have_count(3)
    wait_preview(page)
    # Take back the last two cards played and play them again with Eli's 9♥ instead of the queen.
    page.get_by_role("button", name="Remove the last card played").click()
    page.get_by_role("button", name="Remove the last card played").click()
    page.get_by_role("button", name="Remove the last card played").click()
    trick_entry(page, [("Eli", "9H"), ("Faye", "QC"), ("Dina", "3S")])
    expect(page.locator("#preview .notice")).to_contain_text("Eli: 21 → 11")
    page.get_by_test_id("confirm").click()
    expect(page.locator("li.round")).to_have_count(5)
    tab(page, "Table")
    assert scores(page) == {"Dina": "10", "Eli": "11", "Faye": "31"}
    next_round_is(page, 6)

    play(page, [("Dina", "4C"), ("Eli", "AD")], ["Dina wins!"])
    expect(page.get_by_test_id("winner")).to_contain_text("Dina wins!")
    assert scores(page) == {"Dina": "10", "Eli": "22", "Faye": "31"}
    assert len(server.rounds(page.url.split("#/game/")[1])) == 6

    page.select_option("#lang-select", "fil")
    expect(page.get_by_test_id("winner")).to_contain_text("Panalo si Dina!")
    tab(page, "Kasaysayan")
    expect(page.get_by_test_id("round-1")).to_contain_text("Kinuha ni Faye ang huling trick")
    page.select_option("#lang-select", "ne")
    expect(page.get_by_test_id("round-1")).to_contain_text("Fayeले अन्तिम हात लियो")
    check_accessibility(page, "twenty two history in Nepali")


def exported_trick(page, game_id, number):
    """The final trick of round ``number`` as the service keeps it, in the order played."""
    return page.evaluate(
        """async ([id, n]) => (await (await fetch('/api/v1/games/' + id + '/export')).json())
            .rounds.find(r => r.number === n).entry.last_trick.map(p => p.card)""",
        [game_id, number],
    )


def test_a_card_played_early_is_changed_in_place(page, server):
    game_id = create_game(page, "twenty-two", ["Dina", "Eli", "Faye"], dealer=0)
    open_entry(page)
    trick_entry(page, [("Eli", "9C"), ("Faye", "KD"), ("Dina", "4H")])
    assert "Faye took the final trick" in wait_preview(page)
    plays = page.get_by_test_id("trick-play")

    # Eli's card was the ace of spades, not the 9 of clubs: tap it, not "Remove" three times.
    plays.filter(has_text="Eli").click()
    expect(plays.first).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#pad legend")).to_have_text("Change Eli's card")
    expect(page.get_by_test_id("trick-player")).to_have_count(0)  # the player stays Eli
    screenshot(page, "twenty-two-change-a-card")
    page.get_by_test_id("rank-K").click()
    expect(page.get_by_test_id("suit-D")).to_be_disabled()  # Faye played it in this trick
    page.get_by_test_id("rank-4").click()
    expect(page.get_by_test_id("suit-H")).to_be_disabled()  # Dina's
    page.get_by_test_id("rank-9").click()
    expect(page.get_by_test_id("suit-C")).to_be_enabled()  # the card being changed is free
    page.get_by_test_id("rank-A").click()
    page.get_by_test_id("suit-S").click()
    expect(plays).to_have_text(
        [
            re.compile(r"^1\. Eli A♠"),
            re.compile(r"^2\. Faye K♦"),
            re.compile(r"^3\. Dina 4♥"),
        ]
    )
    expect(plays.first).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#pad")).to_have_count(0)  # the trick is complete again
    assert "Eli took the final trick" in wait_preview(page)
    check_accessibility(page, "twenty two entry after changing a card")
    confirm(page)
    assert exported_trick(page, game_id, 1) == ["AS", "KD", "4H"]
    expect(player_row(page, "Eli").locator(".pile")).to_contain_text("A♠")

    # Round 2: a kept card still cannot be picked; "Keep" leaves the card; removing still works.
    open_entry(page)
    trick_entry(page, [("Dina", "5S"), ("Eli", "7H"), ("Faye", "3C")])
    wait_preview(page)
    plays.filter(has_text="Dina").click()
    page.get_by_test_id("rank-A").click()
    expect(page.get_by_test_id("suit-S")).to_be_disabled()  # in Eli's score pile
    page.get_by_test_id("keep-card").click()
    expect(page.locator("#pad")).to_have_count(0)
    expect(plays.first).to_have_text(re.compile(r"^1\. Dina 5♠"))
    plays.filter(has_text="Eli").click()
    page.get_by_test_id("rank-Q").click()
    page.get_by_test_id("suit-H").click()
    page.get_by_role("button", name="Remove the last card played").click()
    expect(plays).to_have_text([re.compile(r"^1\. Dina 5♠"), re.compile(r"^2\. Eli Q♥")])
    trick_entry(page, [("Faye", "JC")])
    assert "Eli took the final trick" in wait_preview(page)
    confirm(page)
    assert exported_trick(page, game_id, 2) == ["5S", "QH", "JC"]


def test_a_tie_for_the_last_trick_is_said_once(page):
    """Eli and Faye both play a king to the last trick: the strip says the tie once, with the
    points they each take, not "took the last trick" twice."""
    create_game(page, "twenty-two", ["Dina", "Eli", "Faye"], dealer=0)
    play(page, [("Eli", "KH"), ("Faye", "KS"), ("Dina", "2C")])
    strip = page.get_by_test_id("strip-text")
    expect(strip).to_contain_text("A tie for the last trick: Eli, Faye, +10 each")
    expect(strip).not_to_contain_text("took the last trick")
    assert scores(page) == {"Dina": "0", "Eli": "10", "Faye": "10"}
    check_accessibility(page, "a tie for the last trick")
