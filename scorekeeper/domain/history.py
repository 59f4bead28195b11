"""A game's whole history: exported as one document that replays exactly, and imported back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import insert, select

from ..models import Player, Round, utcnow
from ..rules import RULESETS, GameState, RuleError, Ruleset, get_ruleset
from ..rules import Player as SeatedPlayer
from ..rules.base import ID_FIELDS as SHARED_ID_FIELDS
from ..rules.words import Message, in_context
from ..times import parse_time
from .commands import Answer, KeyedRequest, Render, create_once
from .errors import InvalidImport
from .games import (
    MAX_HISTORY_ITEMS,
    BoundGame,
    GameSetup,
    MadeGame,
    add_game,
    find_game,
    is_end,
    keep_figures,
    state_of,
)
from .giving_way import give_way
from .records import HistoryItem, end_json, round_json, seat_change_json, standing_json
from .seats import is_seat_change
from .storage import reading_one_snapshot, session

ID_FIELDS = SHARED_ID_FIELDS.union(*(rules.id_fields for rules in RULESETS.values()))
"""The fields of a stored history item whose values are player ids, in any ruleset."""
GAME_FIELD_WORDS = {
    "status": "status does",
    "winners": "winners do",
    "rounds_played": "number of rounds played does",
}
PLAYER_FIELD_WORDS = {
    "score": "score",
    "eliminated": "elimination",
    "eliminated_in_round": "round of elimination",
}


@dataclass(frozen=True)
class ExportedItem:
    """An item of a game's history as its export shows it: the entry accepted, and the item."""

    number: int
    entry: Mapping[str, Any]
    item: HistoryItem


@dataclass(frozen=True)
class GameHistory:
    """A game with its setup and every item of its history, as one snapshot shows them."""

    game: BoundGame
    items: list[ExportedItem]


def export_game(game_id: str, *, answer: Render[GameHistory]) -> dict[str, Any]:
    """The whole game: the Game with its setup, and every round with its accepted entry, as
    ``answer`` writes it in the snapshot it was read in."""
    with reading_one_snapshot():
        return answer(game_history(game_id))


def game_history(game_id: str) -> GameHistory:
    """A game's whole history, read in the unit of work under way."""
    bound = BoundGame.of(find_game(game_id))
    # The columns an export shows, not whole rows: each round's running state is not one.
    rounds = session().execute(
        select(Round.number, Round.entry, Round.result, Round.created_at)
        .where(Round.game_id == game_id)
        .order_by(Round.number)
    )
    return GameHistory(
        bound,
        [
            ExportedItem(row.number, row.entry, HistoryItem(row.result, row.created_at))
            for row in rounds
        ],
    )


@dataclass(frozen=True)
class ExportedRound:
    """One history item of an export, a round or a seat change, its entry checked at the edge."""

    number: Any
    entry: Mapping[str, Any]
    round: Mapping[str, Any]
    """The item as the history shows it: a Round, or a seat change."""

    @property
    def is_seat_change(self) -> bool:
        """Whether the item is a seat change (else a round or the end)."""
        return is_seat_change(self.round)

    @property
    def is_end(self) -> bool:
        """Whether the item is the end of the game by hand (else a round or a seat change)."""
        return is_end(self.round)


@dataclass(frozen=True)
class ExportedGame:
    """An export, its shape checked at the edge: the setup in seats, the rest as exported."""

    setup: GameSetup
    player_ids: Sequence[int]
    """The export's ids of the players the game began with, by seat."""
    game: Mapping[str, Any]
    """The exported Game, to hold the replay against."""
    rounds: Sequence[ExportedRound]
    roster_ids: Mapping[int, int | None] = field(default_factory=dict)
    """At a table: the export's roster id of each of its players, by the export's player id."""


@dataclass(frozen=True)
class _Replayed:
    """An exported history item as its replay made it, and when the table played it."""

    entry: Mapping[str, Any]
    result: dict[str, Any]
    """The item as stored (``round_json`` or ``seat_change_json``)."""
    state: GameState
    played_at: datetime | None
    newcomer: SeatedPlayer | None = None
    """For a join, the player who sat down (export ids)."""


def import_game(
    exported: ExportedGame, *, answer: Render[MadeGame], request: KeyedRequest | None = None
) -> Answer:
    """Create a new game by replaying an export (once per ``Idempotency-Key``); refuse it,
    creating nothing, if anything differs. Its answer (the first again, for a key
    already used).

    The whole export is replayed and checked before the write begins, so a
    refused one never takes the database's write lock.
    """
    checked = replay_export(exported)
    return create_once(
        "games/import",
        request,
        lambda: MadeGame(*add_replayed(checked)),
        answer,
    )


@dataclass(frozen=True)
class ReplayedGame:
    """An export replayed and found true, ready to be stored as a new game."""

    exported: ExportedGame
    created_at: datetime | None
    updated_at: datetime | None
    items: list[_Replayed]


