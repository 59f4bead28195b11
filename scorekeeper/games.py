"""The domain service: create games, record, correct and undo rounds, export and import.

Views call these functions; they raise :mod:`errors` exceptions (or the
engine's) and leave the session committed on success, untouched on failure.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, Protocol, TypeVar

from marshmallow import ValidationError
from sqlalchemy import Insert, Text, bindparam, cast, delete, insert, select, update
from sqlalchemy import Table as DatabaseTable
from sqlalchemy.orm import joinedload

from .api.schemas import entry_schemas, game_create_schema, round_post_schemas
from .db import DriverStatement, DriverTransaction, driver_write_transaction
from .errors import Conflict, Forbidden, Invalid, NotFound, in_context, validation_message
from .extensions import db
from .models import Game, IdempotencyKey, Player, Round, utcnow
from .names import first_clash
from .rules import GameState, RoundConflict, RoundOutcome, RuleError, Ruleset, get_ruleset
from .rules import Player as SeatedPlayer
from .security import hash_token, new_game_id, new_token, token_matches
from .serializers import GameRecord, game_body, round_body, round_json, timestamp

MAX_ROUND_NUMBER = 2**31 - 1


@dataclass(frozen=True)
class Answer:
    """A status, a body and the ``Location`` of what was created, if anything."""

    status: int
    body: dict[str, Any]
    location: str | None = None


GameT = TypeVar("GameT", bound=GameRecord)


@dataclass
class Table(Generic[GameT]):
    """A game loaded with its rules bound to its players, and its running state.

    ``game`` is the ``Game`` model where the game is to be changed through the
    session, or a ``GameRow`` read with Core for an answer or a Core write.
    """

    game: GameT
    rules: Ruleset
    state: GameState

    @classmethod
    def of(cls, game: GameT) -> Table[GameT]:
        """Bind ``game``'s rules and state."""
        rules = get_ruleset(game.ruleset)(
            [SeatedPlayer(player.id, player.name) for player in game.players], game.options
        )
        return cls(game, rules, rules.state_from_dict(game.state))

    def body(self) -> dict[str, Any]:
        """The Game resource."""
        return game_body(self.game, self.rules, self.state)

    def initial_state(self) -> GameState:
        """The state before round 1."""
        starter = self.game.first_starter if self.rules.chooses_starter else None
        return self.rules.start(self.game.first_dealer, starter)

    def set_state(self: Table[Game], state: GameState) -> None:
        """Keep ``state`` as the game's running state."""
        self.state = state
        self.game.state = state.to_dict()
        self.game.touch()


GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
WITH_PLAYERS = joinedload(Game.players, innerjoin=True)  # one query for a game and its seats


@dataclass(frozen=True)
class PlayerRow:
    """A seated player, as read for an answer."""

    id: int
    name: str
    seat: int


@dataclass(frozen=True)
class GameRow:
    """A game as read with Core: plain values, none of the ORM's identity map or change tracking."""

    id: str
    ruleset: str
    name: str
    options: dict[str, Any]
    first_dealer: int
    first_starter: int
    state: dict[str, Any]
    version: int
    created_at: datetime
    updated_at: datetime
    players: tuple[PlayerRow, ...]
    token_hash: str = ""


# A game and its players in one statement (a row per player); the JSON columns are read as
# text and decoded once rather than once per row.
READ_GAME_SELECT = (
    select(
        Game.id,
        Game.ruleset,
        Game.name,
        cast(Game.options, Text).label("options"),
        Game.first_dealer,
        Game.first_starter,
        cast(Game.state, Text).label("state"),
        Game.version,
        Game.created_at,
        Game.updated_at,
        Player.id.label("player_id"),
        Player.name.label("player_name"),
        Player.seat,
    )
    .join(Player, Player.game_id == Game.id)
    .where(Game.id == bindparam("game_id"))
    .order_by(Player.seat)
)
# The statements of every GET and every recorded round go straight to the driver (db.py).
READ_GAME = DriverStatement(READ_GAME_SELECT)
LOCK_GAME = DriverStatement(READ_GAME_SELECT.add_columns(Game.token_hash).with_for_update(of=Game))
GAME_VERSION = DriverStatement(select(Game.version).where(Game.id == bindparam("game_id")))


