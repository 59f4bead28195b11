"""A game or table made on a phone with no network: created later with the id and time it chose
(api.md, "Made with no network")."""

from __future__ import annotations

import secrets
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Table

from ..conftest import row_counts

GAMES = "/api/v1/games"
TABLES = "/api/v1/tables"
KINDS = ["game", "table", "game at a table", "rematch"]
NEW_GAME = {"ruleset": "jhyap", "players": ["Asha", "Bikash", "Chandra"], "dealer": 0, "starter": 1}
MALFORMED_ID = 'The field "id" must be 22 characters, each a letter, a digit, - or _.'


def chosen_id() -> str:
    """An id as a phone chooses one: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def rfc3339(moment: datetime) -> str:
    """``moment`` as the API writes times: UTC, to the second."""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def counts(app: Flask) -> tuple[int, ...]:
    """Rows in the games, players, rounds and tables tables."""
    with app.app_context():
        tables = db.session.scalar(sa.select(sa.func.count()).select_from(Table))
    return (*row_counts(app), tables)


class Phone:
    """Makes each kind of game or table through the API, with what the phone chose."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        table = client.post(TABLES, json={"name": "Friday crew", "players": ["Asha", "Dev"]})
        assert table.status_code == 201, table.json
        self.table_id = table.json["id"]
        self.table_auth = {"Authorization": f"Bearer {table.json['token']}"}
        game = client.post(GAMES, json=NEW_GAME)
        assert game.status_code == 201, game.json
        self.game_id = game.json["id"]
        self.game_auth = {"Authorization": f"Bearer {game.json['token']}"}

    def create(self, kind: str, chosen: dict[str, Any] | None, **headers: str) -> Any:
        """POST the creation of ``kind`` with the ``chosen`` fields (``None``: a rematch's
        request with no body)."""
        fields = chosen or {}
        if kind == "game":
            return self.client.post(GAMES, json={**NEW_GAME, **fields}, headers=headers)
        if kind == "table":
            return self.client.post(TABLES, json={"name": "Crew", **fields}, headers=headers)
        if kind == "game at a table":
            return self.client.post(
                f"{TABLES}/{self.table_id}/games",
                json={**NEW_GAME, **fields},
                headers={**self.table_auth, **headers},
            )
        return self.client.post(
            f"{GAMES}/{self.game_id}/rematch", json=chosen, headers={**self.game_auth, **headers}
        )


@pytest.fixture
def phone(client: FlaskClient) -> Phone:
    """A table and a loose game already made, to make games at and rematches of."""
    return Phone(client)


def address(kind: str, made_id: str) -> str:
    """Where the made game or table lives."""
    return f"{TABLES}/{made_id}" if kind == "table" else f"{GAMES}/{made_id}"


@pytest.mark.parametrize("kind", KINDS)
def test_each_creation_takes_the_id_the_phone_chose(client, phone, kind):
    made_id = chosen_id()

    created = phone.create(kind, {"id": made_id})

    assert created.status_code == 201, created.json
    assert created.json["id"] == made_id
    assert created.headers["Location"] == address(kind, made_id)
    read = client.get(address(kind, made_id))
    assert read.status_code == 200
    assert read.json == {name: value for name, value in created.json.items() if name != "token"}


@pytest.mark.parametrize("kind", ["game", "game at a table", "rematch"])
def test_rounds_are_recorded_on_a_game_with_a_chosen_id(client, phone, kind):
    made_id = chosen_id()
    game = phone.create(kind, {"id": made_id}).json
    auth = {"Authorization": f"Bearer {game['token']}"}
    caller, *others = [player["id"] for player in game["players"]]
    entry = {
        "caller": caller,
        "hands": [{"player": caller, "total": 2}, *({"player": p, "total": 9} for p in others)],
    }

    recorded = client.post(f"{GAMES}/{made_id}/rounds", json=entry, headers=auth)

    assert recorded.status_code == 201, recorded.json
    assert recorded.headers["Location"] == f"{GAMES}/{made_id}/rounds/1"
    assert client.get(f"{GAMES}/{made_id}").json["rounds_played"] == 1


