"""Database models: games, their players, round entries and results, idempotency keys."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db

# Plain JSON (not JSONB): documents are never queried inside, and JSON keeps the
# key order, so a replayed answer is byte-for-byte the first one.
JSONDocument = JSON()


def utcnow() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


class Game(db.Model):  # type: ignore[name-defined]
    """A game at one table; ``state`` is the running state after the last round."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(80), default="")
    options: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    first_dealer: Mapped[int] = mapped_column(Integer)
    first_starter: Mapped[int] = mapped_column(Integer)
    token_hash: Mapped[str] = mapped_column(String(64))
    state: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    players: Mapped[list[Player]] = relationship(
        back_populates="game",
        order_by="Player.seat",
        lazy="selectin",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )

    def touch(self) -> None:
        """Mark the game changed: a new ETag and ``updated_at``."""
        self.version += 1
        self.updated_at = utcnow()


class Player(db.Model):  # type: ignore[name-defined]
    """A player in a seat of one game."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))

    game: Mapped[Game] = relationship(back_populates="players")


class Round(db.Model):  # type: ignore[name-defined]
    """One recorded round: its entry as accepted (source of truth), result and state after it."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    entry: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    result: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    state_after: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class IdempotencyKey(db.Model):  # type: ignore[name-defined]
    """The first answer to a round POST sent with an ``Idempotency-Key``, kept for replays."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("game_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(255))
    request_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    location: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