def replay_export(exported: ExportedGame) -> ReplayedGame:
    """Replay an export and check it against itself; an ``InvalidImport`` if anything differs."""
    if len(exported.rounds) > MAX_HISTORY_ITEMS:
        raise InvalidImport(
            Message(
                "The export holds {count} rounds and seat changes; a game keeps at most {limit}.",
                count=f"{len(exported.rounds):,}",
                limit=f"{MAX_HISTORY_ITEMS:,}",
            )
        )
    setup = exported.setup
    seated = zip(exported.player_ids, setup.players, strict=True)
    try:
        rules = get_ruleset(setup.ruleset)(
            [SeatedPlayer(i, name) for i, name in seated], setup.options
        )
        assert setup.dealer is not None
        first_state = rules.start(setup.dealer, setup.starter)
    except RuleError as error:
        raise InvalidImport(
            in_context("The export's game cannot be set up", error.message)
        ) from None
    created_at = _time(exported.game.get("created_at"), Message("The export's game"))
    updated_at = _time(exported.game.get("updated_at"), Message("The export's game"), "updated_at")
    replayed = _replay(rules, first_state, exported)
    _check_times_in_order(created_at, updated_at, replayed)
    return ReplayedGame(exported, created_at, updated_at, replayed)


def add_replayed(
    replayed: ReplayedGame,
    *,
    table_id: str | None = None,
    roster_ids: Mapping[int, int | None] | None = None,
) -> tuple[BoundGame, str]:
    """Add a replayed export to the unit of work as a new game, with its token.

    At a table, ``roster_ids`` gives the new roster id of each of the export's players.
    """
    exported = replayed.exported
    roster_ids = roster_ids or {}
    bound, token = add_game(
        exported.setup,
        replayed.created_at,
        replayed.updated_at,
        table_id=table_id,
        roster_ids=[roster_ids.get(i) for i in exported.player_ids] if table_id else (),
    )
    # The history as it was exported, revision too: an export of the new game shows the same.
    bound.game.history_revision = exported.game.get("history_revision", 0)
    _store(bound, exported.player_ids, replayed.items, roster_ids)
    return bound, token


def _replay(rules: Ruleset, state: GameState, exported: ExportedGame) -> list[_Replayed]:
    """Replay the export's history, checking each item and the final standing against it."""
    replayed = []
    for expected, item in enumerate(exported.rounds, start=1):
        give_way(expected)
        where = Message("Round {number} of the export", number=expected)
        if item.number != expected:
            raise InvalidImport(
                Message("{where} is numbered {number}.", where=where, number=item.number)
            )
        newcomer = None
        try:
            if item.is_seat_change:
                where = Message("Item {number} of the export", number=expected)
                change = item.round["seat_change"]
                if "join" in change:
                    join = change["join"]
                    newcomer = SeatedPlayer(join["player"], join["name"])
                    moved = rules.join(state, newcomer, join["after"])
                else:
                    moved = rules.leave(state, change["leave"]["player"])
                rules, state, result = moved.rules, moved.state, seat_change_json(moved.result)
            elif item.is_end:
                where = Message("Item {number} of the export", number=expected)
                ended = rules.end(state)
                state, result = ended.state, end_json(ended.result)
            else:
                played = rules.play(state, rules.parse_entry(item.entry))
                state, result = played.state, round_json(played.result)
        except RuleError as error:
            context = Message("{where} does not replay", where=where)
            raise InvalidImport(in_context(context, error.message)) from None
        recorded = {key: value for key, value in item.round.items() if key != "created_at"}
        if result != recorded:
            raise InvalidImport(
                Message(
                    "{where} does not match its replay; the export was changed or is damaged.",
                    where=where,
                )
            )
        played_at = _time(item.round.get("created_at"), where)
        replayed.append(_Replayed(item.entry, result, state, played_at, newcomer))
    _check_final_standing(rules, state, exported)
    return replayed


IMPORT_AHEAD = timedelta(days=1)
"""How far ahead of the server's clock an export's times may be (clocks and zones gone wrong)."""


def _time(value: Any, where: Message, field_name: str = "created_at") -> datetime | None:
    """An export's time in UTC (RFC 3339, exactly); ``None`` if the export has none."""
    if value is None:
        return None
    moment = parse_time(value)
    if moment is None:
        raise InvalidImport(
            Message(
                "{where} has a {field} that is not a time like 2026-11-30T18:05:00Z.",
                where=where,
                field=field_name,
            )
        )
    if moment > utcnow() + IMPORT_AHEAD:
        raise InvalidImport(
            Message(
                "{where} has a time, {field}, more than a day from now.",
                where=where,
                field=field_name,
            )
        )
    return moment


