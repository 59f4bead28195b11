"""What a phone with no network chose for a game or table it made: its id and when it was made.

The phone scores rounds on the game before the service knows it; once the network is back
it creates the game with that id, so the rounds queued behind it need no renumbering
(api.md, "Made with no network").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select

from ..models import Game, Table, utcnow
from ..rules.words import Message
from ..security import new_public_id
from ..times import timestamp
from .errors import CreatedAtOutOfRange, IdTaken
from .storage import dialect, session


@dataclass(frozen=True)
class MadeOffline:
    """The id a phone chose for a new game or table, and when it was made on the phone."""

    id: str | None = None
    created_at: datetime | None = None


NOTHING_CHOSEN = MadeOffline()
"""A game or table made online: the service chooses its id, and it is made when it arrives."""

CLOCK_AHEAD = timedelta(minutes=1)
"""How far ahead of the server's clock a phone's time may be (its clock a little fast)."""
OLDEST_CREATION = timedelta(days=1)
"""How long before now a game or table may have been made on the phone."""
ID_LOCK_SPACE = 0x5C0E1D
"""The first key of the PostgreSQL advisory locks on chosen ids (the second: the id's hash)."""


def hold_id(chosen_id: str | None) -> None:
    """Wait until no other unit of work is creating something with ``chosen_id``.

    On PostgreSQL, a lock on the id's hash until this unit of work ends, taken before any row
    lock so that it cannot deadlock with one; on SQLite, writers already take turns.
    """
    if chosen_id is not None and dialect() == "postgresql":
        lock = func.pg_advisory_xact_lock(ID_LOCK_SPACE, func.hashtext(chosen_id))
        session().execute(select(lock))


def id_taken(chosen_id: str) -> bool:
    """Whether a game or a table already has the id ``chosen_id``."""
    return any(
        session().scalar(select(model.id).where(model.id == chosen_id)) is not None
        for model in (Game, Table)
    )


def id_taken_error(chosen_id: str) -> IdTaken:
    """The ``IdTaken`` for ``chosen_id``."""
    return IdTaken(
        Message(
            "A game or table already has the id {id}; choose a new random id and send it again.",
            id=chosen_id,
        ),
        {"id": ["Taken by a game or table."]},
    )


def claim_id(chosen_id: str | None) -> str:
    """The new game's or table's id: ``chosen_id`` if no game or table has it, else a new one."""
    if chosen_id is None:
        return new_public_id()
    if id_taken(chosen_id):
        raise id_taken_error(chosen_id)
    return chosen_id


def creation_time(created_at: datetime | None) -> datetime:
    """When the new game or table was made: ``created_at`` by the phone's clock, else now.

    A time up to a minute ahead (a phone's clock a little fast) is taken as now.
    """
    now = utcnow()
    if created_at is None:
        return now
    if created_at > now + CLOCK_AHEAD:
        raise CreatedAtOutOfRange(
            Message(
                "This was made at {created_at} by the phone's clock, more than a minute from "
                "now; check the phone's clock.",
                created_at=timestamp(created_at),
            ),
            {"created_at": ["More than a minute ahead of the server's clock."]},
        )
    if created_at < now - OLDEST_CREATION:
        raise CreatedAtOutOfRange(
            Message(
                "This was made at {created_at} by the phone's clock, more than a day ago, which "
                "is too long ago; check the phone's clock.",
                created_at=timestamp(created_at),
            ),
            {"created_at": ["More than a day before the server's clock."]},
        )
    return min(created_at, now)
