"""Tables over real HTTP, against gunicorn with several workers: an evening, and phones at once."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

pytestmark = pytest.mark.server

LONG_JHYAP = {"elimination_limit": 10000, "halve_at": []}
"""No one goes out and no score is halved, so that any number of rounds fits."""


class Http:
    """One phone's view of the server: JSON in, JSON out, every answer checked."""

    def __init__(self, base_url: str) -> None:
        self.base = f"{base_url}/api/v1"

    def call(self, method: str, path: str, status: int, token: str = "", **kwargs: Any) -> Any:
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response = requests.request(method, self.base + path, headers=headers, timeout=30, **kwargs)
        assert response.status_code == status, (method, path, response.status_code, response.text)
        return response


def hands(game: dict[str, Any], caller_seat: int, totals: list[int | None]) -> dict[str, Any]:
    """A Jhyap entry by seat; ``None`` leaves a seat out (a player who left)."""
    ids = [player["id"] for player in game["players"]]
    listed = [(ids[seat], total) for seat, total in enumerate(totals) if total is not None]
    return {"caller": ids[caller_seat], "hands": [{"player": p, "total": t} for p, t in listed]}


def new_table(http: Http, players: list[str]) -> tuple[dict[str, Any], str, dict[str, int]]:
    """A table with ``players`` on its roster: the Table, its token, roster ids by name."""
    table = http.call("POST", "/tables", 201, json={"name": "Friday crew", "players": players})
    assert table.headers["Location"] == f"/api/v1/tables/{table.json()['id']}"
    body = table.json()
    return body, body.pop("token"), {p["name"]: p["id"] for p in body["players"]}


def test_a_tables_evening_over_http(server):
    http = Http(server.url)
    table, token, roster = new_table(http, ["Asha", "Bikash", "Chandra", "Dev"])
    url = f"/tables/{table['id']}"
    first_etag = http.call("GET", url, 200).headers["ETag"]
    assert http.call("GET", url, 304, headers={"If-None-Match": first_etag}).content == b""

    setup = {
        "ruleset": "jhyap",
        "players": [roster["Asha"], roster["Bikash"], roster["Chandra"]],
        "dealer": 0,
        "starter": 1,
        "options": LONG_JHYAP,
    }
    game = http.call("POST", f"{url}/games", 201, token, json=setup).json()
    game_token = game.pop("token")
    assert game["table"] == table["id"] and game_token != token
    games = f"/games/{game['id']}"
    # The table's token records the rounds of its games.
    http.call("POST", f"{games}/rounds", 201, token, json=hands(game, 2, [17, 14, 3]))
    http.call("POST", f"{games}/rounds", 201, token, json=hands(game, 0, [1, 10, 20]))
    # Dev, on the roster, joins after Asha with the highest active total: Bikash's 14 + 10.
    join = {"join": {"player": roster["Dev"], "after": game["players"][0]["id"]}}
    joined = http.call("POST", f"{games}/seats", 201, token, json=join)
    assert joined.headers["Location"] == f"/api/v1{games}/rounds/3"
    game = joined.json()
    assert [p["name"] for p in game["players"]] == ["Asha", "Dev", "Bikash", "Chandra"]
    assert game["players"][1]["score"] == 24
    http.call("POST", f"{games}/rounds", 201, token, json=hands(game, 1, [5, 0, 4, 6]))
    # Bikash leaves, from a phone holding the game's own token.
    left = {"leave": game["players"][2]["id"], "number": 5}
    game = http.call("POST", f"{games}/seats", 201, game_token, json=left).json()
    assert [p["left"] for p in game["players"]] == [False, False, True, False]
    history = http.call("GET", f"{games}/rounds", 200).json()["rounds"]
    changes = [sorted(item.get("seat_change", {})) for item in history]
    assert changes == [[], [], ["join"], [], ["leave"]]

    rematch = http.call("POST", f"{games}/rematch", 201, token).json()
    assert rematch["table"] == table["id"] and rematch["rounds_played"] == 0
    assert [p["roster_id"] for p in rematch["players"]] == [
        roster["Asha"],
        roster["Dev"],
        roster["Chandra"],
    ]  # Bikash left; the others keep their seats

    read = http.call("GET", url, 200)
    assert read.headers["ETag"] != first_etag and read.headers["Cache-Control"] == "no-cache"
    assert http.call("GET", url, 304, headers={"If-None-Match": read.headers["ETag"]})
    standing = read.json()
    assert [g["id"] for g in standing["games"]] == [rematch["id"], game["id"]]
    played = {row["name"]: row["jhyap"]["rounds_played"] for row in standing["standings"]}
    assert played == {"Asha": 3, "Bikash": 3, "Chandra": 3, "Dev": 1}

    exported = http.call("GET", f"{url}/export", 200)
    assert "attachment" in exported.headers["Content-Disposition"]
    imported = http.call("POST", "/tables/import", 201, json=exported.json()).json()
    assert imported["id"] != table["id"] and imported["token"]
    copy = http.call("GET", f"/tables/{imported['id']}", 200).json()
    assert copy["standings"] == [
        {**row, "player": _same_player(row, copy)} for row in standing["standings"]
    ]
    assert [g["status"] for g in copy["games"]] == [g["status"] for g in standing["games"]]

    http.call("DELETE", url, 204, token)
    http.call("GET", url, 404)
    http.call("GET", games, 404)


