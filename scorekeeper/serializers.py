"""Games and rounds as the API shows them (documented by the schemas in ``api/schemas.py``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .rules import GameState, Ruleset

if TYPE_CHECKING:  # the model's attributes only; serialising needs no database
    from .models import Game


def timestamp(moment: datetime) -> str:
    """RFC 3339 in UTC, to the second."""
    if moment.tzinfo is not None and moment.utcoffset():  # SQLite's are naive, in UTC
        moment = moment.astimezone(UTC)
    return moment.replace(tzinfo=None, microsecond=0).isoformat() + "Z"


def game_body(game: Game, rules: Ruleset, state: GameState) -> dict[str, Any]:
    """The Game resource."""
    standing = rules.standing(state).to_dict()
    players = []
    for player in game.players:
        seat = player.seat
        out = state.eliminated_in_round[seat]
        players.append(
            {
                "id": player.id,
                "name": player.name,
                "seat": seat,
                "score": state.scores[seat],
                "eliminated": out is not None,
                "eliminated_in_round": out,
                **rules.player_extra(state, seat),
            }
        )
    return {
        "id": game.id,
        "ruleset": game.ruleset,
        "name": game.name,
        "options": rules.options,  # every option, an older game's too
        "status": standing["status"],
        "players": players,
        "rounds_played": state.rounds_played,
        "next_round": standing["next_round"],
        "winners": standing["winners"],
        "created_at": timestamp(game.created_at),
        "updated_at": timestamp(game.updated_at),
    }


def round_body(result: dict[str, Any], created_at: datetime) -> dict[str, Any]:
    """The Round resource: the stored result and when it was recorded."""
    return {**result, "created_at": timestamp(created_at)}
