"""Reading a game and recording a round take a fixed number of SQL statements."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ..conftest import counted_statements


def play(table, rounds: int) -> None:
    count = len(table.players)
    for number in range(rounds):
        totals = [(seat * 7 + number) % 20 + 1 for seat in range(count)]
        totals[number % count] = 0
        table.jhyap(number % count, *totals)


def verbs(statements) -> list[str]:
    """The first word of each statement."""
    return [statement.split(None, 1)[0].upper() for statement, _ in statements]


def statements_for(app, table, players, rounds) -> tuple[list[str], list[str], list[str]]:
    """Statements to GET the game first and again, and to POST a round, after ``rounds`` rounds."""
    table.create(players=players, elimination_limit=10000, halve_at=[])
    play(table, rounds)
    with counted_statements(app) as first_read:
        first = table.get()
    with counted_statements(app) as second_read:
        assert table.get() == first
    entry = table.jhyap_entry(0, [0] + [5] * (len(players) - 1))
    with counted_statements(app) as recording:
        assert table.post_round(entry).status_code == 201
    return verbs(first_read), verbs(second_read), verbs(recording)


def test_statement_counts_do_not_grow_with_players_or_rounds(app, table):
    small = statements_for(app, table, ["Asha", "Bikash"], 1)
    large = statements_for(app, table, ["Asha", "Bikash", "Chandra", "Dipa", "Esha"], 30)
    assert small == large
    first_read, second_read, recording = small
    # SQLite is sent its BEGIN (IMMEDIATE for a write); psycopg begins by itself.
    on_sqlite = app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
    begin = ["BEGIN"] if on_sqlite else []
    # The game with its players, in one statement, whether or not it changed since.
    assert first_read == second_read == [*begin, "SELECT"]
    # The game and players FOR UPDATE, UPDATE game, INSERT round; on PostgreSQL, the notice
    # that the event streams hear once it commits (SELECT pg_notify).
    notice = [] if on_sqlite else ["SELECT"]
    assert recording == [*begin, "SELECT", "UPDATE", "INSERT", *notice]


def writes(statements) -> list[str]:
    """The statements that change the database."""
    return [verb for verb in verbs(statements) if verb in {"INSERT", "UPDATE", "DELETE"}]


def test_an_export_refused_at_its_last_round_writes_nothing(app, client, table):
    table.create(elimination_limit=10000, halve_at=[])
    play(table, 30)
    document = table.export()
    document["rounds"][-1]["round"]["results"][0]["points"] += 1
    with counted_statements(app) as importing:
        response = client.post("/api/v1/games/import", json=document)
    assert response.status_code == 422, response.json
    assert writes(importing) == []
    assert not any(verb == "BEGIN" for verb in verbs(importing))  # not even a write lock


def test_a_poll_with_the_current_etag_reads_the_version_alone(app, table):
    table.create()
    table.jhyap(0, 0, 5, 7)
    etag = table.client.get(table.url).headers["ETag"]
    with counted_statements(app) as polling:
        assert table.client.get(table.url, headers={"If-None-Match": etag}).status_code == 304
    selects = [sql for sql, _ in polling if sql.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 1 and "players" not in selects[0].lower()


def test_a_poll_answered_304_opens_no_orm_unit_of_work_and_carries_no_page_headers(app, table):
    app.config["RATELIMIT_ENABLED"] = True
    table.create()
    etag = table.client.get(table.url).headers["ETag"]
    units: list[object] = []

    def begun(session: Session, transaction: object, connection: object) -> None:
        units.append(transaction)

    sa.event.listen(Session, "after_begin", begun)
    try:
        with counted_statements(app) as polling:
            answer = table.client.get(table.url, headers={"If-None-Match": etag})
    finally:
        sa.event.remove(Session, "after_begin", begun)
    assert answer.status_code == 304
    assert units == []
    assert [verb for verb in verbs(polling) if verb != "BEGIN"] == ["SELECT"]
    assert answer.data == b""
    assert "Content-Type" not in answer.headers
    page_only = ("Content-Security-Policy", "X-Frame-Options")
    assert [name for name in page_only if name in answer.headers] == []
    assert not any(name.startswith("X-RateLimit") for name, _ in answer.headers)
    assert answer.headers["X-Content-Type-Options"] == "nosniff"  # what every answer carries


def recording_at_a_table(app, client, players: list[str], rounds: int) -> list[str]:
    """Statements to POST a round, with the table's token, to a game of ``rounds`` rounds."""
    created = client.post("/api/v1/tables", json={"name": "Crew", "players": players}).json
    auth = {"Authorization": f"Bearer {created['token']}"}
    ids = [player["id"] for player in created["players"]]
    game = client.post(
        f"/api/v1/tables/{created['id']}/games",
        json={"ruleset": "jhyap", "players": ids, "options": {"elimination_limit": 10000}},
        headers=auth,
    ).json
    seats = [player["id"] for player in game["players"]]

    def entry(number: int) -> dict:
        hands = [
            {"player": p, "total": 0 if i == 0 else 3 + number % 5} for i, p in enumerate(seats)
        ]
        return {"caller": seats[0], "hands": hands}

    url = f"/api/v1/games/{game['id']}/rounds"
    for number in range(rounds):
        assert client.post(url, json=entry(number), headers=auth).status_code == 201
    with counted_statements(app) as recording:
        assert client.post(url, json=entry(rounds), headers=auth).status_code == 201
    return verbs(recording)


def test_recording_at_a_table_adds_the_figures_and_the_table_version_and_nothing_more(app, client):
    small = recording_at_a_table(app, client, ["Asha", "Bikash"], 1)
    large = recording_at_a_table(app, client, ["Asha", "Bikash", "Chandra", "Dipa", "Esha"], 30)
    assert small == large
    on_sqlite = app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
    begin = ["BEGIN"] if on_sqlite else []
    # The game FOR UPDATE and the table's token; then the game and the round (flushed), its
    # players' figures (one statement for all of them) and the table's version; on PostgreSQL,
    # one notice for the game and the table.
    notice = [] if on_sqlite else ["SELECT"]
    assert small == [*begin, "SELECT", "SELECT", "UPDATE", "INSERT", "UPDATE", "UPDATE", *notice]
