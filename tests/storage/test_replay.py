"""Stored round entries are the source of truth: replaying them reproduces every stored result."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper import serializers
from scorekeeper.domain import games
from scorekeeper.domain.errors import NotARound
from scorekeeper.domain.records import round_json, seat_change_json
from scorekeeper.domain.rounds import (
    EntryReader,
    ReadEntry,
    _state_before,
    correct_round,
    record_round,
)
from scorekeeper.domain.seats import (
    SeatChange,
    change_seats,
    is_seat_change,
    replay_seat_change,
)
from scorekeeper.extensions import db
from scorekeeper.models import Round
from scorekeeper.rules import RoundConflict, RuleError
from tests.properties import examples

NAMES = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Firoz"]
ALL_CARDS = [
    rank + suit
    for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    for suit in "SHDC"
]


def random_entry(table: games.BoundGame, rng: random.Random) -> dict[str, Any]:
    """A valid entry for the next round of ``table``."""
    active = [table.rules.players[seat].id for seat in table.state.active_seats()]
    if table.rules.name == "jhyap":
        caller = rng.choice(active)
        limit = table.rules.options["call_limit"]
        hands = [
            {
                "player": player,
                "total": rng.randint(0, limit) if player == caller else rng.randint(0, 50),
            }
            for player in active
        ]
        return {"caller": caller, "hands": hands}
    kept = {card for pile in table.state.piles for card in pile}
    cards = rng.sample([card for card in ALL_CARDS if card not in kept], len(active))
    order = rng.sample(active, len(active))
    return {"last_trick": [{"player": p, "card": c} for p, c in zip(order, cards, strict=True)]}


def reading(entry: dict[str, Any]) -> EntryReader:
    """A reader giving ``entry`` as it is, whatever the game's ruleset."""
    return lambda ruleset: ReadEntry(entry)


def assert_stored_results_replay(game_id: str) -> None:
    """Replay every stored entry from round 1 and compare results and running state."""
    table = games.read_game(game_id)
    rules, state = table.initial_state()
    rounds = db.session.scalars(
        select(Round).where(Round.game_id == game_id).order_by(Round.number)
    ).all()
    for expected_number, round_ in enumerate(rounds, start=1):
        assert round_.number == expected_number
        if is_seat_change(round_.result):
            moved = replay_seat_change(table.game, rules, state, round_.result)
            rules, state, result = moved.rules, moved.state, seat_change_json(moved.result)
        else:
            outcome = rules.play(state, rules.parse_entry(round_.entry))
            state, result = outcome.state, round_json(outcome.result)
        assert result == round_.result
        assert state.to_dict() == round_.state_after
    assert state.to_dict() == table.game.state
    assert [player.id for player in sorted(table.game.players, key=seat_of)] == list(state.seating)


def seat_of(player: Any) -> int:
    """A player row's seat, to sort by."""
    return player.seat


def random_seat_change(table: games.BoundGame, rng: random.Random) -> SeatChange:
    """Someone new joins after a random player, or a random player still in leaves."""
    if rng.random() < 0.5:
        names = {player.name for player in table.game.players}
        name = next(f"Guest {n}" for n in range(1, 100) if f"Guest {n}" not in names)
        return SeatChange(join_name=name, after=rng.choice(table.rules.players).id)
    active = [table.rules.players[seat].id for seat in table.state.active_seats()]
    return SeatChange(leave=rng.choice(active))


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    ruleset=st.sampled_from(["jhyap", "twenty-two"]),
    players=st.integers(min_value=2, max_value=5),
    rounds=st.integers(min_value=1, max_value=25),
    corrections=st.integers(min_value=0, max_value=4),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_stored_results_equal_a_replay_of_the_entries(
    app, ruleset, players, rounds, corrections, seed
):
    rng = random.Random(seed)
    options = {"elimination_limit": 60} if ruleset == "jhyap" else {}
    with app.app_context():
        created = games.create_game(
            games.GameSetup(
                ruleset=ruleset,
                players=NAMES[:players],
                dealer=0,
                starter=0 if ruleset == "jhyap" else None,
                options=options,
            ),
            answer=serializers.created_game,
        ).body
        game_id, token = created["id"], created["token"]
        for _ in range(rounds):
            table = games.read_game(game_id)
            if table.state.finished:
                break
            if rng.random() < 0.2:
                with contextlib.suppress(RuleError):  # a join beyond the player limit
                    change_seats(
                        game_id,
                        token,
                        random_seat_change(table, rng),
                        {},
                        answer=serializers.changed_seats,
                    )
            else:
                record_round(
                    game_id,
                    token,
                    reading(random_entry(table, rng)),
                    answer=serializers.scored_round,
                )
            db.session.remove()
        for _ in range(corrections):
            table = games.read_game(game_id)
            number = rng.randint(1, table.state.last_number)
            table.rules, table.state = _state_before(table, number)
            entry = random_entry(table, rng)
            db.session.remove()
            try:
                correct_round(
                    game_id, token, number, reading(entry), answer=serializers.corrected_round
                )
            except (RoundConflict, RuleError, NotARound):
                db.session.remove()  # a correction a later round no longer fits changes nothing
            db.session.remove()
        assert_stored_results_replay(game_id)
        db.session.remove()
