"""The one way every write runs: lock, look up its ``Idempotency-Key``, run it, keep its answer.

Rounds, seat changes and every creation (tables, games, rematches, imports) go through
``run_once``: a resend with a key already used gets the first answer again, byte for byte,
and a key used with another body is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..models import RequestKey, utcnow
from ..rules.words import Message
from .errors import KeyReused, RecordingInProgress
from .made_offline import hold_id, id_taken, id_taken_error
from .storage import session, writing

Opened = TypeVar("Opened")
Result = TypeVar("Result")

Render = Callable[[Result], dict[str, Any]]
"""How the edge answers a write's typed result: its JSON body, which is kept with its key."""

IN_PROGRESS = "This request is being answered for another copy of it; try again in a moment."


@dataclass(frozen=True)
class KeyedRequest:
    """A request sent with an ``Idempotency-Key``: the key and the JSON body it came with."""

    key: str
    body: Any = None
    """The body as sent (``None`` for a request without one)."""

    @property
    def fingerprint(self) -> str:
        """The body's fingerprint, which ignores key order and spacing; ``""`` without a body."""
        if self.body is None:
            return ""
        canonical = json.dumps(self.body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class Answer:
    """What a write answered: the body, and whether it is the first answer to its key again."""

    body: dict[str, Any]
    again: bool = False


def run_once(
    scope: str,
    request: KeyedRequest | None,
    opening: Callable[[], Opened],
    run: Callable[[Opened], Result],
    answer: Render[Result],
    *,
    game_id: str | None = None,
    chosen_id: str | None = None,
    dry_run: bool = False,
    in_progress: str | Message = IN_PROGRESS,
) -> Answer:
    """Run a write in one unit of work, or answer its key again.

    ``opening`` locks and checks what the write needs (a game and its token) before the key is
    looked up, so a resend without the right token is refused like any other request; ``run``
    applies the rules, appends and brings the stored state up to date, and returns its typed
    result; ``answer`` (the edge's) turns that into the body, which commits with the write.
    Keys are kept per ``scope``; a ``game_id`` deletes its game's keys with the game.
    ``chosen_id`` is the id a phone chose for what a creation makes: a copy
    sent at the same moment waits for the lock, then finds the key, so a resend of a creation
    that succeeded is answered, not refused. ``in_progress`` is the refusal when another copy
    wrote first, past the lock.
    """
    try:
        with writing(dry_run=dry_run):
            hold_id(chosen_id)
            opened = opening()
            if request is not None:
                kept = _kept_answer(scope, request)
                if kept is not None:
                    return Answer(kept, again=True)
            body = answer(run(opened))
            if request is not None and not dry_run:
                session().add(
                    RequestKey(
                        scope=scope,
                        key=request.key,
                        request_hash=request.fingerprint,
                        body=body,
                        game_id=game_id,
                        created_at=utcnow(),
                    )
                )
            return Answer(body)
    except IntegrityError:
        if chosen_id is not None and id_taken(chosen_id):  # made meanwhile, past the lock
            raise id_taken_error(chosen_id) from None
        raise RecordingInProgress(in_progress) from None


def create_once(
    scope: str,
    request: KeyedRequest | None,
    create: Callable[[], Result],
    answer: Render[Result],
    *,
    chosen_id: str | None = None,
) -> Answer:
    """Run a creation that needs nothing locked first (a new table, game or import) once."""
    return run_once(scope, request, _nothing, lambda _: create(), answer, chosen_id=chosen_id)


def _nothing() -> None:
    """Nothing to lock or check before a creation's key is looked up."""


def _kept_answer(scope: str, request: KeyedRequest) -> dict[str, Any] | None:
    """The answer first given to ``request``'s key in ``scope``; ``None`` if the key is new."""
    kept = (
        session()
        .scalars(select(RequestKey).where(RequestKey.scope == scope, RequestKey.key == request.key))
        .first()
    )
    if kept is None:
        return None
    if kept.request_hash != request.fingerprint:
        raise KeyReused(
            "This Idempotency-Key was already used for a different request; use a new key.",
            {"Idempotency-Key": ["Already used with another body."]},
        )
    return kept.body
