"""Export, import, retries, renames, deletion and the other endpoints (api.md).

Acceptance: export then import gives a game whose export is identical except
for ids and timestamps (player ids mapped by seat); a tampered export (a
changed result, a changed score, a changed entry, a wrong format/version, a
missing field, a round number gap) is a 422 and creates nothing.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import func, select

from scorekeeper.domain import rounds
from scorekeeper.extensions import db
from scorekeeper.models import RequestKey, Round
from scorekeeper.security import hash_token
from tests.conftest import GameClient, row_counts

PLAYERS = ("Asha", "Bikash", "Chandra", "Dipa")
A, B, C, D = range(4)
ID_KEYS = frozenset({"player", "dealer", "starter", "caller"})
TIMESTAMPS = frozenset({"created_at", "updated_at", "exported_at"})
IMPORT = "/api/v1/games/import"


def by_seat(value: Any, seat_of: dict[int, int], key: str | None = None) -> Any:
    """An export with player ids replaced by seats, and the game id and timestamps left out.

    Every id must be one of the game's players (a stray id fails the lookup).
    ``setup`` already holds seats and is kept as it is.
    """
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in TIMESTAMPS or (k == "id" and "ruleset" in value):
                continue
            out[k] = v if k == "setup" else by_seat(v, seat_of, k)
        return out
    if isinstance(value, list):
        if key == "players":
            return [{**by_seat(p, seat_of), "id": seat_of[p["id"]]} for p in value]
        if key == "winners":
            return [seat_of[player_id] for player_id in value]
        return [by_seat(item, seat_of, key) for item in value]
    if key in ID_KEYS and isinstance(value, int):
        return seat_of[value]
    return value


def seat_map(document: dict[str, Any]) -> dict[int, int]:
    """Player id -> seat, from an export or a Game."""
    players = document["game"]["players"] if "game" in document else document["players"]
    return {player["id"]: player["seat"] for player in players}


def play_in_progress(table: GameClient) -> dict[str, int]:
    """Four players, non-default options, cards, a halving, an elimination and a correction."""
    table.create(
        players=PLAYERS,
        dealer=C,
        starter=D,
        caller_tie="caller_loses",
        caller_penalty=10,
        elimination_limit=50,
        halve_at=[20, 40],
    )
    table.jhyap(A, 2, 20, ["KH", "JK"], 15)  # B 20 -> 10 (halved)
    table.jhyap(B, 30, 1, 5, 40)  # D 15+40 = 55 > 50: eliminated
    table.jhyap(C, 3, 10, ["as", "2♥"], None)
    response = table.client.put(
        f"{table.url}/rounds/1",
        json=table.jhyap_entry(A, [2, 20, ["KH", "JK"], 16]),
        headers=table.auth,
    )
    assert response.status_code == 200, response.json
    return {"dealer": C, "starter": D}


def play_finished(table: GameClient) -> dict[str, int]:
    """Three players, elimination_limit 10, no halving: Chandra wins in round 3."""
    table.create(players=PLAYERS[:3], dealer=A, starter=B, elimination_limit=10, halve_at=[])
    table.jhyap(C, 4, 11, 1)
    table.jhyap(A, 2, None, 7)
    table.jhyap(C, 7, None, 3)
    return {"dealer": A, "starter": B}


def import_document(client: Any, document: Any) -> Any:
    """POST an export to the import endpoint."""
    return client.post(IMPORT, json=document)


# Export and import


@pytest.mark.parametrize("play", [play_in_progress, play_finished], ids=["in_progress", "finished"])
def test_export_then_import_round_trips(app, client, table, play):
    setup = play(table)
    exported = table.export()
    assert exported["format"] == "scorekeeper.game"
    assert exported["version"] == 1
    assert exported["game"]["setup"] == setup
    assert [r["number"] for r in exported["rounds"]] == list(range(1, len(exported["rounds"]) + 1))
    before = row_counts(app)

    response = import_document(client, exported)

    assert response.status_code == 201, response.json
    created = response.json
    assert created["id"] != table.id
    assert response.headers["Location"].endswith(f"/api/v1/games/{created['id']}")
    assert created["token"] and created["token"] != table.token
    games, players, rounds = row_counts(app)
    assert (games, players, rounds) == (
        before[0] + 1,
        before[1] + len(table.players),
        before[2] + len(exported["rounds"]),
    )
    assert set(created["players"][0]) >= {"id", "name", "seat", "score"}
    assert {p["id"] for p in created["players"]}.isdisjoint(table.players)

    imported = client.get(f"/api/v1/games/{created['id']}/export").json
    assert by_seat(imported, seat_map(imported)) == by_seat(exported, seat_map(exported))
    # The Location answers the new game, equal to the old one but for ids and timestamps.
    new_game = client.get(response.headers["Location"]).json
    assert by_seat(new_game, seat_map(new_game)) == by_seat(table.get(), seat_map(table.get()))


def test_export_never_holds_the_token_and_the_imported_game_has_a_working_new_token(client, table):
    play_in_progress(table)
    response = client.get(f"{table.url}/export")
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert table.token not in text
    assert hash_token(table.token) not in text
    assert "token" not in text

    imported = import_document(client, response.json)
    assert imported.status_code == 201, imported.json
    new = GameClient(client)
    new.token = imported.json.pop("token")
    new.game = imported.json
    assert new.token not in client.get(f"{new.url}/export").get_data(as_text=True)

    # The new token writes to the new game; the old token does not, nor the new one the old game.
    entry = new.jhyap_entry(A, [1, 6, 9, None])
    assert client.post(f"{new.url}/rounds", json=entry, headers=table.auth).status_code == 403
    old_entry = table.jhyap_entry(A, [1, 6, 9, None])
    assert client.post(f"{table.url}/rounds", json=old_entry, headers=new.auth).status_code == 403
    recorded = new.post_round(entry)
    assert recorded.status_code == 201, recorded.json
    assert recorded.json["number"] == 4
    assert new.get()["rounds_played"] == 4
    assert table.get()["rounds_played"] == 3


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    """A tampering that sets the item at ``path``."""

    def tamper(document: dict[str, Any]) -> None:
        target = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return tamper


def _add(path: tuple[Any, ...], amount: int) -> Callable[[dict[str, Any]], None]:
    """A tampering that adds ``amount`` to the number at ``path``."""

    def tamper(document: dict[str, Any]) -> None:
        target = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] += amount

    return tamper


def _delete(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    """A tampering that removes the item at ``path``."""

    def tamper(document: dict[str, Any]) -> None:
        target = document
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return tamper


def _flip_succeeded(document: dict[str, Any]) -> None:
    round_ = document["rounds"][1]["round"]
    round_["caller_succeeded"] = not round_["caller_succeeded"]


def _other_caller(document: dict[str, Any]) -> None:
    """Round 2 called by Chandra (5) instead of Bikash (1): the call fails, the results differ."""
    entry = document["rounds"][1]["entry"]
    entry["caller"] = entry["hands"][2]["player"]


def _swap_rounds(document: dict[str, Any]) -> None:
    rounds = document["rounds"]
    rounds[0], rounds[1] = rounds[1], rounds[0]


TAMPERINGS: dict[str, Callable[[dict[str, Any]], None]] = {
    # A changed result.
    "result points": _add(("rounds", 0, "round", "results", 1, "points"), 1),
    "result caller_succeeded": _flip_succeeded,
    "result next starter": _set(("rounds", 1, "round", "game", "next_round", "starter"), None),
    "result halved": _set(("rounds", 0, "round", "results", 1, "halved"), False),
    "result eliminated": _set(("rounds", 1, "round", "results", 3, "eliminated"), False),
    # A changed score.
    "player score": _add(("game", "players", 0, "score"), 1),
    "round score_after": _add(("rounds", 2, "round", "results", 0, "score_after"), -1),
    "player eliminated_in_round": _set(("game", "players", 3, "eliminated_in_round"), 3),
    "game winners": _set(("game", "winners"), [1]),
    "game status": _set(("game", "status"), "finished"),
    "game rounds_played": _add(("game", "rounds_played"), 1),
    # A changed entry.
    "entry total": _add(("rounds", 1, "entry", "hands", 3, "total"), 1),
    "entry card": _set(("rounds", 0, "entry", "hands", 2, "cards"), ["QH", "JK"]),
    "entry caller": _other_caller,
    "entry over call limit": _set(("rounds", 0, "entry", "hands", 0, "total"), 9),
    "entry total as string": _set(("rounds", 1, "entry", "hands", 3, "total"), "40"),
    "entry unknown player": _set(("rounds", 1, "entry", "hands", 0, "player"), 999_999),
    "entry hands not a list": _set(("rounds", 1, "entry", "hands"), "none"),
    "options": _set(("game", "options", "caller_penalty"), 30),
    "setup starter": _set(("game", "setup", "starter"), 0),
    "setup out of range": _set(("game", "setup", "dealer"), 9),
    # A wrong format or version.
    "format": _set(("format",), "scorekeeper.games"),
    "version 2": _set(("version",), 2),
    "version as string": _set(("version",), "1"),
    # A missing field.
    "no format": _delete(("format",)),
    "no version": _delete(("version",)),
    "no game": _delete(("game",)),
    "no rounds": _delete(("rounds",)),
    "no setup": _delete(("game", "setup")),
    "no setup dealer": _delete(("game", "setup", "dealer")),
    "no ruleset": _delete(("game", "ruleset")),
    "no options": _delete(("game", "options")),
    "no players": _delete(("game", "players")),
    "no player name": _delete(("game", "players", 1, "name")),
    "no player id": _delete(("game", "players", 1, "id")),
    "no player score": _delete(("game", "players", 1, "score")),
    "no entry": _delete(("rounds", 1, "entry")),
    "no round": _delete(("rounds", 1, "round")),
    "no round number": _delete(("rounds", 1, "number")),
    "no entry caller": _delete(("rounds", 1, "entry", "caller")),
    "no results": _delete(("rounds", 1, "round", "results")),
    # A round number gap, or rounds out of order.
    "gap: round 2 left out": _delete(("rounds", 1)),
    "gap: round 3 numbered 4": _set(("rounds", 2, "number"), 4),
    "round 1 numbered 0": _set(("rounds", 0, "number"), 0),
    "rounds swapped": _swap_rounds,
    "last round left out": _delete(("rounds", 2)),
}


def test_import_keeps_when_the_game_and_each_round_were_played(client, table):
    play_finished(table)
    document = table.export()
    document["game"]["created_at"] = "2025-12-31T20:00:00Z"
    for number, round_ in enumerate(document["rounds"], start=1):
        round_["round"]["created_at"] = f"2025-12-31T20:0{number}:00+00:00"
    del document["rounds"][2]["round"]["created_at"]  # none given: the time of the import

    response = import_document(client, document)

    assert response.status_code == 201, response.json
    imported = client.get(f"/api/v1/games/{response.json['id']}/export").json
    assert imported["game"]["created_at"] == "2025-12-31T20:00:00Z"
    times = [round_["round"]["created_at"] for round_ in imported["rounds"]]
    assert times[:2] == ["2025-12-31T20:01:00Z", "2025-12-31T20:02:00Z"]
    assert times[2] >= imported["game"]["updated_at"]  # the import's own time


@pytest.mark.parametrize(
    "where",
    [("game", "created_at"), ("rounds", 1, "round", "created_at")],
    ids=["game", "round 2"],
)
@pytest.mark.parametrize(
    "value",
    ["yesterday", "2025-12-31T20:00:00", 1767211200, "0001-01-01T00:00:00+01:00"],
    ids=["words", "no time zone", "a number", "before year 1 in UTC"],
)
def test_import_with_a_time_that_is_not_one_is_422_and_creates_nothing(
    app, client, table, where, value
):
    play_finished(table)
    document = table.export()
    _set(where, value)(document)
    before = row_counts(app)

    response = import_document(client, document)

    assert response.status_code == 422, response.json
    assert response.json["error"]["code"] == "invalid_import"
    assert "created_at" in response.json["error"]["message"]
    assert row_counts(app) == before


@pytest.mark.parametrize(
    "value",
    [
        "20261202T161833Z",
        "2026-W49-3T16:18:33Z",
        "2026-12-02T16:18:33Z\x00",
        "2026-12-02T16:\x0018:33Z",
        "2026-12-02 16:18:33Z",
        "2026-12-02T16:18Z",
        "2026-12-02T16:18:33+0545",
        "+2026-12-02T16:18:33Z",
        "2026-12-32T16:18:33Z",
    ],
    ids=[
        "basic format",
        "week date",
        "NUL after",
        "NUL inside",
        "a space for T",
        "no seconds",
        "offset without a colon",
        "a sign",
        "no such day",
    ],
)
@pytest.mark.parametrize(
    "where",
    [("game", "created_at"), ("game", "updated_at"), ("rounds", 1, "round", "created_at")],
    ids=["game", "last changed", "round 2"],
)
def test_import_takes_rfc_3339_times_only(app, client, table, where, value):
    play_finished(table)
    document = table.export()
    _set(where, value)(document)
    before = row_counts(app)

    response = import_document(client, document)

    assert response.status_code == 422, response.json
    assert response.json["error"]["code"] == "invalid_import"
    assert response.json["error"]["message"].endswith(
        f"has a {where[-1]} that is not a time like 2026-11-30T18:05:00Z."
    )
    assert row_counts(app) == before


def test_import_takes_a_lower_case_t_and_z(client, table):
    play_finished(table)
    document = table.export()
    document["game"]["created_at"] = "2026-01-01t20:00:00z"
    for number, round_ in enumerate(document["rounds"], start=1):
        round_["round"]["created_at"] = f"2026-01-01t20:0{number}:00.5z"

    response = import_document(client, document)

    assert response.status_code == 201, response.json
    imported = client.get(f"/api/v1/games/{response.json['id']}/export").json
    assert imported["game"]["created_at"] == "2026-01-01T20:00:00Z"
    assert imported["rounds"][0]["round"]["created_at"] == "2026-01-01T20:01:00Z"


def _in(days: float) -> str:
    moment = datetime.now(UTC) + timedelta(days=days)
    return moment.replace(microsecond=0).isoformat().replace("+00:00", "Z")


@pytest.mark.parametrize(
    ("times", "message"),
    [
        (
            {"updated_at": "2999-01-01T00:00:00Z"},
            "The export's game has a time, updated_at, more than a day from now.",
        ),
        (
            {"created_at": _in(2), "updated_at": _in(2)},
            "The export's game has a time, created_at, more than a day from now.",
        ),
        (
            {"round 3": _in(1.5)},
            "Round 3 of the export has a time, created_at, more than a day from now.",
        ),
        (
            {"created_at": "2026-01-01T20:00:00Z", "updated_at": "2026-01-01T19:59:59Z"},
            "The export's game was last changed (its updated_at) before round 3 was played.",
        ),
        (
            {"updated_at": "0001-01-01T00:00:00Z"},
            "The export's game was last changed (its updated_at) before round 3 was played.",
        ),
        (
            {
                "created_at": "2026-01-01T20:00:00Z",
                "updated_at": "2026-01-01T19:00:00Z",
                "no rounds' times": True,
            },
            "The export's game was last changed (its updated_at) before it was created.",
        ),
    ],
    ids=[
        "last changed in 2999",
        "created in two days",
        "a round in a day and a half",
        "last changed before its last round",
        "last changed in year 1",
        "last changed before it was created",
    ],
)
def test_import_times_hold_together_and_are_not_far_ahead(app, client, table, times, message):
    play_finished(table)
    document = table.export()
    if "created_at" in times:
        document["game"]["created_at"] = times["created_at"]
        for round_ in document["rounds"]:
            round_["round"]["created_at"] = times["created_at"]
    if "round 3" in times:
        document["rounds"][2]["round"]["created_at"] = times["round 3"]
    if times.get("no rounds' times"):
        for round_ in document["rounds"]:
            del round_["round"]["created_at"]
    if "updated_at" in times:
        document["game"]["updated_at"] = times["updated_at"]
    before = row_counts(app)

    response = import_document(client, document)

    assert response.status_code == 422, response.json
    assert response.json["error"] == {"status": 422, "code": "invalid_import", "message": message}
    assert row_counts(app) == before


def test_import_takes_times_less_than_a_day_ahead(client, table):
    play_finished(table)
    document = table.export()
    for round_ in document["rounds"]:
        round_["round"]["created_at"] = _in(0.5)
    document["game"]["updated_at"] = _in(0.9)

    assert import_document(client, document).status_code == 201


def test_an_export_from_before_an_option_existed_imports_with_its_default(client, table):
    play_finished(table)
    document = table.export()
    del document["game"]["options"]["next_starter"]  # exports made before the option

    response = import_document(client, document)

    assert response.status_code == 201, response.json
    assert response.json["options"]["next_starter"] == "lowest_hand"


def test_import_keeps_when_the_game_last_changed(client, table):
    play_finished(table)
    document = table.export()
    document["game"]["created_at"] = "2026-01-01T20:00:00Z"
    for number, round_ in enumerate(document["rounds"], start=1):
        round_["round"]["created_at"] = f"2026-01-01T20:0{number}:00Z"
    document["game"]["updated_at"] = "2026-01-01T23:59:00Z"

    response = import_document(client, document)

    assert response.status_code == 201, response.json
    assert response.json["updated_at"] == "2026-01-01T23:59:00Z"
    imported = client.get(f"/api/v1/games/{response.json['id']}").json
    assert imported["updated_at"] == "2026-01-01T23:59:00Z"


@pytest.mark.parametrize(
    ("times", "message"),
    [
        (
            ("2026-01-01T20:00:00Z", "2025-12-31T23:00:00Z", None, None),
            "Round 1 of the export was played before the game was created.",
        ),
        (
            ("2026-01-01T20:00:00Z", "2026-01-01T20:10:00Z", "2026-01-01T20:05:00Z", None),
            "Round 2 of the export was played before round 1.",
        ),
        (
            ("2026-01-01T20:00:00Z", "2026-01-01T20:10:00Z", None, "2026-01-01T20:09:59Z"),
            "Round 3 of the export was played before round 1.",
        ),
    ],
    ids=["round before the game", "round before the one before", "skipping a round without"],
)
def test_import_with_rounds_out_of_time_order_is_422_and_creates_nothing(
    app, client, table, times, message
):
    play_finished(table)
    document = table.export()
    game_time, *round_times = times
    document["game"]["created_at"] = game_time
    for round_, time in zip(document["rounds"], round_times, strict=True):
        if time is None:
            del round_["round"]["created_at"]
        else:
            round_["round"]["created_at"] = time
    before = row_counts(app)

    response = import_document(client, document)

    assert response.status_code == 422, response.json
    assert response.json["error"] == {"status": 422, "code": "invalid_import", "message": message}
    assert row_counts(app) == before


def test_import_takes_rounds_played_in_the_same_second(client, table):
    play_finished(table)
    document = table.export()
    document["game"]["created_at"] = "2026-01-01T20:00:00Z"
    for round_ in document["rounds"]:
        round_["round"]["created_at"] = "2026-01-01T20:00:00Z"

    assert import_document(client, document).status_code == 201


@pytest.mark.parametrize("tampering", list(TAMPERINGS), ids=list(TAMPERINGS))
def test_tampered_export_is_422_and_creates_nothing(app, client, table, tampering):
    play_in_progress(table)
    document = table.export()
    assert import_document(client, copy.deepcopy(document)).status_code == 201  # untouched: fine
    before = row_counts(app)
    TAMPERINGS[tampering](document)

    response = import_document(client, document)

    assert response.status_code == 422, response.json
    error = response.json["error"]
    assert error["status"] == 422
    assert error["code"].startswith("invalid_")
    assert error["message"]
    assert row_counts(app) == before


def _player(index: int, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return _set(("game", "players", index, key), value)


# Players and names an export could not have been made with: a game created with them
# would be a 422, so the import must be too (not a 201, and not a 500).
INVALID_SETUPS: dict[str, Callable[[dict[str, Any]], None]] = {
    "player name over 40 characters": _player(1, "name", "B" * 41),
    "player names equal ignoring case": _player(1, "name", "ASHA"),
    "blank player name": _player(1, "name", "   "),
    "player name not a string": _player(1, "name", 5),
    "game name over 80 characters": _set(("game", "name"), "G" * 81),
    "seat not a number": _player(1, "seat", "one"),
}


@pytest.mark.parametrize("tampering", list(INVALID_SETUPS), ids=list(INVALID_SETUPS))
def test_export_with_players_a_game_cannot_have_is_422_and_creates_nothing(
    app, client, table, tampering
):
    play_in_progress(table)
    document = table.export()
    before = row_counts(app)
    INVALID_SETUPS[tampering](document)

    response = import_document(client, document)

    assert response.status_code == 422, response.json
    assert response.json["error"]["code"].startswith("invalid_")
    assert row_counts(app) == before


@pytest.mark.parametrize(
    "body",
    [[], "scorekeeper.game", 1, None],
    ids=["list", "string", "number", "null"],
)
def test_import_of_a_non_object_is_422_and_creates_nothing(app, client, body):
    before = row_counts(app)
    response = client.post(IMPORT, data=json.dumps(body), content_type="application/json")
    assert response.status_code == 422, response.json
    assert row_counts(app) == before


# Retries


def test_idempotent_retry_replays_the_first_answer_and_records_once(app, client, table):
    table.create()
    entry = {"number": 1, **table.jhyap_entry(2, [17, ["KH", "JK", "4S"], 3])}

    first = table.post_round(entry, **{"Idempotency-Key": "round-1-abc"})
    second = table.post_round(entry, **{"Idempotency-Key": "round-1-abc"})

    assert first.status_code == 201, first.json
    assert second.status_code == first.status_code
    assert second.json == first.json
    assert second.get_data() == first.get_data()
    assert second.headers["Location"] == first.headers["Location"]
    assert table.get()["rounds_played"] == 1
    assert len(client.get(f"{table.url}/rounds").json["rounds"]) == 1
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(RequestKey)) == 1

    # The same key with a different body is a 422, and records nothing.
    changed = {"number": 2, **table.jhyap_entry(2, [10, 10, 3])}
    refused = table.post_round(changed, **{"Idempotency-Key": "round-1-abc"})
    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["code"].startswith("invalid_")
    assert table.get()["rounds_played"] == 1

    # Later rounds are recorded; the replay still answers round 1 as it was first answered,
    # though its "number" (1) is now stale.
    assert table.post_round(changed).status_code == 201
    third = table.jhyap(0, 2, 30, 9)
    assert third["number"] == 3
    replay = table.post_round(entry, **{"Idempotency-Key": "round-1-abc"})
    assert replay.status_code == 201, replay.json
    assert replay.json == first.json
    assert replay.headers["Location"] == first.headers["Location"]
    assert table.get()["rounds_played"] == 3

    # A new key records a new round.
    fresh = table.post_round(table.jhyap_entry(1, [8, 1, 7]), **{"Idempotency-Key": "round-4"})
    assert fresh.status_code == 201, fresh.json
    assert fresh.json["number"] == 4


def test_a_clash_in_the_database_is_a_409_to_retry_and_a_finished_game_one_that_stands(
    app, client, table, monkeypatch
):
    """Only a 409 with Retry-After is worth resending; the phone's outbox goes by it."""
    table.create(players=["Asha", "Bikash"], elimination_limit=10, halve_at=[])
    entry = table.jhyap_entry(0, [1, 9])
    clash = sa.exc.IntegrityError("INSERT INTO rounds", {}, Exception("duplicate key"))

    def clashing(*args: Any, **kwargs: Any) -> Any:
        raise clash

    with monkeypatch.context() as patched:
        patched.setattr(rounds, "_play_next", clashing)
        busy = table.post_round(entry, **{"Idempotency-Key": "busy-1"})
    assert busy.status_code == 409, busy.json
    assert busy.headers["Retry-After"] == "1"
    assert table.get()["rounds_played"] == 0
    assert table.post_round(entry, **{"Idempotency-Key": "busy-1"}).status_code == 201

    table.jhyap(0, 1, 11)  # Bikash is out: the game is over
    over = table.post_round(entry)
    assert over.status_code == 409, over.json
    assert "Retry-After" not in over.headers


