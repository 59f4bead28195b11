"""A table's standings: every game's per-player figures summed in one query."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import Integer, case, func, select

from ..extensions import db
from ..models import Game, Player, Table
from ..names import name_key
from ..rules import RULESETS

# Every ruleset's tallies are columns of the player rows, summed here.
TALLY_COLUMNS = sorted({name for rules in RULESETS.values() for name in rules.tally_names})


def standings(table: Table) -> list[dict[str, Any]]:
    """One row per roster player who played a round at the table, best first."""
    won = func.sum(case((Player.won, 1), else_=0))
    eliminated = func.sum(case((Player.eliminated, 1), else_=0))
    sums = [func.sum(getattr(Player, name)).label(name) for name in TALLY_COLUMNS]
    rows = db.session.execute(
        select(
            Player.roster_id,
            Game.ruleset,
            func.count().label("games_played"),
            won.cast(Integer).label("games_won"),
            eliminated.cast(Integer).label("eliminations"),
            *sums,
        )
        .join(Game, Game.id == Player.game_id)
        .where(Game.table_id == table.id, Player.rounds_played > 0)
        .group_by(Player.roster_id, Game.ruleset)
    ).all()
    names = {player.id: player.name for player in table.roster}
    by_player: dict[int, dict[str, Any]] = defaultdict(dict)
    for row in rows:
        if row.roster_id not in names:
            continue  # a seat whose roster player is gone
        rules = RULESETS[row.ruleset]
        by_player[row.roster_id][row.ruleset] = {
            "games_played": row.games_played,
            "games_won": int(row.games_won),
            **rules.standing_figures(
                {name: int(getattr(row, name)) for name in rules.tally_names},
                eliminations=int(row.eliminations),
            ),
        }
    table_rows = []
    for roster_id, per_ruleset in by_player.items():
        games_won = sum(figures.pop("games_won") for figures in per_ruleset.values())
        table_rows.append(
            {
                "player": roster_id,
                "name": names[roster_id],
                "games_played": sum(figures["games_played"] for figures in per_ruleset.values()),
                "games_won": games_won,
                **{name: per_ruleset[name] for name in RULESETS if name in per_ruleset},
            }
        )
    table_rows.sort(key=lambda r: (-r["games_won"], r["games_played"], name_key(r["name"])))
    return table_rows
