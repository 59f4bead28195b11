"""The phone lying flat in the middle of the table, at 390x844: each player's name and total
around the screen, turned to face their seat (clockwise, as the table sits), the next dealer
marked; Turn moves who sits at the bottom edge."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from .conftest import VIEWPORT, check_accessibility, screenshot
from .helpers import confirm, create_game, expect, jhyap_entry, open_entry, scores
from .targets import small_targets

pytestmark = pytest.mark.server
NAMES = [
    "Rabindranath Thakur",
    "Jhalak Bahadur Rana",
    "Chandrakala Shrestha",
    "Devendra Prasad",
    "Eshani Bhattarai",
]

# Each label as drawn: its box on the screen, and the angle it is turned by (degrees).
LABELS_JS = """() => [...document.querySelectorAll("[data-testid=middle-seat]")].map(el => {
  const box = el.getBoundingClientRect();
  const m = new DOMMatrix(getComputedStyle(el).transform);
  return {
    name: el.dataset.player,
    edge: el.dataset.edge,
    turned: (Math.round(Math.atan2(m.b, m.a) * 180 / Math.PI) + 360) % 360,
    writing: getComputedStyle(el).writingMode,
    dealer: el.dataset.dealer === "yes",
    score: el.querySelector(".middle-score").textContent,
    box: {left: box.left, top: box.top, right: box.right, bottom: box.bottom},
  };
})"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and (b["top"] < a["bottom"])
    )


def centre(box: dict[str, float]) -> tuple[float, float]:
    return (box["left"] + box["right"]) / 2, (box["top"] + box["bottom"]) / 2


def labels(page: Any) -> list[dict[str, Any]]:
    page.get_by_test_id("middle-seat").first.wait_for()
    return page.evaluate(LABELS_JS)


def test_names_and_totals_face_their_seats_around_the_screen(page):
    create_game(page, "jhyap", NAMES, dealer=0, starter=1)
    open_entry(page)
    jhyap_entry(page, NAMES[1], [12, 2, 9, 30, 7])
    confirm(page)
    shown = scores(page)
    page.get_by_test_id("open-middle").click()
    expect(page.get_by_test_id("middle")).to_be_visible()
    seats = labels(page)
    assert [seat["name"] for seat in seats] == NAMES
    assert {seat["name"]: seat["score"] for seat in seats} == shown
    # Clockwise seen from above, from the bottom edge: up the left side, down the right side;
    # each turned so that its foot faces its own edge (on the sides, written top to bottom,
    # or turned over to run bottom to top).
    assert [seat["edge"] for seat in seats] == ["bottom", "left", "left", "right", "right"]
    assert [(seat["writing"], seat["turned"]) for seat in seats] == [
        ("horizontal-tb", 0),
        ("vertical-rl", 0),
        ("vertical-rl", 0),
        ("vertical-rl", 180),
        ("vertical-rl", 180),
    ]
    middle = [centre(seat["box"]) for seat in seats]
    assert middle[1][1] > middle[2][1]  # up the left side
    assert middle[3][1] < middle[4][1]  # down the right side
    # Round 2 is dealt by the second seat: marked, and only there.
    assert [seat["name"] for seat in seats if seat["dealer"]] == [NAMES[1]]
    expect(page.locator("[data-testid=middle-seat][data-dealer=yes] .badge.deal")).to_have_text(
        "deals"
    )
    expect(page.locator(".middle-round")).to_have_text("Round 2")
    screenshot(page, "middle-of-the-table")
    # Every label is on the screen, none covers another, nor the buttons in the middle.
    height = page.evaluate("innerHeight")
    for seat in seats:
        box = seat["box"]
        assert box["left"] >= 0 and box["right"] <= VIEWPORT["width"], seat
        assert box["top"] >= 0 and box["bottom"] <= height, seat
    centre_box = page.locator(".middle-centre").bounding_box()
    middle_box = {
        "left": centre_box["x"],
        "top": centre_box["y"],
        "right": centre_box["x"] + centre_box["width"],
        "bottom": centre_box["y"] + centre_box["height"],
    }
    for index, seat in enumerate(seats):
        assert not overlap(seat["box"], middle_box), seat["name"]
        for other in seats[index + 1 :]:
            assert not overlap(seat["box"], other["box"]), (seat["name"], other["name"])
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= VIEWPORT["width"]
    assert small_targets(page) == []
    check_accessibility(page, "phone in the middle")

    # Turn: every label moves one place on, clockwise; the last seat now sits at the bottom.
    page.get_by_test_id("middle-turn").click()
    page.locator("[data-testid=middle][data-turn='1']").wait_for()
    turned = {seat["name"]: seat["edge"] for seat in labels(page)}
    assert [turned[name] for name in NAMES] == ["left", "left", "right", "right", "bottom"]
    expect(page.get_by_test_id("middle-turn")).to_be_focused()
    page.get_by_test_id("middle-back").click()
    expect(page.get_by_test_id("record-round")).to_be_visible()
