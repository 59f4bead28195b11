"""Write the provisional-game fixtures: ``python -m tests.offline.generate`` (``--check``: stale?).

Each fixture is a game played on the real service (a Flask test client on a fresh SQLite
database): its export after the rounds every phone saw, then the changes one phone queued
offline (rounds, corrections, undos, seat changes) in the outbox's own form, and the Game and
history the service answers once it has them all. ``tests/js/provisional.test.js`` replays the
queue on the export with the rules on the phone and must reach the same Game and history.
A newcomer who joined offline has a provisional id (negative) in the queue; the expected answers
name them by it too.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from scorekeeper.app import create_app
from scorekeeper.domain.games import read_game
from scorekeeper.extensions import db
from tests.conformance import hearts_vectors, jhyap_vectors, score_pad_vectors, twenty_two_vectors

FIXTURES = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "provisional.json"
COMMAND = "python -m tests.offline.generate"
TIME = "2026-01-01T00:00:00Z"
ID_FIELDS = {"id", "player", "caller", "after", "leave", "dealer", "starter", "queen", "moon"}
ID_LISTS = {"winners", "takers"}
DRAWS = {
    "jhyap": jhyap_vectors.draw_entry,
    "twenty-two": twenty_two_vectors.draw_entry,
    "hearts": hearts_vectors.draw_entry,
    "score-pad": score_pad_vectors.draw_entry,
}
"""Each ruleset's valid entries, drawn from the state as the conformance vectors draw them."""

# name: (ruleset, players, options, seen: steps every phone saw, queued: this phone's steps).
# A step: "round", ("correct", number), "undo", ("join", name, after seat), ("leave", seat),
# "end" (the table ends the game; never queued: it needs the connection).
SCENARIOS: dict[str, tuple[str, list[str], dict[str, Any], list[Any], list[Any]]] = {
    "jhyap five rounds and a correction": (
        "jhyap",
        ["Asha", "Bikash", "Chandra"],
        {},
        ["round", "round"],
        ["round", "round", "round", "round", "round", ("correct", 4)],
    ),
    "jhyap correction of a round every phone saw": (
        "jhyap",
        ["Asha", "Bikash", "Chandra", "Dipa"],
        {"elimination_limit": 100},
        ["round", "round", "round"],
        [("correct", 1), "round", "round"],
    ),
    "jhyap undo and a round again": (
        "jhyap",
        ["Asha", "Bikash"],
        {},
        ["round", "round"],
        ["undo", "round", "undo", "round"],
    ),
    "jhyap join and leave offline": (
        "jhyap",
        ["Asha", "Bikash", "Chandra"],
        {},
        ["round"],
        [("join", "Dev", 2), "round", ("leave", 0), "round", ("correct", 3)],
    ),
    "jhyap played to the end offline": (
        "jhyap",
        ["Asha", "Bikash"],
        {"elimination_limit": 40},
        [],
        ["round"] * 20,
    ),
    "twenty-two rounds and a correction": (
        "twenty-two",
        ["Asha", "Bikash", "Chandra"],
        {},
        ["round"],
        ["round", "round", "round", ("correct", 2), "round"],
    ),
    "twenty-two join offline": (
        "twenty-two",
        ["Asha", "Bikash"],
        {},
        ["round"],
        [("join", "Dev", 0), "round", "round"],
    ),
    "hearts hands, a join and a correction offline": (
        "hearts",
        ["Asha", "Bikash", "Chandra"],
        {"limit": 200},
        ["round"],
        ["round", ("join", "Dev", 2), "round", ("correct", 1), "round"],
    ),
    "hearts played to the limit offline": (
        "hearts",
        ["Asha", "Bikash", "Chandra", "Dipa"],
        {"limit": 50},
        [],
        ["round"] * 12,
    ),
    "score-pad ended by the table, undone offline": (
        "score-pad",
        ["Asha", "Bikash", "Chandra"],
        {},
        ["round", "round", "end"],
        ["undo", "round", ("correct", 2), ("leave", 1), "round"],
    ),
}


