"""Correcting and undoing rounds, dry runs and ETags through the HTTP API (api.md).

Acceptance: correcting round 2 of a 10-round game rescored from the entries
matches a fresh game recorded with the corrected round; a correction that
would make a later round invalid is a 409 (naming the round and player) and
changes nothing (export byte-identical); undo of the last round restores the
previous state exactly (GET game equal to the GET before that round except
updated_at), including a finished game back to in_progress.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GameClient

PLAYERS = ("Asha", "Bikash", "Chandra", "Dipa")
A, B, C, D = range(4)
ID_KEYS = frozenset({"player", "dealer", "starter", "caller"})

# A 10-round game with the default options (caller seat, hand totals by seat).
# Nobody comes near 200, so every round fits both before and after the correction.
TEN_ROUNDS: list[tuple[int, list[int]]] = [
    (B, [20, 2, 15, 30]),
    (C, [20, 10, 1, 12]),  # round 2, corrected below
    (D, [25, 20, 18, 3]),
    (A, [2, 15, 22, 30]),
    (B, [25, 1, 10, 10]),
    (C, [12, 8, 0, 9]),
    (A, [4, 11, 6, 25]),
    (D, [30, 17, 12, 5]),
    (B, [9, 3, 40, 7]),
    (C, [14, 22, 2, 18]),
]
# The correction: Asha held 30, not 20, and Dipa 0, not 12. Chandra's call (1) now
# fails against Dipa's 0, round 3 is started by Dipa (lowest hand) instead of Chandra,
# and Asha reaches exactly 100 in round 5 (20+30+25+0+25) and is halved to 50.
CORRECTED_ROUND_2: tuple[int, list[int]] = (C, [30, 10, 1, 0])


def by_seat(value: Any, seat_of: dict[int, int], key: str | None = None) -> Any:
    """``value`` with player ids replaced by seats and ids and timestamps left out."""
    if isinstance(value, dict):
        return {
            k: by_seat(v, seat_of, k)
            for k, v in value.items()
            if k not in {"created_at", "updated_at"} and not (k == "id" and "ruleset" in value)
        }
    if isinstance(value, list):
        if key == "players":
            return [{**by_seat(p, seat_of), "id": seat_of[p["id"]]} for p in value]
        if key == "winners":
            return [seat_of[player_id] for player_id in value]
        return [by_seat(item, seat_of, key) for item in value]
    if key in ID_KEYS and isinstance(value, int):
        return seat_of[value]
    return value


def seats(table: GameClient) -> dict[int, int]:
    """Player id -> seat."""
    return {player_id: seat for seat, player_id in enumerate(table.players)}


def rounds(table: GameClient) -> list[dict[str, Any]]:
    """Every round of the game, in order."""
    response = table.client.get(f"{table.url}/rounds")
    assert response.status_code == 200, response.json
    return response.json["rounds"]


def put_round(table: GameClient, number: int, entry: dict[str, Any], query: str = "") -> Any:
    """PUT a corrected entry for round ``number``."""
    return table.client.put(f"{table.url}/rounds/{number}{query}", json=entry, headers=table.auth)


def delete_round(table: GameClient, number: int) -> Any:
    """DELETE (undo) round ``number``."""
    return table.client.delete(f"{table.url}/rounds/{number}", headers=table.auth)


def without_updated_at(game: dict[str, Any]) -> dict[str, Any]:
    """The Game with ``updated_at`` left out."""
    return {key: value for key, value in game.items() if key != "updated_at"}


def play_quick_finish(table: GameClient) -> list[dict[str, Any]]:
    """Three players, elimination_limit 10, no halving; finished after round 2; return GETs.

    Round 1: C calls with 1, A 4, B 11 -> B eliminated (11 > 10); A 4, C 0.
    Round 2: A calls with 2, C 7 -> C 7; next would be round 3.
    Round 3: C calls with 3, A 7 -> A 11, eliminated; C wins alone.
    Returns the GET game before each round and after the last.
    """
    table.create(players=PLAYERS[:3], dealer=A, starter=B, elimination_limit=10, halve_at=[])
    gets = [table.get()]
    for caller, totals in [(C, [4, 11, 1]), (A, [2, None, 7]), (C, [7, None, 3])]:
        table.jhyap(caller, *totals)
        gets.append(table.get())
    assert gets[-1]["status"] == "finished"
    assert gets[-1]["winners"] == [table.players[C]]
    return gets


# Corrections


def test_correcting_round_2_of_10_matches_a_fresh_game_with_the_corrected_round(client):
    corrected = GameClient(client)
    corrected.create(players=PLAYERS, dealer=A, starter=B)
    for caller, totals in TEN_ROUNDS:
        corrected.jhyap(caller, *totals)
    original_game = corrected.get()
    original_rounds = rounds(corrected)

    entry = corrected.jhyap_entry(*CORRECTED_ROUND_2)
    response = put_round(corrected, 2, entry)
    assert response.status_code == 200, response.json
    answered = response.json

    fresh = GameClient(client)
    fresh.create(players=PLAYERS, dealer=A, starter=B)
    for number, (caller, totals) in enumerate(TEN_ROUNDS, start=1):
        if number == 2:
            caller, totals = CORRECTED_ROUND_2
        fresh.jhyap(caller, *totals)

    # Rescored from the stored entries: every round and the game equal the fresh game's
    # (player ids mapped to seats; ids and timestamps left out).
    assert by_seat(rounds(corrected), seats(corrected)) == by_seat(rounds(fresh), seats(fresh))
    # ...but for the history's revision, which the correction raised (phones read it again).
    assert by_seat(corrected.get(), seats(corrected)) == {
        **by_seat(fresh.get(), seats(fresh)),
        "history_revision": 1,
    }
    assert by_seat(answered, seats(corrected)) == by_seat(rounds(fresh)[1], seats(fresh))
    assert answered == rounds(corrected)[1]

    # The correction did change things, as worked out by hand.
    assert answered["caller_succeeded"] is False  # Chandra's 1 beaten by Dipa's 0
    assert [r["points"] for r in answered["results"]] == [30, 10, 31, 0]
    ids = corrected.players
    assert answered["game"]["next_round"] == {"number": 3, "dealer": ids[C], "starter": ids[D]}
    assert original_rounds[1]["game"]["next_round"]["starter"] == ids[C]
    round_5 = rounds(corrected)[4]["results"][A]
    assert (round_5["score_before"], round_5["score_after"], round_5["halved"]) == (75, 50, True)
    assert original_rounds[4]["results"][A]["halved"] is False
    assert corrected.scores() != [p["score"] for p in original_game["players"]]
    # Round numbers, count and creation times are kept; the export has the corrected entry.
    created = [r["created_at"] for r in rounds(corrected)]
    assert created == [r["created_at"] for r in original_rounds]
    assert corrected.export()["rounds"][1]["entry"] == entry


@pytest.mark.parametrize(
    ("round_1", "round_2", "correction", "problem"),
    [
        # The correction eliminates Bikash in round 1 (31 > 30); round 2 lists him.
        ((A, [1, 20, 10]), (A, [0, 5, 8]), (A, [1, 31, 10]), "eliminated"),
        # The correction keeps Bikash in; round 2 has no hand for him.
        ((A, [1, 31, 10]), (A, [0, None, 8]), (A, [1, 20, 10]), "missing"),
    ],
)
def test_correction_that_breaks_a_later_round_is_409_and_changes_nothing(
    table, round_1, round_2, correction, problem
):
    table.create(players=PLAYERS[:3], dealer=A, starter=B, elimination_limit=30, halve_at=[])
    table.jhyap(round_1[0], *round_1[1])
    table.jhyap(round_2[0], *round_2[1])
    before_export = table.export_bytes()
    before_game = table.get()
    before_etag = table.client.get(table.url).headers["ETag"]

    response = put_round(table, 1, table.jhyap_entry(*correction))

    assert response.status_code == 409, response.json
    error = response.json["error"]
    assert error["status"] == 409
    assert error["code"] == "conflict"
    assert "Round 2" in error["message"]
    assert "Bikash" in error["message"]
    assert problem in error["message"]
    assert error["details"]["round"] == 2
    assert table.export_bytes() == before_export
    assert table.get() == before_game
    assert table.client.get(table.url).headers["ETag"] == before_etag
    # The dry run of the same correction is refused the same way.
    dry = put_round(table, 1, table.jhyap_entry(*correction), "?dry_run=true")
    assert dry.status_code == 409, dry.json
    assert table.export_bytes() == before_export


def test_put_dry_run_answers_the_scored_round_and_changes_nothing(table):
    table.create(players=PLAYERS, dealer=A, starter=B)
    for caller, totals in TEN_ROUNDS[:3]:
        table.jhyap(caller, *totals)
    before_export = table.export_bytes()
    before_game = table.get()
    entry = table.jhyap_entry(*CORRECTED_ROUND_2)

    dry = put_round(table, 2, entry, "?dry_run=true")

    assert dry.status_code == 200, dry.json
    assert dry.json["dry_run"] is True
    assert dry.json["number"] == 2
    assert [r["points"] for r in dry.json["results"]] == [30, 10, 31, 0]
    assert dry.json["caller_succeeded"] is False
    assert table.export_bytes() == before_export
    assert table.get() == before_game

    real = put_round(table, 2, entry)
    assert real.status_code == 200, real.json
    assert "dry_run" not in real.json
    strip = {"dry_run", "rescored", "created_at"}
    assert {k: v for k, v in real.json.items() if k not in strip} == {
        k: v for k, v in dry.json.items() if k not in strip
    }
    assert table.export_bytes() != before_export


def test_put_checks_its_round_number_and_body(table):
    table.create(players=PLAYERS[:3])
    table.jhyap(C, 17, 14, 3)
    before = table.export_bytes()
    assert put_round(table, 2, table.jhyap_entry(C, [17, 14, 3])).status_code == 404
    with_number = {"number": 1, **table.jhyap_entry(C, [17, 14, 3])}
    assert put_round(table, 1, with_number).status_code == 422
    assert table.export_bytes() == before


def test_correcting_a_finished_game_can_reopen_it(table):
    gets = play_quick_finish(table)
    # Round 3 corrected: Asha held 5, not 7; 4+5 = 9 <= 10, nobody is eliminated.
    # Next dealer: after A comes B, eliminated, so C; next starter C (hand 3 < 5).
    response = put_round(table, 3, table.jhyap_entry(C, [5, None, 3]))
    assert response.status_code == 200, response.json
    ids = table.players
    assert response.json["game"] == {
        "status": "in_progress",
        "next_round": {"number": 4, "dealer": ids[C], "starter": ids[C]},
        "winners": [],
    }
    game = table.get()
    assert game["status"] == "in_progress"
    assert game["winners"] == []
    assert [p["score"] for p in game["players"]] == [9, 11, 7]
    assert gets[-1]["status"] == "finished"


# Dry run of a new round


def test_post_dry_run_answers_the_scored_round_and_records_nothing(table):
    table.create()
    before = table.get()
    entry = table.jhyap_entry(2, [17, ["KH", "JK", "4S"], 3])

    dry = table.client.post(f"{table.url}/rounds?dry_run=true", json=entry, headers=table.auth)

    assert dry.status_code == 200, dry.json
    assert dry.json["dry_run"] is True
    assert "Location" not in dry.headers
    assert dry.json["number"] == 1
    assert dry.json["caller_succeeded"] is True
    assert [r["score_after"] for r in dry.json["results"]] == [17, 14, 0]
    assert table.get() == before
    assert rounds(table) == []
    assert table.client.get(f"{table.url}/rounds/1").status_code == 404

    real = table.post_round(entry)
    assert real.status_code == 201, real.json
    assert real.headers["Location"].endswith(f"{table.url}/rounds/1")
    strip = {"dry_run", "created_at"}
    assert {k: v for k, v in real.json.items() if k not in strip} == {
        k: v for k, v in dry.json.items() if k not in strip
    }


# Undo


def test_undo_of_the_last_round_restores_the_previous_state_exactly(table):
    table.create(players=PLAYERS, dealer=A, starter=B)
    for caller, totals in TEN_ROUNDS[:4]:
        table.jhyap(caller, *totals)
    before_game = table.get()
    before_rounds = rounds(table)
    before_export = table.export()

    caller, totals = TEN_ROUNDS[4]
    round_5 = table.jhyap(caller, *totals)
    assert table.get()["rounds_played"] == 5

    # Only the last round can be undone; a round that was never played is a 404.
    assert delete_round(table, 4).status_code == 409
    assert delete_round(table, 6).status_code == 404
    response = delete_round(table, 5)
    assert response.status_code == 204
    assert response.get_data() == b""

    after = table.get()
    # The same state, but the history's revision is raised: watching phones read it again.
    assert without_updated_at(after) == {**without_updated_at(before_game), "history_revision": 1}
    assert rounds(table) == before_rounds
    assert table.client.get(f"{table.url}/rounds/5").status_code == 404
    export = table.export()
    assert (
        export["game"].pop("history_revision"),
        before_export["game"].pop("history_revision"),
    ) == (1, 0)
    for document in (export, before_export):
        document.pop("exported_at")
        document["game"].pop("updated_at")
    assert export == before_export

    # Recording the same entry again gives the same round 5.
    again = table.jhyap(caller, *totals)
    assert {k: v for k, v in again.items() if k != "created_at"} == {
        k: v for k, v in round_5.items() if k != "created_at"
    }


def test_undo_on_a_finished_game_reopens_it(table):
    gets = play_quick_finish(table)
    finished = gets[-1]
    assert finished["next_round"] is None

    response = delete_round(table, 3)

    assert response.status_code == 204
    after = table.get()
    assert after["status"] == "in_progress"
    assert without_updated_at(after) == {**without_updated_at(gets[2]), "history_revision": 1}
    ids = table.players
    assert after["next_round"] == {"number": 3, "dealer": ids[A], "starter": ids[A]}
    assert after["winners"] == []
    # The game takes rounds again.
    table.jhyap(C, 7, None, 3)
    assert table.get()["status"] == "finished"


# Caching


def test_etag_answers_304_until_the_game_changes(table):
    table.create()
    first = table.client.get(table.url)
    etag = first.headers["ETag"]
    assert etag

    cached = table.client.get(table.url, headers={"If-None-Match": etag})
    assert cached.status_code == 304
    assert cached.get_data() == b""
    assert cached.headers["ETag"] == etag

    table.jhyap(2, 17, 14, 3)
    after_round = table.client.get(table.url, headers={"If-None-Match": etag})
    assert after_round.status_code == 200
    assert after_round.json["rounds_played"] == 1
    etag_after_round = after_round.headers["ETag"]
    assert etag_after_round != etag
    again = table.client.get(table.url, headers={"If-None-Match": etag_after_round})
    assert again.status_code == 304

    # A correction and an undo change it too.
    assert put_round(table, 1, table.jhyap_entry(2, [17, 14, 4])).status_code == 200
    etag_after_put = table.client.get(table.url).headers["ETag"]
    assert etag_after_put not in {etag, etag_after_round}
    assert delete_round(table, 1).status_code == 204
    etag_after_undo = table.client.get(table.url).headers["ETag"]
    assert etag_after_undo not in {etag, etag_after_round, etag_after_put}
    assert table.client.get(table.url, headers={"If-None-Match": etag_after_put}).status_code == 200


def test_etag_compares_weakly_as_if_none_match_must(table):
    """A proxy that compresses may weaken the tag (W/"..."); the phone's poll still gets 304."""
    table.create()
    etag = table.client.get(table.url).headers["ETag"]
    weak = f"W/{etag}"
    for header in (weak, f'"stale", {weak}', "*"):
        cached = table.client.get(table.url, headers={"If-None-Match": header})
        assert cached.status_code == 304, header
    table.jhyap(2, 17, 14, 3)
    assert table.client.get(table.url, headers={"If-None-Match": weak}).status_code == 200


