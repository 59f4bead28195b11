"""The ``scorekeeper`` command: ``scorekeeper serve`` migrates the database and runs gunicorn."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import PROJECT_ROOT
from .app import create_app


def migrate_database() -> None:
    """Bring the configured database up to the newest migration."""
    from flask_migrate import upgrade

    app = create_app()
    with app.app_context():
        upgrade()


def gunicorn_command(host: str, port: int, workers: int) -> list[str]:
    """The gunicorn command line that serves ``wsgi:app``."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--chdir",
        str(PROJECT_ROOT),
        "--config",
        "python:scorekeeper.gunicorn_config",
        "--bind",
        f"{host}:{port}",
        "--workers",
        str(workers),
        "wsgi:app",
    ]


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line and run it."""
    parser = argparse.ArgumentParser(prog="scorekeeper", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="migrate the database, then serve with gunicorn")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes, each serving all its connections on one event loop "
        "(1; more need shared rate-limit counters, see the README)",
    )
    commands.add_parser("migrate", help="migrate the database and exit")
    args = parser.parse_args(argv)

    migrate_database()
    if args.command == "serve":
        command = gunicorn_command(args.host, args.port, args.workers)
        os.execv(command[0], command)


if __name__ == "__main__":
    main()
