"""Valid random rounds of Jhyap and Twenty Two, drawn from what the service answered."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [rank + suit for rank in RANKS for suit in "SHDC"]
JHYAP_CALL_LIMIT = 5  # the default option
JHYAP_HIGHEST_HAND = 35  # a hand is worth 0 to 50; most hands at a call are far below 50


@dataclass
class Play:
    """What a table knows of its game between rounds: who is still in, which cards are kept."""

    ruleset: str
    active: list[int]
    kept: set[str] = field(default_factory=set)

    def entry(self, rng: random.Random) -> dict[str, Any]:
        """A valid entry for the next round."""
        if self.ruleset == "jhyap":
            caller = rng.choice(self.active)
            hands = [
                {
                    "player": player,
                    "total": rng.randint(
                        0, JHYAP_CALL_LIMIT if player == caller else JHYAP_HIGHEST_HAND
                    ),
                }
                for player in self.active
            ]
            return {"caller": caller, "hands": hands}
        free = [card for card in DECK if card not in self.kept]
        cards = rng.sample(free, len(self.active))
        trick = [{"player": p, "card": c} for p, c in zip(self.active, cards, strict=True)]
        rng.shuffle(trick)  # any order is the order played
        return {"last_trick": trick}

    def after(self, round_answer: dict[str, Any]) -> Play:
        """The play after the recorded (or corrected) round ``round_answer``."""
        out = {result["player"] for result in round_answer["results"] if result["eliminated"]}
        kept = set(self.kept)
        if self.ruleset == "twenty-two":
            kept |= {r["card"] for r in round_answer["results"] if r["points"] > 0}
            next_round = round_answer["game"].get("next_round") or {}
            if next_round.get("pack") == len(DECK):  # the score piles went back into the pack
                kept = set()
        return Play(self.ruleset, [p for p in self.active if p not in out], kept)


def first_play(game: dict[str, Any]) -> Play:
    """The play of a new game (a Game as the service answers it)."""
    return Play(game["ruleset"], [player["id"] for player in game["players"]])


def game_setup(ruleset: str, roster: list[int]) -> dict[str, Any]:
    """The body that starts a game at a table: short games, so that tables play several."""
    if ruleset == "jhyap":
        return {"ruleset": "jhyap", "players": roster, "options": {"elimination_limit": 100}}
    return {"ruleset": "twenty-two", "players": roster}
