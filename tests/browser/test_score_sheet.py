"""History as a score sheet: a row a round, a column a player, seat changes as lines across, the
totals at the foot; the cards stay a tap away. At 390x844, with six names at the table."""

from __future__ import annotations

from typing import Any

import pytest
import requests

pytest.importorskip("playwright.sync_api")

from .conftest import VIEWPORT, check_accessibility, screenshot
from .helpers import expect, scores, tab, totals
from .targets import small_targets

pytestmark = pytest.mark.server
NAMES = ["Rabindranath", "Jhalak Bahadur", "Chandrakala", "Devi"]


def an_evening(page: Any, server: Any) -> str:
    """Four rounds, Esha joins after round 2 and Devi leaves after round 3; kept on the phone."""
    api = f"{server.url}/api/v1"
    body = {"ruleset": "jhyap", "players": NAMES, "dealer": 0, "starter": 1}
    game = requests.post(f"{api}/games", json=body, timeout=5).json()
    page.evaluate(
        """async ([game, token]) => {
            const { store } = await import('/static/js/store.js');
            store.saveGame(game, token);
        }""",
        [game, game["token"]],
    )
    auth = {"Authorization": f"Bearer {game['token']}"}
    url = f"{api}/games/{game['id']}"

    def post(path: str, json: dict[str, Any]) -> None:
        answer = requests.post(url + path, json=json, headers=auth, timeout=5)
        assert answer.status_code == 201, answer.text

    ids = [p["id"] for p in game["players"]]
    post("/rounds", totals(ids, 0, 2, 10, 12, 7))  # Rabindranath's call holds
    post("/rounds", totals(ids, 1, 9, 3, 5, 4))  # Jhalak Bahadur's call holds
    post("/seats", {"join": {"name": "Esha", "after": ids[3]}})
    seated = requests.get(url, timeout=5).json()["players"]
    esha = next(p["id"] for p in seated if p["name"] == "Esha")
    post("/rounds", totals([*ids, esha], 2, 6, 8, 1, 9, 11))
    post("/seats", {"leave": ids[3]})
    post("/rounds", totals([ids[0], ids[1], ids[2], esha], 3, 4, 6, 8, 0))
    return game["id"]


def sheet_rows(page: Any) -> list[list[str]]:
    table = page.get_by_test_id("score-sheet")
    expect(table).to_be_visible()
    return [
        [" ".join(cell.inner_text().split()) for cell in row.locator("th, td").all()]
        for row in table.locator("tr").all()
    ]


def test_history_as_a_score_sheet_and_back_to_the_cards(page, server):
    game_id = an_evening(page, server)
    rounds = requests.get(f"{server.url}/api/v1/games/{game_id}/rounds", timeout=5).json()
    page.goto(f"{server.url}/#/game/{game_id}")
    page.wait_for_selector("body.ready")
    shown = scores(page)
    tab(page, "History")
    expect(page.get_by_test_id("round-6")).to_be_visible()  # every item drawn before measuring
    expect(page.get_by_test_id("round-1")).to_be_visible()
    cards_height = page.evaluate("() => document.documentElement.scrollHeight")
    expect(page.get_by_test_id("history-cards")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("history-sheet").click()
    expect(page.get_by_test_id("history-sheet")).to_have_attribute("aria-pressed", "true")

    def cells(number: int) -> list[str]:
        """Each player's cell of history item ``number``, as the service scored it."""
        item = next(r for r in rounds["rounds"] if r["number"] == number)
        caller = item["caller"]
        found = {}
        for result in item["results"]:
            marks = "◆ (caller)" if result["player"] == caller else ""
            if result["halved"]:
                marks += "½ (halved)"
            if result["eliminated"]:
                marks += "✕ (out)"
            found[result["player"]] = f"+{result['points']}{marks} {result['score_after']}"
        players = requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=5).json()
        return [found.get(p["id"], "·") for p in players["players"]]

    rows = sheet_rows(page)
    game = requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=5).json()
    names = [p["name"] for p in game["players"]]
    assert rows[0] == ["#", *names]
    assert rows[1] == ["1", *cells(1)]
    assert rows[2] == ["2", *cells(2)]
    joined = next(r for r in rounds["rounds"] if r["number"] == 3)["seat_change"]["join"]
    assert rows[3] == [f"Esha joined with {joined['score']}, after Devi."]
    assert rows[4] == ["3", *cells(4)]  # the fourth item is the third round
    assert rows[5] == ["Devi left."]
    assert rows[6] == ["4", *cells(6)]
    # The totals at the foot are the game's scores, as its table shows them.
    assert rows[7] == ["Total", *[shown[name] for name in names]]
    expect(page.locator(".sheet-key")).to_contain_text("◆ called")

    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= VIEWPORT["width"], f"the score sheet is {width} px wide"
    sheet_height = page.evaluate("() => document.documentElement.scrollHeight")
    assert sheet_height < cards_height / 2, (sheet_height, cards_height)
    assert small_targets(page) == []
    check_accessibility(page, "score sheet")
    screenshot(page, "score-sheet")

    # The choice stays while the phone moves between tabs; the cards are one tap away.
    tab(page, "Chart")
    tab(page, "History")
    expect(page.get_by_test_id("score-sheet")).to_be_visible()
    page.get_by_test_id("history-cards").click()
    expect(page.get_by_test_id("score-sheet")).to_have_count(0)
    expect(page.get_by_test_id("edit-1")).to_be_visible()
    expect(page.get_by_test_id("history-cards")).to_be_focused()
