"""Rounds: record the next one (O(1): the running state is kept), correct one, undo the last."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from ..models import Round, utcnow
from ..rules import GameState, RoundConflict, RuleError, Ruleset
from ..rules.words import Message, in_context
from .commands import Answer, KeyedRequest, Render
from .errors import (
    GameOver,
    NotARound,
    NotTheLastRound,
    RecordingInProgress,
    RoundNotFound,
    RoundTaken,
)
from .games import (
    BoundGame,
    add_to_history,
    check_room,
    check_token,
    is_end,
    open_game,
    read_game,
    state_of,
    when_played,
)
from .giving_way import ITEMS_BETWEEN_TURNS, give_way
from .records import HistoryItem, end_json, round_json, seat_change_json
from .seats import is_seat_change, joined_player, replay_seat_change
from .storage import reading_one_snapshot, rescore_items, rescored_item, session, writing

MAX_ROUND_NUMBER = 2**31 - 1  # a larger number cannot be stored, so is never played


@dataclass(frozen=True)
class ReadEntry:
    """A round's entry as its game's ruleset reads it, with what the phone asked of the round."""

    entry: Mapping[str, Any]
    number: int | None = None
    """The round number the phone expects (else another phone took it)."""
    played_at: datetime | None = None
    """When the phone entered it (``when_played``)."""


EntryReader = Callable[[str], ReadEntry]
"""Reads a round's body for a game of the ruleset it is given (the game says which)."""


@dataclass(frozen=True)
class ScoredRound:
    """The next round, scored: recorded, or as it would be on a dry run."""

    item: HistoryItem
    dry_run: bool = False


@dataclass(frozen=True)
class Rescored:
    """What a correction's dry run would change: the items it replays, the later rounds whose
    results change, and the game after, with the history revision it would take."""

    rounds: int
    changed: list[int]
    game: BoundGame
    history_revision: int


@dataclass(frozen=True)
class CorrectedRound:
    """A round corrected; on a dry run, with what the correction would change."""

    item: HistoryItem
    rescored: Rescored | None = None
    """Only on a dry run."""


def record_round(
    game_id: str,
    token: str,
    read_entry: EntryReader,
    *,
    answer: Render[ScoredRound],
    request: KeyedRequest | None = None,
    dry_run: bool = False,
) -> Answer:
    """Score and store the next round; with a key already used, the first answer again.
    ``read_entry`` reads the round for the game's ruleset."""

    def record(bound: BoundGame) -> ScoredRound:
        read = read_entry(bound.rules.name)
        return _play_next(bound, read.entry, read.number, read.played_at, dry_run)

    return add_to_history(
        game_id,
        token,
        request,
        record,
        answer,
        dry_run=dry_run,
        in_progress="This round is being recorded by another request; try again in a moment.",
    )


def _play_next(
    bound: BoundGame,
    entry: Mapping[str, Any],
    number: int | None,
    played_at: datetime | None,
    dry_run: bool,
) -> ScoredRound:
    """Score the next round from ``entry`` and, unless a dry run, store it with the new state."""
    expected = bound.state.last_number + 1
    # A number already taken is said first, also when the round that took it ended the game:
    # the phone then shows the two rounds side by side instead of only "the game is over".
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
    if bound.state.finished:
        raise GameOver("The game is over; undo or correct a round to change it.")
    check_room(bound.state)
    outcome = bound.rules.play(bound.state, bound.rules.parse_entry(entry))
    result = round_json(outcome.result)
    played = when_played(bound, played_at)
    if dry_run:
        return ScoredRound(HistoryItem(result, played), dry_run=True)
    bound.append(expected, entry, result, outcome.state, played_at=played)
    return ScoredRound(HistoryItem(result, played))


def get_round(game_id: str, number: int) -> HistoryItem:
    """One item of the game's history: a round, a seat change or the end."""
    round_ = None
    if 1 <= number <= MAX_ROUND_NUMBER:
        round_ = (
            session()
            .scalars(select(Round).where(Round.game_id == game_id, Round.number == number))
            .first()
        )
    if round_ is None:
        read_game(game_id)  # a 404 for the game itself comes first
        raise RoundNotFound(
            Message("Round {number} has not been played in this game.", number=number)
        )
    return HistoryItem(round_.result, round_.created_at)


def list_rounds(game_id: str, after: int = 0) -> list[HistoryItem]:
    """Every item of the game's history numbered above ``after``, in order."""
    read_game(game_id)
    if after >= MAX_ROUND_NUMBER:
        return []  # no item is numbered above the largest number that can be stored
    rounds = session().scalars(
        select(Round).where(Round.game_id == game_id, Round.number > after).order_by(Round.number)
    )
    return [HistoryItem(round_.result, round_.created_at) for round_ in rounds]


CORRECTION_ATTEMPTS = 3
"""How often a correction is worked out again when the game changed while it was."""


@dataclass(frozen=True)
class _Correction:
    """A correction worked out from a snapshot of the game, ready to be written."""

    version: int
    """The game's version the snapshot saw: the correction holds only if it is still that."""
    rules: Ruleset
    state: GameState
    entry: dict[str, Any]
    rows: list[dict[str, Any]]
    """The items whose result or running state it changes, the corrected one first, as
    ``rescore_items`` takes them."""
    corrected: HistoryItem
    dry_run_answer: dict[str, Any] | None
    """On a dry run, the answer, built in the snapshot it was worked out in."""


