"""Rounds recorded through the API are ``serializers.round_json`` of the engine's typed results.

The stored round JSON is what exports carry and what an import compares its
replay with, so a replay of the stored entries with the engine alone must give
it back exactly: the same keys, in the same order, with the same values and types.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Text, cast, select

from scorekeeper.domain.records import round_json
from scorekeeper.extensions import db
from scorekeeper.models import Round
from scorekeeper.rules import Player, get_ruleset
from tests.conftest import GameClient

A, B, C, D = range(4)


def as_written(document: Any) -> str:
    """``document`` written out again: key order and JSON types show, spacing does not."""
    return json.dumps(document, ensure_ascii=False)


def play_jhyap(table: GameClient) -> None:
    """Cards, a halving, an elimination, a correction, and a win."""
    table.create(
        players=("Asha", "Bikash", "Chandra", "Dipa"),
        dealer=C,
        starter=D,
        caller_tie="caller_loses",
        caller_penalty=10,
        elimination_limit=50,
        halve_at=[20, 40],
        next_starter="round_winner",
    )
    table.jhyap(A, 2, 20, ["KH", "JK"], 15)  # Bikash 20 -> 10 (halved)
    table.jhyap(B, 30, 1, 5, 40)  # Dipa 15 + 40 = 55 > 50: eliminated
    table.jhyap(C, 3, 10, ["as", "2♥"], None)
    response = table.client.put(
        f"{table.url}/rounds/1",
        json=table.jhyap_entry(A, [2, 20, ["KH", "JK"], 16]),
        headers=table.auth,
    )
    assert response.status_code == 200, response.json
    while (game := table.get())["status"] == "in_progress":
        # The first player still in calls with 0; everyone else scores 30 until they are out.
        active = [not player["eliminated"] for player in game["players"]]
        caller = active.index(True)
        table.jhyap(
            caller, *[(0 if seat == caller else 30) if active[seat] else None for seat in range(4)]
        )


def play_twenty_two(table: GameClient) -> None:
    """A tie, an elimination, a dealer who is out, and a shared last round."""
    table.create(ruleset="twenty-two", dealer=A)
    table.trick((B, "5H"), (C, "as"), (A, "9D"))
    table.trick((A, "KH"), (B, "KC"), (C, "4d"))
    table.trick((C, "3S"), (A, "QD"), (B, "7C"))
    table.trick((B, "9D"), (C, "2H"), (A, "6S"))
    table.trick((C, "AH"), (A, "3C"), (B, "5D"))  # Chandra reaches 22
    table.trick((A, "3H"), (B, "3D"))  # both reach 22: Bikash, the lower, wins


@pytest.mark.parametrize("play", [play_jhyap, play_twenty_two], ids=["jhyap", "twenty-two"])
def test_replaying_stored_entries_gives_the_stored_round_json(
    app: Any, table: GameClient, play: Callable[[GameClient], None]
) -> None:
    play(table)
    game = table.get()
    assert game["status"] == "finished"
    setup = table.export()["game"]["setup"]
    rules = get_ruleset(game["ruleset"])(
        [Player(player["id"], player["name"]) for player in game["players"]], game["options"]
    )
    with app.app_context():
        stored = db.session.execute(
            select(Round.number, Round.entry, cast(Round.result, Text))
            .where(Round.game_id == table.id)
            .order_by(Round.number)
        ).all()
    assert [number for number, _, _ in stored] == list(range(1, game["rounds_played"] + 1))

    state = rules.start(setup["dealer"], setup["starter"] if rules.chooses_starter else None)
    for number, entry, written in stored:
        outcome = rules.play(state, rules.parse_entry(entry))
        assert as_written(round_json(outcome.result)) == as_written(json.loads(written)), number
        served = table.client.get(f"{table.url}/rounds/{number}")
        assert served.status_code == 200, served.json
        body = json.loads(served.get_data())
        assert as_written({**round_json(outcome.result), "created_at": body["created_at"]}) == (
            as_written(body)
        )
        state = outcome.state
    assert state.finished