def _game_row(rows: Sequence[Mapping[Any, Any]]) -> GameRow:
    """The GameRow of READ_GAME's (or LOCK_GAME's) rows; 404 if there are none."""
    if not rows:
        raise NotFound("There is no game with this id.")
    game = rows[0]
    return GameRow(
        id=game["id"],
        ruleset=game["ruleset"],
        name=game["name"],
        options=json.loads(game["options"]),
        first_dealer=game["first_dealer"],
        first_starter=game["first_starter"],
        state=json.loads(game["state"]),
        version=game["version"],
        created_at=game["created_at"],
        updated_at=game["updated_at"],
        players=tuple(PlayerRow(row["player_id"], row["player_name"], row["seat"]) for row in rows),
        token_hash=game.get("token_hash", ""),
    )


def _check_game_id(game_id: str) -> None:
    """404 for an id no game can have, before asking the database."""
    if not GAME_ID.fullmatch(game_id):
        raise NotFound("There is no game with this id.")


def load_game(game_id: str) -> Table[GameRow]:
    """Read a game, for an answer that needs nothing else from the database.

    (``export_game`` reads the rounds too, so it reads the game in the
    session's transaction instead.)
    """
    _check_game_id(game_id)
    return Table.of(_game_row(READ_GAME.rows_alone(db.engine, {"game_id": game_id})))


def game_version(game_id: str) -> int:
    """The game's version, which every change to it raises: the ETag of its Game resource."""
    _check_game_id(game_id)
    rows = GAME_VERSION.rows_alone(db.engine, {"game_id": game_id})
    if not rows:
        raise NotFound("There is no game with this id.")
    return int(rows[0]["version"])


def _load_game_in_snapshot(game_id: str) -> Table[GameRow]:
    """Read a game in a new transaction that sees one snapshot: what is read next matches it.

    SQLite's transactions always do; PostgreSQL's default, READ COMMITTED, takes a
    new snapshot per statement, so a round committed between two reads would
    show in the second only.
    """
    _check_game_id(game_id)
    if db.session().in_transaction():
        db.session.commit()
    if db.engine.dialect.name == "postgresql":
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    rows = db.session.execute(READ_GAME_SELECT, {"game_id": game_id}).mappings().all()
    return Table.of(_game_row(rows))


def _end_session_transaction() -> None:
    """Commit what the session began earlier in this scope, before a write of its own or not.

    On SQLite a read transaction cannot become a write transaction once another
    connection has written since it began, so a write must not follow an old read.
    """
    if db.session.registry.has() and db.session().in_transaction():
        db.session.commit()


def _open_write_transaction() -> None:
    """Begin the session's write transaction: on SQLite in the writer queue, IMMEDIATE (db.py)."""
    _end_session_transaction()
    db.session.connection(execution_options={"write_lock": True})


def _begin_write(game_id: str) -> None:
    """Open the session's write transaction that will lock a game."""
    _open_write_transaction()
    _check_game_id(game_id)


def _check_token(token: str, token_hash: str) -> None:
    """403 unless ``token`` is the game's."""
    if not token_matches(token, token_hash):
        raise Forbidden("That token does not open this game.")


def lock_game(game_id: str, token: str) -> Table[Game]:
    """Open a write transaction on a game, holding its lock, after checking the token."""
    _begin_write(game_id)
    game = (
        db.session.scalars(
            select(Game).options(WITH_PLAYERS).where(Game.id == game_id).with_for_update(of=Game)
        )
        .unique()
        .first()
    )
    if game is None:
        raise NotFound("There is no game with this id.")
    _check_token(token, game.token_hash)
    return Table.of(game)


def round_location(game_id: str, number: int) -> str:
    """Where round ``number`` of a game lives."""
    return f"/api/v1/games/{game_id}/rounds/{number}"


# Games


def create_game(data: Mapping[str, Any]) -> tuple[Table[Game], str]:
    """Create a game from a validated ``GameCreateSchema`` load; return it with its token."""
    table, token = _add_game(data)
    db.session.commit()
    return table, token


