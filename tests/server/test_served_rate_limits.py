"""Rate limits as ``scorekeeper serve`` keeps them: the stated numbers, in its default set-up."""

from __future__ import annotations

import pytest
import requests

from scorekeeper.testing.live_server import LiveServer
from tests.conftest import LiveServerFactory

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def default_server(live_server: LiveServerFactory) -> LiveServer:
    """``scorekeeper serve`` with every default but the port: rate limits on."""
    return live_server("limits", rate_limits=True)


def test_a_game_gets_exactly_120_round_writes_a_minute(default_server: LiveServer) -> None:
    created = requests.post(
        f"{default_server.url}/api/v1/games",
        json={"ruleset": "jhyap", "players": ["Asha", "Bikash"], "dealer": 0, "starter": 1},
        timeout=10,
    ).json()
    url = f"{default_server.url}/api/v1/games/{created['id']}/rounds"
    auth = {"Authorization": f"Bearer {created['token']}"}
    ids = [player["id"] for player in created["players"]]
    with requests.Session() as session:
        first = session.post(
            url,
            json={"caller": ids[0], "hands": [{"player": i, "total": 3} for i in ids]},
            headers=auth,
            timeout=10,
        )
        assert first.status_code == 201, first.text
        assert first.headers["X-RateLimit-Limit"] == "120"  # the limit a round write spends
        assert first.headers["X-RateLimit-Remaining"] == "119"
        # Undoing a round not played is refused, but spends a write all the same.
        statuses = [
            session.delete(f"{url}/2", headers=auth, timeout=10).status_code for _ in range(120)
        ]
    assert statuses == [404] * 119 + [429]
    assert len(requests.get(url, timeout=5).json()["rounds"]) == 1


def test_several_workers_with_counters_in_memory_refuse_to_start(
    live_server: LiveServerFactory,
) -> None:
    three = live_server("limits_three_workers", start=False, rate_limits=True, workers=3)
    finished = three.serve_until_exit(timeout=60)
    assert finished.returncode != 0
    assert "3 worker processes would each count the rate limits" in finished.stderr
    assert "SCOREKEEPER_RATE_LIMIT_STORAGE_URI" in finished.stderr
