"""What each part of a request costs, in-process: the app timed with one part taken out at a time.

    .venv/bin/python bench/ablation.py [--requests 1000] [--rounds 7]

For "what would reach (c)" in ``bench/README.md``. One process seeds a SQLite
database as ``run.py`` does, then times (c) POST a Jhyap round with totals and
(b) GET a game of 5 players and 50 rounds through the WSGI callable (no server),
each as served and with parts of it replaced by nothing:

- Flask-Limiter's checks (its decorators still run; limits are off, as in
  ``run.py``, and the check finds nothing to count);
- marshmallow's load of the round (the body is passed on unvalidated);
- both;
- the whole domain (``games.record_round`` answers a stored round, as in
  ``stubbed_domain_app.py``): what the request costs around it;
- for (b): the request log, the security headers, the read of the game's version.

Variants take turns within each of ``--rounds`` rounds, so that they share the
machine's conditions; each figure is the median over the rounds of the mean
time per request. The bare Flask ceiling (a) runs in turn too. A variant is a
measurement, not a way to run the service: without marshmallow a bad round would
be stored. Takes about half a minute.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]
os.environ["SCOREKEEPER_RATE_LIMITS"] = "off"

from ceiling_app import app as ceiling  # noqa: E402
from instructions import environ, serve  # noqa: E402
from seed import bench_app, seed_read_and_posted, totals_entry  # noqa: E402

from scorekeeper import games  # noqa: E402
from scorekeeper.extensions import limiter  # noqa: E402

GAMES_POSTED_TO = 10
Patch = Callable[[Any], AbstractContextManager[None]]


@contextmanager
def replaced(owner: Any, name: str, value: Any) -> Iterator[None]:
    """``owner.name`` is ``value`` for the block; ``owner`` must have it already."""
    before = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, before)


@contextmanager
def without_hook(app: Any, name: str) -> Iterator[None]:
    """The app's ``after_request`` functions without the one called ``name``, for the block."""
    hooks = app.after_request_funcs[None]
    app.after_request_funcs[None] = [hook for hook in hooks if hook.__name__ != name]
    if len(app.after_request_funcs[None]) == len(hooks):
        raise SystemExit(f"bench: the app has no after_request function called {name}")
    try:
        yield
    finally:
        app.after_request_funcs[None] = hooks


class Unvalidated:
    """Stands in for a round's schema: passes the body on as marshmallow would, unchecked."""

    def load(self, body: dict[str, Any]) -> dict[str, Any]:
        return {**body, "hands": [dict(hand) for hand in body["hands"]]}


def no_rate_limit_checks(app: Any) -> AbstractContextManager[None]:
    return replaced(limiter, "_check_request_limit", lambda *args, **kwargs: None)


def no_marshmallow(app: Any) -> AbstractContextManager[None]:
    return replaced(games, "round_post_schemas", {"jhyap": Unvalidated()})


def no_request_log(app: Any) -> AbstractContextManager[None]:
    return without_hook(app, "log_request")


def no_security_headers(app: Any) -> AbstractContextManager[None]:
    return without_hook(app, "security_headers")


@contextmanager
def together(app: Any, *patches: Patch) -> Iterator[None]:
    """Several patches at once."""
    with ExitStack() as stack:
        for patch in patches:
            stack.enter_context(patch(app))
        yield


Variants = dict[str, tuple[Callable[[int], str], Patch | None]]


def measure(app: Any, variants: Variants, requests: int, rounds: int) -> dict[str, float]:
    """Median over ``rounds`` of each variant's mean microseconds per request."""
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, (send, patch) in variants.items():
            with patch(app) if patch else ExitStack():
                send(0)
                start = time.perf_counter()
                for index in range(1, requests + 1):
                    status = send(index)
                    if status[0] != "2":
                        raise SystemExit(f"{name}: answered {status}")
                times[name].append((time.perf_counter() - start) / requests * 1e6)
    return {name: statistics.median(values) for name, values in times.items()}


def table(title: str, figures: dict[str, float], served: str) -> str:
    """A Markdown table: microseconds per request and the share of the served request saved."""
    lines = [
        f"| {title} | us per request | saved | ratio (a)/x |",
        "|---|---:|---:|---:|",
    ]
    ceiling_time = figures["(a) ceiling: bare Flask JSON"]
    for name, value in figures.items():
        saved = 1 - value / figures[served]
        lines.append(f"| {name} | {value:,.0f} | {saved:.0%} | {ceiling_time / value:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000, help="requests per measurement")
    parser.add_argument("--rounds", type=int, default=7, help="turns each variant takes")
    arguments = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="scorekeeper-ablation-")
    try:
        app = bench_app(f"sqlite:///{directory}/bench.sqlite")
        read, posted = seed_read_and_posted(app, GAMES_POSTED_TO)
        bodies = [json.dumps(totals_entry(target.player_ids, 0)).encode() for target in posted]
        gc.freeze()  # as gunicorn's master does before forking a worker
        sys.stdout = open(os.devnull, "w")  # the request log  # noqa: SIM115

        def post(index: int) -> str:
            target = posted[index % GAMES_POSTED_TO]
            path = f"/api/v1/games/{target.id}/rounds"
            return serve(app, environ("POST", path, bodies[index % GAMES_POSTED_TO], target.token))

        def get(index: int) -> str:
            return serve(app, environ("GET", f"/api/v1/games/{read.id}"))

        def bare(index: int) -> str:
            return serve(ceiling, environ("GET", "/ceiling"))

        with app.app_context():
            version = games.game_version(read.id)
            # The stub's answer: a real one, recorded once.
            stored = games.record_round(posted[0].id, posted[0].token, json.loads(bodies[0]))

        def stubbed_domain(app: Any) -> AbstractContextManager[None]:
            return replaced(games, "record_round", lambda *args, **kwargs: stored)

        def known_version(app: Any) -> AbstractContextManager[None]:
            return replaced(games, "game_version", lambda game_id: version)

        ceiling_name = "(a) ceiling: bare Flask JSON"
        post_variants: Variants = {
            ceiling_name: (bare, None),
            "(c) POST a round, as served": (post, None),
            "without Flask-Limiter's checks": (post, no_rate_limit_checks),
            "without marshmallow's load": (post, no_marshmallow),
            "without either": (
                post,
                lambda app: together(app, no_rate_limit_checks, no_marshmallow),
            ),
            "with the domain stubbed (games.record_round)": (post, stubbed_domain),
        }
        get_variants: Variants = {
            ceiling_name: (bare, None),
            "(b) GET a game, as served": (get, None),
            "without the request log": (get, no_request_log),
            "without the security headers": (get, no_security_headers),
            "without reading the version": (get, known_version),
            "without all three": (
                get,
                lambda app: together(app, no_request_log, no_security_headers, known_version),
            ),
        }
        posts = measure(app, post_variants, arguments.requests, arguments.rounds)
        reads = measure(app, get_variants, arguments.requests, arguments.rounds)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    sys.stdout = sys.__stdout__
    print(
        f"In-process, SQLite, {os.cpu_count()} cores; median of {arguments.rounds} turns "
        f"of {arguments.requests} requests each.\n"
    )
    print(table("POST", posts, "(c) POST a round, as served"))
    print()
    print(table("GET", reads, "(b) GET a game, as served"))


if __name__ == "__main__":
    main()
