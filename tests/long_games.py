"""The longest game the service keeps, as an export: quick to build, and to import anywhere.

Every hand is 0, so the game never ends and no score changes; a correction of round 1
that gives the others points changes every later round's scores.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.domain.games import MAX_HISTORY_ITEMS
from scorekeeper.domain.records import round_json
from scorekeeper.rules import Player, get_ruleset

PLAYERS = [(1, "Asha"), (2, "Bikash"), (3, "Chandra")]


def endless_entry(others: int = 0) -> dict[str, Any]:
    """Asha calls with 0; the others hold ``others`` points each."""
    return {
        "caller": 1,
        "hands": [{"player": i, "total": 0 if i == 1 else others} for i, _ in PLAYERS],
    }


def long_export(items: int = MAX_HISTORY_ITEMS) -> dict[str, Any]:
    """The export of a Jhyap game of ``items`` rounds in which every hand is 0."""
    rules = get_ruleset("jhyap")([Player(i, name) for i, name in PLAYERS], {})
    state = rules.start(0, 1)
    rounds = []
    for number in range(1, items + 1):
        entry = endless_entry()
        outcome = rules.play(state, rules.parse_entry(entry))
        state = outcome.state
        rounds.append({"number": number, "entry": entry, "round": round_json(outcome.result)})
    players = [
        {
            "id": i,
            "name": name,
            "seat": seat,
            "score": 0,
            "eliminated": False,
            "eliminated_in_round": None,
        }
        for seat, (i, name) in enumerate(PLAYERS)
    ]
    game = {
        "ruleset": "jhyap",
        "name": "The longest game",
        "options": rules.options,
        "players": players,
        "setup": {"dealer": 0, "starter": 1},
        "status": "in_progress",
        "winners": [],
        "rounds_played": items,
    }
    return {"format": "scorekeeper.game", "version": 1, "game": game, "rounds": rounds}
