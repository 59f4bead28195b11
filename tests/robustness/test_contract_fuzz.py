"""Contract fuzzing: schemathesis drives the app through its own ``openapi.yaml``.

Every operation gets generated valid and invalid path values, headers and
bodies (``generation.mode = "all"``), first schemathesis' deterministic
coverage cases, then random ones from a fixed seed. Requests go through the
WSGI app in this process, on the test database (SQLite, or PostgreSQL when
``SCOREKEEPER_TEST_DATABASE_URL`` is set). Every response must:

- not be a 5xx;
- have a documented status, the documented content type, a body that fits
  the documented schema and the documented headers;
- reject invalid input, ask for the token where the spec says so, and not
  answer undocumented methods;
- never carry a stack trace, SQL, or a file path (``no_leaks`` below).

Path values are real some of the time: a ``flatmap_case`` hook points the
generated request at one of the games this test created (three on their own,
two at a table, one with a join and a leave in its history), with its own
token, its table's, another game's, or the generated one, and swaps generated
player ids for that game's players; a table's path gets one of two real
tables, with its token, a token of a game at it (which does not open the
table), another table's, or the generated one. Bodies fit the target some of
the time (a round, a seat change, a game of the table's roster players, a
rename), and imports get real exports now and then, so that the fuzzer
reaches the rules and storage rather than stopping at 404, 401 and 422.

``test_stateful_links`` then follows the spec's OpenAPI links (create a game,
record rounds with its id and token, correct, undo, seat changes, rematch,
export, import the export...) in random sequences, and
``test_stateful_table_links`` walks the tables' links alone: create a table,
read it, a game at it, rounds, a join and a leave, a rematch, export, import,
delete.

Left out, each for a stated reason below: ``positive_data_acceptance`` (a
schema-valid body may break a rule: 422 is right), unknown query parameters
(ignored, not refused), and ``ignored_auth`` where schemathesis cannot tell a
real token from a generated one.

The number of cases per operation is printed at the end of the run. A longer
local run: ``SCOREKEEPER_FUZZ_EXAMPLES=1000 SCOREKEEPER_FUZZ_SEQUENCES=200
SCOREKEEPER_FUZZ_STEPS=60 SCOREKEEPER_FUZZ_SEED=$RANDOM pytest
tests/robustness/test_contract_fuzz.py`` (see SECURITY.md).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest
import schemathesis
from flask import Flask
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import ignored_auth

from scorekeeper import PROJECT_ROOT
from tests.conftest import GameClient

from .conftest import report

SPEC = PROJECT_ROOT / "openapi.yaml"
SEED = int(os.environ.get("SCOREKEEPER_FUZZ_SEED", "20261130"))
EXAMPLES = int(os.environ.get("SCOREKEEPER_FUZZ_EXAMPLES", "60"))
STEPS = int(os.environ.get("SCOREKEEPER_FUZZ_STEPS", "40"))
SEQUENCES = int(os.environ.get("SCOREKEEPER_FUZZ_SEQUENCES", "40"))
RUNS = 3
WALKS = 6
"""At most this many walks of the tables' links, each from its own seed, until every step is
reached. The API's answers hold random ids and times, so a seed does not always get as far: a
seat change, which needs a player id and a token carried along the links, came in the second to
fourth walk on this machine."""

CASES: Counter[str] = Counter()
STATUSES: dict[str, Counter[int]] = {}


class BoundApp:
    """The WSGI app schemathesis calls: the current test's app, bound by the ``_bind`` fixture."""

    app: Flask | None = None

    def __call__(self, environ: Any, start_response: Any) -> Any:
        assert self.app is not None, "no app bound"
        return self.app(environ, start_response)


