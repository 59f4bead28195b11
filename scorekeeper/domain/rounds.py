"""Rounds: record the next one (O(1): the running state is kept), correct one, undo the last."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import IdempotencyKey, Round, utcnow
from ..rules import GameState, RoundConflict, RuleError, Ruleset, get_ruleset
from ..rules.words import Message, in_context
from ..serializers import game_body, round_body, round_json, seat_change_json
from .errors import (
    GameOver,
    NotARound,
    NotTheLastRound,
    RecordingInProgress,
    RoundNotFound,
    RoundTaken,
    WrongRuleset,
)
from .games import BoundGame, open_game, read_game, state_of
from .replays import stored_answer
from .seats import is_seat_change, joined_player, replay_seat_change
from .storage import writing

MAX_ROUND_NUMBER = 2**31 - 1  # a larger number cannot be stored, so is never played
RECORDED = 201  # what the first answer to a key was, as the idempotency table keeps it


@dataclass(frozen=True)
class RecordedRound:
    """A round as recorded (or as it would be, on a dry run): its number and its Round body."""

    number: int
    body: dict[str, Any]


def request_hash(body: Any) -> str:
    """A fingerprint of a JSON body that ignores key order and spacing."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def record_round(
    game_id: str,
    token: str,
    ruleset: str,
    entry: Mapping[str, Any],
    *,
    number: int | None = None,
    idempotency_key: str | None = None,
    fingerprint: str = "",
    dry_run: bool = False,
) -> RecordedRound:
    """Score and store the next round; with a key already used, the first answer again.

    ``number``, when given, must be the next round's (else another phone took it);
    ``fingerprint`` is the ``request_hash`` of the body the key came with.
    """
    try:
        with writing(dry_run=dry_run):
            bound = open_game(game_id, token)
            if idempotency_key is not None:
                stored = stored_answer(game_id, idempotency_key, fingerprint)
                if stored is not None:
                    return RecordedRound(stored.number, stored.body)
            _check_ruleset(bound, ruleset)
            recorded = _play_next(bound, entry, number, dry_run)
            if idempotency_key is not None and not dry_run:
                db.session.add(
                    IdempotencyKey(
                        game_id=game_id,
                        key=idempotency_key,
                        request_hash=fingerprint,
                        status=RECORDED,
                        body=recorded.body,
                        created_at=utcnow(),
                    )
                )
            return recorded
    except IntegrityError:
        raise RecordingInProgress(
            "This round is being recorded by another request; try again in a moment."
        ) from None


def _play_next(
    bound: BoundGame, entry: Mapping[str, Any], number: int | None, dry_run: bool
) -> RecordedRound:
    """Score the next round from ``entry`` and, unless a dry run, store it with the new state."""
    if bound.state.finished:
        raise GameOver("The game is over; undo or correct a round to change it.")
    expected = bound.state.last_number + 1
    if number is not None and number != expected:
        raise RoundTaken(
            Message(
                "This is round {expected}, not round {number}; another phone may have recorded "
                "that round first.",
                expected=expected,
                number=number,
            ),
            {"number": [f"The next round is {expected}."]},
        )
    outcome = bound.rules.play(bound.state, bound.rules.parse_entry(entry))
    result = round_json(outcome.result)
    if dry_run:
        return RecordedRound(expected, {**result, "dry_run": True})
    now = utcnow()
    db.session.add(
        Round(
            game_id=bound.game.id,
            number=expected,
            entry=dict(entry),
            result=result,
            state_after=outcome.state.to_dict(),
            created_at=now,
            updated_at=now,
        )
    )
    bound.keep_state(outcome.state)
    return RecordedRound(expected, round_body(result, now))


def get_round(game_id: str, number: int) -> dict[str, Any]:
    """One recorded round's body."""
    round_ = None
    if 1 <= number <= MAX_ROUND_NUMBER:
        round_ = db.session.scalars(
            select(Round).where(Round.game_id == game_id, Round.number == number)
        ).first()
    if round_ is None:
        read_game(game_id)  # a 404 for the game itself comes first
        raise RoundNotFound(
            Message("Round {number} has not been played in this game.", number=number)
        )
    return round_body(round_.result, round_.created_at)


def list_rounds(game_id: str) -> list[dict[str, Any]]:
    """Every recorded round's body, in order."""
    read_game(game_id)
    rounds = db.session.scalars(
        select(Round).where(Round.game_id == game_id).order_by(Round.number)
    )
    return [round_body(round_.result, round_.created_at) for round_ in rounds]


