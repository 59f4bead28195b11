"""Phones that play on a real server (``scorekeeper.testing.live_server``): games and entries."""

from __future__ import annotations

import random
from typing import Any

import requests

CARDS = [
    rank + suit
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    for suit in "SHDC"
]


def create_game(
    session: requests.Session, url: str, ruleset: str, players: list[str], **options: Any
) -> dict[str, Any]:
    """Create a game; return its body (with the token)."""
    body: dict[str, Any] = {"ruleset": ruleset, "players": players, "dealer": 0}
    if ruleset == "jhyap":
        body["starter"] = 1
    if options:
        body["options"] = options
    response = session.post(f"{url}/api/v1/games", json=body, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()


def random_entry(game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A valid entry for the next round of ``game`` (the Game body as GET returns it)."""
    active = [player for player in game["players"] if not player["eliminated"]]
    ids = [player["id"] for player in active]
    if game["ruleset"] == "jhyap":
        caller = rng.choice(ids)
        limit = game["options"]["call_limit"]
        hands = [
            {
                "player": player,
                "total": rng.randint(0, limit) if player == caller else rng.randint(0, 50),
            }
            for player in ids
        ]
        return {"caller": caller, "hands": hands}
    kept = {card for player in game["players"] for card in player.get("pile", [])}
    cards = rng.sample([card for card in CARDS if card not in kept], len(ids))
    order = rng.sample(ids, len(ids))
    return {"last_trick": [{"player": p, "card": c} for p, c in zip(order, cards, strict=True)]}


def replays_on_import(session: requests.Session, url: str, game_id: str) -> tuple[int, str]:
    """Export the game and import the export.

    The import replays every entry and refuses any result that differs.
    """
    export = session.get(f"{url}/api/v1/games/{game_id}/export", timeout=30)
    assert export.status_code == 200, export.text
    imported = session.post(f"{url}/api/v1/games/import", json=export.json(), timeout=60)
    return imported.status_code, imported.text
