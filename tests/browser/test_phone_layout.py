"""The page on a 390 px phone: long names, the round entry on one screen, option errors."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api")

from .conftest import VIEWPORT, check_accessibility, screenshot
from .helpers import (
    confirm,
    create_game,
    expect,
    jhyap_entry,
    open_entry,
    painted,
    tab,
    trick_entry,
    wait_preview,
)

pytestmark = pytest.mark.server
LONG = "A" + "a" * 39  # 40 characters and no space: the longest name the form takes
LONGER = "B" + "b" * 39
REFUSED = r"status of 422"  # the browser logs the refused POST /games


def no_sideways_scroll(page, where: str) -> None:
    """Nothing wider than the phone: a wider page is zoomed out (the window grows) on a phone."""
    scroll_width, inner_width = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth]"
    )
    phone = VIEWPORT["width"]
    assert scroll_width <= inner_width == phone, f"{where}: {scroll_width} px on a {phone} px phone"


def test_long_names_never_widen_the_page(page):
    page.get_by_test_id("new-game").click()
    page.fill("#game-name", LONG)
    page.fill("#player-0", LONG)
    no_sideways_scroll(page, "new game form")
    # Dealer and starter at random: the page names them in a notice.
    game_id = create_game(
        page, "jhyap", [LONG, "Bikash", LONGER], dealer=None, starter=None, name=LONG
    )
    expect(page.locator(".notice")).to_contain_text("picked at random")
    expect(page.locator("h1")).to_have_text(LONG)
    no_sideways_scroll(page, "table")

    open_entry(page)
    page.get_by_test_id("caller").filter(has_text=LONG).click()
    expect(page.locator("#pad legend")).to_contain_text(LONG)
    no_sideways_scroll(page, "round entry")
    jhyap_entry(page, LONG, [2, 20, 30])
    assert f"{LONG} called Jhyap and won the call." in wait_preview(page)
    no_sideways_scroll(page, "round entry with preview")
    screenshot(page, "long-names-entry")
    confirm(page)
    no_sideways_scroll(page, "table after a round")

    tab(page, "History")
    expect(page.get_by_test_id("round-1")).to_contain_text(LONGER)
    no_sideways_scroll(page, "history")
    screenshot(page, "long-names-history")

    tab(page, "Chart")
    expect(page.get_by_test_id("chart")).to_be_visible()
    expect(page.locator(".legend")).to_contain_text(LONG)
    no_sideways_scroll(page, "chart")

    page.goto(page.url.split("#")[0] + f"#/game/{game_id}/edit/1")
    wait_preview(page)
    no_sideways_scroll(page, "correction")

    page.locator("a.brand").click()
    expect(page.locator(".game-name")).to_have_text(LONG)
    no_sideways_scroll(page, "home")
    # Taps still land where they should: the game opens from the list.
    page.locator(".game-link").click()
    expect(page.locator("h1")).to_have_text(LONG)


def test_long_names_in_a_twenty_two_trick(page):
    create_game(page, "twenty-two", [LONG, LONGER, "Faye"], dealer=0)
    open_entry(page)
    trick_entry(page, [(LONGER, "9C")])
    expect(page.get_by_test_id("trick")).to_contain_text(LONGER)
    no_sideways_scroll(page, "twenty two entry")
    trick_entry(page, [("Faye", "KD"), (LONG, "4H")])
    wait_preview(page)
    no_sideways_scroll(page, "twenty two preview")


JHYAP_TABLE = ["Asha", "Bikash", "Chandra", "Dipa", "Eli"]  # five, Jhyap's most


@pytest.mark.parametrize("count", [3, 4, 5])
def test_number_pad_fits_a_phone_screen(page, count):
    names = JHYAP_TABLE[:count]
    create_game(page, "jhyap", names, dealer=0, starter=1)
    open_entry(page)
    page.get_by_test_id("caller").filter(has_text="Chandra").click()
    # The whole pad, 0 to 50, is on screen with no scrolling, and every key is a thumb's size.
    expect(page.locator("#pad legend")).to_have_text("Asha's hand total")
    pad = page.get_by_role("group", name="Number pad")
    expect(pad).to_be_in_viewport(ratio=1)
    expect(page.get_by_test_id("pad-50")).to_be_in_viewport(ratio=1)
    assert page.evaluate("() => window.scrollY") == 0
    sizes = pad.get_by_role("button").evaluate_all(
        "keys => keys.map(key => key.getBoundingClientRect()).map(r => [r.width, r.height])"
    )
    assert len(sizes) == 51
    assert all(width >= 44 and height >= 44 for width, height in sizes), sizes
    no_sideways_scroll(page, f"round entry for {count} players")
    screenshot(page, f"jhyap-pad-{count}-players")
    check_accessibility(page, f"jhyap entry for {count} players")


def enter_a_five_player_round(page) -> None:
    """A new five-player Jhyap game with round 1 entered up to its preview (two rows of hands).

    On the height a phone browser's toolbars leave (664 of 844 px): on the whole 844 px, the
    preview and Confirm fit below the hands once the pad closes, and nothing is scrolled.
    """
    page.set_viewport_size({"width": VIEWPORT["width"], "height": 664})
    create_game(page, "jhyap", JHYAP_TABLE, dealer=0, starter=1)
    open_entry(page)
    jhyap_entry(page, "Chandra", [17, 12, 3, 41, 9])
    wait_preview(page)


def test_confirm_comes_on_screen_when_the_entry_is_complete(page):
    enter_a_five_player_round(page)
    button = page.get_by_test_id("confirm")
    expect(button).to_be_enabled()
    expect(button).to_be_in_viewport(ratio=1)
    assert page.evaluate("() => window.scrollY") > 0  # it was below the screen
    expect(button).not_to_be_focused()  # scrolled to, not focused: the preview is read out first
    screenshot(page, "jhyap-entry-complete")
    check_accessibility(page, "jhyap entry scrolled to confirm")
    confirm(page)


def test_a_change_to_a_complete_entry_leaves_the_page_where_it_is(page):
    """Confirm comes on screen after the tap that completes the entry, not after every tap."""
    enter_a_five_player_round(page)
    expect(page.get_by_test_id("confirm")).to_be_in_viewport(ratio=1)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.get_by_test_id("hand-slot").first.click()  # Asha's total, typed again
    # Tapped where it is (a click that scrolls first would move the page itself).
    page.get_by_test_id("pad-16").evaluate("key => key.click()")
    page.get_by_test_id("preview-summary").wait_for()
    expect(page.get_by_test_id("confirm")).to_be_enabled()
    painted(page)  # the preview is drawn: a scroll to Confirm would have come with it
    assert page.evaluate("() => window.scrollY") == 0
    expect(page.get_by_test_id("confirm")).not_to_be_in_viewport(ratio=1)


def test_a_card_changed_in_place_does_not_scroll_to_confirm(page):
    names = ["Dina", "Eli", "Faye", "Gopal", "Hari", "Ila"]
    create_game(page, "twenty-two", names, dealer=0)
    open_entry(page)
    trick = [("Eli", "9C"), ("Faye", "KD"), ("Gopal", "2S"), ("Hari", "3S"), ("Ila", "4S")]
    trick_entry(page, [*trick, ("Dina", "4H")])
    wait_preview(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.get_by_test_id("trick-play").first.click()
    page.get_by_test_id("rank-A").evaluate("key => key.click()")
    before = page.evaluate("() => window.scrollY")
    page.get_by_test_id("suit-S").evaluate("key => key.click()")
    expect(page.get_by_test_id("trick-play").first).to_contain_text("A♠")
    page.get_by_test_id("preview-summary").wait_for()
    expect(page.get_by_test_id("confirm")).to_be_enabled()
    painted(page)  # the preview is drawn: a scroll to Confirm would have come with it
    assert page.evaluate("() => window.scrollY") <= before
    expect(page.get_by_test_id("trick-play").first).to_be_in_viewport()
    expect(page.get_by_test_id("confirm")).not_to_be_in_viewport()


def test_round_entry_correction_opens_at_the_top(page):
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20, 30])
    wait_preview(page)
    confirm(page)
    page.goto(page.url.split("#")[0] + f"#/game/{game_id}/edit/1")
    wait_preview(page)
    # Nothing was changed yet: the page stays at its title, not at the button.
    expect(page.locator("h1")).to_be_in_viewport(ratio=1)


def test_option_refused_by_the_service_is_shown_by_its_input(page, console):
    console.allow(REFUSED)
    page.get_by_test_id("new-game").click()
    for seat, name in enumerate(["Asha", "Bikash", "Chandra"]):
        page.fill(f"#player-{seat}", name)
    page.locator("details.options summary").click()
    page.fill("#opt-call_limit", "99")  # the service knows the limit; the page does not check
    page.get_by_test_id("start-game").click()

    field = page.locator("#opt-call_limit")
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_accessible_description(re.compile(r"^Call limit: .*0 to 50"))
    expect(page.locator(".field").filter(has=field)).to_contain_text("Call limit:")
    expect(page.locator("#form-error")).to_contain_text("Call limit")
    expect(page.locator("main")).not_to_contain_text("call_limit")
    screenshot(page, "new-game-option-error")
    check_accessibility(page, "new game form with an option error")

    # Fixed: the message goes, and the game starts.
    page.fill("#opt-call_limit", "10")
    expect(field).not_to_have_attribute("aria-invalid", "true")
    page.get_by_test_id("start-game").click()
    expect(page.locator("[data-testid=players]")).to_be_visible()
    tab(page, "Table")
    page.locator("details.rules summary").click()
    expect(page.locator("details.rules")).to_contain_text("10")


def test_fixing_one_of_two_refused_options_leaves_the_other_named(page, console):
    console.allow(REFUSED)
    page.get_by_test_id("new-game").click()
    for seat, name in enumerate(["Asha", "Bikash", "Chandra"]):
        page.fill(f"#player-{seat}", name)
    page.locator("details.options summary").click()
    page.fill("#opt-call_limit", "99")
    page.fill("#opt-elimination_limit", "20000")
    page.get_by_test_id("start-game").click()
    summary = page.locator("#form-error")
    expect(summary).to_contain_text("Call limit")
    expect(summary).to_contain_text("Elimination limit")

    page.fill("#opt-call_limit", "10")
    expect(summary).to_have_text("Check these rule options: Elimination limit.")
    expect(page.locator("#opt-elimination_limit")).to_have_attribute("aria-invalid", "true")
    page.fill("#opt-elimination_limit", "300")
    expect(summary).to_have_text("")
    page.get_by_test_id("start-game").click()
    expect(page.locator("[data-testid=players]")).to_be_visible()


def test_option_error_in_another_language(page, console):
    console.allow(REFUSED)
    page.select_option("#lang-select", "fil")
    page.locator("[data-testid=new-game]").click()
    for seat, name in enumerate(["Asha", "Bikash"]):
        page.fill(f"#player-{seat}", name)
    page.locator("details.options summary").click()
    page.fill("#opt-elimination_limit", "20000")
    page.get_by_test_id("start-game").click()
    field = page.locator("#opt-elimination_limit")
    expect(field).to_be_focused()
    label = page.locator("label[for=opt-elimination_limit]").inner_text()
    expect(page.locator(".field").filter(has=field)).to_contain_text(label + ":")
    expect(page.locator("main")).not_to_contain_text("elimination_limit")