def _add_game(
    data: Mapping[str, Any],
    created_at: datetime | None = None,
    updated_at: datetime | None = None,
) -> tuple[Table[Game], str]:
    """Add a new game to the session (flushed, not committed); return it with its token."""
    rules_class = get_ruleset(data["ruleset"])
    names = data["players"]
    rules = rules_class(
        [SeatedPlayer(seat, name) for seat, name in enumerate(names)], data.get("options") or {}
    )
    dealer = data.get("dealer")
    starter = data.get("starter")
    if dealer is None:
        dealer = secrets.randbelow(len(names))
    if starter is None and rules.chooses_starter:
        starter = secrets.randbelow(len(names))
    state = rules.start(dealer, starter)
    token = new_token()
    now = utcnow()
    game = Game(
        id=new_game_id(),
        ruleset=rules.name,
        name=data.get("name") or "",
        options=rules.options,
        first_dealer=dealer,
        first_starter=state.starter,
        token_hash=hash_token(token),
        state=state.to_dict(),
        version=1,
        created_at=created_at or now,
        updated_at=updated_at or now,
        players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
    )
    db.session.add(game)
    db.session.flush()
    return Table.of(game), token


def rename(game_id: str, token: str, data: Mapping[str, Any]) -> Table[Game]:
    """Rename the game or its players."""
    table = lock_game(game_id, token)
    by_id = {player.id: player for player in table.game.players}
    new_names = {player.id: player.name for player in table.game.players}
    for change in data.get("players", []):
        if change["id"] not in by_id:
            raise Invalid(
                f"Player {change['id']} is not in this game.",
                {"players": [f"Player {change['id']} is not in this game."]},
            )
        new_names[change["id"]] = change["name"]
    if (clash := first_clash(list(new_names.values()))) is not None:
        earlier, later = clash
        raise Invalid(
            f"The name {later} is the same as {earlier}; give each player a different name.",
            {"players": [f"{later} is the same name as {earlier}."]},
        )
    new_game_name = data.get("name", table.game.name)
    changed = new_game_name != table.game.name or any(
        by_id[player_id].name != name for player_id, name in new_names.items()
    )
    if changed:  # a change that changes nothing keeps the version, and so the ETag
        for player_id, name in new_names.items():
            by_id[player_id].name = name
        table.game.name = new_game_name
        table.game.touch()
    db.session.commit()
    return Table.of(table.game)


def delete_game(game_id: str, token: str) -> None:
    """Delete a game with its rounds."""
    table = lock_game(game_id, token)
    db.session.delete(table.game)
    db.session.commit()


# Rounds


def _insert_row(table: DatabaseTable) -> Insert:
    """An INSERT of every column but the generated id, each bound by its name and type."""
    return insert(table).values(
        {
            column.name: bindparam(column.name, type_=column.type)
            for column in table.c
            if column.name != "id"
        }
    )


INSERT_ROUND = DriverStatement(_insert_row(Round.__table__))
UPDATE_GAME_STATE = DriverStatement(
    update(Game.__table__)
    .where(Game.__table__.c.id == bindparam("game_id"))
    .values(
        state=bindparam("new_state", type_=Game.__table__.c.state.type),
        version=Game.__table__.c.version + 1,
        updated_at=bindparam("now", type_=Game.__table__.c.updated_at.type),
    )
)
READ_IDEMPOTENCY_KEY = DriverStatement(
    select(
        IdempotencyKey.request_hash,
        IdempotencyKey.status,
        IdempotencyKey.body,
        IdempotencyKey.location,
    ).where(IdempotencyKey.game_id == bindparam("game_id"), IdempotencyKey.key == bindparam("key"))
)
INSERT_IDEMPOTENCY_KEY = DriverStatement(_insert_row(IdempotencyKey.__table__))


