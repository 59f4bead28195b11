"""When a round was played: ``played_at`` on rounds and seat changes (api.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ..conftest import row_counts


def rfc3339(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@pytest.fixture
def an_hour_ago(client, table):
    """A game created an hour ago (an import keeps the export's times): ``table`` plays it."""
    table.create()
    exported = table.export()
    hour_ago = rfc3339(datetime.now(UTC) - timedelta(hours=1))
    exported["game"]["created_at"] = exported["game"]["updated_at"] = hour_ago
    imported = client.post("/api/v1/games/import", json=exported)
    assert imported.status_code == 201, imported.json
    table.game, table.token = imported.json, imported.json["token"]
    return datetime.fromisoformat(hour_ago)


def at(created: datetime, minutes: int) -> str:
    return rfc3339(created + timedelta(minutes=minutes))


def test_a_round_and_a_seat_change_are_shown_as_played(client, table, an_hour_ago):
    entry = table.jhyap_entry(0, [0, 5, 7])
    first = table.post_round({**entry, "played_at": at(an_hour_ago, 10)})
    assert first.status_code == 201, first.json
    assert first.json["created_at"] == at(an_hour_ago, 10)
    joined = client.post(
        f"{table.url}/seats",
        json={"join": {"name": "Dev", "after": table.players[2]}, "played_at": at(an_hour_ago, 12)},
        headers=table.auth,
    )
    assert joined.status_code == 201, joined.json
    table.game = joined.json
    later = table.post_round(
        {**table.jhyap_entry(1, [4, 0, 9, 3]), "played_at": at(an_hour_ago, 20).lower()}
    )  # RFC 3339 lets t and z be written in lower case
    assert later.status_code == 201, later.json

    history = client.get(f"{table.url}/rounds").json["rounds"]
    assert [item["created_at"] for item in history] == [
        at(an_hour_ago, 10),
        at(an_hour_ago, 12),
        at(an_hour_ago, 20),
    ]
    assert client.get(f"{table.url}/rounds/2").json["created_at"] == at(an_hour_ago, 12)
    exported = table.export()
    assert [item["round"]["created_at"] for item in exported["rounds"]] == [
        item["created_at"] for item in history
    ]
    assert "played_at" not in exported["rounds"][0]["entry"]
    assert exported["rounds"][1]["entry"] == {"join": {"name": "Dev", "after": table.players[2]}}
    imported = client.post("/api/v1/games/import", json=exported)
    assert imported.status_code == 201, imported.json
    again = client.get(f"/api/v1/games/{imported.json['id']}/rounds").json["rounds"]
    assert [item["created_at"] for item in again] == [item["created_at"] for item in history]


def test_without_played_at_an_item_is_stamped_when_it_arrives(table, an_hour_ago):
    before = datetime.now(UTC).replace(microsecond=0)
    recorded = table.post_round(table.jhyap_entry(0, [0, 5, 7]))
    assert recorded.status_code == 201
    assert before <= datetime.fromisoformat(recorded.json["created_at"]) <= datetime.now(UTC)


def test_played_at_before_the_game_was_created_is_refused(app, table, an_hour_ago):
    before = row_counts(app)
    refused = table.post_round(
        {**table.jhyap_entry(0, [0, 5, 7]), "played_at": at(an_hour_ago, -1)}
    )
    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["code"] == "invalid_request"
    assert refused.json["error"]["message"] == (
        f"This was played at {at(an_hour_ago, -1)} by the phone's clock, before the game was "
        f"created ({rfc3339(an_hour_ago)}); send the rounds in the order they were played, or "
        "check the phone's clock."
    )
    assert refused.json["error"]["details"] == {"played_at": ["Before the item before it."]}
    assert row_counts(app) == before


def test_played_at_before_the_previous_item_is_refused(client, app, table, an_hour_ago):
    assert (
        table.post_round(
            {**table.jhyap_entry(0, [0, 5, 7]), "played_at": at(an_hour_ago, 30)}
        ).status_code
        == 201
    )
    before = row_counts(app)
    late = {"played_at": at(an_hour_ago, 29)}

    refused = [
        table.post_round({**table.jhyap_entry(1, [4, 0, 9]), **late}),
        client.post(
            f"{table.url}/rounds?dry_run=true",
            json={**table.jhyap_entry(1, [4, 0, 9]), **late},
            headers=table.auth,
        ),
        client.post(
            f"{table.url}/seats", json={"leave": table.players[2], **late}, headers=table.auth
        ),
    ]

    assert [response.status_code for response in refused] == [422] * 3
    assert refused[0].json["error"]["message"] == (
        f"This was played at {at(an_hour_ago, 29)} by the phone's clock, before item 1 of the "
        f"game's history ({at(an_hour_ago, 30)}); send the rounds in the order they were "
        "played, or check the phone's clock."
    )
    assert row_counts(app) == before
    same_second = table.post_round(
        {**table.jhyap_entry(1, [4, 0, 9]), "played_at": at(an_hour_ago, 30)}
    )
    assert same_second.status_code == 201, same_second.json


def test_played_at_more_than_a_minute_ahead_is_refused_and_a_little_ahead_is_now(app, table):
    table.create()
    before = row_counts(app)
    now = datetime.now(UTC)
    refused = table.post_round(
        {**table.jhyap_entry(0, [0, 5, 7]), "played_at": rfc3339(now + timedelta(minutes=2))}
    )
    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["message"] == (
        f"This was played at {rfc3339(now + timedelta(minutes=2))} by the phone's clock, more "
        "than a minute from now; check the phone's clock."
    )
    assert row_counts(app) == before

    ahead = table.post_round(
        {**table.jhyap_entry(0, [0, 5, 7]), "played_at": rfc3339(now + timedelta(seconds=30))}
    )
    assert ahead.status_code == 201, ahead.json
    assert datetime.fromisoformat(ahead.json["created_at"]) <= datetime.now(UTC)


@pytest.mark.parametrize(
    "played_at",
    [
        "20261202T161833Z",
        "2026-W49-3T16:18:33Z",
        "2026-12-02 16:18:33Z",
        "2026-12-02T16:18:33",
        "2026-12-02T16:18:33Z\x00",
        "2026-13-02T16:18:33Z",
        "2026-12-02T16:18:33Z ",
        "\u0662\u0660\u0662\u0666-12-02T16:18:33Z",
        1764692313,
        None,
    ],
    ids=[
        "basic format",
        "week date",
        "space",
        "no zone",
        "NUL",
        "month 13",
        "space after",
        "Arabic-Indic digits",
        "a number",
        "null",
    ],
)
def test_played_at_must_be_an_rfc_3339_time(app, table, played_at):
    table.create()
    refused = table.post_round({**table.jhyap_entry(0, [0, 5, 7]), "played_at": played_at})

    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["message"] in (
        'The field "played_at" must be a time like 2026-11-30T18:05:00Z.',
        'The field "played_at" must have a value, not null.',
    )
    assert row_counts(app)[2] == 0


def test_a_correction_takes_no_played_at(client, table):
    table.create()
    table.jhyap(0, 0, 5, 7)
    refused = client.put(
        f"{table.url}/rounds/1",
        json={**table.jhyap_entry(0, [0, 6, 7]), "played_at": "2026-12-02T16:18:33Z"},
        headers=table.auth,
    )
    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["message"] == 'The field "played_at" is unknown; leave it out.'


def test_a_resend_with_its_key_and_played_at_answers_the_first_answer(table, an_hour_ago):
    body = {**table.jhyap_entry(0, [0, 5, 7]), "played_at": at(an_hour_ago, 5)}
    first = table.post_round(body, **{"Idempotency-Key": "a-round-played-offline-0001"})
    again = table.post_round(body, **{"Idempotency-Key": "a-round-played-offline-0001"})
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    assert len(table.client.get(f"{table.url}/rounds").json["rounds"]) == 1


@pytest.mark.parametrize("ruleset", ["score-pad", "hearts"])
def test_a_round_of_any_ruleset_takes_its_number_and_played_at(client, table, ruleset):
    created = table.create(ruleset=ruleset, players=["Asha", "Bikash", "Chandra", "Dipa"])
    hands = [
        {"player": player, "points": points}
        for player, points in zip(table.players, (3, 10, 13, 0), strict=True)
    ]
    played_at = created["created_at"]  # the earliest it may be: as the game was made
    taken = table.post_round({"hands": hands, "number": 2, "played_at": played_at})
    assert taken.status_code == 409, taken.json  # round 2 is not next: the number was read
    recorded = table.post_round({"hands": hands, "number": 1, "played_at": played_at})
    assert recorded.status_code == 201, recorded.json
    assert recorded.json["created_at"] == played_at
    assert [row["score_after"] for row in recorded.json["results"]] == [3, 10, 13, 0]