BOUND = BoundApp()
CONFIG = SchemathesisConfig.from_dict(
    {
        "seed": SEED,
        # Unknown query parameters are ignored, as HTTP APIs do (a cache buster, a
        # tracking tag): they are not "invalid data" to be refused.
        "generation": {"mode": "all", "max-examples": EXAMPLES, "allow-extra-parameters": False},
        "phases": {
            "examples": {"enabled": False},  # the spec has no examples
            "coverage": {"enabled": True},
            "fuzzing": {"enabled": True},
            # Sequences send valid requests, so that they get somewhere; each step
            # is still checked like any other case.
            "stateful": {"enabled": True, "max-steps": STEPS, "generation": {"mode": "positive"}},
        },
        "checks": {
            # Schema-valid is not always rule-valid (duplicate names, an id of
            # another game's player, a call over the limit): 422 is right there.
            "positive_data_acceptance": {"enabled": False},
        },
    }
)
# An event stream answers for as long as the phone listens, and the fuzzer reads each answer to
# its end: the streams are tested over real HTTP instead (tests/server/test_events.py).
schema = schemathesis.openapi.from_path(SPEC, config=CONFIG).exclude(path_regex=r"/events$")
schema.app = BOUND


# Games and tables the fuzzer aims at


class Target:
    """A game this test created, with its token (and its table's, for a game at a table)."""

    def __init__(self, game: dict[str, Any], token: str, table_token: str | None = None) -> None:
        self.id = game["id"]
        self.token = token
        self.ruleset = game["ruleset"]
        self.players = [player["id"] for player in game["players"]]
        self.table = game.get("table")
        self.table_token = table_token


class TableTarget:
    """A table this test created, with its token and the games played at it."""

    def __init__(self, table: dict[str, Any], token: str, games: list[Target]) -> None:
        self.id = table["id"]
        self.token = token
        self.roster = [player["id"] for player in table["players"]]
        self.games = games


TARGETS: list[Target] = []
TABLES: list[TableTarget] = []
AIMED: set[str] = set()
"""Ids of the cases given a real token by the hook below. Schemathesis takes such a token for a
generated one, which its ``ignored_auth`` check expects to fail: that check is left out for
these cases (test_security.py checks the tokens; the other cases still go through it)."""


def _create_targets(app: Flask) -> list[Target]:
    """A Jhyap game with rounds, a Twenty Two game with rounds, and a finished Jhyap game."""
    client = app.test_client()
    jhyap = GameClient(client)
    jhyap.create(("Asha", "Bikash", "Chandra"), elimination_limit=500)
    for caller, totals in ((2, (17, 14, 3)), (0, (2, 30, 9)), (1, (12, 0, 25))):
        jhyap.jhyap(caller, *totals)
    twenty_two = GameClient(client)
    twenty_two.create(("Dipa", "Esha", "Firoz"), ruleset="twenty-two", starter=None)
    twenty_two.trick((1, "9C"), (2, "KD"), (0, "4H"))
    twenty_two.trick((2, "2S"), (0, "3S"), (1, "5C"))
    finished = GameClient(client)
    finished.create(("Gita", "Hari"), elimination_limit=10, halve_at=[])
    finished.jhyap(0, 0, 40)
    assert finished.get()["status"] == "finished"
    return [Target(table.game, table.token) for table in (jhyap, twenty_two, finished)]


def _created(response: Any) -> dict[str, Any]:
    assert response.status_code == 201, response.json
    body: dict[str, Any] = response.json
    return body


