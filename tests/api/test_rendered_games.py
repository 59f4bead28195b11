"""A game's body is kept per process for its version, and never shown stale."""

from __future__ import annotations

import pytest

from scorekeeper import create_app
from scorekeeper.api.rendered import RenderedGame, RenderedGames
from scorekeeper.extensions import db

from ..conftest import TableActions, counted_statements


@pytest.fixture
def other_process(app, database_url):
    """A second app on the same database, as another gunicorn worker would be."""
    other = create_app({"TESTING": True, "DATABASE_URL": database_url, "RATE_LIMITS": "off"})
    yield other
    with other.app_context():
        db.engine.dispose()


def test_a_round_recorded_elsewhere_shows_at_once(table, other_process):
    table.create()
    table.jhyap(0, 0, 5, 7)
    before = table.get()
    elsewhere = TableActions(other_process.test_client())
    elsewhere.game, elsewhere.token = table.game, table.token
    elsewhere.jhyap(1, 4, 0, 9)
    after = table.get()
    assert after["rounds_played"] == before["rounds_played"] + 1 == 2
    assert after == elsewhere.get()


def test_a_rename_elsewhere_shows_at_once(table, other_process):
    table.create()
    table.get()
    other = other_process.test_client()
    renamed = other.patch(table.url, json={"name": "Dashain night"}, headers=table.auth)
    assert renamed.status_code == 200
    assert table.get()["name"] == "Dashain night"


def test_a_deleted_game_is_gone_even_if_kept(table, other_process):
    table.create()
    table.get()
    assert other_process.test_client().delete(table.url, headers=table.auth).status_code == 204
    response = table.client.get(table.url)
    assert response.status_code == 404
    assert response.json["error"]["code"] == "not_found"


def test_the_etag_is_the_version_of_the_body_sent(table):
    table.create()
    first = table.client.get(table.url)
    table.jhyap(0, 0, 5, 7)
    second = table.client.get(table.url)
    again = table.client.get(table.url)
    assert first.headers["ETag"] != second.headers["ETag"] == again.headers["ETag"]
    assert second.data == again.data
    assert second.json["rounds_played"] == 1
    not_modified = table.client.get(table.url, headers={"If-None-Match": second.headers["ETag"]})
    assert not_modified.status_code == 304


def test_size_zero_keeps_nothing(database_url):
    app = create_app(
        {"TESTING": True, "DATABASE_URL": database_url, "RATE_LIMITS": "off", "GAME_CACHE_SIZE": 0}
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
    table = TableActions(app.test_client())
    table.create()
    try:
        for _ in range(2):
            with counted_statements(app) as reading:
                table.get()
            assert len(reading) == 2
    finally:
        with app.app_context():
            db.engine.dispose()


def test_the_least_recently_read_game_makes_room():
    cache = RenderedGames(2)
    for game_id in ("a", "b"):
        cache.keep(game_id, RenderedGame(1, game_id.encode()))
    assert cache.get("a", 1) is not None  # "b" is now the least recently read
    cache.keep("c", RenderedGame(1, b"c"))
    assert cache.get("b", 1) is None
    assert cache.get("a", 1) == RenderedGame(1, b"a")
    assert cache.get("c", 1) == RenderedGame(1, b"c")


def test_only_the_version_asked_for_is_answered_and_never_an_older_one_kept():
    cache = RenderedGames(10)
    cache.keep("a", RenderedGame(3, b"three"))
    assert cache.get("a", 2) is None
    assert cache.get("a", 4) is None
    cache.keep("a", RenderedGame(2, b"two"))  # a slower reader of an older version
    assert cache.get("a", 3) == RenderedGame(3, b"three")
    cache.keep("a", RenderedGame(4, b"four"))
    assert cache.get("a", 4) == RenderedGame(4, b"four")
