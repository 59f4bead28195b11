"""Game bodies and export bodies as last sent, kept per process by game id and version.

Phones at a table poll a game that has mostly not changed since they last
asked. A game's version rises with every change to it, in any process, so a
body rendered for version 7 is the right answer for as long as the database
still says 7: a one-column SELECT instead of reading the players and state,
rebuilding the rules and encoding the JSON again. Likewise an export, all
of it but the time it was made.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import cast

from cachetools import LRUCache
from flask import Flask, Response, current_app

from .. import games

EXTENSION = "scorekeeper.rendered_games"
EXPORTS_EXTENSION = "scorekeeper.kept_exports"


@dataclass(frozen=True)
class RenderedGame:
    """A Game resource's JSON as sent, and the version it shows."""

    version: int
    body: bytes


class RenderedGames:
    """The most recently read games' bodies, one entry per game, at most ``size`` games."""

    def __init__(self, size: int) -> None:
        self._games: LRUCache[str, RenderedGame] = LRUCache(maxsize=max(size, 1))
        self._enabled = size > 0
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int) -> RenderedGame | None:
        """The body of ``game_id`` at ``version``, if it is kept."""
        with self._lock:
            rendered = self._games.get(game_id)
        return rendered if rendered is not None and rendered.version == version else None

    def keep(self, game_id: str, rendered: RenderedGame) -> None:
        """Keep ``rendered`` unless a later version of the game is already kept."""
        if not self._enabled:
            return
        with self._lock:
            kept = self._games.get(game_id)
            if kept is None or kept.version <= rendered.version:
                self._games[game_id] = rendered


class KeptExports:
    """Export bodies (all but ``exported_at``), one per game, at most ``size`` bytes in all."""

    def __init__(self, size: int) -> None:
        self._bodies: LRUCache[str, tuple[int, games.ExportBody]] = LRUCache(
            maxsize=max(size, 1), getsizeof=lambda kept: _size_of(kept[1])
        )
        self._size = size
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int) -> games.ExportBody | None:
        """The export body of ``game_id`` at ``version``, if it is kept."""
        with self._lock:
            kept = self._bodies.get(game_id)
        return kept[1] if kept is not None and kept[0] == version else None

    def keep(self, game_id: str, version: int, body: games.ExportBody) -> None:
        """Keep ``body``, unless it alone would fill the cache or a later version is kept."""
        if _size_of(body) > self._size:
            return
        with self._lock:
            kept = self._bodies.get(game_id)
            if kept is None or kept[0] <= version:
                self._bodies[game_id] = (version, body)


def _size_of(body: games.ExportBody) -> int:
    """What an export body counts against the cache's size: its bytes, and one for the entry."""
    return len(body.game) + len(body.rounds) + 1


def init_rendered_games(app: Flask) -> None:
    """Give ``app`` its caches of game bodies and export bodies (a size of 0 turns one off)."""
    app.extensions[EXTENSION] = RenderedGames(int(app.config["GAME_CACHE_SIZE"]))
    app.extensions[EXPORTS_EXTENSION] = KeptExports(int(app.config["EXPORT_CACHE_SIZE"]))


def kept_exports() -> KeptExports:
    """The current app's kept export bodies."""
    kept: KeptExports = current_app.extensions[EXPORTS_EXTENSION]
    return kept


def rendered_game(game_id: str, version: int) -> RenderedGame:
    """The game's body as JSON: kept for ``version``, or read and rendered now.

    A game read now may be at a later version than ``version``; the answer
    says which.
    """
    cache: RenderedGames = current_app.extensions[EXTENSION]
    rendered = cache.get(game_id, version)
    if rendered is None:
        table = games.load_game(game_id)
        # Flask annotates json.response() as werkzeug's sansio Response; it is the app's.
        body = cast(Response, current_app.json.response(table.body())).get_data()
        rendered = RenderedGame(table.game.version, body)
        cache.keep(game_id, rendered)
    return rendered