def test_a_table_with_a_chosen_id_takes_games(client, phone):
    made_id = chosen_id()
    table = phone.create("table", {"id": made_id}).json
    auth = {"Authorization": f"Bearer {table['token']}"}

    game = client.post(f"{TABLES}/{made_id}/games", json=NEW_GAME, headers=auth)

    assert game.status_code == 201, game.json
    assert game.json["table"] == made_id
    assert [listed["id"] for listed in client.get(f"{TABLES}/{made_id}").json["games"]] == [
        game.json["id"]
    ]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("made_id", "message"),
    [
        ("x" * 21, MALFORMED_ID),
        ("x" * 23, MALFORMED_ID),
        ("x" * 21 + "=", MALFORMED_ID),
        ("x" * 21 + "+", MALFORMED_ID),
        ("x" * 21 + "é", MALFORMED_ID),
        ("", MALFORMED_ID),
        (12345, 'The field "id" must be text.'),
        (None, 'The field "id" must have a value, not null.'),
    ],
    ids=["too short", "too long", "padding", "plus", "accent", "empty", "number", "null"],
)
def test_a_malformed_id_is_refused_and_nothing_is_made(app, phone, kind, made_id, message):
    before = counts(app)

    refused = phone.create(kind, {"id": made_id})

    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["code"] == "invalid_request"
    assert refused.json["error"]["message"] == message
    assert list(refused.json["error"]["details"]) == ["id"]
    assert counts(app) == before


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("taken_by", ["game", "table"])
def test_an_id_a_game_or_table_has_is_409_id_taken(app, client, phone, kind, taken_by):
    made_id = chosen_id()
    first = phone.create(taken_by, {"id": made_id})
    assert first.status_code == 201, first.json
    existing = client.get(address(taken_by, made_id)).json
    before = counts(app)

    refused = phone.create(kind, {"id": made_id})

    assert refused.status_code == 409, refused.json
    assert refused.json["error"] == {
        "status": 409,
        "code": "id_taken",
        "message": f"A game or table already has the id {made_id}; choose a new random id and "
        "send it again.",
        "details": {"id": ["Taken by a game or table."]},
    }
    assert counts(app) == before
    assert client.get(address(taken_by, made_id)).json == existing


@pytest.mark.parametrize("kind", KINDS)
def test_a_resend_with_the_same_key_answers_the_first_answer_not_409(app, phone, kind):
    made_id = chosen_id()
    key = {"Idempotency-Key": secrets.token_urlsafe(16)}
    first = phone.create(kind, {"id": made_id}, **key)
    assert first.status_code == 201, first.json
    after_first = counts(app)

    again = phone.create(kind, {"id": made_id}, **key)

    assert again.status_code == 201, again.json
    assert again.json == first.json
    assert again.headers["Location"] == first.headers["Location"]
    assert counts(app) == after_first
    other_key = phone.create(kind, {"id": made_id}, **{"Idempotency-Key": chosen_id()})
    assert other_key.status_code == 409
    assert other_key.json["error"]["code"] == "id_taken"


@pytest.mark.parametrize("kind", KINDS)
def test_created_at_is_kept_and_returned(client, phone, kind):
    made_at = rfc3339(datetime.now(UTC) - timedelta(hours=3))

    created = phone.create(kind, {"created_at": made_at})

    assert created.status_code == 201, created.json
    assert created.json["created_at"] == made_at
    assert created.json["updated_at"] == made_at
    assert client.get(created.headers["Location"]).json["created_at"] == made_at


def test_rounds_played_on_the_phone_after_it_made_the_game_are_recorded_with_their_time(
    client, phone
):
    made_id, made_at = chosen_id(), datetime.now(UTC) - timedelta(hours=3)
    game = phone.create("game", {"id": made_id, "created_at": rfc3339(made_at)}).json
    auth = {"Authorization": f"Bearer {game['token']}"}
    caller, *others = [player["id"] for player in game["players"]]
    hands = [{"player": caller, "total": 2}, *({"player": p, "total": 9} for p in others)]

    too_early = rfc3339(made_at - timedelta(minutes=1))
    refused = client.post(
        f"{GAMES}/{made_id}/rounds",
        json={"caller": caller, "hands": hands, "played_at": too_early},
        headers=auth,
    )
    played_at = rfc3339(made_at + timedelta(minutes=20))
    recorded = client.post(
        f"{GAMES}/{made_id}/rounds",
        json={"caller": caller, "hands": hands, "played_at": played_at},
        headers=auth,
    )

    assert refused.status_code == 422
    assert refused.json["error"]["details"] == {"played_at": ["Before the item before it."]}
    assert recorded.status_code == 201, recorded.json
    assert recorded.json["created_at"] == played_at


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("offset", "message", "problem"),
    [
        (
            timedelta(days=-2),
            "This was made at {time} by the phone's clock, more than a day ago, which is too "
            "long ago; check the phone's clock.",
            "More than a day before the server's clock.",
        ),
        (
            timedelta(minutes=10),
            "This was made at {time} by the phone's clock, more than a minute from now; check "
            "the phone's clock.",
            "More than a minute ahead of the server's clock.",
        ),
    ],
    ids=["two days old", "ten minutes ahead"],
)
def test_created_at_too_old_or_too_far_ahead_is_422(app, phone, kind, offset, message, problem):
    made_at = rfc3339(datetime.now(UTC) + offset)
    before = counts(app)

    refused = phone.create(kind, {"id": chosen_id(), "created_at": made_at})

    assert refused.status_code == 422, refused.json
    assert refused.json["error"] == {
        "status": 422,
        "code": "invalid_request",
        "message": message.format(time=made_at),
        "details": {"created_at": [problem]},
    }
    assert counts(app) == before


@pytest.mark.parametrize("kind", KINDS)
def test_created_at_30_seconds_ahead_is_taken_as_now(phone, kind):
    sent_at = datetime.now(UTC).replace(microsecond=0)

    created = phone.create(kind, {"created_at": rfc3339(sent_at + timedelta(seconds=30))})

    assert created.status_code == 201, created.json
    stamped = datetime.fromisoformat(created.json["created_at"])
    assert sent_at <= stamped <= datetime.now(UTC)


