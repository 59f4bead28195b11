"""Seat change vectors: joins and leaves at the edges tests/rules/test_seat_changes.py names."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scorekeeper.rules import Player, get_ruleset

from .script import (
    SEATED,
    hands,
    join,
    join_after_id,
    leave,
    leave_id,
    scripted,
    trick,
)


def mid_game(
    ruleset: str,
    count: int,
    options: dict[str, Any],
    scores: tuple[int, ...],
    *,
    dealer: int = 0,
    starter: int | None = None,
    out: dict[int, int] | None = None,
    rounds: int = 4,
) -> dict[str, Any]:
    """A stored state after ``rounds`` rounds (``out`` maps a seat to the round it went out in)."""
    rules = get_ruleset(ruleset)([Player(p["id"], p["name"]) for p in SEATED[:count]], options)
    first = rules.start(dealer, starter if rules.chooses_starter else None)
    state = replace(
        first,
        rounds_played=rounds,
        scores=scores,
        eliminated_in_round=tuple((out or {}).get(seat) for seat in range(count)),
    )
    if starter is None:
        state = replace(state, starter=rules.next_active_seat(state, dealer))
    return state.to_dict()


def both(ruleset: str) -> list[dict[str, Any]]:
    """The cases both rulesets share."""
    first = (
        hands(0, {0: 1, 1: 9, 2: 9, 3: 9})
        if ruleset == "jhyap"
        else trick((0, "2C"), (1, "3C"), (2, "4C"), (3, "5C"))
    )
    return [
        *(
            scripted(
                f"{ruleset} a join after seat {after} keeps the next dealer and starter",
                ruleset,
                3,
                {},
                join(after),
                first,
                restore=mid_game(ruleset, 3, {}, (10, 19, 20), dealer=1),
            )
            for after in range(3)
        ),
        scripted(
            f"{ruleset} the newcomer's total is the highest among players still in",
            ruleset,
            4,
            {"elimination_limit": 100},
            join(0),
            leave(4),
            join(3, 88, "Gita"),
            leave(0),
            leave(0),
            restore=mid_game(ruleset, 4, {"elimination_limit": 100}, (10, 150, 20, 30), out={1: 2}),
        ),
        scripted(
            f"{ruleset} refused joins",
            ruleset,
            3,
            {},
            *(join_after_id(after) for after in (99, 0, -1, True, "11", None, 1.5)),
            *(lambda game, pid=pid: game.join(pid, "Dev", 11) for pid in (22, 11)),
            leave(1),
            leave(0),
            join(0),
        ),
        scripted(
            f"{ruleset} last but one leaving makes the other the winner",
            ruleset,
            3,
            {"elimination_limit": 100},
            leave(0),
            leave(1),
            leave_id(22),
            restore=mid_game(ruleset, 3, {"elimination_limit": 100}, (20, 10, 150), out={2: 2}),
        ),
        scripted(
            f"{ruleset} refused leaves",
            ruleset,
            4,
            {},
            *(leave_id(player) for player in (99, 33, True, "44", None)),
            leave(3),
            leave(3),
            restore=mid_game(ruleset, 4, {}, (5, 9, 300, 3), dealer=0, starter=1, out={2: 3}),
        ),
    ]


def jhyap() -> list[dict[str, Any]]:
    """Jhyap's own cases: the deal and start pass on; the table's limit of five."""
    return [
        *(
            scripted(
                f"jhyap leave of seat {leaver} passes the deal or the start",
                "jhyap",
                4,
                {},
                leave(leaver),
                hands(min({0, 1, 2} - {leaver}), {s: 2 + s for s in (0, 1, 2) if s != leaver}),
                restore=mid_game("jhyap", 4, {}, (5, 9, 7, 250), dealer=1, starter=2, out={3: 3}),
            )
            for leaver in (0, 1, 2)
        ),
        scripted(
            "jhyap a player who deals and starts leaves",
            "jhyap",
            3,
            {},
            leave(2),
            restore=mid_game("jhyap", 3, {}, (5, 9, 7), dealer=2, starter=2),
        ),
        scripted(
            "jhyap joins up to five players still in, more seats",
            "jhyap",
            5,
            {},
            join(3),
            join(0, 88, "Gita"),
            leave(0),
            join(0, 88, "Gita"),
            hands(2, {1: 9, 2: 1, 3: 9, 4: 9, 5: 9}),
            hands(2, {1: 1, 2: 9, 3: 9, 4: 9, 5: 9, 6: 9}),
            restore=mid_game("jhyap", 5, {}, (10, 20, 30, 40, 201), out={4: 2}),
        ),
        scripted(
            "jhyap a player who left never wins, even when the others all go out",
            "jhyap",
            3,
            {},
            leave(0),
            hands(1, {1: 5, 2: 3}),
            hands(0, {0: 1, 1: 9, 2: 9}),
            restore=mid_game("jhyap", 3, {}, (0, 190, 198), dealer=0, starter=1),
        ),
        scripted(
            "jhyap join after a player who left or was eliminated",
            "jhyap",
            4,
            {},
            leave(2),
            join(1),
            join(3, 88, "Gita"),
            hands(0, {0: 3, 2: 4, 4: 9, 5: 4}),
            restore=mid_game("jhyap", 4, {}, (10, 250, 20, 30), out={1: 3}),
        ),
    ]


def twenty_two() -> list[dict[str, Any]]:
    """Twenty Two's own cases: the lead after the dealer leaves, piles, the deal's size."""
    limit30 = {"elimination_limit": 30}
    return [
        *(
            scripted(
                f"twenty-two leave of seat {leaver}: the deal and the lead pass on",
                "twenty-two",
                5,
                limit30,
                leave(leaver),
                restore=mid_game("twenty-two", 5, limit30, (5, 9, 7, 30, 3), dealer=1, out={3: 3}),
            )
            for leaver in (1, 2, 4)
        ),
        scripted(
            "twenty-two six players still in: no one joins",
            "twenty-two",
            6,
            {},
            join(0),
            leave(5),
            join(0),
        ),
        scripted(
            "twenty-two the newcomer's empty pile; a left player's pile stays out",
            "twenty-two",
            3,
            {},
            trick((1, "2C"), (2, "3C"), (0, "9H")),
            join(0),
            leave(0),
            trick((3, "9H"), (1, "2C"), (2, "3D")),
            trick((3, "3H"), (1, "2C"), (2, "3D")),
        ),
        *(
            scripted(
                f"twenty-two the deal follows the players at the table ({count}, {deal})",
                "twenty-two",
                count,
                {"first_deal": deal},
                join(0),
                leave(1),
                leave(0),
            )
            for count, deal in ((2, 26), (2, 7), (5, 10))
        ),
        scripted(
            "twenty-two a leave raises a deal the pack had capped",
            "twenty-two",
            6,
            {},
            trick((1, "2C"), (2, "3C"), (3, "4C"), (4, "5C"), (5, "6C"), (0, "QH")),
            leave(5),
        ),
        scripted(
            "twenty-two a join when the pack is short gives the piles back",
            "twenty-two",
            2,
            {"elimination_limit": 1000},
            trick((0, "2D"), (1, "AS")),
            join(1),
            trick((0, "AS"), (1, "3D"), (2, "4D")),
            restore={
                **mid_game("twenty-two", 2, {"elimination_limit": 1000}, (0, 300), rounds=9),
                "piles": [[], [c for c in _deck() if c not in ("AS", "2D")][:49]],
            },
        ),
        scripted(
            "twenty-two a join after the dealer keeps the leader",
            "twenty-two",
            3,
            {},
            join(0),
        ),
    ]


def _deck() -> list[str]:
    """The deck in the rules tests' order: by suit, 2 up to ace."""
    ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    return [f"{rank}{suit}" for suit in "SHDC" for rank in ranks]


def vectors() -> list[dict[str, Any]]:
    """Every seat change vector."""
    return [*both("jhyap"), *both("twenty-two"), *jhyap(), *twenty_two()]