def _create_tables(app: Flask) -> list[TableTarget]:
    """A table with a Jhyap game (rounds, a join and a leave) and a Twenty Two game, and a quiet
    table of one roster player and no game."""
    client = app.test_client()
    roster = ["Asha", "Bikash", "Chandra", "Dev", "Esha"]
    crew = _created(client.post("/api/v1/tables", json={"name": "Friday crew", "players": roster}))
    token = crew.pop("token")
    auth = {"Authorization": f"Bearer {token}"}
    asha, bikash, chandra, dev, esha = (player["id"] for player in crew["players"])
    url = f"/api/v1/tables/{crew['id']}/games"
    jhyap = GameClient(client)
    jhyap.game = _created(
        client.post(
            url,
            json={
                "ruleset": "jhyap",
                "players": [asha, bikash, chandra],
                "dealer": 0,
                "starter": 1,
                "options": {"elimination_limit": 500},
            },
            headers=auth,
        )
    )
    game_token = jhyap.game.pop("token")
    jhyap.token = token  # the table's token writes to its games
    jhyap.jhyap(2, 17, 14, 3)
    seats = f"{jhyap.url}/seats"
    join = {"join": {"player": dev, "after": jhyap.players[0]}}
    jhyap.game = _created(client.post(seats, json=join, headers=auth))  # Asha, Dev, Bikash, Chandra
    jhyap.jhyap(0, 2, 30, 9, 12)
    jhyap.game = _created(client.post(seats, json={"leave": jhyap.players[2]}, headers=auth))
    twenty_two = GameClient(client)
    twenty_two.game = _created(
        client.post(
            url,
            json={"ruleset": "twenty-two", "players": [asha, esha, "Firoz"], "dealer": 0},
            headers=auth,
        )
    )
    twenty_two.token = twenty_two.game.pop("token")
    twenty_two.trick((1, "9C"), (2, "KD"), (0, "4H"))
    games = [
        Target(jhyap.game, game_token, token),
        Target(twenty_two.game, twenty_two.token, token),
    ]
    quiet = _created(client.post("/api/v1/tables", json={"name": "Quiet", "players": ["Gita"]}))
    quiet_token = quiet.pop("token")
    return [
        TableTarget(client.get(f"/api/v1/tables/{crew['id']}").json, token, games),
        TableTarget(quiet, quiet_token, []),
    ]


@pytest.fixture(autouse=True)
def _bind(app: Flask) -> Iterator[None]:
    BOUND.app = app
    TARGETS[:] = _create_targets(app)
    TABLES[:] = _create_tables(app)
    TARGETS.extend(game for table in TABLES for game in table.games)
    yield
    BOUND.app = None
    TARGETS.clear()
    TABLES.clear()
    AIMED.clear()


def _read(path: str) -> dict[str, Any] | None:
    """A resource as it stands (the fuzzer may have changed or deleted it), or ``None``."""
    assert BOUND.app is not None
    response = BOUND.app.test_client().get(path)
    return response.json if response.status_code == 200 else None


def _current(game_id: Any) -> dict[str, Any] | None:
    """A game as it stands, or ``None``."""
    return _read(f"/api/v1/games/{game_id}")


def _active(game: dict[str, Any]) -> list[int]:
    """Ids of the players still in the game (neither eliminated nor gone), in seat order."""
    return [p["id"] for p in game["players"] if not p["eliminated"] and not p.get("left")]


CARDS = [
    rank + suit
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    for suit in "SHDC"
]


def _valid_entry(game_id: Any, with_number: bool) -> dict[str, Any] | None:
    """An entry that fits a game's next round.

    Jhyap: the first player calls with 0, the others hold 3. Twenty Two: the
    players play, in seat order, the lowest cards nobody has kept.
    """
    game = _current(game_id)
    if game is None:
        return None
    active = _active(game)
    entry: dict[str, Any]
    if game["ruleset"] == "jhyap":
        hands = [
            {"player": player, "total": 0 if seat == 0 else 3} for seat, player in enumerate(active)
        ]
        entry = {"caller": active[0], "hands": hands}
    else:
        kept = {card for player in game["players"] for card in player.get("pile", [])}
        free = [card for card in CARDS if card not in kept]
        entry = {
            "last_trick": [{"player": p, "card": c} for p, c in zip(active, free, strict=False)]
        }
    if with_number and game["next_round"]:
        entry["number"] = game["next_round"]["number"]
    return entry