def request_hash(body: Any) -> str:
    """A fingerprint of a JSON body that ignores key order and spacing."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def record_round(
    game_id: str,
    token: str,
    body: Any,
    *,
    idempotency_key: str | None = None,
    dry_run: bool = False,
) -> Answer:
    """Score and store the next round; with a known key, replay the first answer.

    One transaction straight on the driver (``db.driver_write_transaction``):
    lock the game, check the token, score, insert the round, update the game.
    """
    _check_game_id(game_id)
    fingerprint = request_hash(body) if idempotency_key is not None else ""
    _end_session_transaction()
    engine = db.engine
    try:
        with driver_write_transaction(engine) as transaction:
            table = Table.of(_game_row(transaction.rows(LOCK_GAME, {"game_id": game_id})))
            _check_token(token, table.game.token_hash)
            if idempotency_key is not None:
                stored = _stored_answer(transaction, game_id, idempotency_key, fingerprint)
                if stored is not None:
                    return stored
            return _score_and_store(transaction, table, body, idempotency_key, fingerprint, dry_run)
    except engine.dialect.loaded_dbapi.IntegrityError:
        raise Conflict(
            "This round is being recorded by another request; try again in a moment.",
            headers={"Retry-After": "1"},
        ) from None


def _score_and_store(
    transaction: DriverTransaction,
    table: Table[GameRow],
    body: Any,
    idempotency_key: str | None,
    fingerprint: str,
    dry_run: bool,
) -> Answer:
    """``record_round`` once the game is locked: validate, score and, unless a dry run, store."""
    if table.state.finished:
        raise Conflict("The game is over; undo or correct a round to change it.")
    data = round_post_schemas[table.rules.name].load(body)
    number = data.pop("number", None)
    expected = table.state.rounds_played + 1
    if number is not None and number != expected:
        raise Conflict(
            f"This is round {expected}, not round {number}; another phone may have recorded "
            "that round first.",
            {"number": [f"The next round is {expected}."]},
        )
    outcome = table.rules.play(table.state, table.rules.parse_entry(data))
    if dry_run:
        return Answer(200, {**round_json(outcome.result), "dry_run": True})

    game_id = table.game.id
    now = utcnow()
    state_after = outcome.state.to_dict()
    transaction.execute(
        INSERT_ROUND,
        {
            "game_id": game_id,
            "number": expected,
            "entry": data,
            "result": round_json(outcome.result),
            "state_after": state_after,
            "created_at": now,
            "updated_at": now,
        },
    )
    transaction.execute(
        UPDATE_GAME_STATE, {"game_id": game_id, "new_state": state_after, "now": now}
    )
    answer = Answer(
        201, round_body(round_json(outcome.result), now), round_location(game_id, expected)
    )
    if idempotency_key is not None:
        transaction.execute(
            INSERT_IDEMPOTENCY_KEY,
            {
                "game_id": game_id,
                "key": idempotency_key,
                "request_hash": fingerprint,
                "status": answer.status,
                "body": answer.body,
                "location": answer.location,
                "created_at": now,
            },
        )
    return answer


def _stored_answer(
    transaction: DriverTransaction, game_id: str, key: str, fingerprint: str
) -> Answer | None:
    """The answer first given for ``key``, or ``None`` if the key is new."""
    rows = transaction.rows(READ_IDEMPOTENCY_KEY, {"game_id": game_id, "key": key})
    if not rows:
        return None
    stored = rows[0]
    if stored["request_hash"] != fingerprint:
        raise Invalid(
            "This Idempotency-Key was already used for a different round; use a new key.",
            {"Idempotency-Key": ["Already used with another body."]},
            code="invalid_idempotency_key",
        )
    return Answer(stored["status"], stored["body"], stored["location"])


def get_round(game_id: str, number: int) -> dict[str, Any]:
    """One recorded round."""
    round_ = None
    if 1 <= number <= MAX_ROUND_NUMBER:  # a larger number cannot be stored, so is never played
        round_ = db.session.scalars(
            select(Round).where(Round.game_id == game_id, Round.number == number)
        ).first()
    if round_ is None:
        load_game(game_id)  # a 404 for the game itself comes first
        raise NotFound(f"Round {number} has not been played in this game.")
    return round_body(round_.result, round_.created_at)


def list_rounds(game_id: str) -> list[dict[str, Any]]:
    """Every recorded round, in order."""
    load_game(game_id)
    rounds = db.session.scalars(
        select(Round).where(Round.game_id == game_id).order_by(Round.number)
    )
    return [round_body(round_.result, round_.created_at) for round_ in rounds]


def _existing_round_number(table: Table[Any], number: int) -> None:
    """404 unless round ``number`` has been played."""
    if not 1 <= number <= table.state.rounds_played:
        raise NotFound(f"Round {number} has not been played in this game.")


def _state_before(table: Table[Any], number: int) -> GameState:
    """The running state just before round ``number``."""
    if number == 1:
        return table.initial_state()
    state_after = db.session.scalars(
        select(Round.state_after).where(Round.game_id == table.game.id, Round.number == number - 1)
    ).one()
    return table.rules.state_from_dict(state_after)


def correct_round(
    game_id: str, token: str, number: int, body: Any, *, dry_run: bool = False
) -> Answer:
    """Replace round ``number``'s entry and score it and every later round again."""
    table = lock_game(game_id, token)
    data = entry_schemas[table.rules.name].load(body)
    _existing_round_number(table, number)
    state = _state_before(table, number)
    rounds = db.session.scalars(
        select(Round).where(Round.game_id == game_id, Round.number >= number).order_by(Round.number)
    ).all()
    now = utcnow()
    corrected: dict[str, Any] = {}
    changed: list[int] = []  # later rounds whose results the correction changes
    for round_ in rounds:
        entry = data if round_.number == number else round_.entry
        try:
            outcome = table.rules.play(state, table.rules.parse_entry(entry))
        except RuleError as error:
            if round_.number == number:
                raise
            raise RoundConflict(
                in_context(
                    f"Round {round_.number} no longer fits after this correction", error.message
                ),
                {"round": round_.number, **error.details},
            ) from None
        state = outcome.state
        if round_.number == number:
            corrected = round_json(outcome.result)
        elif round_json(outcome.result) != round_.result:
            changed.append(round_.number)
        if dry_run:
            continue
        round_.entry = entry
        round_.result = round_json(outcome.result)
        round_.state_after = state.to_dict()
        round_.updated_at = now
    if dry_run:
        rescored = {
            "rounds": len(rounds),
            "changed": changed,
            "game": game_body(table.game, table.rules, state),
        }
        db.session.rollback()
        return Answer(200, {**corrected, "dry_run": True, "rescored": rescored})
    table.set_state(state)
    answer = Answer(200, round_body(rounds[0].result, rounds[0].created_at))
    db.session.commit()
    return answer


