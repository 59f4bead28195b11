"""A game of three that never ends, played over HTTP against one server or another."""

from __future__ import annotations

from typing import Any, Protocol

import requests

PLAYERS = ["Asha", "Bikash", "Chandra"]
# A Jhyap game that never ends: no halving, a limit far above the hands of 0 and 1 point.
ENDLESS: dict[str, Any] = {"elimination_limit": 10000, "halve_at": []}


class Reachable(Protocol):
    """A server, or the proxy in front of the servers: what has an address."""

    url: str


class Game:
    """A game of three that never ends, played by sending rounds to one server or another."""

    def __init__(self, server: Reachable) -> None:
        response = requests.post(
            f"{server.url}/api/v1/games",
            json={
                "ruleset": "jhyap",
                "players": PLAYERS,
                "dealer": 0,
                "starter": 1,
                "options": ENDLESS,
            },
            timeout=10,
        )
        assert response.status_code == 201, response.text
        created = response.json()
        self.id: str = created["id"]
        self.auth = {"Authorization": f"Bearer {created['token']}"}
        self.players: list[int] = [player["id"] for player in created["players"]]

    def entry(self, number: int) -> dict[str, Any]:
        """Round ``number``: its caller (a different seat each round) holds 0, the others 1."""
        caller = self.players[number % len(self.players)]
        hands = [{"player": p, "total": 0 if p == caller else 1} for p in self.players]
        return {"caller": caller, "hands": hands, "number": number}

    def post(
        self, server: Reachable, number: int, key: str | None = None, timeout: float = 10
    ) -> requests.Response:
        """Send round ``number`` to ``server``, with ``key`` as its ``Idempotency-Key``."""
        headers = {**self.auth, **({"Idempotency-Key": key} if key else {})}
        return requests.post(
            f"{server.url}/api/v1/games/{self.id}/rounds",
            json=self.entry(number),
            headers=headers,
            timeout=timeout,
        )
