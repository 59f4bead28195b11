"""A game's whole history: exported as one document that replays exactly, and imported back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select

from ..extensions import db
from ..models import Round, utcnow
from ..rules import GameState, RoundOutcome, RuleError, Ruleset, get_ruleset
from ..rules import Player as SeatedPlayer
from ..rules.words import in_context
from ..serializers import game_body, round_body, round_json, standing_json, timestamp
from .errors import InvalidImport
from .games import BoundGame, GameSetup, add_game, find_game
from .storage import reading_one_snapshot, writing

EXPORT_FORMAT = "scorekeeper.game"
EXPORT_VERSION = 1
ID_FIELDS = frozenset({"player", "dealer", "starter", "caller", "takers", "winners"})
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


def export_game(game_id: str) -> dict[str, Any]:
    """The whole game: the Game with its setup, and every round with its accepted entry."""
    with reading_one_snapshot():
        bound = BoundGame.of(find_game(game_id))
        # The columns an export shows, not whole rows: each round's running state is not one.
        rounds = db.session.execute(
            select(Round.number, Round.entry, Round.result, Round.created_at)
            .where(Round.game_id == game_id)
            .order_by(Round.number)
        ).all()
        game = game_body(bound.game, bound.rules, bound.state)
        game["setup"] = {"dealer": bound.game.first_dealer, "starter": bound.game.first_starter}
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "exported_at": timestamp(utcnow()),
            "game": game,
            "rounds": [
                {
                    "number": round_.number,
                    "entry": round_.entry,
                    "round": round_body(round_.result, round_.created_at),
                }
                for round_ in rounds
            ],
        }


@dataclass(frozen=True)
class ExportedRound:
    """One round of an export, its entry checked at the edge."""

    number: Any
    entry: Mapping[str, Any]
    round: Mapping[str, Any]


@dataclass(frozen=True)
class ExportedGame:
    """An export, its shape checked at the edge: the setup in seats, the rest as exported."""

    setup: GameSetup
    player_ids: Sequence[int]
    """The export's player ids, by seat."""
    game: Mapping[str, Any]
    """The exported Game, to hold the replay against."""
    rounds: Sequence[ExportedRound]


@dataclass(frozen=True)
class _Replayed:
    """An exported round as its replay scored it, and when the table played it."""

    entry: Mapping[str, Any]
    outcome: RoundOutcome
    played_at: datetime | None


def import_game(exported: ExportedGame) -> tuple[BoundGame, str]:
    """Create a new game by replaying an export; refuse it, creating nothing, if anything differs.

    The whole export is replayed and checked before the write begins, so a
    refused one never takes the database's write lock.
    """
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
    created_at = _time(exported.game.get("created_at"), "The export's game")
    updated_at = _time(exported.game.get("updated_at"), "The export's game", "updated_at")
    replayed = _replay(rules, first_state, exported)
    _check_times_in_order(created_at, replayed)

    with writing():
        bound, token = add_game(setup, created_at, updated_at)
        _store(bound, exported.player_ids, replayed)
    return bound, token


def _replay(rules: Ruleset, state: GameState, exported: ExportedGame) -> list[_Replayed]:
    """Replay the export's entries, checking each round and the final standing against it."""
    replayed = []
    for expected, item in enumerate(exported.rounds, start=1):
        where = f"Round {expected} of the export"
        if item.number != expected:
            raise InvalidImport(f"{where} is numbered {item.number}.")
        try:
            outcome = rules.play(state, rules.parse_entry(item.entry))
        except RuleError as error:
            raise InvalidImport(in_context(f"{where} does not replay", error.message)) from None
        recorded = {key: value for key, value in item.round.items() if key != "created_at"}
        if round_json(outcome.result) != recorded:
            raise InvalidImport(
                f"{where} does not match its replay; the export was changed or is damaged."
            )
        played_at = _time(item.round.get("created_at"), where)
        replayed.append(_Replayed(item.entry, outcome, played_at))
        state = outcome.state
    _check_final_standing(rules, state, exported)
    return replayed


def _time(value: Any, where: str, field_name: str = "created_at") -> datetime | None:
    """An export's time in UTC; ``None`` if the export has none."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        if moment is not None and moment.tzinfo is not None:
            return moment.astimezone(UTC)
    except (ValueError, OverflowError):  # not a time, or out of range once in UTC
        pass
    raise InvalidImport(f"{where} has a {field_name} that is not a time like 2026-11-30T18:05:00Z.")


def _check_times_in_order(created_at: datetime | None, replayed: list[_Replayed]) -> None:
    """Refuse rounds played before the game was created, or before the round before them."""
    previous, after_what = created_at, "the game was created"
    for number, item in enumerate(replayed, start=1):
        if item.played_at is None:
            continue
        if previous is not None and item.played_at < previous:
            raise InvalidImport(f"Round {number} of the export was played before {after_what}.")
        previous, after_what = item.played_at, f"round {number}"


def _check_final_standing(rules: Ruleset, state: GameState, exported: ExportedGame) -> None:
    """Refuse an export whose game does not stand as its replayed rounds leave it."""
    standing = standing_json(rules.standing(state))
    final = {"rounds_played": state.rounds_played, **standing}
    for key, words in GAME_FIELD_WORDS.items():
        if final[key] != exported.game.get(key):
            raise InvalidImport(f"The export's {words} not match its rounds.")
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
                    f"{player['name']}'s {words} in the export does not match its rounds."
                )


def _store(bound: BoundGame, old_ids: Sequence[int], replayed: list[_Replayed]) -> None:
    """Insert the new game's rounds in one statement, under its new player ids; set its state.

    The game keeps the export's ``updated_at``: it last changed when the table changed it.
    """
    if not replayed:
        return
    to_new = dict(zip(old_ids, (player.id for player in bound.game.players), strict=True))
    now = utcnow()
    db.session.execute(
        insert(Round),
        [
            {
                "game_id": bound.game.id,
                "number": number,
                "entry": bound.rules.remap_entry(item.entry, to_new),
                "result": _with_ids(round_json(item.outcome.result), to_new),
                "state_after": item.outcome.state.to_dict(),
                "created_at": item.played_at or now,
                "updated_at": now,
            }
            for number, item in enumerate(replayed, start=1)
        ],
    )
    bound.state = replayed[-1].outcome.state
    bound.game.state = bound.state.to_dict()


def _with_ids(value: Any, mapping: Mapping[int, int], key: str | None = None) -> Any:
    """``value`` with the player ids under id-bearing keys translated through ``mapping``."""
    if isinstance(value, dict):
        return {k: _with_ids(v, mapping, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_with_ids(item, mapping, key) for item in value]
    if key in ID_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return mapping.get(value, value)
    return value