def undo_round(game_id: str, token: str, number: int) -> None:
    """Delete the last round, going back to the state before it."""
    table = lock_game(game_id, token)
    _existing_round_number(table, number)
    last = table.state.rounds_played
    if number != last:
        raise Conflict(
            f"Only the last round ({last}) can be undone; correct round {number} instead.",
        )
    previous = _state_before(table, number)
    db.session.execute(delete(Round).where(Round.game_id == game_id, Round.number == number))
    table.set_state(previous)
    db.session.commit()


# History


EXPORT_FORMAT = "scorekeeper.game"
EXPORT_VERSION = 1


@dataclass(frozen=True)
class ExportBody:
    """An export but for when it was made: the game with its setup and its rounds, as UTF-8 JSON."""

    game: bytes
    rounds: bytes


class KeptExportBodies(Protocol):
    """Where export bodies are kept by game id and version."""

    def get(self, game_id: str, version: int) -> ExportBody | None: ...
    def keep(self, game_id: str, version: int, body: ExportBody) -> None: ...


def export_game(game_id: str, kept: KeptExportBodies | None = None) -> list[bytes]:
    """The whole game as one JSON document that replays exactly, in UTF-8 pieces to send in turn.

    Every change to a game raises its version, so all of the document but its
    ``exported_at`` can be kept for a version in ``kept`` and sent again after
    reading the version alone; otherwise the game and its rounds are read in one
    snapshot. Rounds are copied as the JSON text they are stored as, not decoded
    and encoded again: that is most of the cost of a long game's export.
    """
    body = kept.get(game_id, game_version(game_id)) if kept is not None else None
    if body is None:
        version, body = _export_body(game_id)
        if kept is not None:
            kept.keep(game_id, version, body)
    head = (
        f'{{"format": "{EXPORT_FORMAT}", "version": {EXPORT_VERSION}, '
        f'"exported_at": "{timestamp(utcnow())}", "game": '
    )
    return [head.encode(), body.game, b', "rounds": [', body.rounds, b"]}"]


