"""History items as they are stored: a scored round, a seat change or the end, as JSON.

The rules engine returns typed results; this module turns a history item's into the JSON
a round's ``result`` column keeps, which the history shows as it is (with the time it was
played) and an import is compared with after a replay: its keys, their order and its
values must not change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..rules import EndResult, NextRound, PlayerResult, RoundResult, SeatChangeResult, Standing
from ..rules.state import lists


@dataclass(frozen=True)
class HistoryItem:
    """A round, seat change or end as the history keeps it: its stored result and when it was
    played."""

    result: Mapping[str, Any]
    played_at: datetime


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