def _valid_seat_change(game_id: Any, pick: int) -> dict[str, Any] | None:
    """A join or a leave that fits the game as it stands, by ``pick`` and the game's state (so
    that the next change on the same game is another kind).

    A new name joins after an active player; at a table, a roster player who is not
    seated joins; an active player leaves. Every other one carries the expected number.
    """
    game = _current(game_id)
    if game is None or not (active := _active(game)):
        return None
    after = active[pick % len(active)]
    kind = (pick + game["rounds_played"] + len(game["players"])) % 3  # the next change differs
    change: dict[str, Any] = {"join": {"name": f"Guest {pick}", "after": after}}
    if kind == 1 and game.get("table") and (table := _read(f"/api/v1/tables/{game['table']}")):
        seated = {p["roster_id"] for p in game["players"] if not p.get("left")}
        free = [p["id"] for p in table["players"] if p["id"] not in seated]
        if free:
            change = {"join": {"player": free[pick % len(free)], "after": after}}
    elif kind == 2:
        change = {"leave": after}
    if pick % 2 == 0 and game["next_round"]:
        change["number"] = game["next_round"]["number"]
    return change


def _valid_table_game(table_id: Any, pick: int) -> dict[str, Any] | None:
    """A game at the table: roster players, by ``pick``, and a new name now and then."""
    table = _read(f"/api/v1/tables/{table_id}")
    if table is None:
        return None
    roster = [player["id"] for player in table["players"]]
    ruleset = ("jhyap", "twenty-two")[pick % 2]
    count = 2 + pick % 3
    players: list[int | str] = (roster[pick % len(roster) :] + roster)[:count] if roster else []
    players = list(dict.fromkeys(players))
    while len(players) < count:
        players.append(f"Newcomer {len(players)}")
    body: dict[str, Any] = {"ruleset": ruleset, "players": players, "dealer": pick % count}
    if ruleset == "jhyap":
        body["starter"] = (pick + 1) % count
    return body


def _valid_table_change(table_id: Any, pick: int) -> dict[str, Any] | None:
    """A rename of the table or of a roster player, or a new roster player."""
    table = _read(f"/api/v1/tables/{table_id}")
    if table is None:
        return None
    roster = [player["id"] for player in table["players"]]
    if pick % 3 == 0 or not roster:
        return {"name": f"Crew {pick}"}
    if pick % 3 == 1:
        return {"players": [{"id": roster[pick % len(roster)], "name": f"Renamed {pick}"}]}
    return {"add_players": [f"Regular {pick}"]}


PLAYER_KEYS = {"player", "caller", "id", "after", "leave"}


def _with_player_ids(value: Any, ids: list[int], pick: int, key: str | None = None) -> Any:
    """``value`` with integers under player-id keys replaced by ids of the target's players."""
    if not ids:
        return value
    if isinstance(value, dict):
        return {k: _with_player_ids(v, ids, pick + i, k) for i, (k, v) in enumerate(value.items())}
    if isinstance(value, list):
        return [_with_player_ids(item, ids, pick + i, key) for i, item in enumerate(value)]
    if key in PLAYER_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return ids[pick % len(ids)]
    return value


def _with_roster_ids(body: Any, roster: list[int], pick: int) -> Any:
    """A table write's body with generated integers among ``players`` made roster ids."""
    if not isinstance(body, dict) or not roster:
        return body
    body = _with_player_ids(body, roster, pick)
    players = body.get("players")
    if isinstance(players, list):
        body["players"] = [
            roster[(pick + i) % len(roster)]
            if isinstance(seat, int) and not isinstance(seat, bool)
            else seat
            for i, seat in enumerate(players)
        ]
    return body


