"""The domain works on a SQLAlchemy session it is given: no Flask app, no Flask import."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, event, func, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import scoped_session, sessionmaker

from scorekeeper.domain import storage
from scorekeeper.domain.commands import KeyedRequest
from scorekeeper.domain.errors import GameNotFound, WrongToken
from scorekeeper.domain.games import GameSetup, create_game, read_game
from scorekeeper.domain.rounds import ReadEntry, correct_round, list_rounds, record_round
from scorekeeper.models import Base, RequestKey, Round
from scorekeeper.serializers import bound_game_body, corrected_round, created_game, scored_round


def test_importing_the_domain_loads_no_flask_and_no_wire_json() -> None:
    """The domain knows nothing of HTTP: it loads no Flask, and hands typed results to the edge,
    which alone turns them into the API's JSON (``scorekeeper.serializers``, ``api``)."""
    modules = ", ".join(
        f"scorekeeper.domain.{name}"
        for name in ("commands", "games", "history", "rounds", "seats", "table_history", "tables")
    )
    script = (
        f"import sys; import {modules}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0].startswith('flask') "
        "or m in ('scorekeeper.serializers', 'scorekeeper.api')))"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert found.strip() == "[]"


@pytest.fixture
def given_database(tmp_path: Any) -> Iterator[scoped_session[Any]]:
    """A plain SQLAlchemy session on a new SQLite file, given to the domain for one test."""
    engine = create_engine(f"sqlite:///{tmp_path / 'domain.sqlite'}")

    @event.listens_for(engine, "connect")
    def _foreign_keys(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.execute("PRAGMA foreign_keys = ON")

    Base.metadata.create_all(engine)
    sessions = scoped_session(sessionmaker(engine, expire_on_commit=False))
    before = storage.use_database(storage.Database(session=sessions, engine=lambda: engine))
    try:
        yield sessions
    finally:
        storage.use_database(before)
        sessions.remove()
        engine.dispose()


def scores(game_id: str) -> list[int]:
    """Each player's score in game ``game_id``, in seat order, as the domain reads it."""
    return [player["score"] for player in bound_game_body(read_game(game_id))["players"]]


def jhyap_round(player_ids: list[int], caller: int, *hand_totals: int) -> ReadEntry:
    hands = [{"player": p, "total": t} for p, t in zip(player_ids, hand_totals, strict=True)]
    return ReadEntry({"caller": player_ids[caller], "hands": hands})


def test_a_game_is_created_played_and_corrected_on_a_given_session(given_database: Any) -> None:
    created = create_game(
        GameSetup("jhyap", ["Asha", "Bikash", "Chandra"], dealer=0),
        answer=created_game,
        request=KeyedRequest("k" * 22, {"players": ["Asha", "Bikash", "Chandra"]}),
    )
    assert not created.again
    body = created.body
    game_id, token = body["id"], body["token"]
    ids = [player["id"] for player in body["players"]]

    first = record_round(
        game_id,
        token,
        lambda _: jhyap_round(ids, 0, 2, 20, 30),
        answer=scored_round,
        request=KeyedRequest("r1", {}),
    )
    again = record_round(
        game_id,
        token,
        lambda _: jhyap_round(ids, 0, 2, 20, 30),
        answer=scored_round,
        request=KeyedRequest("r1", {}),
    )
    assert first.body["number"] == 1 and not first.again
    assert again.again and again.body == first.body
    assert scores(game_id) == [0, 20, 30]

    corrected = correct_round(
        game_id, token, 1, lambda _: jhyap_round(ids, 1, 10, 3, 12), answer=corrected_round
    )
    assert [line["score_after"] for line in corrected["results"]] == [10, 0, 12]
    assert scores(game_id) == [10, 0, 12]
    assert [item.result["number"] for item in list_rounds(game_id)] == [1]

    counted = given_database()
    assert counted.scalar(select(func.count()).select_from(Round)) == 1
    kept = counted.scalars(select(RequestKey.scope).order_by(RequestKey.id)).all()
    assert kept == ["games", f"games/{game_id}/history"]  # the creation, and round 1


def test_the_domain_raises_its_own_errors_on_a_given_session(given_database: Any) -> None:
    body = create_game(GameSetup("jhyap", ["Asha", "Bikash"], dealer=0), answer=created_game).body
    with pytest.raises(WrongToken):
        record_round(body["id"], "not the token", lambda _: ReadEntry({}), answer=scored_round)
    with pytest.raises(GameNotFound):
        read_game("A" * 22)
    assert given_database().scalar(select(func.count()).select_from(Round)) == 0


def test_the_health_check_asks_the_given_database(given_database: Any, tmp_path: Any) -> None:
    storage.check_database()
    gone = create_engine(f"sqlite:///{tmp_path / 'no such folder' / 'domain.sqlite'}")
    storage.use_database(storage.Database(session=sessionmaker(gone), engine=lambda: gone))
    with pytest.raises(OperationalError):
        storage.check_database()
