"""Jhyap vectors: random games over every option value, broken entries, the rules tests' edges."""

from __future__ import annotations

import copy
import random
from typing import Any

from scorekeeper.rules import GameState, Ruleset
from scorekeeper.rules.cards import parse_card
from scorekeeper.rules.jhyap import card_value

from .draw import DECK, NOT_AT_ANY_TABLE, random_game, spelling
from .script import entry, hands, scripted

OPTION_VALUES: dict[str, list[Any]] = {
    "call_limit": [0, 1, 5, 12, 50],
    "caller_penalty": [0, 1, 30, 75, 1000],
    "caller_tie": ["caller_wins", "caller_loses"],
    "elimination_limit": [1, 2, 60, 150, 200, 999, 10000],
    "halve_at": [[], [2], [100], [100, 200], [200, 100, 50], list(range(20, 201, 20)), [50, 150]],
    "decks": [1, 2],
    "next_starter": ["lowest_hand", "round_winner"],
}
"""Each option's minimum, maximum, default and a few values in between."""
BAD_CODES: list[Any] = [
    "ZZ",
    "1S",
    "",
    "AS♠",
    "11S",
    "KX",
    "Q",
    "10",
    "HK",
    "JKS",
    "it's",
    12,
    None,
]
BAD_TOTALS: list[Any] = [-1, 51, 100, True, False, 2.5, "7"]
STRANGERS: list[Any] = [NOT_AT_ANY_TABLE, "22", None, True, 0, 1.5]


def value(code: str) -> int:
    """The Jhyap value of a canonical card code."""
    return card_value(parse_card(code))


def cards_for(rng: random.Random, total: int, pool: list[str]) -> list[str] | None:
    """1 to 5 cards from ``pool`` worth ``total`` (taken out of the pool), if some are found."""
    for _ in range(20):
        count, left, chosen, free = rng.randint(1, 5), total, [], list(pool)
        for index in range(count):
            later = count - 1 - index
            fits = [c for c in free if 0 <= left - value(c) <= 10 * later]
            if not fits:
                break
            chosen.append(rng.choice(fits))
            free.remove(chosen[-1])
            left -= value(chosen[-1])
        if len(chosen) == count and left == 0:
            for code in chosen:
                pool.remove(code)
            return chosen
    return None


def draw_entry(rng: random.Random, rules: Ruleset[Any], state: GameState) -> dict[str, Any]:
    """A valid round: a caller within the limit, hands aimed now and then at the rules' edges.

    Hands tie the caller, catch the caller, land exactly on a halving score or just over the
    elimination limit; about a third are entered as cards (spelled as tables write them).
    """
    options = rules.options
    limit, penalty, out = (
        options["call_limit"],
        options["caller_penalty"],
        options["elimination_limit"],
    )
    active = state.active_seats()
    caller = rng.choice(active)
    pool = [code for code in DECK for _ in range(options["decks"])] + ["JK"] * 2 * options["decks"]

    def caller_total() -> int:
        score, roll = state.scores[caller], rng.random()
        if roll < 0.3:
            return limit  # a call at the limit
        if roll < 0.4:  # a failed call landing on a halving score or over the limit
            aims = [t - score - penalty for t in [*options["halve_at"], out + 1]]
            if fits := [aim for aim in aims if 0 <= aim <= limit]:
                return rng.choice(fits)
        return rng.randint(0, limit)

    totals = {caller: caller_total()}
    for seat in active:
        if seat == caller:
            continue
        score, roll = state.scores[seat], rng.random()
        aims = [t - score for t in [*options["halve_at"], out, out + 1]]
        if roll < 0.15:
            totals[seat] = totals[caller]  # a tie with the caller
        elif roll < 0.25 and totals[caller]:
            totals[seat] = rng.randrange(totals[caller])  # catches the caller
        elif roll < 0.5 and (fits := [aim for aim in aims if 0 <= aim <= 50]):
            totals[seat] = rng.choice(fits)
        else:
            totals[seat] = rng.choice([rng.randint(0, 15), rng.randint(0, 50)])
    hands = []
    for seat, total in totals.items():
        hand: dict[str, Any] = {"player": rules.players[seat].id}
        cards = cards_for(rng, total, pool) if rng.random() < 0.35 else None
        if cards is None:
            hand["total"] = total
            if rng.random() < 0.05:
                hand["cards"] = None
        else:
            hand["cards"] = [spelling(rng, code) for code in cards]
            if rng.random() < 0.05:
                hand["total"] = None
        hands.append(hand)
    if rng.random() < 0.5:
        rng.shuffle(hands)
    return {"caller": rules.players[caller].id, "hands": hands}