def _export_body(game_id: str) -> tuple[int, ExportBody]:
    """A game and its rounds, read in one snapshot, as an export's body; with the game's version."""
    table = _load_game_in_snapshot(game_id)
    rows = db.session.execute(
        select(
            Round.number,
            cast(Round.entry, Text),
            cast(Round.result, Text),
            Round.created_at,
        )
        .where(Round.game_id == game_id)
        .order_by(Round.number)
    )
    rounds = ",".join(
        f'{{"number": {number}, "entry": {entry}, "round": {result.rstrip()[:-1]}, '
        f'"created_at": "{timestamp(created_at)}"}}}}'
        for number, entry, result, created_at in rows
    )
    game = table.body()
    game["setup"] = {"dealer": table.game.first_dealer, "starter": table.game.first_starter}
    return table.game.version, ExportBody(json.dumps(game).encode(), rounds.encode())


def import_game(document: Mapping[str, Any]) -> tuple[Table[Game], str]:
    """Create a new game by replaying an export; refuse it if any result differs.

    The whole export is replayed and checked before anything is written, so a
    long game holds the database's write lock only while its rows are inserted,
    and a refused export writes nothing.
    """
    exported = document["game"]
    players = sorted(exported["players"], key=lambda player: player["seat"])
    old_ids = [player["id"] for player in players]
    if sorted(player["seat"] for player in players) != list(range(len(players))) or len(
        set(old_ids)
    ) != len(old_ids):
        raise Invalid(
            "The export's players need distinct ids and seats 0, 1, 2...", code="invalid_import"
        )
    rules_class = get_ruleset(exported["ruleset"])
    setup = exported["setup"]
    try:
        data = game_create_schema.load(
            {
                "ruleset": exported["ruleset"],
                "name": exported["name"],
                "players": [player["name"] for player in players],
                "options": exported["options"],
                "dealer": setup["dealer"],
                "starter": setup["starter"] if rules_class.chooses_starter else None,
            }
        )
        # The export's own player ids, so that its rounds replay and compare as they are.
        seated = zip(old_ids, data["players"], strict=True)
        rules = rules_class(
            [SeatedPlayer(old_id, name) for old_id, name in seated], data["options"]
        )
        first_state = rules.start(data["dealer"], data["starter"])
    except ValidationError as error:
        messages = error.normalized_messages()
        raise Invalid(
            in_context("The export's game cannot be set up", validation_message(messages)),
            messages,
            code="invalid_import",
        ) from None
    except RuleError as error:
        raise Invalid(
            in_context("The export's game cannot be set up", error.message), code="invalid_import"
        ) from None
    created_at = _exported_time(exported.get("created_at"), "The export's game")
    updated_at = _exported_time(exported.get("updated_at"), "The export's game", "updated_at")
    replayed = _replay_export(rules, first_state, document["rounds"], exported)
    _check_times_in_order(created_at, replayed)

    _open_write_transaction()
    try:
        table, token = _add_game(data, created_at, updated_at)
        _store_replayed(table, old_ids, replayed)
    except Exception:
        db.session.rollback()
        raise
    db.session.commit()
    return table, token


@dataclass(frozen=True)
class ReplayedRound:
    """An exported round as checked by its replay: the loaded entry, its outcome and time."""

    entry: dict[str, Any]
    outcome: RoundOutcome
    created_at: datetime | None


