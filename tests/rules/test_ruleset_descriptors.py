"""What the page draws each ruleset by: the descriptor GET /api/v1/rulesets carries.

``tests/js/rulesets.json`` holds each ruleset's limits and descriptor as the service lists them;
``tests/js/rulesets.test.js`` checks the JavaScript rules describe them the same.
"""

from __future__ import annotations

import json

import pytest

from scorekeeper.rules import RULESETS
from tests.conformance import generate

ENTRY_KINDS = {"caller_and_totals", "one_card_each", "hearts_and_queen", "points"}
COLUMNS = {"hand", "card", "taken", None}
SUMMARIES = {"call", "trick", "moon", None}


def test_the_committed_descriptors_are_the_services() -> None:
    assert generate.DESCRIPTORS.read_text("utf-8") == generate.descriptors(), (
        f"stale: run {generate.COMMAND}"
    )


@pytest.mark.parametrize("name", list(RULESETS))
def test_a_descriptor_names_kinds_the_page_draws(name: str) -> None:
    rules = RULESETS[name]
    described = rules.describe()
    assert described["entry"]["kind"] in ENTRY_KINDS
    assert described["results"]["column"] in COLUMNS
    assert described["summary"] in SUMMARIES
    assert described["starter"] in {"starts", "leads", None}
    assert described["limit"] is None or described["limit"] in described["options"]
    figures = rules.standing_figures(dict.fromkeys(rules.tally_names, 2), eliminations=1)
    for figure in described["figures"]:
        assert figure["name"] in figures and figure["words"].startswith("fig_")
        assert figure.get("of") is None or figure["of"] in figures
    json.dumps(described)  # the listing is JSON
