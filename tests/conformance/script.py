"""Games written out step by step: the rules tests' edge cases, as conformance vectors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .recorder import Game

SEATED: list[dict[str, Any]] = [
    {"id": 11 * (seat + 1), "name": name}
    for seat, name in enumerate(("Asha", "Bikram", "Chandra", "Dipa", "Ekta", "Farid"))
]
"""Players of written-out games: ids 11, 22, ... differ from seats 0, 1, ... so a mix-up shows."""

Step = Callable[[Game], Any]


def scripted(
    name: str,
    ruleset: str,
    count: int,
    options: dict[str, Any],
    *steps: Step,
    dealer: Any = 0,
    starter: Any = None,
    restore: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The vector of a game of the first ``count`` players of ``SEATED`` and these steps."""
    game = Game(
        name, ruleset, SEATED[:count], options, dealer=dealer, starter=starter, restore=restore
    )
    for step in steps:
        step(game)
    return game.vector


def ids(game: Game) -> list[int]:
    """The players' ids by seat, as the table sits now."""
    rules, _ = game.live()
    return [player.id for player in rules.players]


def hands(caller: int, totals: dict[int, int | list[str]]) -> Step:
    """A Jhyap round by seat: the caller's seat, each seat's total (int) or cards (list)."""

    def step(game: Game) -> None:
        seats = ids(game)
        game.play(
            {
                "caller": seats[caller],
                "hands": [
                    {"player": seats[seat], "cards" if isinstance(hand, list) else "total": hand}
                    for seat, hand in totals.items()
                ],
            }
        )

    return step


def trick(*plays: tuple[int, str]) -> Step:
    """A Twenty Two round by seat: (seat, card) in the order played."""

    def step(game: Game) -> None:
        seats = ids(game)
        game.play({"last_trick": [{"player": seats[seat], "card": card} for seat, card in plays]})

    return step


def entry(raw: dict[str, Any]) -> Step:
    """A round entered exactly as ``raw`` (player ids, not seats)."""
    return lambda game: game.play(raw)


def join(after: int, pid: int = 77, name: str = "Newa") -> Step:
    """A newcomer sitting after the player in seat ``after``."""
    return lambda game: game.join(pid, name, ids(game)[after])


def join_after_id(after: Any, pid: int = 77, name: str = "Newa") -> Step:
    """A newcomer sitting after ``after``, given as it is (an id, or anything else)."""
    return lambda game: game.join(pid, name, after)


def leave(seat: int) -> Step:
    """The player in seat ``seat`` leaves."""
    return lambda game: game.leave(ids(game)[seat])


def leave_id(player: Any) -> Step:
    """``player``, given as it is (an id, or anything else), leaves."""
    return lambda game: game.leave(player)