def _same_player(row: dict[str, Any], table: dict[str, Any]) -> int:
    """The id, in ``table``, of the roster player named as in ``row``."""
    return next(p["id"] for p in table["players"] if p["name"] == row["name"])


def test_rounds_posted_at_once_to_two_games_of_a_table_all_raise_its_version(server):
    http = Http(server.url)
    names = ["Asha", "Bikash", "Chandra", "Dev", "Esha"]
    table, token, roster = new_table(http, names)
    url = f"/tables/{table['id']}"
    seatings = [["Asha", "Bikash", "Chandra"], ["Dev", "Esha"]]
    games = [
        http.call(
            "POST",
            f"{url}/games",
            201,
            token,
            json={
                "ruleset": "jhyap",
                "players": [roster[name] for name in seating],
                "dealer": 0,
                "starter": 0,
                "options": LONG_JHYAP,
            },
        ).json()
        for seating in seatings
    ]
    before = int(http.call("GET", url, 200).headers["ETag"].strip('"'))
    rounds = 12
    done = threading.Event()

    def play(game: dict[str, Any]) -> list[int]:
        """Each round in turn, with the game's own token: the caller goes round the table on 0,
        the others hold 3."""
        statuses = []
        size = len(game["players"])
        for number in range(1, rounds + 1):
            caller = (number - 1) % size
            totals = [0 if seat == caller else 3 for seat in range(size)]
            entry = {**hands(game, caller, totals), "number": number}
            response = requests.post(
                f"{http.base}/games/{game['id']}/rounds",
                json=entry,
                headers={"Authorization": f"Bearer {game['token']}"},
                timeout=30,
            )
            statuses.append(response.status_code)
        return statuses

    def watch() -> list[int]:
        """A phone polling the table: the versions it sees."""
        seen = []
        while True:  # at least once, and once more after the last write
            finished = done.is_set()
            response = requests.get(f"{http.base}{url}", timeout=30)
            assert response.status_code == 200
            seen.append(int(response.headers["ETag"].strip('"')))
            if finished:
                return seen

    with ThreadPoolExecutor(max_workers=4) as pool:
        watchers = [pool.submit(watch) for _ in range(2)]
        try:
            results = list(pool.map(play, games))
        finally:
            done.set()
        views = [watcher.result() for watcher in watchers]

    assert results == [[201] * rounds, [201] * rounds]
    final = http.call("GET", url, 200)
    assert int(final.headers["ETag"].strip('"')) == before + 2 * rounds  # every write counted
    for seen in views:  # a polling phone never sees the table go back, and ends up current
        assert seen == sorted(seen) and before <= seen[0] and seen[-1] == before + 2 * rounds

    # The standings are what the two games' rounds make them.
    expected = {}
    for game, seating in zip(games, seatings, strict=True):
        size = len(seating)
        for seat, name in enumerate(seating):
            calls = sum(1 for number in range(rounds) if number % size == seat)
            expected[name] = {
                "games_played": 0,  # both games are still being played: no game finished
                "rounds_played": rounds,
                "calls": calls,
                "calls_won": calls,
                "caught": 0,
                "average_hand": round(3 * (rounds - calls) / rounds, 2),
            }
        players = http.call("GET", f"/games/{game['id']}", 200).json()["players"]
        calls = [expected[name]["calls"] for name in seating]
        assert [p["score"] for p in players] == [3 * (rounds - n) for n in calls]
    standings = final.json()["standings"]
    assert {
        row["name"]: {key: row["jhyap"][key] for key in expected[row["name"]]} for row in standings
    } == expected