AIMS = st.fixed_dictionaries(
    {
        "game": st.sampled_from([0, 1, 2, 3, 4, 0, 3, "generated"]),
        "token": st.sampled_from(["own", "own", "table", "other", "generated"]),
        "number": st.sampled_from([1, 2, 3, 4, "generated"]),
        "body": st.sampled_from(["valid", "valid", "player-ids", "generated"]),
        "pick": st.integers(min_value=0, max_value=5),
    }
)
TABLE_AIMS = st.fixed_dictionaries(
    {
        "table": st.sampled_from([0, 0, 1, "generated"]),
        "token": st.sampled_from(["own", "own", "game", "other", "generated"]),
        "body": st.sampled_from(["valid", "valid", "roster-ids", "generated"]),
        "pick": st.integers(min_value=0, max_value=5),
    }
)
NAMES = st.lists(
    st.sampled_from(
        ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Firoz", "  Gita ", "Hari Prasad"]
    ),
    min_size=2,
    max_size=7,
    unique=True,
)
WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def _authorize(case: Any, token: str) -> None:
    """Send ``token`` with ``case``, which ``ignored_auth`` then leaves alone."""
    case.headers["Authorization"] = f"Bearer {token}"
    AIMED.add(case.id)


def _aim(case: Any, aim: dict[str, Any]) -> Any:
    """Point ``case`` at a target game as ``aim`` says."""
    if aim["game"] == "generated" or not TARGETS:
        return case
    target = TARGETS[aim["game"]]
    case.path_parameters["game_id"] = target.id
    if "number" in case.path_parameters and aim["number"] != "generated":
        case.path_parameters["number"] = aim["number"]
    if case.operation.method.upper() in WRITES and aim["token"] != "generated":
        if aim["token"] == "other":
            token = TARGETS[(aim["game"] + 1) % len(TARGETS)].token
        elif aim["token"] == "table":
            token = target.table_token or target.token
        else:
            token = target.token
        _authorize(case, token)
    if isinstance(case.body, dict) and aim["body"] != "generated":
        body = None
        if aim["body"] == "valid" and "/rounds" in case.operation.path:
            with_number = case.operation.method.upper() == "POST" and aim["pick"] % 2 == 0
            body = _valid_entry(target.id, with_number)
        elif aim["body"] == "valid" and case.operation.path.endswith("/seats"):
            body = _valid_seat_change(target.id, aim["pick"])
        case.body = body or _with_player_ids(case.body, target.players, aim["pick"])
    return case


def _aim_at_table(case: Any, aim: dict[str, Any]) -> Any:
    """Point ``case`` at a target table as ``aim`` says: its token, a token of a game at it
    (which opens the game, not the table), another table's, or the generated one."""
    if aim["table"] == "generated" or not TABLES:
        return case
    target = TABLES[aim["table"]]
    case.path_parameters["table_id"] = target.id
    if case.operation.method.upper() in WRITES and aim["token"] != "generated":
        other = TABLES[(aim["table"] + 1) % len(TABLES)]
        if aim["token"] == "own":
            token = target.token
        elif aim["token"] == "game":
            token = (target.games or TARGETS)[aim["pick"] % len(target.games or TARGETS)].token
        else:
            token = other.token
        _authorize(case, token)
    if isinstance(case.body, dict) and aim["body"] != "generated":
        body = None
        if aim["body"] == "valid" and case.operation.path.endswith("/games"):
            body = _valid_table_game(target.id, aim["pick"])
        elif aim["body"] == "valid" and case.operation.method.upper() == "PATCH":
            body = _valid_table_change(target.id, aim["pick"])
        case.body = body or _with_roster_ids(case.body, target.roster, aim["pick"])
    return case


def _seat(case: Any, names: list[str] | None) -> Any:
    """A creation with real player names (generated ones are mostly refused), or as generated."""
    if names is not None and isinstance(case.body, dict):
        case.body = {**case.body, "players": names}
        if len(names) != 4:  # generated options are mostly unknown ones: keep them now and then
            case.body.pop("options", None)
        for seat in ("dealer", "starter"):
            if isinstance(case.body.get(seat), int):
                case.body[seat] = case.body[seat] % len(names)
    return case


def _roster(case: Any, names: list[str] | None) -> Any:
    """A new table of real player names now and then, or as generated."""
    if names is not None and isinstance(case.body, dict):
        case.body = {**case.body, "name": case.body.get("name") or "Crew", "players": names}
    return case