def correct_round(
    game_id: str,
    token: str,
    number: int,
    read_entry: EntryReader,
    *,
    answer: Render[CorrectedRound],
    dry_run: bool = False,
) -> dict[str, Any]:
    """Replace round ``number``'s entry and replay every later round and seat change.

    The replay grows with the game, so it is worked out before the write lock is
    taken, from a snapshot; under the lock the game's version is checked (a game
    changed meanwhile is replayed again) and the changed items are written in one
    statement, their JSON already serialised. No other game waits for a replay.
    ``read_entry`` reads the new entry for the game's ruleset; the answer is ``answer``'s.
    """
    for _ in range(CORRECTION_ATTEMPTS):
        correction = _work_out(game_id, token, number, read_entry, answer if dry_run else None)
        if correction.dry_run_answer is not None:
            return correction.dry_run_answer
        with writing():
            bound = open_game(game_id, token)
            if bound.game.version == correction.version:
                session().execute(
                    update(Round)
                    .where(Round.game_id == game_id, Round.number == number)
                    .values(entry=correction.entry, updated_at=utcnow())
                )
                rescore_items(correction.rows)
                bound.keep_state(correction.state, correction.rules)
                bound.game.revise_history()
                return answer(CorrectedRound(correction.corrected))
    raise RecordingInProgress(
        "The game kept changing while this correction was worked out; send it again."
    )


def _work_out(
    game_id: str,
    token: str,
    number: int,
    read_entry: EntryReader,
    dry_run_answer: Render[CorrectedRound] | None,
) -> _Correction:
    """Replay the game from round ``number`` with ``entry`` in it, as one snapshot shows it;
    on a dry run (``dry_run_answer`` given), answered in that snapshot."""
    with reading_one_snapshot():
        bound = read_game(game_id)
        check_token(bound.game, token)
        entry = read_entry(bound.rules.name).entry
        _check_played(bound, number)
        # Read as the replay goes (a long history's JSON takes a while to decode), so that
        # the replay gives way to other requests all along; closed when a refusal stops it
        # midway, so that PostgreSQL's server-side cursor does not outlive the request.
        with closing(
            session().execute(
                select(
                    Round.id,
                    Round.number,
                    Round.entry,
                    Round.result,
                    Round.state_after,
                    Round.created_at,
                )
                .where(Round.game_id == game_id, Round.number >= number)
                .order_by(Round.number)
                .execution_options(yield_per=ITEMS_BETWEEN_TURNS)
            )
        ) as items:
            corrected: dict[str, Any] = {}
            corrected_at = bound.game.created_at
            changed: list[int] = []  # later rounds whose results the correction changes
            rows: list[dict[str, Any]] = []
            replayed_items = 0
            for done, item in enumerate(items):
                give_way(done)
                replayed_items += 1
                if item.number == number:
                    _check_a_round(item.result, number)
                    rules, state = _state_before(bound, number)
                    corrected_at = item.created_at
                replayed = entry if item.number == number else item.entry
                try:
                    rules, state, result = _replay(bound, rules, state, replayed, item.result)
                except RuleError as error:
                    if item.number == number:
                        raise
                    raise _no_longer_fits(item.number, error) from None
                state_after = state.to_dict()
                if item.number == number:
                    corrected = result
                elif result != item.result:
                    changed.append(item.number)
                elif state_after == item.state_after:
                    continue  # a later item the correction leaves as it was
                rows.append(rescored_item(item.id, result, state_after))
        corrected_item = HistoryItem(corrected, corrected_at)
        dry_run = None
        if dry_run_answer is not None:
            game = BoundGame(bound.game, rules, state)
            rescored = Rescored(replayed_items, changed, game, bound.game.history_revision + 1)
            dry_run = dry_run_answer(CorrectedRound(corrected_item, rescored))
        return _Correction(
            bound.game.version, rules, state, dict(entry), rows, corrected_item, dry_run
        )


def _check_a_round(stored: Mapping[str, Any], number: int) -> None:
    """A ``NotARound`` unless history item ``number`` (stored as ``stored``) is a round."""
    if is_seat_change(stored):
        raise NotARound(
            Message(
                "Number {number} is a seat change, not a round; undo it if it was a mistake.",
                number=number,
            )
        )
    if is_end(stored):
        raise NotARound(
            Message(
                "Number {number} is the end of the game, not a round; undo it to play on.",
                number=number,
            )
        )


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
    if is_end(stored):
        ended = rules.end(state)
        return rules, ended.state, end_json(ended.result)
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
        undone = (
            session()
            .scalars(select(Round).where(Round.game_id == game_id, Round.number == number))
            .one()
        )
        session().delete(undone)
        newcomer = joined_player(undone.result)
        bound.keep_state(previous, rules)
        bound.game.revise_history()
        if newcomer is not None:  # the join undone: the newcomer never sat down
            session().delete(next(p for p in bound.game.players if p.id == newcomer))


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
    state_after = (
        session()
        .scalars(
            select(Round.state_after).where(
                Round.game_id == bound.game.id, Round.number == number - 1
            )
        )
        .one()
    )
    return state_of(bound.game, state_after)
