"""How long a game can be: 10,000 rounds and seat changes, the next refused with a sentence."""

from __future__ import annotations

import secrets

import pytest

from scorekeeper.domain import rounds

from ..conftest import row_counts
from ..long_games import endless_entry, long_export


@pytest.fixture(scope="module")
def longest_export():
    """The export of a game of exactly 10,000 rounds."""
    return long_export()


def test_an_export_longer_than_the_longest_game_is_refused(client, app):
    longer = long_export(10_001)  # one round more, each of them true to its replay

    response = client.post("/api/v1/games/import", json=longer)

    assert response.status_code == 422, response.json
    assert response.json["error"]["code"] == "invalid_import"
    assert response.json["error"]["message"] == (
        "The export holds 10,001 rounds and seat changes; a game keeps at most 10,000."
    )
    assert row_counts(app) == (0, 0, 0)


def test_the_longest_game_takes_no_further_round_or_seat_change(client, app, longest_export):
    imported = client.post("/api/v1/games/import", json=longest_export)
    assert imported.status_code == 201, imported.json
    url = f"/api/v1/games/{imported.json['id']}"
    auth = {"Authorization": f"Bearer {imported.json['token']}"}
    ids = [player["id"] for player in imported.json["players"]]
    entry = {"caller": ids[0], "hands": [{"player": i, "total": 0} for i in ids]}
    before = row_counts(app)
    full = (
        "This game already holds 10,000 rounds and seat changes, the most a game keeps; "
        "start a new game to play on."
    )

    refused = [
        client.post(f"{url}/rounds", json=entry, headers=auth),
        client.post(f"{url}/rounds?dry_run=true", json=entry, headers=auth),
        client.post(f"{url}/seats", json={"join": {"name": "Dev", "after": ids[0]}}, headers=auth),
        client.post(f"{url}/seats", json={"leave": ids[2]}, headers=auth),
    ]

    assert [response.status_code for response in refused] == [409] * 4
    assert {response.json["error"]["message"] for response in refused} == {full}
    assert {response.json["error"]["code"] for response in refused} == {"conflict"}
    assert row_counts(app) == before
    # Undo makes room again; a correction of the last round is no new item.
    assert client.delete(f"{url}/rounds/10000", headers=auth).status_code == 204
    again = client.post(f"{url}/rounds", json=entry, headers=auth)
    assert again.status_code == 201, again.json
    assert again.json["number"] == 10_000
    corrected = client.put(f"{url}/rounds/10000", json=entry, headers=auth)
    assert corrected.status_code == 200, corrected.json
    assert client.get(url).json["rounds_played"] == 10_000


def test_a_correction_of_the_first_round_of_the_longest_game_scores_every_later_round(
    client, longest_export
):
    imported = client.post("/api/v1/games/import", json=longest_export).json
    url = f"/api/v1/games/{imported['id']}"
    auth = {"Authorization": f"Bearer {imported['token']}"}
    to_new = {old: new["id"] for old, new in zip((1, 2, 3), imported["players"], strict=True)}
    entry = endless_entry(others=5)
    entry = {
        "caller": to_new[entry["caller"]],
        "hands": [{**hand, "player": to_new[hand["player"]]} for hand in entry["hands"]],
    }

    corrected = client.put(f"{url}/rounds/1", json=entry, headers=auth)

    assert corrected.status_code == 200, corrected.json
    assert [result["score_after"] for result in corrected.json["results"]] == [0, 5, 5]
    last = client.get(f"{url}/rounds/10000").json
    assert [result["score_before"] for result in last["results"]] == [0, 5, 5]
    assert [player["score"] for player in client.get(url).json["players"]] == [0, 5, 5]
    exported = client.get(f"{url}/export").json
    assert exported["rounds"][0]["entry"] == entry
    assert client.post("/api/v1/games/import", json=exported).status_code == 201


def test_a_game_that_changes_while_its_correction_is_worked_out_is_replayed_again(
    client, table, monkeypatch
):
    table.create()
    for _ in range(3):
        table.jhyap(0, 0, 5, 7)
    work_out = rounds._work_out
    recorded_meanwhile = []

    def another_phone_records_a_round_meanwhile(*args, **kwargs):
        correction = work_out(*args, **kwargs)
        if not recorded_meanwhile:
            recorded_meanwhile.append(table.jhyap(0, 0, 1, 1))
        return correction

    monkeypatch.setattr(rounds, "_work_out", another_phone_records_a_round_meanwhile)
    corrected = client.put(
        f"{table.url}/rounds/1", json=table.jhyap_entry(0, [0, 9, 9]), headers=table.auth
    )

    assert corrected.status_code == 200, corrected.json
    assert [r["score_after"] for r in corrected.json["results"]] == [0, 9, 9]
    history = client.get(f"{table.url}/rounds").json["rounds"]
    assert len(history) == 4  # the round recorded meanwhile is kept, and scored again
    assert [r["score_after"] for r in history[3]["results"]] == [0, 20, 24]
    assert table.scores() == [0, 20, 24]
    assert client.post("/api/v1/games/import", json=table.export()).status_code == 201


def test_a_correction_gives_up_when_the_game_never_stops_changing(client, table, monkeypatch):
    table.create()
    table.jhyap(0, 0, 5, 7)
    work_out = rounds._work_out

    def a_rename_every_time(*args, **kwargs):
        correction = work_out(*args, **kwargs)
        renamed = client.patch(table.url, json={"name": secrets.token_hex(4)}, headers=table.auth)
        assert renamed.status_code == 200
        return correction

    monkeypatch.setattr(rounds, "_work_out", a_rename_every_time)
    before = client.get(f"{table.url}/rounds").json
    refused = client.put(
        f"{table.url}/rounds/1", json=table.jhyap_entry(0, [0, 9, 9]), headers=table.auth
    )

    assert refused.status_code == 409, refused.json
    assert refused.json["error"]["message"] == (
        "The game kept changing while this correction was worked out; send it again."
    )
    assert refused.headers["Retry-After"] == "1"
    assert client.get(f"{table.url}/rounds").json == before
