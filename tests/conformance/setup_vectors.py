"""Setup vectors: new games' options, players and first seats, accepted or refused."""

from __future__ import annotations

from typing import Any

from .recorder import Game
from .script import SEATED

JHYAP_ACCEPTED: list[tuple[int, dict[str, Any]]] = [
    (3, {"call_limit": 0}),
    (3, {"call_limit": 50}),
    (3, {"caller_penalty": 0}),
    (3, {"caller_penalty": 1000}),
    (3, {"caller_tie": "caller_loses"}),
    (3, {"next_starter": "round_winner"}),
    (3, {"elimination_limit": 1, "halve_at": []}),
    (3, {"elimination_limit": 2, "halve_at": [2]}),
    (3, {"elimination_limit": 201}),
    (3, {"elimination_limit": 199}),
    (3, {"elimination_limit": 100}),
    (3, {"elimination_limit": 99}),
    (3, {"elimination_limit": 1}),
    (3, {"elimination_limit": 10000}),
    (3, {"halve_at": []}),
    (3, {"halve_at": [200]}),
    (3, {"halve_at": [200, 100, 2]}),
    (3, {"halve_at": [100, 50]}),
    (3, {"halve_at": list(range(20, 201, 20))}),
    (3, {"elimination_limit": 99, "halve_at": [98]}),
    (2, {"decks": 2}),
    (4, {"decks": 2}),
    (5, {"decks": 1}),
    (5, {"decks": 2}),
    (2, {}),
    (3, {}),
    (4, {}),
    (5, {}),
]
JHYAP_REFUSED: list[dict[str, Any]] = [
    {"call_limit": -1},
    {"call_limit": 51},
    {"call_limit": True},
    {"call_limit": False},
    {"call_limit": "5"},
    {"call_limit": None},
    {"call_limit": 4.5},
    {"caller_penalty": -1},
    {"caller_penalty": 1001},
    {"caller_penalty": True},
    {"caller_penalty": 30.5},
    {"caller_tie": "caller"},
    {"caller_tie": "CALLER_WINS"},
    {"caller_tie": None},
    {"caller_tie": True},
    {"caller_tie": ["caller_wins"]},
    {"elimination_limit": 0, "halve_at": []},
    {"elimination_limit": 10001},
    {"elimination_limit": True, "halve_at": []},
    {"elimination_limit": "x"},
    {"elimination_limit": 199, "halve_at": [200]},
    {"elimination_limit": 150, "halve_at": [100, 200]},
    {"elimination_limit": 120, "halve_at": [100, 200]},
    {"elimination_limit": 3, "halve_at": [4]},
    {"elimination_limit": 2, "halve_at": [2, 4]},
    {"elimination_limit": 1, "halve_at": [2]},
    {"halve_at": [101]},
    {"halve_at": [100, 199]},
    {"halve_at": [0]},
    {"halve_at": [-100]},
    {"halve_at": [202]},
    {"halve_at": [100, 100]},
    {"halve_at": [4, 4]},
    {"halve_at": [True]},
    {"halve_at": ["100"]},
    {"halve_at": [None]},
    {"halve_at": [99.5]},
    {"halve_at": 100},
    {"halve_at": "100"},
    {"halve_at": None},
    {"halve_at": {"100": 1}},
    {"halve_at": list(range(2, 23, 2))},
    {"decks": 0},
    {"decks": 3},
    {"decks": True},
    {"decks": "2"},
    {"decks": None},
    {"next_starter": "winner"},
    {"next_starter": "ROUND_WINNER"},
    {"next_starter": None},
    {"next_starter": True},
    {"call_limit": -1, "decks": 9},
    {"jokers": True},
    {"jokers": 1, "aces": 2},
    {"c": 1, "b": 2, "a": 3},
    {"it's": 1},
    {"call_limit": 99, "bogus": 1},
]
TWENTY_TWO_ACCEPTED: list[tuple[int, dict[str, Any]]] = [
    (3, {"elimination_limit": 1}),
    (3, {"elimination_limit": 1000}),
    (3, {"tie_scores": "all"}),
    (3, {"tie_scores": "tied", "first_deal": 1, "elimination_limit": 50}),
    *((count, {"first_deal": 52 // count}) for count in range(2, 7)),
    *((count, {}) for count in range(2, 7)),
]
TWENTY_TWO_REFUSED: list[tuple[int, dict[str, Any]]] = [
    *((count, {"first_deal": 52 // count + 1}) for count in range(2, 7)),
    *(
        (3, {name: value})
        for name, value in [
            ("elimination_limit", 0),
            ("elimination_limit", 1001),
            ("elimination_limit", -22),
            ("elimination_limit", True),
            ("elimination_limit", "22"),
            ("elimination_limit", None),
            ("first_deal", 0),
            ("first_deal", True),
            ("first_deal", False),
            ("first_deal", 7.5),
            ("tie_scores", "none"),
            ("tie_scores", "TIED"),
            ("tie_scores", None),
            ("tie_scores", True),
            ("decks", 1),
            ("call_limit", 1),
            ("halve_at", 1),
            ("Tie_scores", 1),
        ]
    ),
]
SEATS: list[tuple[str, int, Any, Any]] = [
    ("jhyap", 2, 0, 0),
    ("jhyap", 2, 1, 0),
    ("jhyap", 3, 2, 2),
    ("jhyap", 5, 1, 4),
    ("jhyap", 3, 0, None),
    ("jhyap", 3, 2, None),
    ("jhyap", 5, 4, None),
    ("jhyap", 2, 1, None),
    ("jhyap", 2, 2, None),
    ("jhyap", 3, -1, None),
    ("jhyap", 3, 5, 7),
    ("jhyap", 3, 9, None),
    ("jhyap", 3, 0, 9),
    ("jhyap", 3, 0, -1),
    ("jhyap", 3, 0, True),
    ("jhyap", 3, None, 1),
    ("twenty-two", 3, 0, None),
    ("twenty-two", 3, 2, None),
    ("twenty-two", 6, 5, None),
    *(("twenty-two", 3, 0, starter) for starter in (0, 1, 2)),
    *(("twenty-two", 3, dealer, None) for dealer in (-1, 3, True, "0", None, 1.5)),
    ("twenty-two", 3, 7, 1),
]


def setup(
    name: str, ruleset: Any, count: int, options: Any, dealer: Any = 0, starter: Any = None
) -> dict[str, Any]:
    """The vector of a new game of the first ``count`` players (``SEATED``, then more)."""
    players = [*SEATED, *({"id": 100 + n, "name": f"P{n}"} for n in range(6))][:count]
    return Game(name, ruleset, players, options, dealer=dealer, starter=starter).vector


def vectors() -> list[dict[str, Any]]:
    """Every setup vector."""
    out = [setup(f"jhyap options {opts} for {n}", "jhyap", n, opts) for n, opts in JHYAP_ACCEPTED]
    out += [setup(f"jhyap refused options {opts}", "jhyap", 3, opts) for opts in JHYAP_REFUSED]
    out += [
        setup(f"twenty-two options {opts} for {n}", "twenty-two", n, opts)
        for n, opts in TWENTY_TWO_ACCEPTED + TWENTY_TWO_REFUSED
    ]
    out += [
        setup(f"{ruleset} {count} players", ruleset, count, {})
        for ruleset, counts in (("jhyap", (0, 1, 6, 7)), ("twenty-two", (0, 1, 7, 12)))
        for count in counts
    ]
    out += [
        setup(
            f"{ruleset} {count} players, dealer {dealer!r}, starter {starter!r}",
            ruleset,
            count,
            {},
            dealer,
            starter,
        )
        for ruleset, count, dealer, starter in SEATS
    ]
    out += [
        setup(f"ruleset {name!r}", name, 3, {})
        for name in ("poker", None, 5, "Jhyap", ["jhyap"], "twenty_two", "", "it's")
    ]
    out.append(setup("an unknown ruleset, named before bad options", "poker", 1, {"x": 1}))
    out.append(setup("too few players, named before bad options", "jhyap", 1, {"x": 1}))
    out.append(setup("bad options, named before bad seats", "jhyap", 3, {"x": 1}, 9, 9))
    return out