@pytest.mark.parametrize("kind", KINDS)
def test_a_malformed_created_at_is_422(app, phone, kind):
    before = counts(app)

    refused = phone.create(kind, {"created_at": "2026-12-03 10:00"})

    assert refused.status_code == 422
    assert refused.json["error"]["message"] == (
        'The field "created_at" must be a time like 2026-11-30T18:05:00Z.'
    )
    assert counts(app) == before


def test_a_rematch_with_no_body_or_an_empty_one_still_works(app, client, phone):
    rematch = f"{GAMES}/{phone.game_id}/rematch"
    before = counts(app)

    bare = client.post(rematch, headers=phone.game_auth)
    empty_json = client.post(
        rematch, data=b"", content_type="application/json", headers=phone.game_auth
    )
    empty_object = client.post(rematch, json={}, headers=phone.game_auth)

    assert [bare.status_code, empty_json.status_code, empty_object.status_code] == [201] * 3
    ids = {bare.json["id"], empty_json.json["id"], empty_object.json["id"]}
    assert len(ids) == 3 and phone.game_id not in ids
    assert counts(app)[0] == before[0] + 3


def test_a_rematch_body_is_read_as_json(client, phone):
    rematch = f"{GAMES}/{phone.game_id}/rematch"

    unknown = client.post(rematch, json={"name": "Again"}, headers=phone.game_auth)
    not_json = client.post(rematch, data="id=x", headers=phone.game_auth)
    no_token = client.post(rematch, json={"id": "short"})

    assert unknown.status_code == 422
    assert unknown.json["error"]["message"] == 'The field "name" is unknown; leave it out.'
    assert not_json.status_code == 415
    assert no_token.status_code == 401  # the token is asked for before the body is checked


@pytest.mark.parametrize(
    ("language", "taken", "malformed"),
    [
        (
            "ne",
            "कुनै खेल वा टेबलको आईडी पहिल्यै {id} छ; नयाँ अनियमित आईडी छानेर फेरि पठाउनुहोस्।",
            '"id" फिल्ड 22 अक्षरको हुनुपर्छ, प्रत्येक एउटा वर्ण, अङ्क, - वा _।',
        ),
        (
            "fil",
            "May laro o mesa nang may id na {id}; pumili ng bagong random na id at ipadala "
            "itong muli.",
            'Ang field na "id" ay dapat 22 na titik, bawat isa ay letra, numero, - o _.',
        ),
    ],
)
def test_the_errors_are_said_in_the_phone_s_language(phone, language, taken, malformed):
    made_id = chosen_id()
    phone.create("table", {"id": made_id})
    headers = {"Accept-Language": language}

    refused = phone.create("game", {"id": made_id}, **headers)
    bad = phone.create("rematch", {"id": "short"}, **headers)

    assert refused.status_code == 409
    assert refused.json["error"]["message"] == taken.format(id=made_id)
    assert refused.headers["Content-Language"] == language
    assert bad.status_code == 422
    assert bad.json["error"]["message"] == malformed


def test_of_two_creations_with_one_id_at_the_same_moment_one_wins(app, phone):
    made_id = chosen_id()
    start = threading.Barrier(2)
    answers: dict[str, Any] = {}

    def make(kind: str) -> None:
        client = app.test_client()
        start.wait()
        if kind == "game":
            answers[kind] = client.post(GAMES, json={**NEW_GAME, "id": made_id})
        else:
            answers[kind] = client.post(TABLES, json={"name": "Crew", "id": made_id})

    threads = [threading.Thread(target=make, args=(kind,)) for kind in ("game", "table")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    statuses = sorted(answer.status_code for answer in answers.values())
    assert statuses == [201, 409], {kind: answer.json for kind, answer in answers.items()}
    loser = next(answer for answer in answers.values() if answer.status_code == 409)
    assert loser.json["error"]["code"] == "id_taken"


def test_of_two_games_with_one_id_at_the_same_moment_one_wins(app, phone):
    made_id = chosen_id()
    start = threading.Barrier(4)
    answers: list[Any] = []
    before = counts(app)

    def make() -> None:
        client = app.test_client()
        start.wait()
        answers.append(client.post(GAMES, json={**NEW_GAME, "id": made_id}))

    threads = [threading.Thread(target=make) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answer.status_code for answer in answers) == [201, 409, 409, 409]
    assert {answer.json["error"]["code"] for answer in answers if answer.status_code == 409} == {
        "id_taken"
    }
    assert counts(app)[0] == before[0] + 1


def test_two_copies_of_one_creation_at_the_same_moment_get_the_same_answer(app, phone):
    made_id, key = chosen_id(), {"Idempotency-Key": secrets.token_urlsafe(16)}
    start = threading.Barrier(2)
    answers: list[Any] = []
    before = counts(app)

    def send() -> None:
        client = app.test_client()
        start.wait()
        answers.append(client.post(GAMES, json={**NEW_GAME, "id": made_id}, headers=key))

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert [answer.status_code for answer in answers] == [201, 201], [a.json for a in answers]
    assert answers[0].json == answers[1].json
    assert counts(app)[0] == before[0] + 1
