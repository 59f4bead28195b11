"""Twenty Two vectors: random games over every option value, long games that empty the pack,
broken final tricks, and the rules tests' edges."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from scorekeeper.rules import GameState, Player, Ruleset, TwentyTwo, TwentyTwoState
from scorekeeper.rules.cards import RANKS, parse_card

from .draw import DECK, NOT_AT_ANY_TABLE, random_game, spelling
from .script import SEATED, entry, join, scripted, trick

OPTION_VALUES: dict[str, list[Any]] = {
    "elimination_limit": [1, 2, 11, 22, 40, 100, 1000],
    "first_deal": [1, 3, 7, 8, 13, 17, 26],
    "tie_scores": ["tied", "all"],
}
"""Each option's minimum, maximum, default and a few values in between."""
BAD_CODES: list[Any] = ["1H", "11S", "KX", "", "Q", "10", "HK", "JKS", "q♠♠", 12, None]
ODD_CODES: list[Any] = [
    "🂡",
    "\u200bAS",
    "a\tb",
    'say "hi"',
    "both ' and \"",
    "\uff2a♠",  # a full-width J
    "ß",
    True,
    ["AS"],
]
"""Codes whose refusal quotes them as Python does: escapes, quotes, other types."""
JOKERS = ["JK", "jk", "X", "joker"]
STRANGERS: list[Any] = [NOT_AT_ANY_TABLE, "22", None, True, 0, 1.5]


def rank(code: str) -> int:
    """The rank order of a canonical code, 2 (0) up to ace (12)."""
    return RANKS.index(code[:-1])


def draw_entry(rng: random.Random, rules: Ruleset[Any], state: GameState) -> dict[str, Any]:
    """A valid final trick from the pack, in a random order; now and then a tie for the highest."""
    assert isinstance(state, TwentyTwoState)
    kept = {code for pile in state.piles for code in pile}
    free = [code for code in DECK if code not in kept]
    active = state.active_seats()
    cards = rng.sample(free, len(active))
    if rng.random() < 0.3:  # a tie: two or more of one rank, the rest lower
        by_rank = {r: [c for c in free if rank(c) == r] for r in range(len(RANKS))}
        tied_ranks = [r for r, codes in by_rank.items() if len(codes) >= 2]
        if tied_ranks:
            top = rng.choice(tied_ranks)
            lower = [code for code in free if rank(code) < top]
            tied = rng.sample(by_rank[top], rng.randint(2, min(len(by_rank[top]), len(active))))
            if len(lower) >= len(active) - len(tied):
                cards = tied + rng.sample(lower, len(active) - len(tied))
    order = rng.sample(active, len(active))
    plays = [
        {"player": rules.players[seat].id, "card": spelling(rng, card)}
        for seat, card in zip(order, cards, strict=True)
    ]
    rng.shuffle(plays)
    return {"last_trick": plays}


def bad_entry(
    rng: random.Random, rules: Ruleset[Any], state: GameState, entry: dict[str, Any]
) -> dict[str, Any]:
    """``entry`` broken in one of the ways the rules refuse (the rules tests' cases)."""
    assert isinstance(state, TwentyTwoState)
    entry = copy.deepcopy(entry)
    plays: list[dict[str, Any]] = entry["last_trick"]
    ids = [player.id for player in rules.players]
    gone = [ids[seat] for seat in range(len(ids)) if not state.is_active(seat)]
    kept = [code for pile in state.piles for code in pile]
    play = rng.choice(plays)
    kind = rng.choice(["missing", "twice", "stranger", "gone", "joker", "again", "kept", "code"])
    if kind == "missing":
        for _ in range(rng.randint(1, len(plays))):
            plays.pop(rng.randrange(len(plays)))
    elif kind == "twice":
        plays.insert(rng.randrange(len(plays) + 1), {**play, "card": rng.choice(DECK)})
    elif kind == "stranger" or (kind == "gone" and not gone):
        play["player"] = rng.choice(STRANGERS)
    elif kind == "gone":
        plays.insert(rng.randrange(len(plays) + 1), {"player": rng.choice(gone), "card": "2C"})
    elif kind == "joker":
        play["card"] = rng.choice(JOKERS)
    elif kind == "again" or (kind == "kept" and not kept):
        other = rng.choice([p for p in plays if p is not play])
        other["card"] = spelling(rng, parse_card(play["card"]).code)
    elif kind == "kept":
        play["card"] = spelling(rng, rng.choice(kept))
    else:
        play["card"] = rng.choice(BAD_CODES)
    return entry


