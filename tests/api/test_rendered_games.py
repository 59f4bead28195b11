"""A game's body is kept per process for its version, and never shown stale."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from scorekeeper.api.rendered import KeptExports, RenderedGame, RenderedGames
from scorekeeper.app import create_app
from scorekeeper.extensions import db
from scorekeeper.games import ExportBody

from ..conftest import TableActions, app_on_empty_database, counted_statements


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
    with app_on_empty_database(database_url, GAME_CACHE_SIZE=0) as app:
        table = TableActions(app.test_client())
        table.create()
        for _ in range(2):
            with counted_statements(app) as reading:
                table.get()
            assert len(reading) == 2


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


def export_of(table: TableActions) -> dict:
    response = table.client.get(f"{table.url}/export")
    assert response.status_code == 200
    assert response.headers["Content-Length"] == str(len(response.data))  # not chunked
    return response.json


def test_an_export_shows_rounds_recorded_corrected_or_undone_elsewhere(table, other_process):
    table.create()
    table.jhyap(0, 0, 5, 7)
    assert [round_["number"] for round_ in export_of(table)["rounds"]] == [1]
    elsewhere = TableActions(other_process.test_client())
    elsewhere.game, elsewhere.token = table.game, table.token

    elsewhere.jhyap(1, 4, 0, 9)
    assert [round_["number"] for round_ in export_of(table)["rounds"]] == [1, 2]

    corrected = elsewhere.client.put(
        f"{table.url}/rounds/1", json=table.jhyap_entry(0, (0, 6, 7)), headers=table.auth
    )
    assert corrected.status_code == 200
    rounds = export_of(table)["rounds"]
    assert [hand["total"] for hand in rounds[0]["entry"]["hands"]] == [0, 6, 7]

    assert elsewhere.client.delete(f"{table.url}/rounds/2", headers=table.auth).status_code == 204
    assert [round_["number"] for round_ in export_of(table)["rounds"]] == [1]


def test_a_kept_export_is_the_same_document_but_for_when_it_was_made(table):
    table.create()
    for caller in range(3):
        table.jhyap(caller, *[0 if seat == caller else 5 + seat for seat in range(3)])
    first, second = export_of(table), export_of(table)
    first.pop("exported_at"), second.pop("exported_at")
    assert first == second
    assert len(first["rounds"]) == 3


def body(size: int, fill: bytes = b"x") -> ExportBody:
    """An export body of ``size`` bytes (and one for its entry) as the cache counts it."""
    return ExportBody(game=fill * (size // 2), rounds=fill * (size - size // 2 - 1))


def test_exports_are_kept_within_their_size():
    kept = KeptExports(100)
    kept.keep("a", 1, body(60, b"a"))
    kept.keep("b", 1, body(30, b"b"))
    assert kept.get("a", 1) == body(60, b"a")
    kept.keep("c", 1, body(30, b"c"))  # 60 + 30 + 30 is over 100: "b" was read least recently
    assert kept.get("b", 1) is None
    assert kept.get("a", 1) == body(60, b"a")
    kept.keep("d", 1, body(200, b"d"))  # larger than the whole cache: not kept, nothing evicted
    assert kept.get("d", 1) is None
    assert kept.get("a", 1) == body(60, b"a")
    assert kept.get("a", 2) is None


def test_an_older_export_body_does_not_replace_a_newer_one():
    kept = KeptExports(100)
    kept.keep("a", 5, body(10, b"5"))
    kept.keep("a", 4, body(10, b"4"))
    assert kept.get("a", 5) == body(10, b"5")
    assert kept.get("a", 4) is None


def test_export_size_zero_keeps_nothing():
    kept = KeptExports(0)
    kept.keep("a", 1, ExportBody(b"", b""))
    assert kept.get("a", 1) is None


def test_a_kept_export_is_sent_after_reading_the_version_alone(app, table):
    table.create()
    table.jhyap(0, 0, 5, 7)
    first = export_of(table)
    with counted_statements(app) as statements:
        again = export_of(table)
    assert [sql.split(None, 1)[0].upper() for sql, _ in statements] == ["SELECT"]
    assert "version" in statements[0][0].lower() and "players" not in statements[0][0].lower()
    first.pop("exported_at"), again.pop("exported_at")
    assert again == first


def test_an_export_is_one_snapshot_even_if_a_round_lands_while_it_is_read(
    app, table, other_process
):
    table.create()
    table.jhyap(0, 0, 5, 7)
    elsewhere = TableActions(other_process.test_client())
    elsewhere.game, elsewhere.token = table.game, table.token
    landed = []

    def record_before_rounds_are_read(conn, cursor, statement, *args):
        if "FROM rounds" in statement and not landed:
            landed.append(elsewhere.jhyap(1, 4, 0, 9))

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record_before_rounds_are_read)
    try:
        document = export_of(table)
    finally:
        sa.event.remove(engine, "before_cursor_execute", record_before_rounds_are_read)
    assert landed  # round 2 was committed between reading the game and its rounds
    assert document["game"]["rounds_played"] == len(document["rounds"]) == 1
    assert export_of(table)["game"]["rounds_played"] == len(export_of(table)["rounds"]) == 2
