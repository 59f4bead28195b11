"""Names in Bengali, Nepali and emoji sequences, with joiners inside them, on the phone page."""

from __future__ import annotations

import pytest
import requests

pytest.importorskip("playwright.sync_api")

from .conftest import check_accessibility
from .helpers import confirm, create_game, expect, jhyap_entry, open_entry, player_row, scores

pytestmark = pytest.mark.server

RAB = "\u09b0\u200d\u09cd\u09af\u09be\u09ac"  # Bengali "র‍্যাব" (ra, ZWJ, virama, ya, aa, ba)
KSHA_NE = "\u0915\u094d\u200d\u0937"  # Nepali "क्‍ष" (ka, virama, ZWJ, ssa: the half form)
CODER = "\U0001f469\u200d\U0001f4bb"  # 👩‍💻 (woman, ZWJ, laptop)


def test_a_game_of_players_whose_names_hold_joiners(page, server):
    game_id = create_game(page, "jhyap", [RAB, KSHA_NE, CODER], dealer=0, starter=1)

    for name in (RAB, KSHA_NE, CODER):
        expect(player_row(page, name)).to_be_visible()
    open_entry(page)
    jhyap_entry(page, CODER, [12, 20, 3])
    confirm(page)
    expect(player_row(page, RAB).locator(".score")).to_have_text("12")
    assert scores(page) == {RAB: "12", KSHA_NE: "20", CODER: "0"}
    check_accessibility(page, "names with joiners")
    stored = requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=10).json()
    assert [player["name"] for player in stored["players"]] == [RAB, KSHA_NE, CODER]
