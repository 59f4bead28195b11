"""Score pad vectors: random games over every option value, negative points, targets and
numbers of rounds, the end by hand (and its refusals), and seat changes."""

from __future__ import annotations

import copy
import random
from typing import Any

from scorekeeper.rules import GameState, Ruleset

from .draw import NOT_AT_ANY_TABLE, random_game
from .script import scripted

OPTION_VALUES: dict[str, list[Any]] = {
    "winner": ["highest", "lowest"],
    "target": [None, 1, 50, 200, 100_000],
    "rounds": [None, 1, 3, 10, 1000],
}
"""Each option's minimum, maximum, default and a few values in between."""
STRANGERS: list[Any] = [NOT_AT_ANY_TABLE, "22", None, True, 1.5]


def draw_entry(rng: random.Random, rules: Ruleset[Any], state: GameState) -> dict[str, Any]:
    """Every active player's points, mostly small, some negative, now and then the extremes."""
    active = state.active_seats()

    def points() -> int:
        roll = rng.random()
        if roll < 0.05:
            return rng.choice([-10_000, 10_000])
        return rng.randint(-20, 60) if roll < 0.9 else rng.randint(-10_000, 10_000)

    order = rng.sample(active, len(active))
    return {"hands": [{"player": rules.players[s].id, "points": points()} for s in order]}


def bad_entry(
    rng: random.Random, rules: Ruleset[Any], state: GameState, entry: dict[str, Any]
) -> dict[str, Any]:
    """``entry`` broken in one of the ways the rules refuse."""
    entry = copy.deepcopy(entry)
    hands: list[dict[str, Any]] = entry["hands"]
    hand = rng.choice(hands)
    kind = rng.choice(["range", "missing", "twice", "stranger"])
    if kind == "range":
        hand["points"] = rng.choice([-10_001, 10_001, "5", None, 2.5, True])
    elif kind == "missing":
        hands.pop(rng.randrange(len(hands)))
    elif kind == "twice":
        hands.insert(rng.randrange(len(hands) + 1), dict(hand))
    else:
        hand["player"] = rng.choice(STRANGERS)
    return entry


def random_games() -> list[dict[str, Any]]:
    """Seeded random games for every value of every option, the other options random."""
    settings: list[tuple[str, str | None, Any]] = [
        (f"score-pad {name}={value}", name, value)
        for name, values in OPTION_VALUES.items()
        for value in values
    ]
    settings += [(f"score-pad mixed options {number}", None, None) for number in range(1, 9)]
    vectors = []
    for seed, name, value in settings:
        rng = random.Random(seed)
        options = {} if name is None else {name: value}
        for other, choices in OPTION_VALUES.items():
            if other != name and rng.random() < 0.5:
                options[other] = rng.choice(choices)
        count = rng.randint(2, 12)
        vectors.append(
            random_game(rng, seed, "score-pad", options, count, draw_entry, bad_entry, ends=0.05)
        )
    return vectors


def scores(*points: int) -> Any:
    """A step: a round of points by seat."""

    def step(game: Any) -> None:
        rules, _ = game.live()
        ids = [player.id for player in rules.players]
        game.play({"hands": [{"player": ids[s], "points": n} for s, n in enumerate(points)]})

    return step


def edge_games() -> list[dict[str, Any]]:
    """The rules tests' games: negative points, lowest wins with a target, the end by hand."""
    return [
        scripted(
            "score-pad negative points over three rounds",
            "score-pad",
            3,
            {"rounds": 3},
            scores(10, -5, 0),
            scores(-20, 15, 5),
            scores(0, -10, 5),
        ),
        scripted(
            "score-pad lowest wins with a target",
            "score-pad",
            3,
            {"winner": "lowest", "target": 100},
            scores(30, 60, 20),
            scores(40, 45, 20),
        ),
        scripted(
            "score-pad ended by hand with a shared win",
            "score-pad",
            4,
            {},
            lambda game: game.end(),
            scores(5, 12, 12, -3),
            scores(1, 0, 0, 15),
            lambda game: game.join(77, "Dev", 11),
            lambda game: game.end(),
        ),
        scripted(
            "score-pad a newcomer on the lowest total when the lowest wins",
            "score-pad",
            3,
            {"winner": "lowest", "rounds": 5},
            scores(12, -5, 3),
            lambda game: game.join(77, "Dev", 11),
            lambda game: game.end(),
            lambda game: game.leave(22),
            lambda game: game.leave(33),
            lambda game: game.leave(77),
        ),
    ]


def vectors() -> list[dict[str, Any]]:
    """Every score pad vector."""
    return [*edge_games(), *random_games()]
