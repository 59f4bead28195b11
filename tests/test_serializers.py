"""The JSON the serialisers write for seat changes and for the Game's players (no app needed)."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace
from typing import Any

from scorekeeper.domain.records import seat_change_json
from scorekeeper.rules import Jhyap, Player, Ruleset, TwentyTwo
from scorekeeper.serializers import game_body

ASHA, BIKRAM, CHANDRA = Player(11, "Asha"), Player(22, "Bikram"), Player(33, "Chandra")
DEV = Player(77, "Dev")


def stored_game(rules: Ruleset[Any]) -> Any:
    """The model's attributes game_body reads (its players' names and seats come from the rules)."""
    moment = datetime(2026, 11, 30, 18, 5)
    rows = [SimpleNamespace(id=player.id, roster_id=None) for player in rules.players]
    return SimpleNamespace(
        id="g1",
        ruleset=rules.name,
        name="Friday",
        table_id=None,
        players=rows,
        history_revision=0,
        created_at=moment,
        updated_at=moment,
    )


def test_a_join_as_the_history_shows_it() -> None:
    rules = Jhyap([ASHA, BIKRAM, CHANDRA], {})
    outcome = rules.join(rules.start(1, 2), DEV, BIKRAM.id)
    body = seat_change_json(outcome.result)
    assert body == {
        "number": 1,
        "seat_change": {"join": {"player": 77, "name": "Dev", "after": 22, "score": 0}},
        "game": {
            "status": "in_progress",
            "next_round": {"number": 2, "dealer": 22, "starter": 33},
            "winners": [],
        },
    }
    assert list(body) == ["number", "seat_change", "game"]
    assert list(body["seat_change"]["join"]) == ["player", "name", "after", "score"]


def test_a_leave_as_the_history_shows_it() -> None:
    rules = TwentyTwo([ASHA, BIKRAM, CHANDRA], {})
    state = rules.leave(rules.start(0, None), CHANDRA.id).state
    body = seat_change_json(rules.leave(state, ASHA.id).result)
    assert body == {
        "number": 2,
        "seat_change": {"leave": {"player": 11}},
        "game": {"status": "finished", "next_round": None, "winners": [22]},
    }


def test_game_players_come_from_the_rules_in_seat_order_with_left() -> None:
    rules = TwentyTwo([ASHA, BIKRAM, CHANDRA], {})
    joined = rules.join(rules.start(0, None), DEV, ASHA.id)
    rules = joined.rules
    state = rules.leave(joined.state, BIKRAM.id).state
    body = game_body(stored_game(rules), rules, state)
    assert body["players"] == [
        {"id": 11, "name": "Asha", "seat": 0, "score": 0, "eliminated": False,
         "eliminated_in_round": None, "left": False, "roster_id": None, "pile": []},
        {"id": 77, "name": "Dev", "seat": 1, "score": 0, "eliminated": False,
         "eliminated_in_round": None, "left": False, "roster_id": None, "pile": []},
        {"id": 22, "name": "Bikram", "seat": 2, "score": 0, "eliminated": False,
         "eliminated_in_round": None, "left": True, "roster_id": None, "pile": []},
        {"id": 33, "name": "Chandra", "seat": 3, "score": 0, "eliminated": False,
         "eliminated_in_round": None, "left": False, "roster_id": None, "pile": []},
    ]  # fmt: skip
    assert [list(player) for player in body["players"]] == [
        [
            "id",
            "name",
            "seat",
            "score",
            "eliminated",
            "eliminated_in_round",
            "left",
            "roster_id",
            "pile",
        ]
    ] * 4
    # Seat changes are not rounds; the next number follows both.
    assert body["rounds_played"] == 0
    assert body["next_round"]["number"] == 3


def test_a_jhyap_game_stored_before_seat_changes_shows_no_one_left() -> None:
    rules = Jhyap([ASHA, BIKRAM], {})
    state = rules.state_from_dict(
        {
            "rounds_played": 3,
            "scores": [201, 40],
            "eliminated_in_round": [3, None],
            "dealer": None,
            "starter": None,
            "winners": [1],
        }
    )
    body = game_body(stored_game(rules), rules, state)
    assert body["players"] == [
        {"id": 11, "name": "Asha", "seat": 0, "score": 201, "eliminated": True,
         "eliminated_in_round": 3, "left": False, "roster_id": None},
        {"id": 22, "name": "Bikram", "seat": 1, "score": 40, "eliminated": False,
         "eliminated_in_round": None, "left": False, "roster_id": None},
    ]  # fmt: skip
    assert (body["status"], body["winners"], body["rounds_played"]) == ("finished", [22], 3)
