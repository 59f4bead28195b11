"""A Jhyap game on the phone page, from round 1 to the winner, with undo and a correction."""

from __future__ import annotations

import math

import pytest
import requests

pytest.importorskip("playwright.sync_api")

from .conftest import check_accessibility, screenshot
from .helpers import (
    Taps,
    confirm,
    create_game,
    expect,
    jhyap_entry,
    next_round_is,
    open_entry,
    other_phone_records,
    player_ids,
    player_row,
    scores,
    tab,
    totals,
    wait_preview,
)

pytestmark = pytest.mark.server


def test_jhyap_game_to_the_end(page, server):
    check_accessibility(page, "home")
    create_game(
        page,
        "jhyap",
        ["Asha", "Bikash", "Chandra"],
        dealer=0,
        starter=1,
        options={"elimination_limit": "60", "halve_at": "40"},
        name="Friday table",
    )
    expect(page.locator("h1")).to_have_text("Friday table")
    next_round_is(page, 1)
    expect(page.get_by_test_id("next-round")).to_contain_text("Asha deals.")
    expect(page.get_by_test_id("next-round")).to_contain_text("Bikash starts.")
    expect(player_row(page, "Asha").locator(".distance")).to_have_text("60 to the limit")

    # Round 1: Asha calls with 2 and wins the call.
    open_entry(page)
    check_accessibility(page, "jhyap entry, empty")
    jhyap_entry(page, "Asha", [2, 20, 30])
    preview = wait_preview(page)
    assert "Asha called Jhyap and won the call." in preview
    screenshot(page, "jhyap-round-entry")
    check_accessibility(page, "jhyap entry with preview")
    confirm(page)
    next_round_is(page, 2)
    assert scores(page) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    expect(page.get_by_test_id("next-round")).to_contain_text("Bikash deals.")

    # Round 2: Bikash reaches exactly 40 and is halved to 20 - the preview says so first.
    open_entry(page)
    jhyap_entry(page, "Asha", [3, 20, 25])
    preview = wait_preview(page)
    assert "halved" in preview
    confirm(page)
    next_round_is(page, 3)
    assert scores(page) == {"Asha": "0", "Bikash": "20", "Chandra": "55"}

    # Round 3: Asha's hand tapped as cards (K♥ + joker = 10); Chandra goes over 60 and is out.
    open_entry(page)
    jhyap_entry(page, "Bikash", [["KH", "JK"], 1, 10])
    preview = wait_preview(page)
    assert "out" in preview
    confirm(page)
    next_round_is(page, 4)
    assert scores(page) == {"Asha": "10", "Bikash": "20", "Chandra": "65"}
    expect(player_row(page, "Chandra")).to_have_class("player out")
    expect(player_row(page, "Chandra").locator(".distance")).to_have_text("out in round 3")
    expect(player_row(page, "Asha").locator(".distance")).to_have_text("50 to the limit")

    # Round 4: only Asha and Bikash play; Bikash is beaten out and Asha wins.
    open_entry(page)
    expect(page.get_by_test_id("caller")).to_have_count(2)
    jhyap_entry(page, "Asha", [5, 50])
    preview = wait_preview(page)
    assert "Asha wins!" in preview
    confirm(page)
    expect(page.get_by_test_id("winner")).to_contain_text("Asha wins!")
    assert scores(page) == {"Asha": "10", "Bikash": "70", "Chandra": "65"}
    expect(page.get_by_test_id("record-round")).to_have_count(0)
    screenshot(page, "jhyap-table-finished")
    check_accessibility(page, "jhyap table")

    tab(page, "Chart")
    chart = page.get_by_test_id("chart")
    expect(chart).to_be_visible()
    expect(page.get_by_test_id("limit-line")).to_have_count(1)
    expect(chart.locator("polyline.series")).to_have_count(3)
    expect(chart.locator("g.halving")).to_have_count(1)
    screenshot(page, "jhyap-chart")
    check_accessibility(page, "jhyap chart")

    tab(page, "History")
    expect(page.locator("li.round")).to_have_count(4)
    expect(page.get_by_test_id("round-2")).to_contain_text("halved")
    check_accessibility(page, "jhyap history")
    screenshot(page, "jhyap-history")

    # Undo round 4: the game is open again.
    page.get_by_test_id("undo").click()
    page.get_by_test_id("undo-confirm").click()
    expect(page.locator("li.round")).to_have_count(3)
    tab(page, "Table")
    next_round_is(page, 4)
    assert scores(page)["Bikash"] == "20"
    expect(page.get_by_test_id("record-round")).to_be_visible()

    # Correct round 1 (Bikash had 18, not 20): the dry run shows the change, later rounds rescore.
    tab(page, "History")
    page.get_by_test_id("edit-1").click()
    expect(page.locator("h1")).to_have_text("Correct round 1")
    wait_preview(page)
    page.get_by_test_id("hand-slot").filter(has_text="Bikash").click()
    page.get_by_test_id("pad-18").click()
    expect(page.locator("#preview .notice")).to_contain_text("Bikash: 20 → 18")
    expect(page.locator("#preview .notice")).to_contain_text(
        "2 later round(s) will be scored again."
    )
    screenshot(page, "jhyap-correction-preview")
    page.get_by_test_id("confirm").click()
    expect(page.locator("li.round")).to_have_count(3)
    expect(page.get_by_test_id("round-2")).not_to_contain_text("halved")
    tab(page, "Table")
    expect(player_row(page, "Bikash").locator(".score")).to_have_text("38")
    assert scores(page) == {"Asha": "10", "Bikash": "38", "Chandra": "65"}

    # Round 4 again, to the end.
    open_entry(page)
    jhyap_entry(page, "Asha", [5, 50])
    wait_preview(page)
    confirm(page)
    expect(page.get_by_test_id("winner")).to_contain_text("Asha wins!")
    assert scores(page)["Bikash"] == "88"
    assert len(server.rounds(page.url.split("#/game/")[1])) == 4

    # Switch language: every view follows.
    page.select_option("#lang-select", "fil")
    expect(page.locator("html")).to_have_attribute("lang", "fil")
    expect(page.get_by_test_id("winner")).to_contain_text("Panalo si Asha!")
    expect(page.locator("nav.tabs")).to_contain_text("Kasaysayan")
    expect(player_row(page, "Chandra").locator(".distance")).to_have_text("natanggal sa round 3")
    page.select_option("#lang-select", "bn")
    expect(page.get_by_test_id("winner")).to_contain_text("Asha জিতেছে!")
    expect(page.locator("a.brand")).to_have_text("স্কোরকিপার")
    check_accessibility(page, "jhyap table in Bengali")
    page.select_option("#lang-select", "ne")
    expect(page.get_by_test_id("winner")).to_contain_text("Asha जित्यो!")
    screenshot(page, "jhyap-table-nepali")
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.locator("nav.tabs")).to_contain_text("इतिहास")  # the choice is remembered
    page.select_option("#lang-select", "en")
    expect(page.locator("nav.tabs")).to_contain_text("History")


