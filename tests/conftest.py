"""Fixtures: an app on a fresh database per test, its client, a ``table`` helper, real servers.

``SCOREKEEPER_TEST_DATABASE_URL`` switches the suite from a SQLite file per
test to that server (PostgreSQL), in a schema made for this run and dropped
after it. ``live_server`` starts ``scorekeeper serve`` (``scorekeeper/testing/live_server.py``)
for the server, robustness and browser tests; ``server`` is one such server per
module.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask, Response, request_finished
from flask.testing import FlaskClient
from hypothesis import settings

from scorekeeper.app import create_app
from scorekeeper.extensions import db, limiter
from scorekeeper.language import message_translated
from scorekeeper.testing.live_server import LiveServer
from scorekeeper.testing.schemas import SERVER_URL, fresh_schema
from tests.message_checks import message_problems, untranslated
from tests.properties import PROFILES

for _name, _examples in PROFILES.items():
    settings.register_profile(_name, max_examples=_examples)


def pytest_configure(config: pytest.Config) -> None:
    """Properties run on half their examples unless a profile is named (``.ci/run`` runs them
    again with ``--hypothesis-profile thorough``: tests/properties.py)."""
    if not config.getoption("hypothesis_profile", None):
        settings.load_profile("suite")


@pytest.fixture(scope="session")
def server_database_url() -> Iterator[str | None]:
    """A fresh schema on the test server for this run, or ``None`` on SQLite."""
    with fresh_schema("test") as url:
        yield url


@pytest.fixture
def database_url(tmp_path: Any, server_database_url: str | None) -> str:
    """The database URL for one test."""
    return server_database_url or f"sqlite:///{tmp_path / 'scorekeeper.sqlite'}"


LiveServerFactory = Callable[..., LiveServer]


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServerFactory]:
    """Makes ``LiveServer``s, each on a database of its own; all are stopped after the module.

    ``live_server(name, start=True, database_url=None, **options)``: ``name`` names its folder
    (log) and schema; without ``database_url``, a SQLite file in that folder or a fresh schema on
    the test server; ``options`` go to ``LiveServer`` (workers, rate_limits, settings).
    A test that uses one must carry the ``server`` marker.
    """
    with ExitStack() as stack:

        def make(
            name: str, *, start: bool = True, database_url: str | None = None, **options: Any
        ) -> LiveServer:
            folder = tmp_path_factory.mktemp(name)
            if database_url is None:
                url = stack.enter_context(fresh_schema(name))
                database_url = url or f"sqlite:///{folder / 'scorekeeper.sqlite'}"
            server = LiveServer(database_url, folder, **options)
            stack.callback(server.stop)
            if start:
                server.start()
            return server

        yield make


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse a test that starts a real server (through ``live_server``) without the marker,
    and two tests with one node id."""
    unmarked = [
        item.nodeid
        for item in items
        if "live_server" in getattr(item, "fixturenames", ())
        and item.get_closest_marker("server") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "These tests start a real server but lack @pytest.mark.server:\n" + "\n".join(unmarked)
        )
    # xdist's loadscope (pyproject.toml) schedules tests by node id, so of two tests with one
    # id only the first runs; pytest 9.2 gives schemathesis' tests of every operation one id.
    shared = sorted(nodeid for nodeid, n in Counter(item.nodeid for item in items).items() if n > 1)
    if shared:
        raise pytest.UsageError(
            "These node ids name more than one test, so only one of each would run:\n"
            + "\n".join(shared)
        )


@pytest.fixture(scope="module")
def server(live_server: LiveServerFactory) -> LiveServer:
    """A server with four workers on a database of its own, one per test module."""
    return live_server("server", workers=4)


def check_error_messages(app: Flask) -> list[str]:
    """Collect what is wrong with every error message ``app`` answers (``message_checks``).

    That includes each message id (template) an error message is made of, in any
    language, that a catalog lacks: every message the suite provokes is translated.
    """
    found: list[str] = []

    def translated(sender: Flask, template: str, plural: str | None) -> None:
        if missing := untranslated(template):
            found.append(f"{template!r}: not translated in {', '.join(missing)}")

    def check(sender: Flask, response: Response, **extra: Any) -> None:
        if response.status_code >= 400 and response.is_json and not response.is_streamed:
            error = (response.get_json(silent=True) or {}).get("error") or {}
            if problems := message_problems(error):
                found.append(f"{error.get('message')!r}: {', '.join(problems)}")

    request_finished.connect(check, app, weak=False)
    message_translated.connect(translated, app, weak=False)
    _wording_checks[app] = (check, translated)
    return found


