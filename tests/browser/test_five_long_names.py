"""Five players with names of 20 characters at 390x844, in English, Filipino, Bengali and Nepali:
every name can be read whole (on two lines at most, never cut or split inside a word), and once
the round is entered Confirm is on the screen without scrolling."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from .conftest import VIEWPORT, check_accessibility, screenshot
from .helpers import create_game, expect, jhyap_entry, open_entry, wait_preview

pytestmark = pytest.mark.server
FIVE = [
    "Rabindranath Acharya",
    "Jhalak Bahadur Karki",
    "Chandrakala Adhikari",
    "Devendra Raj Pandeya",
    "Eshani Bhattacharjee",
]
assert all(len(name) == 20 for name in FIVE)

# Each name on the entry as drawn: its lines, whether any of it is cut off, and whether each of
# its words fits the box's width (a longer word would be split inside: "Rabindran/ath").
NAMES_JS = """selector => [...document.querySelectorAll(selector)].map(el => {
  const style = getComputedStyle(el);
  const lineHeight = parseFloat(style.lineHeight);
  const canvas = document.createElement("canvas").getContext("2d");
  canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const width = el.clientWidth;
  return {
    text: el.textContent,
    lines: Math.round(el.getBoundingClientRect().height / lineHeight),
    cut: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
    split: el.textContent.split(/\\s+/).filter(w => canvas.measureText(w).width > width + 0.5),
  };
})"""


def names_as_drawn(page: Any, selector: str) -> list[dict[str, Any]]:
    return page.evaluate(NAMES_JS, selector)


@pytest.mark.parametrize("lang", ["en", "fil", "bn", "ne"])
def test_five_long_names_read_whole_and_confirm_on_screen(page, lang):
    create_game(page, "jhyap", FIVE, dealer=0, starter=1)
    page.select_option("#lang-select", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    open_entry(page)
    page.get_by_test_id("caller").filter(has_text=FIVE[2]).click()

    def readable() -> None:
        names = names_as_drawn(page, ".entry .pick-name, .entry .slot-name")
        assert sorted(name["text"] for name in names) == sorted(FIVE)  # each once, whole
        for name in names:
            assert name["lines"] <= 2 and not name["cut"] and not name["split"], name
        # Each hand is named whole for a screen reader too.
        hands = page.get_by_test_id("hand-slot").all_text_contents()
        assert all(any(name in hand for hand in hands) for name in FIVE), hands

    readable()
    screenshot(page, f"five-long-names-{lang}")
    jhyap_entry(page, FIVE[2], [17, 12, 3, 41, 9])
    wait_preview(page)
    readable()
    button = page.get_by_test_id("confirm")
    expect(button).to_be_enabled()
    expect(button).to_be_in_viewport(ratio=1)
    scrolled = page.evaluate("() => window.scrollY")
    if scrolled:
        page.evaluate("() => window.scrollTo(0, 0)")
        screenshot(page, f"five-long-names-{lang}-scrolled")
    assert scrolled == 0, "scrolled to Confirm"
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= VIEWPORT["width"]
    screenshot(page, f"five-long-names-{lang}-complete")
    check_accessibility(page, f"five long names in {lang}")


@pytest.mark.parametrize(
    "names",
    [
        ["Asha", "Bikash", "Chandra", "Dipa"],  # a grid of four: the box being typed in too
        ["Asha Gurung", "Bikash Thapa", "Chandrakala Rai", "Dipa Lama"],  # a long word: rows
    ],
)
def test_four_names_read_whole_whichever_hand_is_being_typed(page, names):
    create_game(page, "jhyap", names, dealer=0, starter=1)
    open_entry(page)
    page.get_by_test_id("caller").filter(has_text=names[2]).click()
    for name in names:
        page.get_by_test_id("hand-slot").filter(has_text=name).click()
        expect(page.locator("#pad legend")).to_contain_text(name)
        drawn = names_as_drawn(page, ".entry .pick-name, .entry .slot-name")
        assert sorted({d["text"] for d in drawn}) == sorted(names)
        for found in drawn:
            assert found["lines"] <= 2 and not found["cut"] and not found["split"], (name, found)