def test_a_number_taken_by_the_round_that_ended_the_game_is_named_as_taken(table):
    """Two phones send round 1; the first ends the game. The second is told the number is taken
    (so the phone can show both rounds), not only that the game is over, and nothing changes."""
    table.create(players=["Asha", "Bikash"], elimination_limit=10, halve_at=[])
    table.jhyap(0, 1, 11)  # round 1, from the first phone: Bikash is out, the game is over
    before = table.get()
    taken = table.post_round({**table.jhyap_entry(0, [1, 9]), "number": 1})
    assert taken.status_code == 409, taken.json
    assert taken.json["error"]["details"] == {"number": ["The next round is 2."]}
    assert "Retry-After" not in taken.headers
    assert table.get() == before
    # Sent as the next number, it is refused because the game is over.
    over = table.post_round({**table.jhyap_entry(0, [1, 9]), "number": 2})
    assert over.status_code == 409 and "over" in over.json["error"]["message"]
    assert table.get() == before


def test_idempotency_key_ignores_key_order_and_spacing_of_the_same_body(client, table):
    table.create()
    entry = table.jhyap_entry(2, [17, 14, 3])
    headers = {**table.auth, "Idempotency-Key": "k1"}
    url = f"{table.url}/rounds"
    compact = json.dumps(entry)
    reordered = json.dumps(dict(reversed(list(entry.items()))), indent=2)
    first = client.post(url, data=compact, content_type="application/json", headers=headers)
    second = client.post(url, data=reordered, content_type="application/json", headers=headers)
    assert first.status_code == second.status_code == 201
    assert second.json == first.json
    assert table.get()["rounds_played"] == 1