def _check_times_in_order(
    created_at: datetime | None, updated_at: datetime | None, replayed: list[_Replayed]
) -> None:
    """Refuse rounds played before the game was created, or before the round before them, and
    a game last changed before it was created or before its last round was played."""
    previous, earlier = created_at, 0  # round 0: the game's creation
    for number, item in enumerate(replayed, start=1):
        if item.played_at is None:
            continue
        if previous is not None and item.played_at < previous:
            before = (
                "Round {number} of the export was played before round {earlier}."
                if earlier
                else "Round {number} of the export was played before the game was created."
            )
            raise InvalidImport(Message(before, number=number, earlier=earlier))
        previous, earlier = item.played_at, number
    if updated_at is not None and previous is not None and updated_at < previous:
        before = (
            "The export's game was last changed (its updated_at) before round {earlier} was played."
            if earlier
            else "The export's game was last changed (its updated_at) before it was created."
        )
        raise InvalidImport(Message(before, earlier=earlier))


def _check_final_standing(
    rules: Ruleset[Any, Any], state: GameState, exported: ExportedGame
) -> None:
    """Refuse an export whose game does not stand as its replayed rounds leave it."""
    standing = standing_json(rules.standing(state))
    final = {"rounds_played": state.rounds_played, **standing}
    for key, words in GAME_FIELD_WORDS.items():
        if final[key] != exported.game.get(key):
            raise InvalidImport(Message(f"The export's {words} not match its rounds."))
    players = sorted(exported.game["players"], key=lambda player: player["seat"])
    for seat, player in enumerate(players):
        out = state.eliminated_in_round[seat]
        replayed = {
            "score": state.scores[seat],
            "eliminated": out is not None,
            "eliminated_in_round": out,
        }
        for key, words in PLAYER_FIELD_WORDS.items():
            if replayed[key] != player.get(key):
                raise InvalidImport(
                    Message(
                        f"{{name}}'s {words} in the export does not match its rounds.",
                        name=player["name"],
                    )
                )


def _store(
    bound: BoundGame,
    old_ids: Sequence[int],
    replayed: list[_Replayed],
    roster_ids: Mapping[int, int | None],
) -> None:
    """Insert the new game's history in one statement, under its new player ids; set its state.

    Players who joined during the game get their rows first. The game keeps the
    export's ``updated_at``: it last changed when the table changed it.
    """
    if not replayed:
        return
    to_new = dict(zip(old_ids, (player.id for player in bound.game.players), strict=True))
    newcomers = {item.newcomer.id: item.newcomer for item in replayed if item.newcomer}
    for old_id, newcomer in newcomers.items():
        player = Player(
            seat=len(bound.game.players),
            name=newcomer.name,
            roster_id=roster_ids.get(old_id) if bound.game.table_id else None,
            joined=True,
        )
        bound.game.players.append(player)
    session().flush()
    to_new.update(zip(newcomers, (p.id for p in bound.game.players[len(old_ids) :]), strict=True))
    now = utcnow()
    session().execute(
        insert(Round),
        [
            {
                "game_id": bound.game.id,
                "number": number,
                "entry": _entry_with_ids(bound.rules, item, to_new),
                "result": _with_ids(item.result, to_new),
                "state_after": _seated_by(item.state, to_new),
                "created_at": item.played_at or now,
                "updated_at": now,
            }
            for number, item in enumerate(replayed, start=1)
        ],
    )
    bound.game.state = _seated_by(replayed[-1].state, to_new)
    bound.rules, bound.state = state_of(bound.game, bound.game.state)
    keep_figures(bound.game, bound.rules, bound.state)


def _entry_with_ids(
    rules: Ruleset[Any, Any], item: _Replayed, to_new: Mapping[int, int]
) -> dict[str, Any]:
    """An item's entry under the new player ids; a join is kept by the newcomer's name."""
    if is_end(item.result):
        return dict(item.entry)
    change = item.result.get("seat_change")
    if change is None:
        return rules.remap_entry(item.entry, to_new)
    if "join" in change:
        join = change["join"]
        return {"join": {"name": join["name"], "after": to_new[join["after"]]}}
    return {"leave": to_new[change["leave"]["player"]]}


def _seated_by(state: GameState, mapping: Mapping[int, int]) -> dict[str, Any]:
    """A replayed state, as stored, with its seats' player ids translated through ``mapping``."""
    stored = state.to_dict()
    stored["seating"] = [mapping[player_id] for player_id in stored["seating"]]
    return stored


def _with_ids(value: Any, mapping: Mapping[int, int], key: str | None = None) -> Any:
    """``value`` with the player ids under id-bearing keys translated through ``mapping``."""
    if isinstance(value, dict):
        return {k: _with_ids(v, mapping, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_with_ids(item, mapping, key) for item in value]
    if key in ID_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return mapping.get(value, value)
    return value