def bad_entry(
    rng: random.Random, rules: Ruleset[Any], state: GameState, entry: dict[str, Any]
) -> dict[str, Any]:
    """``entry`` broken in one of the ways the rules refuse (the rules tests' cases)."""
    entry = copy.deepcopy(entry)
    hands: list[dict[str, Any]] = entry["hands"]
    ids = [player.id for player in rules.players]
    gone = [ids[seat] for seat in range(len(ids)) if not state.is_active(seat)]
    hand = rng.choice(hands)
    kind = rng.choice(
        [
            "missing",
            "twice",
            "stranger",
            "gone",
            "over",
            "caller",
            "total",
            "both",
            "code",
            "count",
            "deck",
        ]
    )
    if kind == "missing":
        for _ in range(rng.randint(1, len(hands))):
            hands.pop(rng.randrange(len(hands)))
    elif kind == "twice":
        hands.insert(rng.randrange(len(hands) + 1), copy.deepcopy(hand))
    elif kind == "stranger" or (kind == "gone" and not gone):
        hand["player"] = rng.choice(STRANGERS)
    elif kind == "gone":
        hands.insert(rng.randrange(len(hands) + 1), {"player": rng.choice(gone), "total": 3})
    elif kind == "over" and rules.options["call_limit"] < 50:
        mine = next(h for h in hands if h["player"] == entry["caller"])
        mine.pop("cards", None)
        mine["total"] = rng.randint(rules.options["call_limit"] + 1, 50)
    elif kind in ("caller", "over"):
        entry["caller"] = rng.choice([*STRANGERS, str(entry["caller"]), *gone])
    elif kind == "total":
        hand.pop("cards", None)
        hand["total"] = rng.choice(BAD_TOTALS)
    elif kind == "both":
        hand.clear()
        hand |= rng.choice([{"total": 4, "cards": ["4S"]}, {}, {"total": None, "cards": None}])
        hand["player"] = rng.choice(ids)
    elif kind == "code":
        hand.pop("total", None)
        hand["cards"] = [*hand.get("cards", [])[:4], rng.choice(BAD_CODES)]
        rng.shuffle(hand["cards"])
    elif kind == "count":
        hand.pop("total", None)
        hand["cards"] = rng.sample(DECK, rng.choice([0, 6, 7]))
    else:  # kind == "deck": one card more than the decks hold
        decks = rules.options["decks"]
        code = rng.choice(["JK", rng.choice(DECK)])
        copies = [spelling(rng, code) for _ in range(2 * decks + 1 if code == "JK" else decks + 1)]
        for index, h in enumerate(hands[: len(copies)]):
            h.pop("total", None)
            h["cards"] = copies[index :: min(len(hands), len(copies))]
    return entry


def random_options(rng: random.Random, name: str, value: Any) -> dict[str, Any]:
    """``name`` set to ``value``, and each other option left out or set to a random value."""
    options = {name: value}
    for other, values in OPTION_VALUES.items():
        if other != name and rng.random() < 0.5:
            options[other] = rng.choice(values)
    limit = options.get("elimination_limit", 200)
    if any(score > limit for score in options.get("halve_at", [])):
        if name == "halve_at":
            del options["elimination_limit"]
        else:
            options["halve_at"] = [score for score in options["halve_at"] if score <= limit]
    return options


def random_games() -> list[dict[str, Any]]:
    """Seeded random games for every value of every option, the other options random."""
    vectors = []
    for name, values in OPTION_VALUES.items():
        for value in values:
            seed = f"jhyap {name}={value}"
            rng = random.Random(seed)
            options = random_options(rng, name, value)
            count = rng.randint(2, 5)
            vectors.append(random_game(rng, seed, "jhyap", options, count, draw_entry, bad_entry))
    for number in range(1, 9):  # every option random
        seed = f"jhyap mixed options {number}"
        rng = random.Random(seed)
        name = rng.choice(list(OPTION_VALUES))
        options = random_options(rng, name, rng.choice(OPTION_VALUES[name]))
        vectors.append(
            random_game(rng, seed, "jhyap", options, rng.randint(2, 5), draw_entry, bad_entry)
        )
    return vectors