def _exported(case: Any, source: str | None) -> Any:
    """An import of a real export (of a target table or game, as it stands now), or as generated."""
    if source is not None and (document := _read(source)) is not None:
        case.body = document
    return case


def _fit(case: Any, fit: bool) -> Any:
    """A round entry that fits the case's own game, or the generated one."""
    if fit and isinstance(case.body, dict):
        case.body = _valid_entry(case.path_parameters["game_id"], with_number=False) or case.body
    return case


def _fit_seats(case: Any, pick: int | None) -> Any:
    """A seat change that fits the case's own game, or the generated one."""
    if pick is not None and isinstance(case.body, dict):
        case.body = _valid_seat_change(case.path_parameters["game_id"], pick) or case.body
    return case


def _fit_table_game(case: Any, pick: int | None) -> Any:
    """A game of the case's own table's roster players, or the generated one."""
    if pick is not None and isinstance(case.body, dict):
        case.body = _valid_table_game(case.path_parameters["table_id"], pick) or case.body
    return case


AIMING = {"on": True}
"""Off in the stateful test, where the spec's links choose the game, the table and the token."""
PICKS = st.sampled_from([0, 1, 2, 3, 4, 5, None])
"""Which fitting body to send (see ``_valid_seat_change``), or ``None`` for the generated one;
Hypothesis leans to the first of a list, so the generated body comes last."""


def _export_sources(kind: str) -> st.SearchStrategy[str | None]:
    """Where an import's body comes from: a target's export now and then, else as generated."""
    targets = TABLES if kind == "tables" else TARGETS
    return st.sampled_from([None, None, *(f"/api/v1/{kind}/{t.id}/export" for t in targets)])


@schema.hook
def flatmap_case(context: Any, case: Any) -> Any:
    """Aim cases with a ``game_id`` or ``table_id`` at the games and tables this test made,
    some of the time."""
    label, path = case.operation.label, case.operation.path
    if label == "POST /api/v1/games":
        return st.one_of(NAMES, st.none()).map(lambda names: _seat(case, names))
    if label == "POST /api/v1/tables":
        return st.one_of(NAMES, st.none()).map(lambda names: _roster(case, names))
    if label in {"POST /api/v1/games/import", "POST /api/v1/tables/import"}:
        if not AIMING["on"]:  # the links carry exports there
            return st.just(case)
        kind = "tables" if "tables" in label else "games"
        return _export_sources(kind).map(lambda source: _exported(case, source))
    if "game_id" not in case.path_parameters and "table_id" not in case.path_parameters:
        return st.just(case)
    if not AIMING["on"]:
        method = case.operation.method.upper()
        if "/rounds" in path and method in {"POST", "PUT"}:
            return st.sampled_from([True, False]).map(lambda fit: _fit(case, fit))
        if path.endswith("/seats"):
            return PICKS.map(lambda pick: _fit_seats(case, pick))
        if path.endswith("/tables/{table_id}/games"):
            return PICKS.map(lambda pick: _fit_table_game(case, pick))
        return st.just(case)
    if "table_id" in case.path_parameters:
        return TABLE_AIMS.map(lambda aim: _aim_at_table(case, aim))
    return AIMS.map(lambda aim: _aim(case, aim))


# Checks beyond schemathesis' own

LEAKS = [
    re.compile(pattern)
    for pattern in (
        r"Traceback \(most recent call last\)",
        r'File "[^"]*", line \d+',
        r"(?i)\bsqlalchemy\b|\bpsycopg\b|\bsqlite3?\b",
        r"\b(SELECT|INSERT INTO|UPDATE|DELETE FROM)\b.*\b(FROM|VALUES|SET|WHERE)\b",
        r"(?<![A-Za-z0-9])/(usr|home|work|tmp|opt|var|root)/",
        r"site-packages|\.py\b",
    )
]


