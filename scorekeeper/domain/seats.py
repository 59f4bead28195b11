"""Seat changes between rounds: someone joins or leaves, as an item of the game's history."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..models import Game, Player
from ..names import first_clash
from ..rules import GameState, Ruleset, SeatChangeOutcome
from ..rules import Player as SeatedPlayer
from ..rules.words import Message
from .commands import Answer, KeyedRequest, Render
from .errors import GameOver, InvalidSeating, RoundTaken
from .games import BoundGame, add_to_history, check_room, when_played
from .records import seat_change_json
from .storage import find_table, session
from .tables import seat_roster


@dataclass(frozen=True)
class SeatChange:
    """A join (by a new name, or a roster player at a table) or a leave, as requested."""

    join_name: str | None = None
    join_roster_id: int | None = None
    after: int | None = None
    """The id of the player the newcomer sits after, clockwise."""
    leave: int | None = None
    """The id of the player who leaves."""
    number: int | None = None
    """The number the phone expects the change to take."""
    played_at: datetime | None = None
    """When it was entered on the phone, if it was sent later."""


@dataclass(frozen=True)
class ChangedSeats:
    """A seat change: its number in the history and the game after it (recorded, or as it
    would be on a dry run)."""

    number: int
    game: BoundGame
    dry_run: bool = False


def is_seat_change(result: Mapping[str, Any]) -> bool:
    """Whether a stored history item is a seat change (else it is a round)."""
    return "seat_change" in result


def joined_player(result: Mapping[str, Any]) -> int | None:
    """The id of the newcomer a stored history item seated, if it is a join."""
    join = result.get("seat_change", {}).get("join")
    return join["player"] if join else None


def replay_seat_change(
    game: Game, rules: Ruleset, state: GameState, stored: Mapping[str, Any]
) -> SeatChangeOutcome:
    """Apply a stored seat change again, to the state a correction left before it."""
    change = stored["seat_change"]
    if "join" in change:
        join = change["join"]
        name = next(p.name for p in game.players if p.id == join["player"])
        return rules.join(state, SeatedPlayer(join["player"], name), join["after"])
    return rules.leave(state, change["leave"]["player"])


def change_seats(
    game_id: str,
    token: str,
    seat_change: SeatChange,
    entry: Mapping[str, Any],
    *,
    answer: Render[ChangedSeats],
    request: KeyedRequest | None = None,
    dry_run: bool = False,
) -> Answer:
    """Seat a newcomer or let a player leave, between rounds; ``entry`` is the request's body.
    With a key already used, the first answer again."""
    return add_to_history(
        game_id,
        token,
        request,
        lambda bound: _change_seats_of(bound, seat_change, entry, dry_run),
        answer,
        dry_run=dry_run,
    )


def _change_seats_of(
    bound: BoundGame, change: SeatChange, entry: Mapping[str, Any], dry_run: bool
) -> ChangedSeats:
    """Apply ``change`` and, unless a dry run, store it with the new state."""
    if bound.state.finished:
        raise GameOver("The game is over, so no one can join or leave it.")
    check_room(bound.state)
    expected = bound.state.last_number + 1
    if change.number is not None and change.number != expected:
        raise RoundTaken(
            Message(
                "The next number is {expected}, not {number}; another phone may have "
                "recorded a round or seat change first.",
                expected=expected,
                number=change.number,
            ),
            {"number": [f"The next number is {expected}."]},
        )
    if change.leave is not None:
        outcome = bound.rules.leave(bound.state, change.leave)
    else:
        assert change.after is not None
        outcome = bound.rules.join(bound.state, _newcomer(bound, change), change.after)
    played = when_played(bound, change.played_at)
    if dry_run:
        return ChangedSeats(expected, BoundGame(bound.game, outcome.rules, outcome.state), True)
    result = seat_change_json(outcome.result)
    bound.append(expected, entry, result, outcome.state, played_at=played, rules=outcome.rules)
    return ChangedSeats(expected, bound)


def _newcomer(bound: BoundGame, change: SeatChange) -> SeatedPlayer:
    """The newcomer's player row, added to the game (and to the table's roster, for a new name)."""
    game = bound.game
    roster_id: int | None = None
    name = change.join_name
    if change.join_roster_id is not None or game.table_id is not None:
        if game.table_id is None:
            raise InvalidSeating(
                "This game is not played at a table, so give the newcomer's name, not a player id.",
                {"join": {"player": ["Only at a table; give a name."]}},
            )
        # Locked (after the game, as every write takes them): two games of the table seating
        # the same new name at once add one roster player, not two.
        table = find_table(game.table_id, lock=True)
        seat = change.join_roster_id if change.join_roster_id is not None else name
        assert seat is not None
        roster_player = seat_roster(table, [seat])[0]
        roster_id, name = roster_player.id, roster_player.name
    assert name is not None
    # Someone who left may come back: they take a new seat, the old one stays as it was.
    seated = {
        player.id for seat, player in enumerate(bound.rules.players) if not bound.state.left[seat]
    }
    names = [player.name for player in game.players if player.id in seated]
    if (clash := first_clash([*names, name])) is not None:
        raise InvalidSeating(
            Message(
                "{player} is already in this game, so {name} cannot join it again.",
                player=clash[0],
                name=name,
            ),
            {"join": ["Already in this game."]},
        )
    player = Player(seat=len(game.players), name=name, roster_id=roster_id, joined=True)
    game.players.append(player)
    session().flush()
    return SeatedPlayer(player.id, player.name)
