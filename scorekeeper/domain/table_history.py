"""A table's whole history: its roster and every game, exported as one document and imported."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from ..models import Game
from ..rules.words import Message, in_context
from .commands import Answer, KeyedRequest, Render, create_once
from .errors import InvalidImport
from .games import MadeGame
from .history import (
    ExportedGame,
    GameHistory,
    ReplayedGame,
    add_replayed,
    game_history,
    replay_export,
)
from .storage import find_table, reading_one_snapshot, session
from .tables import (
    MadeTable,
    TableSetup,
    TableView,
    add_table,
    check_roster_size,
    open_table,
    roster_player,
    table_view,
)


@dataclass(frozen=True)
class TableHistory:
    """A table (without its games' list and standings) and every game's history, oldest
    first, as one snapshot shows them."""

    table: TableView
    games: list[GameHistory]


def export_table(table_id: str, *, answer: Render[TableHistory]) -> dict[str, Any]:
    """The table with its roster, and every game's history, as ``answer`` writes them in the
    snapshot they were read in."""
    with reading_one_snapshot():
        table = find_table(table_id)
        game_ids = (
            session()
            .scalars(
                select(Game.id).where(Game.table_id == table_id).order_by(Game.created_at, Game.id)
            )
            .all()
        )
        games = [game_history(game_id) for game_id in game_ids]
        return answer(TableHistory(table_view(table, with_games=False), games))


@dataclass(frozen=True)
class ExportedTable:
    """A table export, its shape checked at the edge."""

    name: str
    roster: Sequence[tuple[int, str]]
    """The export's roster: (id, name)."""
    games: Sequence[ExportedGame]


def import_table(
    exported: ExportedTable, *, answer: Render[MadeTable], request: KeyedRequest | None = None
) -> Answer:
    """Create a new table by replaying every game of an export (once per ``Idempotency-Key``),
    or create nothing. Its answer (the first again, for a key already used).

    Every game is replayed and checked before the write begins.
    """
    roster_ids = {old_id for old_id, _ in exported.roster}
    replayed: list[ReplayedGame] = []
    for number, game in enumerate(exported.games, start=1):
        unknown = [i for i in game.roster_ids.values() if i is not None and i not in roster_ids]
        if unknown:
            raise InvalidImport(
                Message(
                    "Game {number} of the export seats a player not on its roster.", number=number
                )
            )
        try:
            replayed.append(replay_export(game))
        except InvalidImport as error:
            raise InvalidImport(
                in_context(
                    Message("Game {number} of the export cannot be imported", number=number),
                    error.message,
                )
            ) from None

    def create() -> MadeTable:
        table, token = add_table(TableSetup(exported.name, [name for _, name in exported.roster]))
        new_ids: dict[int | None, int] = {
            old_id: player.id
            for (old_id, _), player in zip(exported.roster, table.roster, strict=True)
        }
        for checked in replayed:
            add_replayed(
                checked,
                table_id=table.id,
                roster_ids={
                    player_id: new_ids.get(roster_id)
                    for player_id, roster_id in checked.exported.roster_ids.items()
                },
            )
        session().flush()
        return MadeTable(table_view(table), token)

    return create_once("tables/import", request, create, answer)


def import_game_at_table(
    table_id: str,
    token: str,
    exported: ExportedGame,
    *,
    answer: Render[MadeGame],
    request: KeyedRequest | None = None,
) -> Answer:
    """Create a game at a table by replaying an export of one game (once per
    ``Idempotency-Key``), or create nothing. Its answer (the first again, for a key already
    used).

    Each of the export's players is the roster player of their name (compared as names are); a
    name not on the roster joins it, as when a game at the table is created with new names. The
    export is replayed and checked before the write begins.
    """
    checked = replay_export(exported)
    names = {
        int(player["id"]): str(player["name"])
        for player in exported.game.get("players", [])
        if isinstance(player, dict) and "id" in player and "name" in player
    }

    def create() -> MadeGame:
        table = open_table(table_id, token)
        seated = {player_id: roster_player(table, name) for player_id, name in names.items()}
        check_roster_size(table)
        session().flush()  # new roster players get their ids
        bound, game_token = add_replayed(
            checked,
            table_id=table.id,
            roster_ids={player_id: player.id for player_id, player in seated.items()},
        )
        table.touch()
        return MadeGame(bound, game_token)

    return create_once(f"tables/{table_id}/games/import", request, create, answer)