def no_leaks(ctx: Any, response: Any, case: Any) -> bool | None:
    """Error bodies never carry a stack trace, SQL, or a file path."""
    if response.status_code < 400:
        return None
    text = response.text
    for pattern in LEAKS:
        match = pattern.search(text)
        assert match is None, f"The error body leaks {match.group(0)!r}: {text[:500]}"
    return None


def _excluded(case: Any) -> list[Any]:
    """``ignored_auth`` probes a request again without the token, or with a wrong one: after the
    game or table was deleted that probe can only answer 404, which proves nothing either way (the
    token checks on deletion are in test_security.py)."""
    aimed = case.id in AIMED
    AIMED.discard(case.id)
    deletes = {"DELETE /api/v1/games/{game_id}", "DELETE /api/v1/tables/{table_id}"}
    return [ignored_auth] if aimed or case.operation.label in deletes else []


def _count(case: Any, response: Any) -> None:
    CASES[case.operation.label] += 1
    STATUSES.setdefault(case.operation.label, Counter())[response.status_code] += 1


@schema.parametrize()
def test_every_operation_conforms(case: Any) -> None:
    """Generated valid and invalid requests: no 5xx, every answer as the spec says."""
    response = case.call()
    _count(case, response)
    case.validate_response(response, additional_checks=[no_leaks], excluded_checks=_excluded(case))


# Stateful: sequences along the spec's links


TABLE_WALK = [
    "POST /api/v1/tables",
    "GET /api/v1/tables/{table_id}",
    "POST /api/v1/tables/{table_id}/games",
    "POST /api/v1/games/{game_id}/rounds",
    "POST /api/v1/games/{game_id}/seats",
    "POST /api/v1/games/{game_id}/rematch",
    "GET /api/v1/tables/{table_id}/export",
    "POST /api/v1/tables/import",
    "DELETE /api/v1/tables/{table_id}",
]
"""The operations of a table's evening, which ``test_stateful_table_links`` walks alone (the
others, on the same links, are in ``test_stateful_links``)."""
TABLE_MILESTONES = [
    "a game at a table",
    "a round at a table",
    "a join at a table",
    "a leave at a table",
    "a rematch at a table",
    "an import of a table with games",
    "a table deleted",
]


def test_stateful_links(app: Flask) -> None:
    """Random sequences that follow the spec's links, with the same checks on every step."""
    _walk(schema, "stateful walk", SEED)


def test_stateful_table_links(app: Flask) -> None:
    """Sequences along the tables' links alone, so that they go deep: create a table, a game
    at it, record rounds, seat a newcomer and let a player leave, start a rematch, export the
    table, import the export, delete the table. Each of those steps is reached."""
    reached: Counter[str] = Counter()
    for walk in range(WALKS):
        title = f"stateful walk of tables, seed {SEED + 100 * walk}"
        reached += _walk(schema.include(name=TABLE_WALK), title, SEED + 100 * walk)
        if all(reached[name] for name in TABLE_MILESTONES):
            break
    assert [name for name in TABLE_MILESTONES if not reached[name]] == []


def _walk(machine_schema: Any, title: str, seed: int) -> Counter[str]:
    """Run sequences along ``machine_schema``'s links; report them and what they reached."""
    walked: dict[str, Counter[int]] = {}
    reached: Counter[str] = Counter()

    class Sequences(machine_schema.as_state_machine()):  # type: ignore[misc]
        def after_call(self, response: Any, case: Any) -> None:
            _count(case, response)
            CASES["stateful steps"] += 1
            walked.setdefault(case.operation.label, Counter())[response.status_code] += 1
            reached.update(_milestones(case, response))

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            # The token a link carries over looks "generated" to ignored_auth, which then
            # expects it to fail: that check runs in the per-operation test instead.
            try:
                case.validate_response(
                    response,
                    additional_checks=[no_leaks],
                    excluded_checks=[ignored_auth],
                    **kwargs,
                )
            except Exception as failure:
                failures.append(f"{case.operation.label}: {failure}")
                raise

    _start_where_no_id_is_needed(Sequences)
    failures: list[str] = []
    AIMING["on"] = False
    cut_short = 0
    try:
        cut_short = _run(Sequences, failures, seed)
    finally:
        AIMING["on"] = True
        report(f"{title} (status x count per operation):")
        for label in sorted(walked):
            statuses = " ".join(f"{status}x{n}" for status, n in sorted(walked[label].items()))
            report(f"  {label}  {statuses}")
        report("  reached: " + ", ".join(f"{name} x{n}" for name, n in sorted(reached.items())))
        report(f"  runs cut short by an unreplayable sequence: {cut_short}")
    return reached