def test_dry_run_correction_shows_the_game_after_every_later_round(table, client):
    table.create()
    table.jhyap(0, 1, 5, 9)  # A calls with 1: scores 0, 5, 9
    table.jhyap(0, 1, 5, 9)  # again: 0, 10, 18
    before = table.export_bytes()
    entry = table.jhyap_entry(0, [3, 20, 9])  # A still lowest: 0, 20, 9 in round 1
    response = client.put(f"{table.url}/rounds/1?dry_run=true", json=entry, headers=table.auth)
    assert response.status_code == 200
    rescored = response.json["rescored"]
    assert rescored["rounds"] == 2
    assert rescored["changed"] == [2]  # round 2's scores move from 0, 10, 18 to 0, 25, 18
    assert [player["score"] for player in rescored["game"]["players"]] == [0, 25, 18]
    assert table.export_bytes() == before


def test_dry_run_correction_lists_no_later_round_when_their_results_stay(table, client):
    table.create()
    table.jhyap(0, 1, 5, 9)
    table.jhyap(0, 1, 5, 9)
    table.jhyap(0, 1, 5, 9)
    entry = table.jhyap_entry(0, [1, 5, 9])  # the same entry again: nothing moves

    response = client.put(f"{table.url}/rounds/2?dry_run=true", json=entry, headers=table.auth)

    assert response.json["rescored"]["rounds"] == 2
    assert response.json["rescored"]["changed"] == []
