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
generated request at one of the games this test created, with its own token,
another game's token, or the generated one, and swaps generated player ids
for that game's players, so that the fuzzer reaches the rules and storage
rather than stopping at 404 and 401. ``test_stateful_links`` then follows the
spec's OpenAPI links (create a game, record rounds with its id and token,
correct, undo, export, import the export...) in random sequences.

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
from tests.conftest import TableActions

from .conftest import report

SPEC = PROJECT_ROOT / "openapi.yaml"
SEED = int(os.environ.get("SCOREKEEPER_FUZZ_SEED", "20261130"))
EXAMPLES = int(os.environ.get("SCOREKEEPER_FUZZ_EXAMPLES", "60"))
STEPS = int(os.environ.get("SCOREKEEPER_FUZZ_STEPS", "40"))
SEQUENCES = int(os.environ.get("SCOREKEEPER_FUZZ_SEQUENCES", "40"))

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
schema = schemathesis.openapi.from_path(SPEC, config=CONFIG)
schema.app = BOUND


# Games the fuzzer aims at


class Target:
    """A game this test created, with its token."""

    def __init__(self, table: TableActions) -> None:
        self.id = table.id
        self.token = table.token
        self.ruleset = table.game["ruleset"]
        self.players = table.players


TARGETS: list[Target] = []
AIMED: set[str] = set()
"""Ids of the cases given a real token by the hook below. Schemathesis takes such a token for a
generated one, which its ``ignored_auth`` check expects to fail: that check is left out for
these cases (test_security.py checks the tokens; the other cases still go through it)."""


def _create_targets(app: Flask) -> list[Target]:
    """A Jhyap game with rounds, a Twenty Two game with rounds, and a finished Jhyap game."""
    client = app.test_client()
    jhyap = TableActions(client)
    jhyap.create(("Asha", "Bikash", "Chandra"), elimination_limit=500)
    for caller, totals in ((2, (17, 14, 3)), (0, (2, 30, 9)), (1, (12, 0, 25))):
        jhyap.jhyap(caller, *totals)
    twenty_two = TableActions(client)
    twenty_two.create(("Dipa", "Esha", "Firoz"), ruleset="twenty-two", starter=None)
    twenty_two.trick((1, "9C"), (2, "KD"), (0, "4H"))
    twenty_two.trick((2, "2S"), (0, "3S"), (1, "5C"))
    finished = TableActions(client)
    finished.create(("Gita", "Hari"), elimination_limit=10, halve_at=[])
    finished.jhyap(0, 0, 40)
    assert finished.get()["status"] == "finished"
    return [Target(table) for table in (jhyap, twenty_two, finished)]


@pytest.fixture(autouse=True)
def _bind(app: Flask) -> Iterator[None]:
    BOUND.app = app
    TARGETS[:] = _create_targets(app)
    yield
    BOUND.app = None
    TARGETS.clear()
    AIMED.clear()


def _current(game_id: Any) -> dict[str, Any] | None:
    """A game as it stands (the fuzzer may have changed or deleted it), or ``None``."""
    assert BOUND.app is not None
    response = BOUND.app.test_client().get(f"/api/v1/games/{game_id}")
    return response.json if response.status_code == 200 else None


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
    active = [player["id"] for player in game["players"] if not player["eliminated"]]
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


def _with_player_ids(value: Any, ids: list[int], pick: int, key: str | None = None) -> Any:
    """``value`` with integers under player-id keys replaced by ids of the target's players."""
    if isinstance(value, dict):
        return {k: _with_player_ids(v, ids, pick + i, k) for i, (k, v) in enumerate(value.items())}
    if isinstance(value, list):
        return [_with_player_ids(item, ids, pick + i, key) for i, item in enumerate(value)]
    if key in {"player", "caller", "id"} and isinstance(value, int) and not isinstance(value, bool):
        return ids[pick % len(ids)]
    return value


AIMS = st.fixed_dictionaries(
    {
        "game": st.sampled_from([0, 1, 2, 0, "generated"]),
        "token": st.sampled_from(["own", "own", "other", "generated"]),
        "number": st.sampled_from([1, 2, 3, 4, "generated"]),
        "body": st.sampled_from(["valid", "valid", "player-ids", "generated"]),
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


def _aim(case: Any, aim: dict[str, Any]) -> Any:
    """Point ``case`` at a target game as ``aim`` says."""
    if aim["game"] == "generated" or not TARGETS:
        return case
    target = TARGETS[aim["game"]]
    case.path_parameters["game_id"] = target.id
    if "number" in case.path_parameters and aim["number"] != "generated":
        case.path_parameters["number"] = aim["number"]
    if (
        case.operation.method.upper() in {"POST", "PUT", "PATCH", "DELETE"}
        and aim["token"] != "generated"
    ):
        owner = target if aim["token"] == "own" else TARGETS[(aim["game"] + 1) % len(TARGETS)]
        case.headers["Authorization"] = f"Bearer {owner.token}"
        AIMED.add(case.id)
    if isinstance(case.body, dict) and aim["body"] != "generated":
        body = None
        if aim["body"] == "valid" and "/rounds" in case.operation.path:
            with_number = case.operation.method.upper() == "POST" and aim["pick"] % 2 == 0
            body = _valid_entry(target.id, with_number)
        case.body = body or _with_player_ids(case.body, target.players, aim["pick"])
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


def _fit(case: Any, fit: bool) -> Any:
    """A round entry that fits the case's own game, or the generated one."""
    if fit and isinstance(case.body, dict):
        case.body = _valid_entry(case.path_parameters["game_id"], with_number=False) or case.body
    return case


AIMING = {"on": True}
"""Off in the stateful test, where the spec's links choose the game and its token."""


@schema.hook
def flatmap_case(context: Any, case: Any) -> Any:
    """Aim cases with a ``game_id`` at the games this test made, some of the time."""
    if case.operation.label == "POST /api/v1/games":
        return st.one_of(NAMES, st.none()).map(lambda names: _seat(case, names))
    if "game_id" not in case.path_parameters:
        return st.just(case)
    if not AIMING["on"]:
        if "/rounds" in case.operation.path and case.operation.method.upper() in {"POST", "PUT"}:
            return st.booleans().map(lambda fit: _fit(case, fit))
        return st.just(case)
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
    game was deleted that probe can only answer 404, which proves nothing either way (the
    token checks on deletion are in test_security.py)."""
    aimed = case.id in AIMED
    AIMED.discard(case.id)
    return (
        [ignored_auth] if aimed or case.operation.label == "DELETE /api/v1/games/{game_id}" else []
    )


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


def test_stateful_links(app: Flask) -> None:
    """Random sequences that follow the spec's links, with the same checks on every step."""

    class Sequences(schema.as_state_machine()):  # type: ignore[misc]
        def after_call(self, response: Any, case: Any) -> None:
            _count(case, response)
            CASES["stateful steps"] += 1

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            # The token a link carries over looks "generated" to ignored_auth, which then
            # expects it to fail: that check runs in the per-operation test instead.
            case.validate_response(
                response, additional_checks=[no_leaks], excluded_checks=[ignored_auth], **kwargs
            )

    AIMING["on"] = False
    try:
        _run(Sequences)
    finally:
        AIMING["on"] = True


def _run(Sequences: Any) -> None:
    hypothesis.seed(SEED)(Sequences)  # the same sequences for the same seed
    Sequences.run(
        settings=hypothesis.settings(
            max_examples=SEQUENCES,
            stateful_step_count=STEPS,
            deadline=None,
            database=None,
            suppress_health_check=list(hypothesis.HealthCheck),
        )
    )


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