def _exported_time(value: Any, where: str, field_name: str = "created_at") -> datetime | None:
    """An export's ``created_at`` (or other time) in UTC; ``None`` if the export has none."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        if moment is not None and moment.tzinfo is not None:
            return moment.astimezone(UTC)
    except (ValueError, OverflowError):  # not a time, or out of range once in UTC
        pass
    raise Invalid(
        f"{where} has a {field_name} that is not a time like 2026-11-30T18:05:00Z.",
        code="invalid_import",
    )


def _replay_export(
    rules: Ruleset, state: GameState, rounds: list[Mapping[str, Any]], exported: Mapping[str, Any]
) -> list[ReplayedRound]:
    """Replay an export's entries from ``state``, checking each result and the game against it."""
    schema = entry_schemas[rules.name]
    replayed = []
    for expected_number, item in enumerate(rounds, start=1):
        where = f"Round {expected_number} of the export"
        if item["number"] != expected_number:
            raise Invalid(f"{where} is numbered {item['number']}.", code="invalid_import")
        try:
            entry = schema.load(item["entry"])
            outcome = rules.play(state, rules.parse_entry(entry))
        except ValidationError:
            raise Invalid(f"{where} has a malformed entry.", code="invalid_import") from None
        except RuleError as error:
            raise Invalid(
                in_context(f"{where} does not replay", error.message), code="invalid_import"
            ) from None
        recorded = {key: value for key, value in item["round"].items() if key != "created_at"}
        if round_json(outcome.result) != recorded:
            raise Invalid(
                f"{where} does not match its replay; the export was changed or is damaged.",
                code="invalid_import",
            )
        replayed.append(
            ReplayedRound(entry, outcome, _exported_time(item["round"].get("created_at"), where))
        )
        state = outcome.state
    _check_final_standing(rules, state, exported)
    return replayed


def _check_final_standing(rules: Ruleset, state: GameState, exported: Mapping[str, Any]) -> None:
    """Refuse an export whose game does not stand as its replayed rounds leave it."""
    now = utcnow()
    game = GameRow(
        id="",
        ruleset=rules.name,
        name="",
        options=rules.options,
        first_dealer=0,
        first_starter=0,
        state={},
        version=0,
        created_at=now,
        updated_at=now,
        players=tuple(
            PlayerRow(player.id, player.name, seat) for seat, player in enumerate(rules.players)
        ),
    )
    final = game_body(game, rules, state)
    for key, words in GAME_FIELD_WORDS.items():
        if final[key] != exported.get(key):
            raise Invalid(f"The export's {words} not match its rounds.", code="invalid_import")
    exported_players = sorted(exported["players"], key=lambda player: player["seat"])
    for player, exported_player in zip(final["players"], exported_players, strict=True):
        for key, words in PLAYER_FIELD_WORDS.items():
            if player[key] != exported_player.get(key):
                raise Invalid(
                    f"{player['name']}'s {words} in the export does not match its rounds.",
                    code="invalid_import",
                )


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


def _check_times_in_order(created_at: datetime | None, replayed: list[ReplayedRound]) -> None:
    """Refuse an export whose rounds were played before the game began, or before each other."""
    previous, after_what = created_at, "the game was created"
    for number, item in enumerate(replayed, start=1):
        if item.created_at is None:
            continue
        if previous is not None and item.created_at < previous:
            raise Invalid(
                f"Round {number} of the export was played before {after_what}.",
                code="invalid_import",
            )
        previous, after_what = item.created_at, f"round {number}"


def _store_replayed(table: Table[Game], old_ids: list[int], replayed: list[ReplayedRound]) -> None:
    """Insert a new game's replayed rounds in one statement, with new player ids; set its state."""
    to_new = dict(zip(old_ids, (player.id for player in table.game.players), strict=True))
    now = utcnow()
    if replayed:
        db.session.execute(
            insert(Round),
            [
                {
                    "game_id": table.game.id,
                    "number": number,
                    "entry": table.rules.remap_entry(item.entry, to_new),
                    "result": _with_ids(round_json(item.outcome.result), to_new),
                    "state_after": item.outcome.state.to_dict(),
                    "created_at": item.created_at or now,  # when the table played it
                    "updated_at": now,
                }
                for number, item in enumerate(replayed, start=1)
            ],
        )
        # The export's updated_at stays: the game last changed when the table changed it.
        table.state = replayed[-1].outcome.state
        table.game.state = table.state.to_dict()


ID_FIELDS = frozenset({"player", "dealer", "starter", "caller", "takers", "winners"})


def _with_ids(value: Any, mapping: Mapping[int, int], key: str | None = None) -> Any:
    """``value`` with the player ids under id-bearing keys translated through ``mapping``."""
    if isinstance(value, dict):
        return {k: _with_ids(v, mapping, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_with_ids(item, mapping, key) for item in value]
    if key in ID_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return mapping.get(value, value)
    return value
