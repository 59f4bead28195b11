"""Database models: tables and their rosters, games, their players, history items, their keys."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from .times import utcnow

# Plain JSON (not JSONB): documents are never queried inside, and JSON keeps the
# key order, so an answer given again is byte-for-byte the first one.
JSONDocument = JSON()


class Base(DeclarativeBase):
    """Declarative base of every model (plain SQLAlchemy: the domain imports no Flask)."""


class Table(Base):
    """A group of friends who play together: a roster, games and standings over all of them."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    token_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer, default=1)
    """Raised by every change to the table or to any of its games: the table's ETag."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    roster: Mapped[list[RosterPlayer]] = relationship(
        back_populates="table",
        order_by="RosterPlayer.id",
        lazy="selectin",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )

    def touch(self) -> None:
        """Mark the table changed: a new ETag and ``updated_at``."""
        self.version += 1
        self.updated_at = utcnow()


class RosterPlayer(Base):
    """A person on a table's roster, who may sit in any of its games."""

    __tablename__ = "roster_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))

    table: Mapped[Table] = relationship(back_populates="roster")


class Game(Base):
    """A game, loose or at a table; ``state`` is the running state after the last history item."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), index=True
    )
    ruleset: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(80), default="")
    options: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    first_dealer: Mapped[int] = mapped_column(Integer)
    first_starter: Mapped[int | None] = mapped_column(Integer)
    """Round 1's starter seat; ``None`` where no seat starts by rule (the holder of a card does)."""
    token_hash: Mapped[str] = mapped_column(String(64))
    state: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    version: Mapped[int] = mapped_column(Integer, default=1)
    history_revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Raised when an existing history item is corrected or undone, never when one is added:
    a phone holding another revision reads the whole history again."""
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

    def revise_history(self) -> None:
        """Mark an existing history item changed (a correction or an undo)."""
        self.history_revision += 1


class Player(Base):
    """A player in a seat of one game, with their figures in it for the table's standings.

    The figures mirror the game's running state (``Game.state``), so a table
    reads them in one query however many games it has: whether the player
    won or was eliminated, and ``tallies``, the counts their game's ruleset
    keeps (``Ruleset.tally_names``: rounds played, calls, tricks taken...).
    """

    __tablename__ = "players"
    # Not unique: a join renumbers the seats after it, one row at a time.
    __table_args__ = (Index("ix_players_game_id_seat", "game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    roster_id: Mapped[int | None] = mapped_column(
        ForeignKey("roster_players.id", ondelete="SET NULL"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    joined: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the player sat down during the game (else at its creation, in seat order of id)."""
    won: Mapped[bool] = mapped_column(Boolean, default=False)
    eliminated: Mapped[bool] = mapped_column(Boolean, default=False)
    tallies: Mapped[dict[str, int]] = mapped_column(JSONDocument, default=dict)
    """The ruleset's counts by name (``Ruleset.tallies_of``), kept up to date at a table."""

    game: Mapped[Game] = relationship(back_populates="players")


class Round(Base):
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


class RequestKey(Base):
    """The first answer to a POST sent with an ``Idempotency-Key``, kept to give it again.

    ``scope`` names where the key was used: ``games/<id>/history`` for a game's rounds and
    seat changes (whose keys go with the game), ``tables``, ``games``, ``tables/<id>/games``,
    ``games/<id>/rematch`` and the imports for creations. The answer of a creation holds
    the new token: a phone that lost the first answer needs it.
    """

    __tablename__ = "request_keys"
    __table_args__ = (UniqueConstraint("scope", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scope: Mapped[str] = mapped_column(String(80))
    key: Mapped[str] = mapped_column(String(255))
    request_hash: Mapped[str] = mapped_column(String(64))
    body: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