def edge_games() -> list[dict[str, Any]]:
    """The rules tests' edge cases (tests/rules/test_jhyap.py), written out."""
    no_halving: dict[str, Any] = {"halve_at": []}
    return [
        scripted(
            "jhyap call at the limit, over it, and a tie the caller wins",
            "jhyap",
            3,
            {},
            hands(0, {0: 5, 1: 6, 2: 9}),
            hands(1, {0: 7, 1: 6, 2: 9}),
            hands(1, {0: 9, 1: 5, 2: 5}),
            hands(2, {0: 4, 1: 7, 2: ["AS", "2H", "JK"]}),
            starter=2,
        ),
        scripted(
            "jhyap call limit 0, jokers as a hand",
            "jhyap",
            2,
            {"call_limit": 0},
            hands(0, {0: 0, 1: 0}),
            hands(1, {0: 1, 1: 1}),
            hands(1, {0: ["JK"], 1: ["x"]}),
            hands(0, {0: ["joker", "Jk"], 1: 0}),
            dealer=1,
            starter=0,
        ),
        scripted(
            "jhyap a tie the caller loses",
            "jhyap",
            3,
            {"caller_tie": "caller_loses"},
            hands(0, {0: 3, 1: 3, 2: 3}),
            hands(1, {0: 2, 1: 2, 2: 20}),
        ),
        scripted(
            "jhyap halving exactly, 200 to 100, then 100 to 50 the next round",
            "jhyap",
            3,
            {},
            *(hands(0, {0: 0, 1: total, 2: 10}) for total in (50, 50, 49, 50, 50, 1)),
            hands(1, {0: 3, 1: 0, 2: 10}),
            hands(1, {0: 3, 1: 0, 2: 10}),
            dealer=2,
            starter=0,
        ),
        scripted(
            "jhyap halving at 50 and 100: once a round",
            "jhyap",
            2,
            {"halve_at": [100, 50]},
            hands(0, {0: 0, 1: 50}),
            hands(0, {0: 0, 1: 0}),
            hands(0, {0: 0, 1: 50}),
            hands(0, {0: 0, 1: 25}),
            hands(0, {0: 0, 1: 50}),
        ),
        scripted(
            "jhyap halving off",
            "jhyap",
            2,
            no_halving,
            hands(0, {0: 0, 1: 50}),
            hands(0, {0: 0, 1: 50}),
            hands(0, {0: 0, 1: 0}),
        ),
        scripted(
            "jhyap eliminated strictly above the limit, two at once",
            "jhyap",
            3,
            {"elimination_limit": 60, **no_halving},
            hands(0, {0: 0, 1: 50, 2: 10}),
            hands(0, {0: 0, 1: 10, 2: 50}),
            hands(0, {0: 0, 1: 1, 2: 1}),
        ),
        scripted(
            "jhyap several out at once, the game goes on, the out player is refused",
            "jhyap",
            4,
            {"elimination_limit": 20, **no_halving},
            hands(0, {0: 0, 1: 21, 2: 21, 3: 5}),
            hands(3, {0: 1, 1: 1, 3: 0}),
            hands(1, {0: 1, 3: 0}),
            hands(3, {0: 9, 3: 0}),
            hands(0, {0: 3, 3: 1}),
        ),
        scripted(
            "jhyap everyone out at once: the lowest total wins",
            "jhyap",
            3,
            {"elimination_limit": 1, **no_halving},
            hands(0, {0: 5, 1: 2, 2: 3}),
        ),
        scripted(
            "jhyap everyone out at once: equal lowest totals share the win",
            "jhyap",
            3,
            {"elimination_limit": 1, **no_halving},
            hands(0, {0: 5, 1: 2, 2: 2}),
        ),
        scripted(
            "jhyap two players out together with equal totals share",
            "jhyap",
            2,
            {
                "elimination_limit": 10,
                "caller_penalty": 0,
                "caller_tie": "caller_loses",
                **no_halving,
            },
            hands(0, {0: 0, 1: 10}),
            hands(1, {0: 10, 1: 0}),
            hands(0, {0: 1, 1: 1}),
        ),
        scripted(
            "jhyap round winner starts; a catcher who went out passes it on",
            "jhyap",
            4,
            {"next_starter": "round_winner", "elimination_limit": 20, **no_halving},
            hands(0, {0: 0, 1: 19, 2: 0, 3: 0}),
            hands(0, {0: 3, 1: 2, 2: 10, 3: 10}),
            hands(2, {2: 4, 3: 1}),
            starter=1,
        ),
        scripted(
            "jhyap round winner: equal catchers, the first clockwise from the caller's left",
            "jhyap",
            5,
            {"next_starter": "round_winner"},
            hands(2, {0: 1, 1: 9, 2: 5, 3: 9, 4: 1}),
            hands(0, {0: 0, 1: 9, 2: 5, 3: 9, 4: 1}),
            starter=3,
        ),
        scripted(
            "jhyap lowest hands tie: the first clockwise from this round's dealer's left",
            "jhyap",
            4,
            {},
            hands(0, {0: 5, 1: 9, 2: 5, 3: 5}),
            hands(3, {3: 2, 2: 2, 1: 2, 0: 2}),
            dealer=1,
            starter=2,
        ),
        scripted(
            "jhyap cards: one deck's jokers, a 50-point hand, spellings",
            "jhyap",
            3,
            {},
            hands(0, {0: ["JK", "JK"], 1: ["x", "joker"], 2: 9}),
            hands(0, {0: ["JK", "JK"], 1: ["KH", "KD", "KC", "KS", "QH"], 2: ["th", "q♠"]}),
            hands(1, {0: ["AS"], 1: ["A♠"], 2: 3}),
            hands(1, {0: 9, 1: ["AS", "2S", "3S", "4S", "5S", "6S"], 2: 3}),
            hands(1, {0: 9, 1: [], 2: 3}),
        ),
        scripted(
            "jhyap cards: two decks",
            "jhyap",
            5,
            {},
            hands(0, {0: ["JK", "JK"], 1: ["jk", "x"], 2: ["AS"], 3: ["as"], 4: 9}),
            hands(0, {0: ["JK", "JK"], 1: ["jk", "x"], 2: ["Joker"], 3: 9, 4: 9}),
            hands(0, {0: ["AS"], 1: ["AS", "KH"], 2: ["a♠"], 3: 9, 4: 9}),
        ),
        scripted(
            "jhyap the players of a round",
            "jhyap",
            3,
            {},
            *(
                entry(
                    {
                        "caller": 11,
                        "hands": [
                            {"player": 11, "total": 0},
                            {"player": player, "total": 4},
                            {"player": 33, "total": 9},
                        ],
                    }
                )
                for player in (99, 0, "22", None, True)
            ),
            entry(
                {
                    "caller": 11,
                    "hands": [
                        {"player": 11, "total": 0},
                        {"player": 22, "total": 4},
                        {"player": 22, "total": 7},
                        {"player": 33, "total": 9},
                    ],
                }
            ),
            hands(0, {0: 0, 1: 4}),
            hands(0, {0: 0}),
            hands(0, {}),
            *(
                entry(
                    {
                        "caller": caller,
                        "hands": [
                            {"player": 11, "total": 0},
                            {"player": 22, "total": 4},
                            {"player": 33, "total": 9},
                        ],
                    }
                )
                for caller in (None, 99, "11", True, 1.5)
            ),
            hands(2, {2: 1, 1: 7, 0: 4}),
        ),
        scripted(
            "jhyap hand totals and both-or-neither",
            "jhyap",
            3,
            {},
            *(hands(0, {0: 0, 1: total, 2: 9}) for total in BAD_TOTALS),
            *(
                entry(
                    {
                        "caller": 11,
                        "hands": [
                            {"player": 11, "total": 0},
                            {"player": 22, **hand},
                            {"player": 33, "total": 9},
                        ],
                    }
                )
                for hand in (
                    {"total": 4, "cards": ["4S"]},
                    {},
                    {"total": None, "cards": None},
                    {"total": 4, "cards": None},
                    {"total": None, "cards": ["4S"]},
                )
            ),
            *(hands(0, {0: 0, 1: ["AS", code], 2: 9}) for code in BAD_CODES),
            hands(0, {0: 0, 1: 50, 2: 0}),
        ),
    ]


def vectors() -> list[dict[str, Any]]:
    """Every Jhyap vector."""
    return [*edge_games(), *random_games()]
