"""Scorekeeper: a scorekeeping companion for card games played with a real deck.

The app is built by ``scorekeeper.app.create_app``; the rules engine in
``scorekeeper.rules`` imports no web or database library.
"""

from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