def test_four_player_round_in_at_most_twelve_taps(page):
    create_game(page, "jhyap", ["Asha", "Bikash", "Chandra", "Dipa"], dealer=0, starter=1)
    next_round_is(page, 1)
    tap = Taps(page)
    open_entry(page, tap)
    jhyap_entry(page, "Chandra", [17, 12, 3, 41], tap)
    wait_preview(page)
    confirm(page, tap)
    next_round_is(page, 2)
    assert scores(page) == {"Asha": "17", "Bikash": "12", "Chandra": "0", "Dipa": "41"}
    assert tap.count <= 12, tap.count
    assert tap.count == 7  # record, caller, four totals, confirm


def test_new_game_form_is_accessible_and_shows_defaults(page):
    page.get_by_test_id("new-game").click()
    page.locator("details.options summary").click()
    expect(page.locator("#opt-elimination_limit")).to_have_value("200")
    expect(page.locator("#opt-halve_at")).to_have_value("100, 200")
    expect(page.locator("#opt-call_limit")).to_have_value("5")
    check_accessibility(page, "new game form")
    page.locator("input[name=ruleset][value=twenty-two]").check()
    expect(page.locator("#opt-first_deal")).to_have_value("7")
    expect(page.locator("#starter")).to_have_count(0)
    screenshot(page, "new-game-form")
    # Too few names: the page says so without asking the service.
    page.fill("#player-0", "Solo")
    page.get_by_test_id("start-game").click()
    expect(page.locator("#form-error")).to_contain_text("at least 2")


MARKER_JS = """() => {
    const marker = getComputedStyle(document.querySelector("details.options summary"), "::before");
    return {width: marker.borderLeftWidth, height: marker.borderTopWidth,
            transform: marker.transform, content: marker.content};
}"""


def test_rule_options_open_from_a_marker_and_halve_at_offers_what_the_limit_allows(page, server):
    page.get_by_test_id("new-game").click()
    expect(page.locator("details.options summary")).to_be_visible()
    # A marker pointing right while closed, down once open: "Rule options" opens, it is no heading.
    closed = page.evaluate(MARKER_JS)
    assert closed["content"] == '""' and closed["width"] == "10px" and closed["height"] == "6px"
    assert closed["transform"] == "none"
    page.locator("details.options summary").click()
    expect(page.locator("details.options")).to_have_attribute("open", "")
    assert page.evaluate(MARKER_JS)["transform"].startswith("matrix(0, 1, -1, 0")  # 90 degrees

    halve_at, help_text = page.locator("#opt-halve_at"), page.locator("#opt-halve_at-help")
    expect(halve_at).to_have_value("100, 200")
    page.fill("#opt-elimination_limit", "100")
    expect(halve_at).to_have_value("100")  # 200 is above the limit: not offered
    expect(help_text).to_contain_text("Default: 100.")
    expect(help_text).not_to_contain_text("200")
    page.fill("#opt-elimination_limit", "60")
    expect(halve_at).to_have_value("")
    expect(help_text).to_contain_text("Default: —.")
    page.fill("#opt-elimination_limit", "100")
    check_accessibility(page, "rule options open")
    for seat, name in enumerate(["Asha", "Bikash"]):
        page.fill(f"#player-{seat}", name)
    page.get_by_test_id("start-game").click()
    expect(page.locator("[data-testid=players]")).to_be_visible()
    game_id = page.url.split("#/game/")[1]
    options = requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=5).json()["options"]
    assert (options["elimination_limit"], options["halve_at"]) == (100, [100])  # as offered