# Change or delete a game


def test_patch_renames_the_game_and_a_player(client, table):
    table.create()
    table.jhyap(2, 17, 14, 3)
    ids = table.players
    before = table.get()

    response = client.patch(
        table.url,
        json={"name": "Saturday table", "players": [{"id": ids[1], "name": "  Bikash K. "}]},
        headers=table.auth,
    )

    assert response.status_code == 200, response.json
    game = response.json
    assert game["name"] == "Saturday table"
    assert [p["name"] for p in game["players"]] == ["Asha", "Bikash K.", "Chandra"]
    assert table.get() == game
    # Seats, scores, options and rounds are untouched.
    assert [(p["id"], p["seat"], p["score"]) for p in game["players"]] == [
        (p["id"], p["seat"], p["score"]) for p in before["players"]
    ]
    assert {k: v for k, v in game.items() if k not in {"name", "players", "updated_at"}} == {
        k: v for k, v in before.items() if k not in {"name", "players", "updated_at"}
    }
    # The round refers to the player by id; the export shows the new names.
    assert table.export()["game"]["players"][1]["name"] == "Bikash K."


@pytest.mark.parametrize(
    "patch",
    [
        pytest.param(
            lambda ids: {"players": [{"id": ids[1], "name": "asha"}]}, id="duplicate name"
        ),
        pytest.param(
            lambda ids: {"name": "New", "players": [{"id": ids[2], "name": "BIKASH"}]},
            id="duplicate name with a game rename",
        ),
        pytest.param(
            lambda ids: {"players": [{"id": 999_999, "name": "Zed"}]}, id="unknown player id"
        ),
        pytest.param(lambda ids: {"players": [{"id": ids[0], "name": "   "}]}, id="blank name"),
        pytest.param(lambda ids: {"options": {"call_limit": 7}}, id="options"),
        pytest.param(
            lambda ids: {"players": [{"id": ids[0], "name": "Asha", "seat": 2}]}, id="seat"
        ),
        pytest.param(
            lambda ids: {"players": [{"id": ids[0], "name": "Ann"}, {"id": ids[0], "name": "An"}]},
            id="one player twice",
        ),
        pytest.param(
            lambda ids: {"players": [{"id": ids[1], "name": "\uff21\uff53\uff48\uff41"}]},
            id="fullwidth look-alike",
        ),
    ],
)
def test_patch_that_is_invalid_is_422_and_changes_nothing(client, table, patch):
    table.create()
    table.jhyap(2, 17, 14, 3)
    before = table.get()

    response = client.patch(table.url, json=patch(table.players), headers=table.auth)

    assert response.status_code == 422, response.json
    assert response.json["error"]["status"] == 422
    assert table.get() == before