def _milestones(case: Any, response: Any) -> list[str]:
    """The steps of the walk along the tables' links that this one shows reached."""
    label, status = case.operation.label, response.status_code
    if status not in (201, 204):
        return []
    body = response.json() if status == 201 else {}
    sent = case.body if isinstance(case.body, dict) else {}
    at_table = body.get("table") is not None
    if label.endswith("/rounds"):
        at_table = ((_current(case.path_parameters["game_id"]) or {}).get("table")) is not None
    reached = {
        "a game at a table": label.endswith("/tables/{table_id}/games"),
        "a round at a table": label.endswith("/rounds") and at_table,
        "a join at a table": label.endswith("/seats") and at_table and "join" in sent,
        "a leave at a table": label.endswith("/seats") and at_table and "leave" in sent,
        "a rematch at a table": label.endswith("/rematch") and at_table,
        "an import of a table with games": label.endswith("/tables/import")
        and bool(body.get("games")),
        "a table deleted": label == "DELETE /api/v1/tables/{table_id}",
    }
    return [name for name, happened in reached.items() if happened]


def _start_where_no_id_is_needed(Sequences: Any) -> None:
    """Sequences start with creations and imports only: an operation on a game or table with a
    made-up id can only answer 401 or 404 (the per-operation test sends those), so it is
    reached along the links instead."""
    for name in Sequences.root_rules:
        if "_game_id_" in name or "_table_id_" in name:
            setattr(Sequences, name, None)  # not a rule any more
    Sequences._root_labels = frozenset(
        label for label in Sequences._root_labels if "{" not in label
    )


def _run(Sequences: Any, failures: list[str], seed: int) -> int:
    """Run the sequences; the number of runs Hypothesis cut short as flaky.

    The API keeps its state between sequences (the database is the test's), so Hypothesis,
    replaying a prefix it has seen, may find other rules valid or another answer, and stops
    with ``Flaky``. Schemathesis' own runner takes that as the end of a run, not a failure, and
    so does this one: it starts again from the next seed, at most ``RUNS`` times. A check that
    failed is in ``failures`` (a failure Hypothesis could not replay included) and fails the test.
    """
    cut_short = 0
    for run in range(RUNS):
        hypothesis.seed(seed + run)(Sequences)  # the same sequences for the same seed
        try:
            Sequences.run(
                settings=hypothesis.settings(
                    max_examples=SEQUENCES,
                    stateful_step_count=STEPS,
                    deadline=None,
                    database=None,
                    suppress_health_check=list(hypothesis.HealthCheck),
                )
            )
            return cut_short
        except hypothesis.errors.Flaky:
            if failures:
                raise
            cut_short += 1
    return cut_short


def test_zz_cases_per_operation() -> None:
    """Print how many cases each operation got (runs last in this module)."""
    assert CASES, "the fuzz tests ran no case"
    width = max(len(label) for label in CASES)
    report(f"schemathesis (seed {SEED}, up to {EXAMPLES} random examples per operation and mode):")
    for label in sorted(CASES):
        statuses = " ".join(
            f"{status}x{count}" for status, count in sorted(STATUSES.get(label, {}).items())
        )
        report(f"  {label:<{width}}  {CASES[label]:>5} cases  {statuses}")
    report(f"  total: {sum(n for label, n in CASES.items() if label != 'stateful steps')} requests")
