"""Stored states hold every field: seating, tallies, left and, in Twenty Two, the deal's value

States stored before seat changes (a game's ``state`` and each round's
``state_after``) lack the fields seat changes brought: ``seating`` (the
players' ids by seat: then, the game's players in seat order), ``tallies``
(all zero), ``left`` (no one), ``seat_changes`` (none) and, in Twenty Two,
``deal_value``: the value of the card the last round's loser played, which
the dealer keeps last in their pile (rule 2), or ``cards_each`` when the
piles went back; a state stored with fewer cards in the pack than active
players gets its piles back and its deal worked out again. The engines used
to fill these in on every read; this revision fills them in once, and the
engines read stored states as they are.

The downgrade changes nothing: the code before this revision reads a state
with every field as it reads one stored after a seat change.

Revision ID: 5b7d2e9c4a10
Revises: d1855884dcf7
Create Date: 2026-12-03 23:20:00.000000

"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "5b7d2e9c4a10"
down_revision = "d1855884dcf7"
branch_labels = None
depends_on = None

# How many tallies each ruleset counted when this revision was written.
TALLY_COUNTS = {"jhyap": 5, "twenty-two": 3, "hearts": 4, "score-pad": 2}
DECK_SIZE = 52

games = sa.table("games", sa.column("id"), sa.column("ruleset"), sa.column("state", sa.JSON))
players = sa.table("players", sa.column("id"), sa.column("game_id"), sa.column("seat"))
rounds = sa.table(
    "rounds", sa.column("id"), sa.column("game_id"), sa.column("state_after", sa.JSON)
)


def card_value(code: str) -> int:
    """Twenty Two points of a stored (canonical) card code: ace 11, J/Q/K 10, pips at face."""
    rank = code[:-1]
    if rank == "A":
        return 11
    return 10 if rank in ("J", "Q", "K") else int(rank)


def upgraded(ruleset: str, state: dict[str, Any], seating: list[int]) -> dict[str, Any]:
    """``state`` with every field a state now holds; ``seating``: the game's players by seat.

    What is no state at all (no scores) is left as it is: there is nothing to fill in.
    """
    if not isinstance(state, dict) or "scores" not in state:
        return state
    count = len(state["scores"])
    new = dict(state)
    new.setdefault("winners", [])
    new["left"] = new.get("left") or [False] * count
    new.setdefault("seat_changes", 0)
    new["seating"] = new.get("seating") or list(seating)
    new["tallies"] = new.get("tallies") or [[0] * TALLY_COUNTS[ruleset] for _ in range(count)]
    if ruleset == "twenty-two":
        new["deal_value"] = new.get("deal_value") or 0
        if new["dealer"] is not None and not new["deal_value"]:
            new.update(_deal(new))
    return new


def _deal(state: dict[str, Any]) -> dict[str, Any]:
    """Rule 2's value and deal of a Twenty Two state stored without its value."""
    pile = state["piles"][state["dealer"]]
    value = card_value(pile[-1]) if pile else state["cards_each"]
    active = sum(
        1
        for seat in range(len(state["scores"]))
        if state["eliminated_in_round"][seat] is None and not state["left"][seat]
    )
    pack = DECK_SIZE - sum(len(kept) for kept in state["piles"])
    if pack >= active:
        return {"deal_value": value}
    # Stored before the empty-pack decision: the piles go back and the deal is worked out again.
    return {
        "piles": [[] for _ in state["piles"]],
        "cards_each": max(1, min(value, DECK_SIZE // active)),
        "deal_value": value,
    }


def _loaded(value: Any) -> dict[str, Any]:
    return json.loads(value) if isinstance(value, str) else value  # SQLite may give text


def upgrade():
    connection = op.get_bind()
    seating: dict[str, list[int]] = {}
    for game_id, player_id in connection.execute(
        sa.select(players.c.game_id, players.c.id).order_by(players.c.game_id, players.c.seat)
    ).all():
        seating.setdefault(game_id, []).append(player_id)
    rulesets: dict[str, str] = {}
    for game_id, ruleset, state in connection.execute(
        sa.select(games.c.id, games.c.ruleset, games.c.state)
    ).all():
        rulesets[game_id] = ruleset
        stored = _loaded(state)
        new = upgraded(ruleset, stored, seating.get(game_id, []))
        if new != stored:
            connection.execute(games.update().where(games.c.id == game_id).values(state=new))
    for round_id, game_id, state in connection.execute(
        sa.select(rounds.c.id, rounds.c.game_id, rounds.c.state_after)
    ).all():
        stored = _loaded(state)
        new = upgraded(rulesets[game_id], stored, seating.get(game_id, []))
        if new != stored:
            connection.execute(
                rounds.update().where(rounds.c.id == round_id).values(state_after=new)
            )


def downgrade():
    pass
