"""Games and rounds as the API shows them (documented by the schemas in ``api/schemas.py``).

The rules engine returns typed results; this module alone turns them into
JSON. Rounds are stored as :func:`round_json` makes them and exports are
compared with it after a replay, so its keys, their order and its values
must not change.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .rules import (
    EndResult,
    GameState,
    NextRound,
    PlayerResult,
    RoundResult,
    Ruleset,
    SeatChangeResult,
    Standing,
)
from .rules.state import lists

if TYPE_CHECKING:  # the model's attributes only; serialising needs no database
    from .models import Game, Table


def timestamp(moment: datetime) -> str:
    """RFC 3339 in UTC, to the second."""
    if moment.tzinfo is not None and moment.utcoffset():  # SQLite's are naive, in UTC
        moment = moment.astimezone(UTC)
    return moment.replace(tzinfo=None, microsecond=0).isoformat() + "Z"


def game_body(game: Game, rules: Ruleset[Any, Any], state: GameState) -> dict[str, Any]:
    """The Game resource; its players are the rules' players, in seat order."""
    standing = standing_json(rules.standing(state))
    roster_ids = {player.id: player.roster_id for player in game.players}
    players = [
        player_json(rules, state, seat, roster_ids[player.id])
        for seat, player in enumerate(rules.players)
    ]
    return {
        "id": game.id,
        "ruleset": game.ruleset,
        "name": game.name,
        "table": game.table_id,
        "options": rules.options,  # every option, an older game's too
        "status": standing["status"],
        "players": players,
        "rounds_played": state.rounds_played,
        "next_round": standing["next_round"],
        "winners": standing["winners"],
        "history_revision": game.history_revision,
        "created_at": timestamp(game.created_at),
        "updated_at": timestamp(game.updated_at),
    }


def player_json(
    rules: Ruleset[Any, Any], state: GameState, seat: int, roster_id: int | None
) -> dict[str, Any]:
    """A player of the Game resource: who sits in ``seat`` (at a table, which roster player)."""
    player = rules.players[seat]
    out = state.eliminated_in_round[seat]
    return {
        "id": player.id,
        "name": player.name,
        "seat": seat,
        "score": state.scores[seat],
        "eliminated": out is not None,
        "eliminated_in_round": out,
        "left": state.left[seat],
        "roster_id": roster_id,
        **player_extra_json(state, seat),
    }


def round_body(result: dict[str, Any], created_at: datetime) -> dict[str, Any]:
    """The Round resource: the stored result and when it was recorded."""
    return {**result, "created_at": timestamp(created_at)}


def round_json(result: RoundResult) -> dict[str, Any]:
    """A scored round as stored and shown: the Round resource without ``created_at``.

    The ruleset's own fields (those its result class adds) come after the starter.
    """
    head = {"number": result.number, "dealer": result.dealer, "starter": result.starter}
    return {
        **head,
        **own_fields(result, RoundResult),
        "results": [player_result_json(row) for row in result.results],
        "game": standing_json(result.standing),
    }


def own_fields(value: Any, base: type) -> dict[str, Any]:
    """The fields a ruleset's result class adds to ``base``, in order, as JSON.

    A field's ``metadata["json"]`` names it in JSON when its own name cannot (``pass``).
    """
    shared = {field.name for field in dataclasses.fields(base)}
    return {
        field.metadata.get("json", field.name): lists(getattr(value, field.name))
        for field in dataclasses.fields(value)
        if field.name not in shared
    }


def end_json(result: EndResult) -> dict[str, Any]:
    """The end of a game by hand as stored and shown in the history, and the game after."""
    return {"number": result.number, "end": True, "game": standing_json(result.standing)}


def seat_change_json(result: SeatChangeResult) -> dict[str, Any]:
    """A seat change as stored and shown in the history: a join or a leave, and the game after."""
    change: dict[str, Any]
    if result.kind == "join":
        change = {
            "join": {
                "player": result.player,
                "name": result.name,
                "after": result.after,
                "score": result.score,
            }
        }
    else:
        change = {"leave": {"player": result.player}}
    return {
        "number": result.number,
        "seat_change": change,
        "game": standing_json(result.standing),
    }


def player_result_json(row: PlayerResult) -> dict[str, Any]:
    """One player's line of a round, the ruleset's own fields after the player's id."""
    return {
        "player": row.player,
        **own_fields(row, PlayerResult),
        "points": row.points,
        "score_before": row.score_before,
        "score_after": row.score_after,
        "halved": row.halved,
        "eliminated": row.eliminated,
    }


def standing_json(standing: Standing) -> dict[str, Any]:
    """The game's status, next round and winners, as a round's ``game`` shows them."""
    return {
        "status": standing.status,
        "next_round": next_round_json(standing.next_round) if standing.next_round else None,
        "winners": list(standing.winners),
    }


def next_round_json(next_round: NextRound) -> dict[str, Any]:
    """The coming round: number, dealer and starter, then what the ruleset says of it."""
    head = {
        "number": next_round.number,
        "dealer": next_round.dealer,
        "starter": next_round.starter,
    }
    more = {
        field.metadata.get("json", field.name): getattr(next_round, field.name)
        for field in dataclasses.fields(next_round)
        if field.name not in head
    }
    return {**head, **{name: value for name, value in more.items() if value is not None}}


def player_extra_json(state: GameState, seat: int) -> dict[str, Any]:
    """A ruleset's own fields of a player in the Game resource (a score pile, say)."""
    return {name: lists(value) for name, value in state.player_fields(seat).items()}


def table_body(
    table: Table, games: list[dict[str, Any]], standings: list[dict[str, Any]]
) -> dict[str, Any]:
    """The Table resource: roster, games (newest first) and standings."""
    return {
        "id": table.id,
        "name": table.name,
        "players": [{"id": player.id, "name": player.name} for player in table.roster],
        "games": games,
        "standings": standings,
        "created_at": timestamp(table.created_at),
        "updated_at": timestamp(table.updated_at),
    }


def table_game_json(game: Any, seats: list[Any]) -> dict[str, Any]:
    """A game in a table's list: ``seats`` are its player rows (roster id, won) in seat order.

    A finished game always has a winner, so the winners tell its status.
    """
    winners = [seat.roster_id for seat in seats if seat.won]
    return {
        "id": game.id,
        "ruleset": game.ruleset,
        "name": game.name,
        "status": "finished" if winners else "in_progress",
        "players": [seat.roster_id for seat in seats],
        "winners": winners,
        "created_at": timestamp(game.created_at),
        "updated_at": timestamp(game.updated_at),
    }