@contextmanager
def service() -> Iterator[FlaskClient]:
    """A test client of the app on a fresh SQLite database, rate limits off."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/offline.sqlite"
        app = create_app({"TESTING": True, "DATABASE_URL": url, "RATE_LIMITS": "off"})
        with app.app_context():
            db.create_all()
            with app.test_client() as client:
                yield client
            db.session.remove()
            db.engine.dispose()


class Phone:
    """Plays one scenario on the service, keeping the queue as the phone's outbox writes it."""

    def __init__(self, client: FlaskClient, ruleset: str, rng: random.Random) -> None:
        self.client, self.ruleset, self.rng = client, ruleset, rng
        self.game_id = ""
        self.auth: dict[str, str] = {}
        self.queue: list[dict[str, Any]] = []
        self.provisional: dict[int, int] = {}  # a newcomer's real id: their provisional id

    def create(self, players: list[str], options: dict[str, Any]) -> None:
        body: dict[str, Any] = {"ruleset": self.ruleset, "players": players, "dealer": 0}
        if self.ruleset == "jhyap":  # the one ruleset of these whose table names the starter
            body["starter"] = 1
        answer = self.ok(self.client.post("/api/v1/games", json={**body, "options": options}))
        self.game_id, self.auth = answer["id"], {"Authorization": f"Bearer {answer['token']}"}

    def ok(self, response: Any) -> Any:
        assert response.status_code < 300, response.get_json()
        return response.get_json()

    def entry(self, number: int | None = None) -> dict[str, Any]:
        """A valid entry for the next round, or (``number``) one to correct that round with."""
        bound = read_game(self.game_id)
        rules, state = bound.rules, bound.state
        if number is not None:
            from scorekeeper.domain.rounds import _state_before

            rules, state = _state_before(bound, number)
        drawn = DRAWS[self.ruleset](self.rng, rules, state)
        # The API's schema takes no null for a hand's total or cards (the rules do).
        for hand in drawn.get("hands", []):
            for field in [name for name, value in hand.items() if value is None]:
                del hand[field]
        return drawn

    def next_number(self) -> int:
        return int(
            self.ok(self.client.get(f"/api/v1/games/{self.game_id}"))["next_round"]["number"]
        )

    def play(self, step: Any, queued: bool) -> None:
        """Make ``step`` on the service; when ``queued``, also as the outbox keeps it."""
        games = f"/api/v1/games/{self.game_id}"
        kind = step if isinstance(step, str) else step[0]
        item: dict[str, Any] = {"kind": "round" if kind in ("join", "leave") else kind}
        item["key"] = f"{kind}-{len(self.queue) + 1}"
        if kind == "round":
            if self.ok(self.client.get(games))["status"] == "finished":
                return  # played to the end: no more rounds
            body = {"number": self.next_number(), **self.entry()}
            self.ok(self.client.post(f"{games}/rounds", json=body, headers=self.auth))
            item["body"] = body
        elif kind == "correct":
            for _ in range(50):  # a correction that leaves every later round playable
                body = self.entry(step[1])
                answer = self.client.put(f"{games}/rounds/{step[1]}", json=body, headers=self.auth)
                if answer.status_code == 200:
                    break
            self.ok(answer)
            item.update(number=step[1], body=body)
        elif kind == "end":
            assert not queued, "the end needs the connection"
            self.ok(self.client.patch(games, json={"status": "finished"}, headers=self.auth))
            return
        elif kind == "undo":
            number = self.ok(self.client.get(f"{games}/rounds"))["rounds"][-1]["number"]
            answer = self.client.delete(f"{games}/rounds/{number}", headers=self.auth)
            assert answer.status_code == 204
            item["number"] = number
        else:
            players = self.ok(self.client.get(games))["players"]
            number = self.next_number()
            if kind == "join":
                seat_body = {"join": {"name": step[1], "after": players[step[2]]["id"]}}
            else:
                seat_body = {"leave": players[step[1]]["id"]}
            seat_body["number"] = number
            after = self.ok(self.client.post(f"{games}/seats", json=seat_body, headers=self.auth))
            item.update(kind="seat", body=seat_body)
            if kind == "join":
                joined = max(p["id"] for p in after["players"] if p["name"] == step[1])
                provisional = -1 - len(self.provisional)
                self.provisional[joined] = provisional
                item["newcomer"] = {"id": provisional, "name": step[1], "rosterId": None}
        if queued:
            item["created"] = TIME
            self.queue.append(self.renamed(item))

    def export(self) -> dict[str, Any]:
        return normal(self.ok(self.client.get(f"/api/v1/games/{self.game_id}/export")))

    def answers(self) -> dict[str, Any]:
        games = f"/api/v1/games/{self.game_id}"
        game = self.ok(self.client.get(games))
        rounds = self.ok(self.client.get(f"{games}/rounds"))["rounds"]
        return self.renamed(normal({"game": game, "rounds": rounds}))

    def renamed(self, value: Any, key: str = "") -> Any:
        """``value`` with each newcomer's real id replaced by their provisional one."""
        if isinstance(value, dict):
            return {k: self.renamed(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self.renamed(v, key if key in ID_LISTS else "") for v in value]
        if key in ID_FIELDS | ID_LISTS and isinstance(value, int):
            return self.provisional.get(value, value)
        return value


def normal(value: Any) -> Any:
    """``value`` without what differs from run to run: the game's id and the times."""
    if isinstance(value, dict):
        out = {k: normal(v) for k, v in value.items()}
        for key in ("created_at", "updated_at", "exported_at"):
            if key in out:
                out[key] = TIME
        if isinstance(out.get("id"), str):
            out["id"] = "game"
        return out
    if isinstance(value, list):
        return [normal(v) for v in value]
    return value


def fixture(name: str, seed: int) -> dict[str, Any]:
    """One scenario played: its export before the queue, the queue, the service's answers."""
    ruleset, players, options, seen, queued = SCENARIOS[name]
    with service() as client:
        phone = Phone(client, ruleset, random.Random(seed))
        phone.create(players, options)
        for step in seen:
            phone.play(step, queued=False)
        exported = phone.export()
        for step in queued:
            phone.play(step, queued=True)
        return {"name": name, "export": exported, "queue": phone.queue, **phone.answers()}


def build() -> str:
    """The fixtures file's text."""
    fixtures = [fixture(name, seed) for seed, name in enumerate(SCENARIOS)]
    lines = ",\n".join(json.dumps(f, ensure_ascii=False, separators=(",", ":")) for f in fixtures)
    return f'{{"generated_by": "{COMMAND}",\n"fixtures": [\n{lines}\n]}}\n'


def main(argv: list[str]) -> int:
    """Write the fixtures, or with ``--check`` only tell whether they are stale."""
    text = build()
    if "--check" in argv:
        fresh = FIXTURES.exists() and FIXTURES.read_text("utf-8") == text
        if not fresh:
            print(f"stale: {FIXTURES}; run {COMMAND}", file=sys.stderr)
        return 0 if fresh else 1
    FIXTURES.parent.mkdir(parents=True, exist_ok=True)
    FIXTURES.write_text(text, "utf-8")
    print(f"{FIXTURES}: {text.count(chr(10)) - 3} fixtures")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