def random_games() -> list[dict[str, Any]]:
    """Seeded random games for every value of every option, the other options random."""
    settings: list[tuple[str, str | None, Any]] = [
        (f"twenty-two {name}={value}", name, value)
        for name, values in OPTION_VALUES.items()
        for value in values
    ]
    settings += [(f"twenty-two mixed options {number}", None, None) for number in range(1, 9)]
    vectors = []
    for seed, name, value in settings:
        rng = random.Random(seed)
        options = {} if name is None else {name: value}
        for other, choices in OPTION_VALUES.items():
            if other != name and rng.random() < 0.5:
                options[other] = rng.choice(choices)
        count = rng.randint(2, min(6, 52 // options.get("first_deal", 7)))
        vectors.append(random_game(rng, seed, "twenty-two", options, count, draw_entry, bad_entry))
    return vectors


def long_games() -> list[dict[str, Any]]:
    """Games long enough for the score piles to empty the pack (rules.md, "The empty pack")."""
    vectors = []
    long = [(1000, 2, "tied", 70), (1000, 3, "all", 60), (400, 4, "all", 50), (1000, 6, "tied", 40)]
    for limit, count, tie_scores, items in long:
        seed = f"twenty-two long, limit {limit}, {count} players, tie_scores {tie_scores}"
        rng = random.Random(seed)
        options = {"elimination_limit": limit, "tie_scores": tie_scores}
        vectors.append(
            random_game(
                rng,
                seed,
                "twenty-two",
                options,
                count,
                draw_entry,
                bad_entry,
                max_items=items,
                seat_changes=0.03 if count > 2 else 0,
                refused=0.03,
            )
        )
    return vectors


def mid_game(
    count: int,
    options: dict[str, Any],
    piles: dict[int, list[str]],
    *,
    dealer: int = 0,
    eliminated: dict[int, int] | None = None,
    scores: tuple[int, ...] | None = None,
) -> dict[str, Any]:
    """A stored state part way through a game (tests/rules/test_twenty_two.py's ``mid_game``)."""
    rules = TwentyTwo([Player(p["id"], p["name"]) for p in SEATED[:count]], options)
    start = rules.start(dealer, None)
    assert isinstance(start, TwentyTwoState)
    pile_tuple = tuple(tuple(piles.get(seat, ())) for seat in range(count))
    state = replace(
        start,
        rounds_played=5,
        scores=scores or tuple(sum(VALUES[code[:-1]] for code in pile) for pile in pile_tuple),
        eliminated_in_round=tuple((eliminated or {}).get(seat) for seat in range(count)),
        piles=pile_tuple,
        cards_each=1,
    )
    return replace(state, starter=rules.next_active_seat(state, dealer)).to_dict()


VALUES = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
          "J": 10, "Q": 10, "K": 10, "A": 11}  # fmt: skip


def filler(*leave_out: str) -> list[str]:
    """The deck without ``leave_out``, in deck order."""
    return [code for code in DECK if code not in leave_out]


STORED_BEFORE_SEAT_CHANGES = json.loads(
    (Path(__file__).parents[1] / "storage" / "states_stored_before_seat_changes.json").read_text()
)
"""States stored before seat changes, and what the migration makes of them (its test's data)."""


def pack_games() -> list[dict[str, Any]]:
    """The pack's edges: a deal capped by the pack, the piles going back, stored states."""
    limit = {"elimination_limit": 1000}
    vectors = [
        scripted(
            f"twenty-two {kept} cards kept, then an ace",
            "twenty-two",
            3,
            limit,
            trick((1, "AS"), (2, "2C"), (0, "3C")),
            trick((0, "QH"), (1, "2C"), (2, "as")),
            restore=mid_game(3, limit, {2: filler("AS", "2C", "3C")[:kept]}),
        )
        for kept in (0, 17, 19, 30, 44, 46, 48, 49)
    ]
    for count, kept, card in [(2, 49, "AS"), (2, 50, "AS"), (3, 48, "AS"), (3, 49, "AS"),
                              (3, 49, "4D"), (6, 45, "AS"), (6, 46, "AS")]:  # fmt: skip
        low = ["2C", "3C", "2D", "3D", "2H"][: count - 1]
        others = [seat for seat in range(count) if seat != 1]
        vectors.append(
            scripted(
                f"twenty-two {count} players, {kept} kept, {card} taken",
                "twenty-two",
                count,
                limit,
                trick((1, card), *zip(others, low, strict=True)),
                restore=mid_game(count, limit, {0: filler(card, *low)[:kept]}),
            )
        )
    tie_all = {**limit, "tie_scores": "all"}
    plays = ((1, "KD"), (2, "5H"), (3, "KS"), (0, "3C"))
    vectors += [
        scripted(
            f"twenty-two a tie scored by all with {kept} kept",
            "twenty-two",
            4,
            tie_all,
            trick(*plays),
            restore=mid_game(4, tie_all, {0: filler(*(card for _, card in plays))[:kept]}),
        )
        for kept in (44, 45)
    ]
    four_hundred = {"elimination_limit": 400}
    vectors += [
        scripted(
            f"twenty-two the pack counts the players left after the round ({before})",
            "twenty-two",
            3,
            four_hundred,
            trick((1, "AS"), (2, "2C"), (0, "3C")),
            restore=mid_game(
                3, four_hundred, {2: filler("AS", "2C", "3C")}, scores=(100, before, 380)
            ),
        )
        for before in (300, 390)
    ]
    vectors += [
        scripted(
            "twenty-two the piles stay when the game ends",
            "twenty-two",
            2,
            four_hundred,
            trick((1, "AS"), (0, "2C")),
            restore=mid_game(
                2, four_hundred, {0: [*filler("AS", "2C", "3C"), "3C"]}, scores=(380, 390)
            ),
        ),
        scripted(
            "twenty-two the pack counts an eliminated player's pile",
            "twenty-two",
            4,
            {"elimination_limit": 11},
            trick((1, "AS"), (2, "2C"), (0, "3C")),
            restore=mid_game(
                4, {"elimination_limit": 11}, {3: filler("AS", "2C", "3C")[:30]}, eliminated={3: 2}
            ),
        ),
    ]
    for case in STORED_BEFORE_SEAT_CHANGES["twenty-two"]:
        vectors.append(
            scripted(
                f"twenty-two a state stored before seat changes, migrated: {case['name']}",
                "twenty-two",
                3,
                limit,
                trick((2, "AS"), (0, "QH"), (1, "2C")),
                join(0),
                restore=case["upgraded"],
            )
        )
    return vectors


def edge_games() -> list[dict[str, Any]]:
    """The rules tests' edge cases (tests/rules/test_twenty_two.py), written out."""
    return [
        scripted(
            "twenty-two the next deal is the loser's card; a 2 deals two",
            "twenty-two",
            3,
            {},
            trick((1, "9C"), (2, "KD"), (0, "4H")),
            trick((0, "AS"), (1, "2D"), (2, "3D")),
            trick((2, "2C"), (0, "2H")),
            trick((1, "2S"), (2, "3S"), (0, "4S")),
        ),
        scripted(
            "twenty-two six players, round 1 lost with a queen",
            "twenty-two",
            6,
            {},
            trick((1, "2C"), (2, "3C"), (3, "QH"), (4, "4C"), (5, "5C"), (0, "6C")),
        ),
        scripted(
            "twenty-two ties: only the tied score; a lower tie is no tie; three tied",
            "twenty-two",
            4,
            {"elimination_limit": 60},
            trick((0, "KD"), (1, "KS"), (2, "5H"), (3, "3C")),
            trick((0, "5C"), (1, "5D"), (2, "9H"), (3, "3D")),
            trick((3, "QC"), (2, "QD"), (1, "2D"), (0, "QS")),
        ),
        scripted(
            "twenty-two ties scored by all; no tie, only the highest",
            "twenty-two",
            4,
            {"tie_scores": "all", "elimination_limit": 100},
            trick((0, "KD"), (1, "KS"), (2, "5H"), (3, "3C")),
            trick((0, "AC"), (1, "2D"), (2, "9H"), (3, "3D")),
        ),
        scripted(
            "twenty-two out at the limit exactly; the loser out still deals",
            "twenty-two",
            3,
            {"elimination_limit": 10},
            trick((0, "9C"), (1, "2C"), (2, "3C")),
            trick((0, "KD"), (1, "5C"), (2, "4C")),
            trick((1, "KS"), (2, "4D")),
        ),
        scripted(
            "twenty-two the tied player who played last deals, even when out",
            "twenty-two",
            4,
            {"elimination_limit": 10, "tie_scores": "all"},
            trick((2, "2C"), (3, "QH"), (0, "3C"), (1, "QS")),
            trick((2, "9C"), (0, "9D"), (3, "2D")),
        ),
        scripted(
            "twenty-two everyone out at once: the lowest wins, ties share",
            "twenty-two",
            3,
            {"elimination_limit": 1, "tie_scores": "all"},
            trick((0, "KD"), (1, "KS"), (2, "5H")),
        ),
        scripted(
            "twenty-two everyone out at once: equal totals share",
            "twenty-two",
            2,
            {"elimination_limit": 1},
            trick((0, "KD"), (1, "KS")),
            dealer=1,
        ),
        scripted(
            "twenty-two refused tricks",
            "twenty-two",
            3,
            {},
            trick((2, "KD"), (0, "3C"), (1, "4C")),
            *(trick((2, "QD"), (0, joker), (1, "4C")) for joker in JOKERS),
            *(
                trick((2, first), (0, second), (1, "4C"))
                for first, second in [("10H", "th"), ("QS", "Q♠"), ("AC", "ac")]
            ),
            *(trick((0, spelt), (1, "4C"), (2, "5C")) for spelt in ["KD", "kd", "K♦"]),
            *(trick((2, "QD"), (0, code), (1, "4C")) for code in BAD_CODES),
            trick((2, "QD"), (0, "3C")),
            trick((2, "QD")),
            *(
                entry(
                    {
                        "last_trick": [
                            {"player": 33, "card": "QD"},
                            {"player": 11, "card": "3C"},
                            {"player": stranger, "card": "4C"},
                        ]
                    }
                )
                for stranger in STRANGERS
            ),
            entry(
                {
                    "last_trick": [
                        {"player": 33, "card": "QD"},
                        {"player": 11, "card": "3C"},
                        {"player": 11, "card": "4C"},
                    ]
                }
            ),
            trick((2, "QD"), (0, "3C"), (1, "4C")),
            dealer=1,
        ),
    ]


def spellings() -> dict[str, Any]:
    """Cards spelled as tables write them, with white space around, and codes that name none."""
    return scripted(
        "twenty-two card spellings",
        "twenty-two",
        3,
        {"elimination_limit": 100},
        *(trick((0, code), (1, "3C"), (2, "4C")) for code in ODD_CODES),
        trick((0, " 10h\t"), (1, "\x1c2C\x1f"), (2, "t♣")),
        trick((0, "\u00a0q♦"), (1, "\u2003k♠ "), (2, "a♥\n")),
    )


def vectors() -> list[dict[str, Any]]:
    """Every Twenty Two vector."""
    return [*edge_games(), spellings(), *pack_games(), *random_games(), *long_games()]
