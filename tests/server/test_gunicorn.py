"""The API served by gunicorn with several workers, over real HTTP."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

pytestmark = pytest.mark.server


def new_game(base_url: str, players=("Asha", "Bikash", "Chandra")) -> tuple[dict, dict]:
    response = requests.post(
        f"{base_url}/api/v1/games",
        json={"ruleset": "jhyap", "players": list(players), "dealer": 0, "starter": 1},
        timeout=10,
    )
    assert response.status_code == 201, response.text
    game = response.json()
    return game, {"Authorization": f"Bearer {game['token']}"}


def entry(game: dict, caller: int, totals: list[int]) -> dict:
    ids = [player["id"] for player in game["players"]]
    hands = [{"player": ids[seat], "total": total} for seat, total in enumerate(totals)]
    return {"caller": ids[caller], "hands": hands}


def test_health_and_a_game_over_http(server):
    assert requests.get(f"{server.url}/api/v1/health", timeout=5).json() == {"status": "ok"}
    game, auth = new_game(server.url)
    url = f"{server.url}/api/v1/games/{game['id']}"
    response = requests.post(
        f"{url}/rounds", json=entry(game, 2, [17, 14, 3]), headers=auth, timeout=10
    )
    assert response.status_code == 201
    assert response.headers["Location"] == f"/api/v1/games/{game['id']}/rounds/1"
    assert [p["score"] for p in requests.get(url, timeout=5).json()["players"]] == [17, 14, 0]
    assert requests.get(f"{server.url}/api/v1/games", timeout=5).status_code == 405


def test_same_round_number_from_many_phones_records_once(server):
    game, auth = new_game(server.url)
    url = f"{server.url}/api/v1/games/{game['id']}/rounds"
    body = {**entry(game, 2, [17, 14, 3]), "number": 1}
    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(
            pool.map(
                lambda _: requests.post(url, json=body, headers=auth, timeout=30).status_code,
                range(20),
            )
        )
    assert sorted(statuses) == [201] + [409] * 19
    assert len(requests.get(url, timeout=5).json()["rounds"]) == 1


def test_resends_with_one_idempotency_key_record_once_and_answer_alike(server):
    game, auth = new_game(server.url)
    url = f"{server.url}/api/v1/games/{game['id']}/rounds"
    headers = {**auth, "Idempotency-Key": "round-1-from-phone-a"}
    body = entry(game, 2, [17, 14, 3])
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(
            pool.map(
                lambda _: requests.post(url, json=body, headers=headers, timeout=30), range(20)
            )
        )
    assert {answer.status_code for answer in answers} == {201}
    assert len({answer.content for answer in answers}) == 1
    assert len(requests.get(url, timeout=5).json()["rounds"]) == 1
