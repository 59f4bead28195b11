"""The conformance vectors the JavaScript rules engine replays are the Python engine's answers now.

``tests/js/rules-conformance.test.js`` (``npm test``) replays the committed vectors on
``scorekeeper/static/js/rules/``; these tests fail when the Python engine would answer differently
(the vectors are stale), and when the vectors stop reaching the rules' edges.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import RULESETS
from tests.conformance import generate

MAX_BYTES = 3_000_000


@cache
def built() -> dict[Path, str]:
    """The vectors files as the engine writes them now."""
    return generate.build()


def vectors() -> list[dict[str, Any]]:
    """Every vector, from the files as built now."""
    return [vector for text in built().values() for vector in json.loads(text)["vectors"]]


def test_committed_vectors_are_what_the_engine_gives_now() -> None:
    stale = [path.name for path in generate.stale(built())]
    assert not stale, f"stale: run {generate.COMMAND} ({', '.join(stale)} differ)"


def test_vectors_stay_a_few_megabytes() -> None:
    assert sum(len(text.encode()) for text in built().values()) < MAX_BYTES


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_option_value_is_played(ruleset: str) -> None:
    """Each option's minimum, maximum and default, and every choice, start a game played on."""
    played: dict[str, set[str]] = {}
    for vector in vectors():
        if vector["ruleset"] == ruleset and "options" in vector["start"] and vector["items"]:
            for name, value in vector["start"]["options"].items():
                played.setdefault(name, set()).add(json.dumps(value))
    for spec in RULESETS[ruleset].option_specs:
        wanted = [spec.default, *spec.choices]
        if spec.kind == "integer":
            wanted += [spec.minimum, spec.maximum]
        if spec.kind == "even_integers":
            wanted += [[], list(range(20, 20 * (spec.max_items or 0) + 1, 20))]
        missing = [v for v in wanted if json.dumps(v) not in played.get(spec.name, set())]
        assert not missing, f"{ruleset} games never play {spec.name} = {missing}"


def test_the_vectors_reach_the_rules_edges() -> None:
    seen: Counter[str] = Counter()
    for vector in vectors():
        before = vector["start"].get("state")
        for item in vector["items"]:
            kind = next(iter(item))
            if "refused" in item:
                seen[f"refused {kind}"] += 1
                continue
            result, state = item["result"], item["state"]
            seen[kind] += 1
            seen["halved"] += any(row.get("halved") for row in result.get("results", []))
            seen["several out"] += sum(row["eliminated"] for row in result.get("results", [])) > 1
            seen["shared win"] += len(result["game"]["winners"]) > 1
            seen["tie taken"] += len(result.get("takers", [])) > 1
            piles = state.get("piles", [])
            seen["piles back"] += bool(
                before and sum(map(len, before.get("piles", []))) and not sum(map(len, piles))
            )
            before = state
    for edge in ["play", "join", "leave", "refused play", "refused join", "refused leave",
                 "halved", "several out", "shared win", "tie taken", "piles back"]:  # fmt: skip
        assert seen[edge] >= 2, f"no vector has {edge!r}"