def test_patch_listing_a_player_twice_says_so(client, table):
    table.create()
    ids = table.players
    twice = {"players": [{"id": ids[0], "name": "Ann"}, {"id": ids[0], "name": "Anna"}]}

    response = client.patch(table.url, json=twice, headers=table.auth)

    assert response.json["error"] == {
        "status": 422,
        "code": "invalid_request",
        "message": f"The list of players has player {ids[0]} twice; "
        "give each player's new name once.",
        "details": {"players": [f"Has player {ids[0]} twice; give each player's new name once."]},
    }


@pytest.mark.parametrize(
    "patch",
    [
        pytest.param(lambda ids: {}, id="empty"),
        pytest.param(lambda ids: {"name": "Test table"}, id="same game name"),
        pytest.param(lambda ids: {"name": " Test table  "}, id="same name, spaced"),
        pytest.param(lambda ids: {"players": [{"id": ids[0], "name": "Asha"}]}, id="same player"),
    ],
)
def test_patch_that_changes_nothing_keeps_the_etag(client, table, patch):
    table.create()
    table.jhyap(2, 17, 14, 3)
    before = client.get(table.url)

    response = client.patch(table.url, json=patch(table.players), headers=table.auth)

    assert response.status_code == 200, response.json
    after = client.get(table.url)
    assert after.headers["ETag"] == before.headers["ETag"]
    assert after.json == before.json
    unchanged = client.get(table.url, headers={"If-None-Match": before.headers["ETag"]})
    assert unchanged.status_code == 304


