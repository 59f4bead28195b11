"""Answers to POSTs sent again with the same ``Idempotency-Key``: the first answer, again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from ..models import CreationKey, IdempotencyKey, utcnow
from .errors import KeyReused, RecordingInProgress
from .made_offline import hold_id, id_taken, id_taken_error
from .storage import session, writing


@dataclass(frozen=True)
class StoredAnswer:
    """The first answer to a key: the number of the history item it recorded, and its body."""

    number: int
    body: dict[str, Any]


def stored_answer(game_id: str, key: str, fingerprint: str) -> StoredAnswer | None:
    """The answer first given for ``key`` to a round or seat change of a game; ``None`` if new."""
    stored = (
        session()
        .scalars(
            select(IdempotencyKey).where(
                IdempotencyKey.game_id == game_id, IdempotencyKey.key == key
            )
        )
        .first()
    )
    if stored is None:
        return None
    if stored.request_hash != fingerprint:
        raise KeyReused(
            "This Idempotency-Key was already used for a different request; use a new key.",
            {"Idempotency-Key": ["Already used with another body."]},
        )
    return StoredAnswer(stored.body["number"], stored.body)


def create_once(
    scope: str,
    idempotency_key: str | None,
    fingerprint: str,
    create: Callable[[], dict[str, Any]],
    *,
    chosen_id: str | None = None,
) -> tuple[dict[str, Any], bool]:
    """Run ``create`` in one unit of work, or give the first answer to ``idempotency_key`` again.

    Returns the answer's body and whether it is one given again. ``create`` builds the
    body inside the unit of work, so the answer and what it created commit together.
    ``chosen_id`` is the id a phone chose for what ``create`` makes: the key is looked up
    before the id, so that a resend of a creation that succeeded is answered, not refused.
    """
    try:
        with writing():
            hold_id(chosen_id)  # a copy sent at the same moment waits, then finds the key
            if idempotency_key is not None:
                stored = (
                    session()
                    .scalars(
                        select(CreationKey).where(
                            CreationKey.scope == scope, CreationKey.key == idempotency_key
                        )
                    )
                    .first()
                )
                if stored is not None:
                    if stored.request_hash != fingerprint:
                        raise KeyReused(
                            "This Idempotency-Key was already used for a different request; "
                            "use a new key.",
                            {"Idempotency-Key": ["Already used with another body."]},
                        )
                    return stored.body, True
            body = create()
            if idempotency_key is not None:
                session().add(
                    CreationKey(
                        scope=scope,
                        key=idempotency_key,
                        request_hash=fingerprint,
                        body=body,
                        created_at=utcnow(),
                    )
                )
            return body, False
    except IntegrityError:
        if chosen_id is not None and id_taken(chosen_id):  # made meanwhile, past the lock
            raise id_taken_error(chosen_id) from None
        raise RecordingInProgress(
            "This request is being answered for another copy of it; try again in a moment."
        ) from None