def correct_round(
    game_id: str,
    token: str,
    number: int,
    ruleset: str,
    entry: Mapping[str, Any],
    *,
    dry_run: bool = False,
) -> dict[str, Any]:
    """Replace round ``number``'s entry and replay every later round and seat change."""
    with writing(dry_run=dry_run):
        bound = open_game(game_id, token)
        _check_ruleset(bound, ruleset)
        _check_played(bound, number)
        items = db.session.scalars(
            select(Round)
            .where(Round.game_id == game_id, Round.number >= number)
            .order_by(Round.number)
        ).all()
        if is_seat_change(items[0].result):
            raise NotARound(
                Message(
                    "Number {number} is a seat change, not a round; undo it if it was a mistake.",
                    number=number,
                )
            )
        rules, state = _state_before(bound, number)
        now = utcnow()
        corrected: dict[str, Any] = {}
        changed: list[int] = []  # later rounds whose results the correction changes
        for item in items:
            replayed = entry if item.number == number else item.entry
            try:
                rules, state, result = _replay(bound, rules, state, replayed, item.result)
            except RuleError as error:
                if item.number == number:
                    raise
                raise _no_longer_fits(item.number, error) from None
            if item.number == number:
                corrected = result
            elif result != item.result:
                changed.append(item.number)
            if not dry_run:
                item.entry = dict(replayed)
                item.result = result
                item.state_after = state.to_dict()
                item.updated_at = now
        if dry_run:
            rescored = {
                "rounds": len(items),
                "changed": changed,
                "game": game_body(bound.game, rules, state),
            }
            return {**corrected, "dry_run": True, "rescored": rescored}
        bound.keep_state(state, rules)
        return round_body(items[0].result, items[0].created_at)


def _replay(
    bound: BoundGame,
    rules: Ruleset,
    state: GameState,
    entry: Mapping[str, Any],
    stored: Mapping[str, Any],
) -> tuple[Ruleset, GameState, dict[str, Any]]:
    """Replay one history item: the rules and state after it, and its result as stored."""
    if is_seat_change(stored):
        outcome = replay_seat_change(bound.game, rules, state, stored)
        return outcome.rules, outcome.state, seat_change_json(outcome.result)
    played = rules.play(state, rules.parse_entry(entry))
    return rules, played.state, round_json(played.result)


def _no_longer_fits(number: int, error: RuleError) -> RoundConflict:
    """The conflict of a later round that a correction leaves unplayable."""
    return RoundConflict(
        in_context(
            Message("Round {number} no longer fits after this correction", number=number),
            error.message,
        ),
        {"round": number, **error.details},
    )


def undo_round(game_id: str, token: str, number: int) -> None:
    """Delete the last history item, round or seat change, going back to the state before it."""
    with writing():
        bound = open_game(game_id, token)
        _check_played(bound, number)
        last = bound.state.last_number
        if number != last:
            raise NotTheLastRound(
                Message(
                    "Only the last round or seat change ({last}) can be undone; "
                    "correct round {number} instead.",
                    last=last,
                    number=number,
                )
            )
        rules, previous = _state_before(bound, number)
        undone = db.session.scalars(
            select(Round).where(Round.game_id == game_id, Round.number == number)
        ).one()
        db.session.delete(undone)
        newcomer = joined_player(undone.result)
        bound.keep_state(previous, rules)
        if newcomer is not None:  # the join undone: the newcomer never sat down
            db.session.delete(next(p for p in bound.game.players if p.id == newcomer))


def _check_ruleset(bound: BoundGame, ruleset: str) -> None:
    """A ``WrongRuleset`` unless the entry is written for the game's ruleset."""
    if ruleset != bound.rules.name:
        other = get_ruleset(ruleset).title
        raise WrongRuleset(
            Message(
                "This game is {game}, but the round was entered as {other}.",
                game=Message(bound.rules.title),
                other=Message(other),
            ),
            {"ruleset": [f"The game is {bound.rules.title}."]},
        )


def _check_played(bound: BoundGame, number: int) -> None:
    """A ``RoundNotFound`` unless history item ``number`` has been recorded."""
    if not 1 <= number <= bound.state.last_number:
        raise RoundNotFound(
            Message("Round {number} has not been played in this game.", number=number)
        )


def _state_before(bound: BoundGame, number: int) -> tuple[Ruleset, GameState]:
    """The running state just before history item ``number``, with the rules of its seats."""
    if number == 1:
        return bound.initial_state()
    state_after = db.session.scalars(
        select(Round.state_after).where(Round.game_id == bound.game.id, Round.number == number - 1)
    ).one()
    return state_of(bound.game, state_after)
