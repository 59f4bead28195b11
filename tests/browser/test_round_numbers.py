"""Round numbers as people count them: after six rounds, a join and a leave, the next round is
round 7 (the API numbers it 9); History shows the seat changes as lines without a number, the
chart's axis counts rounds with no gap, and a newcomer's line starts at their starting total in a
colour that stands out from the grid."""

from __future__ import annotations

from typing import Any

import pytest
import requests

pytest.importorskip("playwright.sync_api")

from .conftest import check_accessibility, screenshot
from .helpers import confirm, expect, jhyap_entry, next_round_is, open_entry, tab, totals

pytestmark = pytest.mark.server

# The chart's colours and the grid's, as the browser draws them; and contrast (WCAG 2.1).
COLOURS_JS = """() => {
  const chart = document.querySelector("[data-testid=chart]");
  const stroke = (el) => getComputedStyle(el).stroke;
  const back = getComputedStyle(document.querySelector(".chart-figure")).backgroundColor;
  return {
    grid: stroke(chart.querySelector(".grid-line")),
    background: back,
    series: [...chart.querySelectorAll("polyline.series")].map(stroke),
  };
}"""


def luminance(css: str) -> float:
    red, green, blue = (int(part) / 255 for part in css[css.index("(") + 1 : -1].split(",")[:3])

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def six_rounds_a_join_and_a_leave(page: Any, server: Any) -> tuple[str, Any]:
    """A game made through the API and kept on the phone: six rounds (each non-caller +5), Dev
    joins after Asha, Chandra leaves. The game id, and a way to post to the game."""
    api = f"{server.url}/api/v1"
    body = {
        "ruleset": "jhyap",
        "players": ["Asha", "Bikash", "Chandra"],
        "dealer": 0,
        "starter": 1,
        "options": {"elimination_limit": 60, "halve_at": []},
    }
    game = requests.post(f"{api}/games", json=body, timeout=5).json()
    page.evaluate(
        """async ([game, token]) => {
            const { store } = await import('/static/js/store.js');
            store.saveGame(game, token);
        }""",
        [game, game["token"]],
    )
    auth = {"Authorization": f"Bearer {game['token']}"}

    def post(path: str, json: dict[str, Any]) -> dict[str, Any]:
        url = f"{api}/games/{game['id']}{path}"
        answer = requests.post(url, json=json, headers=auth, timeout=5)
        assert answer.status_code == 201, answer.text
        return answer.json()

    ids = [player["id"] for player in game["players"]]
    for number in range(6):
        caller = number % 3
        post("/rounds", totals(ids, caller, *[1 if seat == caller else 5 for seat in range(3)]))
    post("/seats", {"join": {"name": "Dev", "after": ids[0]}})
    post("/seats", {"leave": ids[2]})
    return game["id"], post


def x_axis(page: Any, rounds: int) -> list[str]:
    """The chart's round labels, once it shows ``rounds`` rounds (drawn after the tap)."""
    labels = page.locator("[data-testid=chart] text.axis[text-anchor=middle]")
    expect(labels.last).to_have_text(str(rounds))
    return labels.all_text_contents()


def test_round_numbers_count_rounds_only(page, server):
    game_id, post = six_rounds_a_join_and_a_leave(page, server)
    assert requests.get(f"{server.url}/api/v1/games/{game_id}").json()["next_round"]["number"] == 9
    page.goto(f"{server.url}/#/game/{game_id}")
    page.wait_for_selector("body.ready")
    next_round_is(page, 7)
    expect(page.get_by_test_id("record-round")).to_have_text("Record round 7")

    # History: rounds 1 to 6, then the join and the leave as lines with no round number.
    tab(page, "History")
    expect(page.locator(".rounds h3")).to_have_count(6)
    titles = page.locator(".rounds h3").all_inner_texts()
    assert titles == [f"Round {n}" for n in range(6, 0, -1)]
    expect(page.get_by_test_id("round-7")).to_have_text("Dev joined with 20, after Asha.")
    expect(page.get_by_test_id("round-8").locator("p")).to_have_text("Chandra left.")
    expect(page.get_by_test_id("undo")).to_have_text("Undo this")

    # The chart: 0 to 6 rounds; Dev, who has played no round yet, is a dot at 20 from round 6.
    tab(page, "Chart")
    assert x_axis(page, 6) == [str(n) for n in range(7)]
    dev = page.locator("[data-testid=chart] circle.dot.c3")
    expect(dev).to_have_count(1)
    colours = page.evaluate(COLOURS_JS)
    newcomer = page.evaluate(
        "() => getComputedStyle(document.querySelector('[data-testid=chart] circle.dot.c3')).fill"
    )
    assert newcomer != colours["grid"]
    assert contrast(newcomer, colours["background"]) >= 3, colours  # WCAG 1.4.11, non-text
    check_accessibility(page, "chart with a newcomer")

    # Round 7 on the page: Asha calls and wins; Dev takes 5, Bikash 8.
    tab(page, "Table")
    open_entry(page)
    expect(page.locator("h1")).to_have_text("Record round 7")
    jhyap_entry(page, "Asha", [1, 5, 8])
    expect(page.get_by_test_id("confirm")).to_have_text("Confirm round 7")
    confirm(page)
    next_round_is(page, 8)
    tab(page, "Chart")
    assert x_axis(page, 7) == [str(n) for n in range(8)]
    dev_points = page.locator("polyline.series.c3").get_attribute("points").split()
    assert len(dev_points) == 2  # from where Dev joined, to round 7

    # Round 8 ends the game: "Game over after 8 rounds", and History ends at round 8.
    seated = requests.get(f"{server.url}/api/v1/games/{game_id}").json()["players"]
    active = [p["id"] for p in seated if not p["left"]]
    post("/rounds", totals(active, 0, 0, 40, 40))
    page.reload()
    page.wait_for_selector("body.ready")
    tab(page, "Table")
    expect(page.get_by_test_id("winner")).to_contain_text("Game over after 8 rounds.")
    expect(page.get_by_test_id("ranking")).to_contain_text("out in round 8")
    tab(page, "History")
    expect(page.locator(".rounds h3").first).to_have_text("Round 8")
    tab(page, "Chart")
    assert x_axis(page, 8) == [str(n) for n in range(9)]
    screenshot(page, "round-numbers-chart")
