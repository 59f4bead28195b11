"""What one worker changes, another shows at once: games and exports are never stale."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from scorekeeper.app import create_app
from scorekeeper.extensions import db

from ..conftest import GameClient


@pytest.fixture
def other_process(app):
    """A second app on the same database, as another gunicorn worker would be."""
    url = app.config["DATABASE_URL"]
    other = create_app({"TESTING": True, "DATABASE_URL": url, "RATE_LIMITS": "off"})
    yield other
    with other.app_context():
        db.engine.dispose()


def test_a_round_recorded_elsewhere_shows_at_once(table, other_process):
    table.create()
    table.jhyap(0, 0, 5, 7)
    before = table.get()
    elsewhere = GameClient(other_process.test_client())
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


def test_a_game_deleted_elsewhere_is_gone(table, other_process):
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


def export_of(table: GameClient) -> dict:
    response = table.client.get(f"{table.url}/export")
    assert response.status_code == 200
    return response.json


def test_an_export_shows_rounds_recorded_corrected_or_undone_elsewhere(table, other_process):
    table.create()
    table.jhyap(0, 0, 5, 7)
    assert [round_["number"] for round_ in export_of(table)["rounds"]] == [1]
    elsewhere = GameClient(other_process.test_client())
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


def test_an_export_twice_is_the_same_document_but_for_when_it_was_made(table):
    table.create()
    for caller in range(3):
        table.jhyap(caller, *[0 if seat == caller else 5 + seat for seat in range(3)])
    first, second = export_of(table), export_of(table)
    first.pop("exported_at"), second.pop("exported_at")
    assert first == second
    assert len(first["rounds"]) == 3


def test_an_export_is_one_snapshot_even_if_a_round_lands_while_it_is_read(
    app, table, other_process
):
    table.create()
    table.jhyap(0, 0, 5, 7)
    elsewhere = GameClient(other_process.test_client())
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
