"""Scorekeeper with ``POST .../rounds`` answering without recording: the cost of all but the domain.

Served by ``bench/stubbed_domain.py`` with the same gunicorn command and settings
as the real app. ``scorekeeper.games.record_round`` is replaced by a function
answering the body of a real recorded round (read from the JSON file named by
``SCOREKEEPER_BENCH_STUB_BODY``) without validating, scoring or touching the
database. Everything around it runs as in production: routing, the rate-limit
decorators, flask-smorest's wrappers, body parsing, the token check, the request
log and the security headers.
"""

from __future__ import annotations

import json
import os
from typing import Any

from scorekeeper import games
from scorekeeper.games import Answer
from wsgi import app

with open(os.environ["SCOREKEEPER_BENCH_STUB_BODY"], encoding="utf-8") as stored:
    RECORDED_ROUND = json.load(stored)


def record_round(game_id: str, *arguments: Any, **options: Any) -> Answer:
    """The answer of a recorded round, without recording one (takes what ``record_round`` takes)."""
    return Answer(201, RECORDED_ROUND, games.round_location(game_id, RECORDED_ROUND["number"]))


games.record_round = record_round

__all__ = ["app"]
