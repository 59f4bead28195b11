"""Play a game on the Python rules engine and record each step with what the engine answered."""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.domain.records import end_json, round_json, seat_change_json
from scorekeeper.rules import GameState, Player, RuleError, Ruleset, get_ruleset

Json = Any


def as_json(value: Json) -> Json:
    """``value`` as JSON gives it back, so the engine sees exactly what the vector holds.

    A whole number written as a float (``5.0``) is refused: JavaScript reads it as ``5``, so the
    two engines could not be given the same input.
    """

    def check(item: Json) -> None:
        if isinstance(item, float) and item.is_integer():
            raise ValueError(f"{item!r} reads as an integer in JavaScript; leave it out")
        for child in (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        ):
            check(child)

    check(value)
    return json.loads(json.dumps(value))


def refusal(error: RuleError) -> dict[str, Json]:
    """A refusal as the vectors hold it: the error body's code, message and details."""
    return {"code": error.code, "message": error.message, "details": as_json(error.details)}


class Game:
    """One vector: a game's setup, then each item (round, join, leave or end) and its outcome.

    A setup gives the first ``dealer`` and ``starter``, or ``restore``: a stored state to go on
    from (as the service loads a game: rules restored unchecked, the state through
    ``state_from_dict``).
    """

    def __init__(
        self,
        name: str,
        ruleset: Json,
        players: list[dict[str, Json]],
        options: Json,
        *,
        dealer: Json = None,
        starter: Json = None,
        restore: dict[str, Json] | None = None,
    ) -> None:
        self.vector: dict[str, Json] = {
            "name": name,
            "ruleset": ruleset,
            "players": as_json(players),
            "options": as_json(options),
        }
        seated = [Player(player["id"], player["name"]) for player in self.vector["players"]]
        self.rules: Ruleset[Any] | None = None
        self.state: GameState | None = None
        try:
            rules_class = get_ruleset(ruleset)
            if restore is None:
                self.vector |= {"dealer": as_json(dealer), "starter": as_json(starter)}
                rules = rules_class(seated, as_json(options))
                state = rules.start(self.vector["dealer"], self.vector["starter"])
            else:
                self.vector["restore"] = as_json(restore)
                rules = rules_class.restore(seated, as_json(options))
                state = rules.state_from_dict(as_json(restore))
        except RuleError as error:
            self.vector["start"] = {"refused": refusal(error)}
        else:
            self.rules, self.state = rules, state
            self.vector["start"] = {"options": as_json(rules.options), "state": state.to_dict()}
        self.vector["items"] = []

    @property
    def items(self) -> list[dict[str, Json]]:
        """The items recorded so far."""
        items: list[dict[str, Json]] = self.vector["items"]
        return items

    @property
    def over(self) -> bool:
        """Whether the game is finished (or never started)."""
        return self.state is None or self.state.finished

    def live(self) -> tuple[Ruleset[Any], GameState]:
        """The rules and state the next item is played on."""
        assert self.rules is not None and self.state is not None
        return self.rules, self.state

    def play(self, entry: Json) -> bool:
        """Record a round entered as ``entry``; whether the engine accepted it."""
        rules, state = self.live()
        item: dict[str, Json] = {"play": as_json(entry)}
        try:
            outcome = rules.play(state, rules.parse_entry(as_json(entry)))
        except RuleError as error:
            return self._refused(item, error)
        self.state = outcome.state
        return self._accepted(item, round_json(outcome.result))

    def join(self, player_id: Json, name: str, after: Json) -> bool:
        """Record a newcomer joining after the player ``after``; whether the engine accepted it."""
        rules, state = self.live()
        item: dict[str, Json] = {
            "join": as_json({"player": {"id": player_id, "name": name}, "after": after})
        }
        try:
            outcome = rules.join(state, Player(player_id, name), after)
        except RuleError as error:
            return self._refused(item, error)
        self.rules, self.state = outcome.rules, outcome.state
        return self._accepted(item, seat_change_json(outcome.result))

    def leave(self, player_id: Json) -> bool:
        """Record the player ``player_id`` leaving; whether the engine accepted it."""
        rules, state = self.live()
        item: dict[str, Json] = {"leave": as_json({"player": player_id})}
        try:
            outcome = rules.leave(state, player_id)
        except RuleError as error:
            return self._refused(item, error)
        self.state = outcome.state
        return self._accepted(item, seat_change_json(outcome.result))

    def end(self) -> bool:
        """Record the table ending the game by hand; whether the engine accepted it."""
        rules, state = self.live()
        item: dict[str, Json] = {"end": True}
        try:
            outcome = rules.end(state)
        except RuleError as error:
            return self._refused(item, error)
        self.state = outcome.state
        return self._accepted(item, end_json(outcome.result))

    def _accepted(self, item: dict[str, Json], result: Json) -> bool:
        assert self.state is not None
        self.items.append(item | {"result": as_json(result), "state": self.state.to_dict()})
        return True

    def _refused(self, item: dict[str, Json], error: RuleError) -> bool:
        self.items.append(item | {"refused": refusal(error)})
        return False
