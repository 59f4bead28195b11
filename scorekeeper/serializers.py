"""The API's resources as JSON, built at the edge from the domain's typed results
(documented by the schemas in ``api/schemas.py``).

The domain hands back what it worked out (a game with its rules and state, a round's
stored result, a table as read); the views choose which of these answers a request, and
the domain keeps a write's answer with its ``Idempotency-Key``. A history item's own JSON
is the stored one (``domain/records.py``), shown with the time it was played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .domain.records import HistoryItem, standing_json
from .rules import GameState, Ruleset
from .rules.state import lists
from .times import timestamp, utcnow

if TYPE_CHECKING:  # the model's attributes only; serialising needs no database
    from .domain.games import BoundGame, MadeGame
    from .domain.history import GameHistory
    from .domain.rounds import CorrectedRound, ScoredRound
    from .domain.seats import ChangedSeats
    from .domain.table_history import TableHistory
    from .domain.tables import GameAtTable, MadeTable, TableView
    from .models import Game

GAME_EXPORT_FORMAT = "scorekeeper.game"
TABLE_EXPORT_FORMAT = "scorekeeper.table"
EXPORT_VERSION = 1
"""The version of both exports' format (api.md, "History" and "Export and import a table")."""


def bound_game_body(bound: BoundGame) -> dict[str, Any]:
    """The Game resource of a game with its rules and state."""
    return game_body(bound.game, bound.rules, bound.state)


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


def created_game(made: MadeGame) -> dict[str, Any]:
    """A new game's answer: the Game with its token, shown to its creator only."""
    return {**bound_game_body(made.bound), "token": made.token}


def round_body(item: HistoryItem) -> dict[str, Any]:
    """A history item's resource (a Round, a seat change or the end): as stored, with when it
    was played."""
    return {**item.result, "created_at": timestamp(item.played_at)}


def scored_round(scored: ScoredRound) -> dict[str, Any]:
    """A recorded round's answer, or a dry run's (the round as it would be scored)."""
    if scored.dry_run:
        return {**scored.item.result, "dry_run": True}
    return round_body(scored.item)


def corrected_round(corrected: CorrectedRound) -> dict[str, Any]:
    """A corrected round's answer; a dry run's says what the correction would change."""
    rescored = corrected.rescored
    if rescored is None:
        return round_body(corrected.item)
    return {
        **corrected.item.result,
        "dry_run": True,
        "rescored": {
            "rounds": rescored.rounds,
            "changed": rescored.changed,
            "game": {
                **bound_game_body(rescored.game),
                "history_revision": rescored.history_revision,
            },
        },
    }


def changed_seats(changed: ChangedSeats) -> dict[str, Any]:
    """A seat change's answer as kept with its key: its number and the Game after it."""
    game = bound_game_body(changed.game)
    return {
        "number": changed.number,
        "game": {**game, "dry_run": True} if changed.dry_run else game,
    }


def game_export(history: GameHistory) -> dict[str, Any]:
    """A game's export: the Game with its setup, and every item with its accepted entry."""
    return {
        "format": GAME_EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": timestamp(utcnow()),
        **_game_history(history),
    }


def _game_history(history: GameHistory) -> dict[str, Any]:
    """A game's export without its head: as a table's export holds each game."""
    game = history.game.game
    return {
        "game": {
            **bound_game_body(history.game),
            "setup": {"dealer": game.first_dealer, "starter": game.first_starter},
        },
        "rounds": [
            {"number": item.number, "entry": item.entry, "round": round_body(item.item)}
            for item in history.items
        ],
    }


def player_extra_json(state: GameState, seat: int) -> dict[str, Any]:
    """A ruleset's own fields of a player in the Game resource (a score pile, say)."""
    return {name: lists(value) for name, value in state.player_fields(seat).items()}


def table_body(table: TableView) -> dict[str, Any]:
    """The Table resource: roster, games (newest first) and standings."""
    return {
        **_table_head(table),
        "games": [table_game_json(game) for game in table.games],
        "standings": table.standings,
        "created_at": timestamp(table.created_at),
        "updated_at": timestamp(table.updated_at),
    }


def _table_head(table: TableView) -> dict[str, Any]:
    """A table's id, name and roster."""
    return {
        "id": table.id,
        "name": table.name,
        "players": [{"id": player_id, "name": name} for player_id, name in table.roster],
    }


def created_table(made: MadeTable) -> dict[str, Any]:
    """A new table's answer: the Table with its token, shown to its creator only."""
    return {**table_body(made.table), "token": made.token}


def table_game_json(game: GameAtTable) -> dict[str, Any]:
    """A game in a table's list. A finished game always has a winner, so the winners tell its
    status."""
    return {
        "id": game.id,
        "ruleset": game.ruleset,
        "name": game.name,
        "status": "finished" if game.winners else "in_progress",
        "players": game.players,
        "winners": game.winners,
        "created_at": timestamp(game.created_at),
        "updated_at": timestamp(game.updated_at),
    }


def table_export(history: TableHistory) -> dict[str, Any]:
    """A table's export: the table with its roster, and every game's export, oldest first."""
    table = history.table
    return {
        "format": TABLE_EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": timestamp(utcnow()),
        "table": {
            **_table_head(table),
            "created_at": timestamp(table.created_at),
            "updated_at": timestamp(table.updated_at),
        },
        "games": [
            {
                "format": GAME_EXPORT_FORMAT,
                "version": EXPORT_VERSION,
                "exported_at": timestamp(utcnow()),
                **_game_history(game),
            }
            for game in history.games
        ],
    }