def new_game(http: Http, table_url: str, token: str, players: list[int]) -> dict[str, Any]:
    """A long Jhyap game at the table, round 1 dealt and started by the first seat."""
    body = {"ruleset": "jhyap", "players": players, "dealer": 0, "starter": 0}
    created = http.call(
        "POST", f"{table_url}/games", 201, token, json={**body, "options": LONG_JHYAP}
    )
    game: dict[str, Any] = created.json()
    return game


def at_once(calls: list[Any]) -> list[Any]:
    """Run ``calls`` from threads of their own, released together; their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Any) -> Any:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def test_a_new_name_joining_games_of_a_table_at_once_is_one_roster_player(server):
    http = Http(server.url)
    table, token, roster = new_table(http, ["Asha", "Bikash", "Chandra", "Dev"])
    url = f"/tables/{table['id']}"
    pairs = [["Asha", "Bikash"], ["Chandra", "Dev"]] * 4
    games = [new_game(http, url, token, [roster[name] for name in pair]) for pair in pairs]

    def join(game: dict[str, Any]) -> Any:
        body = {"join": {"name": "Zed", "after": game["players"][0]["id"]}}
        return lambda: (
            requests.post(
                f"{http.base}/games/{game['id']}/seats",
                json=body,
                headers={"Authorization": f"Bearer {token}"},
                timeout=30,
            ).status_code
        )

    assert at_once([join(game) for game in games]) == [201] * len(games)
    players = http.call("GET", url, 200).json()["players"]
    assert [p["name"] for p in players].count("Zed") == 1, players
    zed = next(p["id"] for p in players if p["name"] == "Zed")
    for game in games:
        seated = http.call("GET", f"/games/{game['id']}", 200).json()["players"]
        assert [p["roster_id"] for p in seated if p["name"] == "Zed"] == [zed]


def test_a_table_deleted_while_its_games_are_played_answers_every_phone(server):
    http = Http(server.url)
    for attempt in range(5):
        answers, url = delete_during_play(http)
        statuses = [status for answer in answers for status in answer]
        assert set(statuses) <= {201, 204, 404}, (attempt, statuses)  # never a 500
        assert answers[-1] == [204]
        http.call("GET", url, 404)


def delete_during_play(http: Http) -> tuple[list[list[int]], str]:
    """Two phones at each of a table's two games recording rounds, and one deleting the table,
    all at once: the statuses each got (the deletion's last), and the table's address."""
    table, token, roster = new_table(http, ["Asha", "Bikash", "Chandra", "Dev"])
    url = f"/tables/{table['id']}"
    pairs = [["Asha", "Bikash"], ["Chandra", "Dev"]]
    games = [new_game(http, url, token, [roster[name] for name in pair]) for pair in pairs]
    auth = {"Authorization": f"Bearer {token}"}

    def play(game: dict[str, Any]) -> Any:
        rounds = f"{http.base}/games/{game['id']}/rounds"
        entry = hands(game, 0, [0, 3])
        return lambda: [
            requests.post(rounds, json=entry, headers=auth, timeout=30).status_code
            for _ in range(6)
        ]

    def delete() -> list[int]:
        return [requests.delete(f"{http.base}{url}", headers=auth, timeout=30).status_code]

    return at_once([play(game) for game in games * 2] + [delete]), url