def test_patch_that_changes_a_name_changes_the_etag(client, table):
    table.create()
    before = client.get(table.url).headers["ETag"]

    client.patch(table.url, json={"name": "Saturday"}, headers=table.auth)

    assert client.get(table.url).headers["ETag"] != before


def test_delete_game_removes_it_and_its_rounds(app, client, table):
    table.create()
    table.jhyap(2, 17, 14, 3)
    other = GameClient(client)
    other.create()
    before = row_counts(app)

    response = client.delete(table.url, headers=table.auth)

    assert response.status_code == 204
    assert response.get_data() == b""
    for path in ("", "/rounds", "/rounds/1", "/export"):
        missing = client.get(f"{table.url}{path}")
        assert missing.status_code == 404
        assert missing.json["error"]["code"] == "not_found"
    assert row_counts(app) == (before[0] - 1, before[1] - 3, before[2] - 1)
    with app.app_context():
        left = select(func.count()).select_from(Round).where(Round.game_id == table.id)
        assert db.session.scalar(left) == 0
    assert other.get()["id"] == other.id
    assert client.delete(table.url, headers=table.auth).status_code == 404


# Other


def test_rulesets_lists_both_with_options_and_defaults(client):
    response = client.get("/api/v1/rulesets")
    assert response.status_code == 200
    rulesets = {ruleset["name"]: ruleset for ruleset in response.json["rulesets"]}
    assert list(rulesets) == ["jhyap", "twenty-two", "hearts", "score-pad"]

    jhyap = rulesets["jhyap"]
    assert (jhyap["min_players"], jhyap["max_players"]) == (2, 5)
    defaults = {name: option["default"] for name, option in jhyap["options"].items()}
    assert defaults == {
        "call_limit": 5,
        "caller_penalty": 30,
        "caller_tie": "caller_wins",
        "elimination_limit": 200,
        "halve_at": [100, 200],
        "decks": 1,
        "next_starter": "lowest_hand",
    }
    options = jhyap["options"]
    assert options["call_limit"]["allowed"]["minimum"] == 0
    assert options["call_limit"]["allowed"]["maximum"] == 50
    assert options["caller_penalty"]["allowed"]["maximum"] == 1000
    assert options["elimination_limit"]["allowed"]["maximum"] == 10000
    assert options["caller_tie"]["allowed"]["choices"] == ["caller_wins", "caller_loses"]
    assert options["decks"]["allowed"]["minimum"] == 1
    assert options["decks"]["allowed"]["maximum"] == 2
    assert options["next_starter"]["allowed"] == {
        "type": "choice",
        "choices": ["lowest_hand", "round_winner"],
    }

    twenty_two = rulesets["twenty-two"]
    assert (twenty_two["min_players"], twenty_two["max_players"]) == (2, 6)
    defaults = {name: option["default"] for name, option in twenty_two["options"].items()}
    assert defaults == {"elimination_limit": 22, "first_deal": 7, "tie_scores": "tied"}
    assert twenty_two["options"]["tie_scores"]["allowed"]["choices"] == ["tied", "all"]
    assert twenty_two["options"]["elimination_limit"]["allowed"]["maximum"] == 1000


def test_health(client):
    response = client.get("/api/v1/health")
    assert response.status_code == 200
    assert response.json == {"status": "ok"}
