"""A table's standings: every game's per-player figures, read in one query and summed, and each
finished game's final places."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..models import Game, Player, Table
from ..names import name_key
from ..rules import RULESETS
from .games import state_of
from .storage import session


def standings(table: Table) -> list[dict[str, Any]]:
    """One row per roster player who played a round at the table, best first.

    ``games_played`` counts finished games only, ``average_place`` is the mean of their final
    places in them (``None`` before any); the order is games won (most first), average place
    (best first), games played (most first), then name.
    """
    rows = (
        session()
        .execute(
            select(
                Player.roster_id,
                Player.won,
                Player.eliminated,
                Player.tallies,
                Game.ruleset,
            )
            .join(Game, Game.id == Player.game_id)
            .where(Game.table_id == table.id)
        )
        .all()
    )
    names = {player.id: player.name for player in table.roster}
    places = finished_places(table)
    won: Counter[tuple[int, str]] = Counter()
    eliminations: Counter[tuple[int, str]] = Counter()
    tallies: dict[tuple[int, str], Counter[str]] = defaultdict(Counter)
    for row in rows:
        if row.roster_id not in names or not (row.tallies or {}).get("rounds_played"):
            continue  # a seat whose roster player is gone, or who has not played a round
        key = (row.roster_id, row.ruleset)
        won[key] += row.won
        eliminations[key] += row.eliminated
        tallies[key].update(row.tallies)
    by_player: dict[int, dict[str, Any]] = defaultdict(dict)
    for key, counts in tallies.items():
        roster_id, ruleset = key
        rules = RULESETS[ruleset]
        by_player[roster_id][ruleset] = {
            "games_played": len(places[roster_id].get(ruleset, [])),
            "games_won": won[key],
            **rules.standing_figures(
                {name: counts[name] for name in rules.tally_names},
                eliminations=eliminations[key],
            ),
        }
    table_rows = []
    for roster_id, per_ruleset in by_player.items():
        games_won = sum(figures.pop("games_won") for figures in per_ruleset.values())
        finished = [place for found in places[roster_id].values() for place in found]
        table_rows.append(
            {
                "player": roster_id,
                "name": names[roster_id],
                "games_played": len(finished),
                "games_won": games_won,
                "average_place": round(sum(finished) / len(finished), 2) if finished else None,
                **{name: per_ruleset[name] for name in RULESETS if name in per_ruleset},
            }
        )
    table_rows.sort(
        key=lambda r: (
            -r["games_won"],
            r["average_place"] is None,
            r["average_place"] or 0,
            -r["games_played"],
            name_key(r["name"]),
        )
    )
    return table_rows


def finished_places(table: Table) -> dict[int, dict[str, list[int]]]:
    """Each roster player's final places in the table's finished games they played a round in,
    by ruleset (someone who left and came back takes the better of their two seats' places)."""
    games = (
        session()
        .scalars(select(Game).where(Game.table_id == table.id).options(selectinload(Game.players)))
        .all()
    )
    found: dict[int, dict[str, list[int]]] = defaultdict(dict)
    for game in games:
        rules, state = state_of(game, game.state)
        if not state.finished:
            continue
        final = rules.final_places(state)
        seat_of = {seated.id: seat for seat, seated in enumerate(rules.players)}
        best: dict[int, int] = {}
        for player in game.players:
            if player.roster_id is None or not (player.tallies or {}).get("rounds_played"):
                continue
            place = final[seat_of[player.id]]
            best[player.roster_id] = min(place, best.get(player.roster_id, place))
        for roster_id, place in best.items():
            found[roster_id].setdefault(game.ruleset, []).append(place)
    return found
