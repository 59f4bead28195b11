"""Hearts vectors: random games over every option value, moons under both options, takes
entered as points and as hearts, hands that do not add up, and seat changes down to three."""

from __future__ import annotations

import copy
import random
from typing import Any

from scorekeeper.rules import GameState, Ruleset

from .draw import NOT_AT_ANY_TABLE, random_game
from .script import SEATED, scripted

OPTION_VALUES: dict[str, list[Any]] = {
    "limit": [50, 60, 100, 150, 500],
    "moon": ["add_to_others", "subtract_from_shooter"],
}
"""Each option's minimum, maximum, default and a few values in between."""
STRANGERS: list[Any] = [NOT_AT_ANY_TABLE, "22", None, True, 1.5]


def draw_entry(rng: random.Random, rules: Ruleset[Any], state: GameState) -> dict[str, Any]:
    """A hand dealt at random: each heart and the queen of spades to some player; now and then
    a moon. Entered as points, or as hearts with who took the queen."""
    active = state.active_seats()
    if rng.random() < 0.15:
        shooter = rng.choice(active)
        hearts = {seat: 13 if seat == shooter else 0 for seat in active}
        queen = shooter
    else:
        owners = [rng.choice(active) for _ in range(13)]
        hearts = {seat: owners.count(seat) for seat in active}
        queen = rng.choice(active)
    order = rng.sample(active, len(active))
    if rng.random() < 0.5:
        hands = [{"player": rules.players[s].id, "hearts": hearts[s]} for s in order]
        return {"hands": hands, "queen": rules.players[queen].id}
    taken = {seat: hearts[seat] + 13 * (seat == queen) for seat in active}
    return {"hands": [{"player": rules.players[s].id, "points": taken[s]} for s in order]}


def bad_entry(
    rng: random.Random, rules: Ruleset[Any], state: GameState, entry: dict[str, Any]
) -> dict[str, Any]:
    """``entry`` broken in one of the ways the rules refuse (the rules tests' cases)."""
    entry = copy.deepcopy(entry)
    hands: list[dict[str, Any]] = entry["hands"]
    key = "hearts" if "hearts" in hands[0] else "points"
    hand = rng.choice(hands)
    kind = rng.choice(
        ["off", "off", "range", "missing", "twice", "stranger", "both", "mixed", "queen"]
    )
    if kind == "off":
        hand[key] = max(0, hand[key] + rng.choice([-2, -1, 1, 3]))
    elif kind == "range":
        hand[key] = rng.choice([-1, 14 if key == "hearts" else 27, 99, "5", None, 2.5])
    elif kind == "missing":
        hands.pop(rng.randrange(len(hands)))
    elif kind == "twice":
        hands.insert(rng.randrange(len(hands) + 1), dict(hand))
    elif kind == "stranger":
        hand["player"] = rng.choice(STRANGERS)
    elif kind == "both":
        hand["points" if key == "hearts" else "hearts"] = 0
    elif kind == "mixed":
        other = "points" if key == "hearts" else "hearts"
        hand[other] = hand.pop(key)
    elif key == "hearts":
        entry["queen"] = rng.choice([*STRANGERS, None])
        if entry["queen"] is None:
            entry.pop("queen")
    else:
        entry["queen"] = hands[0]["player"]
    return entry


def random_games() -> list[dict[str, Any]]:
    """Seeded random games for every value of every option, the other options random."""
    settings: list[tuple[str, str | None, Any]] = [
        (f"hearts {name}={value}", name, value)
        for name, values in OPTION_VALUES.items()
        for value in values
    ]
    settings += [(f"hearts mixed options {number}", None, None) for number in range(1, 9)]
    vectors = []
    for seed, name, value in settings:
        rng = random.Random(seed)
        options = {} if name is None else {name: value}
        for other, choices in OPTION_VALUES.items():
            if other != name and rng.random() < 0.5:
                options[other] = rng.choice(choices)
        count = rng.randint(3, 6)
        vectors.append(
            random_game(
                rng, seed, "hearts", options, count, draw_entry, bad_entry, max_items=40, ends=0.02
            )
        )
    return vectors


def points(*taken: int) -> Any:
    """A step: a hand of penalty points by seat."""

    def step(game: Any) -> None:
        rules, _ = game.live()
        ids = [player.id for player in rules.players]
        game.play({"hands": [{"player": ids[s], "points": n} for s, n in enumerate(taken)]})

    return step


def edge_games() -> list[dict[str, Any]]:
    """The rules tests' games: to the limit with a shared win, both moons, a hand of 25."""
    to_fifty = scripted(
        "hearts to the limit with a moon and a shared win",
        "hearts",
        4,
        {"limit": 50},
        points(13, 5, 8, 0),
        points(0, 0, 0, 26),
        lambda game: game.play(
            {
                "hands": [
                    {"player": p["id"], "hearts": n}
                    for p, n in zip(SEATED[:4], (0, 3, 0, 10), strict=True)
                ],
                "queen": SEATED[3]["id"],
            }
        ),
        points(13, 0, 0, 13),
    )
    subtract = scripted(
        "hearts the moon subtracted from the shooter",
        "hearts",
        4,
        {"moon": "subtract_from_shooter"},
        points(13, 5, 8, 0),
        points(0, 0, 0, 26),
        points(13, 5, 7, 0),
        points(9, 9, 8, 0),
    )
    three = scripted(
        "hearts a leave below three is refused, a join is not",
        "hearts",
        3,
        {},
        points(20, 6, 0),
        lambda game: game.leave(SEATED[0]["id"]),
        lambda game: game.join(77, "Dev", SEATED[2]["id"]),
        lambda game: game.leave(SEATED[0]["id"]),
        points(0, 13, 13),
        lambda game: game.end(),
    )
    return [to_fifty, subtract, three]


def vectors() -> list[dict[str, Any]]:
    """Every Hearts vector."""
    return [*edge_games(), *random_games()]