_wording_checks: dict[Flask, tuple[Callable[..., None], Callable[..., None]]] = {}


def stop_checking_error_messages(app: Flask) -> None:
    """Disconnect what ``check_error_messages`` connected to ``app``."""
    check, translated = _wording_checks.pop(app)
    request_finished.disconnect(check, app)
    message_translated.disconnect(translated, app)


@contextmanager
def new_app(database_url: str, **config: Any) -> Iterator[Flask]:
    """An app with ``config`` (rate limits off unless given) on a freshly created schema."""
    app = create_app(
        {"TESTING": True, "DATABASE_URL": database_url, "RATE_LIMITS": "off", **config}
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            if SERVER_URL:
                db.drop_all()
            db.engine.dispose()


@contextmanager
def worded_errors_only(app: Flask) -> Iterator[None]:
    """Fail unless every error ``app`` answers in the block is worded as
    ``tests/message_checks.py`` asks."""
    badly_worded = check_error_messages(app)
    try:
        yield
        assert not badly_worded, "Badly worded error messages:\n" + "\n".join(badly_worded)
    finally:
        stop_checking_error_messages(app)


@contextmanager
def app_on_empty_database(database_url: str, **config: Any) -> Iterator[Flask]:
    """An app with ``config`` (rate limits off unless given) on a freshly created schema; every
    error it answers must be worded as it should be."""
    with new_app(database_url, **config) as app, worded_errors_only(app):
        yield app


def empty_database(app: Flask) -> None:
    """Delete every row of ``app``'s database; ids start again at 1."""
    with app.app_context():
        db.session.remove()
        tables = db.metadata.sorted_tables
        with db.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                names = ", ".join(f'"{table.name}"' for table in tables)
                connection.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
            else:  # SQLite numbers rows from the largest id left: none
                for table in reversed(tables):
                    connection.execute(table.delete())


@pytest.fixture(scope="session")
def shared_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app (the default settings, rate limits off) for every test of this worker process that
    needs no settings of its own, on a database of its own: building an app costs more than most
    tests."""
    with fresh_schema("app") as url:
        database_url = url or f"sqlite:///{tmp_path_factory.mktemp('app') / 'scorekeeper.sqlite'}"
        with new_app(database_url) as app:
            yield app


@pytest.fixture(scope="session")
def shared_app_settings(shared_app: Flask) -> dict[str, Any]:
    """The shared app's settings as it was built."""
    return copy.deepcopy(dict(shared_app.config))


@pytest.fixture
def app(shared_app: Flask, shared_app_settings: dict[str, Any], tmp_path: Any) -> Iterator[Flask]:
    """The app on an empty database; every error it answers is worded as it should be."""
    empty_database(shared_app)
    # A test may change the app's settings (rate limits on, say): each starts from them as built.
    shared_app.config.clear()
    shared_app.config.update(copy.deepcopy(shared_app_settings))
    shared_app.instance_path = str(tmp_path)
    # The process has one Limiter, which counts for the app bound to it last: a test before this
    # one may have bound an app of its own (with limits on).
    limiter.init_app(shared_app)
    with worded_errors_only(shared_app):
        yield shared_app


@contextmanager
def counted_statements(app: Flask) -> Iterator[list[tuple[str, Any]]]:
    """The SQL statements, with parameters, ``app`` sends while the block runs.

    SQLite's ``BEGIN`` is sent as a statement (the app begins its transactions
    itself); commits, and PostgreSQL's implicit ``BEGIN``, are the driver's own.
    """
    with app.app_context():
        engine = db.engine
    statements: list[tuple[str, Any]] = []

    def record(connection: Any, cursor: Any, statement: str, parameters: Any, *args: Any) -> None:
        statements.append((statement, parameters))

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of ``app``."""
    return app.test_client()


class GameClient:
    """Plays a game through the API, as a phone at the table would."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.game: dict[str, Any] = {}
        self.token = ""

    @property
    def id(self) -> str:
        """The game's id."""
        return self.game["id"]

    @property
    def url(self) -> str:
        """The game's address."""
        return f"/api/v1/games/{self.id}"

    @property
    def players(self) -> list[int]:
        """Player ids in seat order."""
        return [player["id"] for player in self.game["players"]]

    @property
    def auth(self) -> dict[str, str]:
        """The token header."""
        return {"Authorization": f"Bearer {self.token}"}

    def create(
        self,
        players: Sequence[str] = ("Asha", "Bikash", "Chandra"),
        ruleset: str = "jhyap",
        dealer: int | None = 0,
        starter: int | None = 1,
        **options: Any,
    ) -> dict[str, Any]:
        """Create a game; return its body."""
        body: dict[str, Any] = {"ruleset": ruleset, "name": "Test table", "players": list(players)}
        if dealer is not None:
            body["dealer"] = dealer
        if starter is not None and ruleset == "jhyap":
            body["starter"] = starter
        if options:
            body["options"] = options
        response = self.client.post("/api/v1/games", json=body)
        assert response.status_code == 201, response.json
        self.game = response.json
        self.token = self.game.pop("token")
        return self.game

    def jhyap_entry(
        self, caller: int, totals: Sequence[int | Sequence[str] | None]
    ) -> dict[str, Any]:
        """A Jhyap entry: ``caller`` is a seat; ``totals`` by seat (``None`` skips an eliminated
        seat; a list gives the hand as cards)."""
        hands = []
        for seat, total in enumerate(totals):
            if total is None:
                continue
            key = "total" if isinstance(total, int) else "cards"
            hands.append(
                {"player": self.players[seat], key: total if key == "total" else list(total)}
            )
        return {"caller": self.players[caller], "hands": hands}

    def trick_entry(self, plays: Sequence[tuple[int, str]]) -> dict[str, Any]:
        """A Twenty Two entry from (seat, card) pairs in the order played."""
        return {
            "last_trick": [{"player": self.players[seat], "card": card} for seat, card in plays]
        }

    def post_round(self, entry: dict[str, Any], **headers: str) -> Any:
        """POST a round entry; return the response."""
        return self.client.post(f"{self.url}/rounds", json=entry, headers={**self.auth, **headers})

    def jhyap(self, caller: int, *totals: int | Sequence[str] | None) -> dict[str, Any]:
        """Record a Jhyap round that must succeed; return the Round."""
        response = self.post_round(self.jhyap_entry(caller, totals))
        assert response.status_code == 201, response.json
        return response.json

    def trick(self, *plays: tuple[int, str]) -> dict[str, Any]:
        """Record a Twenty Two round that must succeed; return the Round."""
        response = self.post_round(self.trick_entry(plays))
        assert response.status_code == 201, response.json
        return response.json

    def get(self) -> dict[str, Any]:
        """The game as it stands."""
        response = self.client.get(self.url)
        assert response.status_code == 200, response.json
        return response.json

    def scores(self) -> list[int]:
        """Scores by seat."""
        return [player["score"] for player in self.get()["players"]]

    def export(self) -> dict[str, Any]:
        """The game's export."""
        response = self.client.get(f"{self.url}/export")
        assert response.status_code == 200, response.json
        return response.json

    def export_bytes(self) -> bytes:
        """The game's export without its ``exported_at`` stamp, as bytes, to compare."""
        document = self.export()
        document.pop("exported_at")
        import json

        return json.dumps(document, sort_keys=True).encode()


@pytest.fixture
def table(client: FlaskClient) -> GameClient:
    """A helper that creates a game and plays it through the API."""
    return GameClient(client)


def row_counts(app: Flask) -> tuple[int, int, int]:
    """Rows in the games, players and rounds tables."""
    from scorekeeper.models import Game, Player, Round

    with app.app_context():
        return tuple(  # type: ignore[return-value]
            db.session.scalar(sa.select(sa.func.count()).select_from(model))
            for model in (Game, Player, Round)
        )