def test_halve_at_as_typed_stays_when_the_limit_changes(page):
    page.get_by_test_id("new-game").click()
    page.locator("details.options summary").click()
    page.fill("#opt-halve_at", "50")
    page.fill("#opt-elimination_limit", "300")
    page.fill("#opt-elimination_limit", "40")
    expect(page.locator("#opt-halve_at")).to_have_value("50")  # the table's own, left as typed


def test_new_game_form_keeps_what_was_chosen(page):
    page.get_by_test_id("new-game").click()
    page.fill("#game-name", "Friday")
    page.get_by_role("button", name="Add a player").click()
    for seat, name in enumerate(["A1", "B2", "C3", "D4"]):
        page.fill(f"#player-{seat}", name)
    page.select_option("#dealer", label="C3")
    page.select_option("#starter", label="D4")
    dealer = page.locator("#dealer option:checked")
    starter = page.locator("#starter option:checked")

    page.get_by_role("button", name="Remove seat 1").click()  # A1: everyone moves up a seat
    expect(dealer).to_have_text("C3")
    expect(starter).to_have_text("D4")
    expect(page.locator("#game-name")).to_have_value("Friday")
    page.get_by_role("button", name="Add a player").click()
    page.fill("#player-3", "E5")
    page.locator("input[name=ruleset][value=twenty-two]").check()
    page.locator("input[name=ruleset][value=jhyap]").check()
    expect(page.locator("#game-name")).to_have_value("Friday")
    expect(dealer).to_have_text("C3")
    expect(starter).to_have_text("D4")

    page.get_by_role("button", name="Remove seat 2").click()  # C3, the dealer: now at random
    expect(dealer).to_have_text("Pick at random")
    expect(starter).to_have_text("D4")
    expect(page.locator("#game-name")).to_have_value("Friday")
    page.get_by_test_id("start-game").click()
    expect(page.locator("h1")).to_have_text("Friday")
    expect(page.get_by_test_id("next-round")).to_contain_text("D4 starts.")
    expect(page.locator(".notice")).to_contain_text("picked at random to deal first")
    assert list(scores(page)) == ["B2", "D4", "E5"]


def test_cards_mode_stays_for_the_next_player(page):
    create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    open_entry(page)
    page.get_by_test_id("caller").filter(has_text="Asha").click()
    page.get_by_test_id("mode-cards").click()
    page.get_by_test_id("rank-2").click()
    page.get_by_test_id("suit-S").click()
    page.get_by_test_id("cards-done").click()
    expect(page.locator("#pad legend")).to_have_text("Tap Bikash's cards")
    expect(page.get_by_test_id("mode-cards")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("joker").click()
    page.get_by_test_id("cards-done").click()
    expect(page.get_by_test_id("mode-cards")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("mode-total").click()
    page.get_by_test_id("pad-7").click()
    assert "Asha called Jhyap and was beaten" in wait_preview(page)  # Bikash's joker counts 0


def test_each_player_line_differs_from_the_limit_line(page, server):
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra", "Dipa", "Eli"], dealer=0)
    ids = player_ids(page, game_id)
    assert other_phone_records(page, game_id, totals(ids, 0, 1, 2, 3, 4, 5)) == 201
    page.reload()
    page.wait_for_selector("body.ready")
    tab(page, "Chart")
    expect(page.locator("polyline.series")).to_have_count(5)
    limit, *colours = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=limit-line], polyline.series')]
            .map(line => getComputedStyle(line).stroke.match(/\\d+/g).map(Number))"""
    )
    assert len(colours) == 5
    # Far enough apart to tell by eye (a crimson next to a crimson is not).
    assert all(math.dist(colour, limit) > 60 for colour in colours), (colours, limit)


def test_typed_halving_scores_survive_adding_a_player(page):
    """The form is drawn again when a player is added; a typed list option stays as typed."""
    page.get_by_test_id("new-game").click()
    page.locator("details.options summary").click()
    page.fill("#opt-halve_at", "50, 100")
    page.get_by_role("button", name="Add a player").click()
    expect(page.locator("#opt-halve_at")).to_have_value("50, 100")
    for seat, player in enumerate(["Asha", "Bikash", "Chandra"]):
        page.fill(f"#player-{seat}", player)
    page.get_by_test_id("start-game").click()
    expect(page.locator("[data-testid=players]")).to_be_visible()
