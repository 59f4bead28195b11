"""What a ruleset must provide: a rules class in the registry and a schema module beside the API.

A third ruleset is one module in ``scorekeeper/rules/``, one line in
``rules/registry.py`` and one module in ``scorekeeper/api/rulesets/`` named
after it; these tests say what each must hold.
"""

from __future__ import annotations

import inspect

import pytest
from marshmallow import Schema

from scorekeeper.api.rulesets import RULESET_SCHEMAS, entered_as
from scorekeeper.api.rulesets.base import RulesetSchemas
from scorekeeper.rules import RULESETS, Ruleset


@pytest.mark.parametrize("name", list(RULESETS))
def test_a_ruleset_has_a_complete_rules_class(name):
    rules = RULESETS[name]
    assert issubclass(rules, Ruleset) and not inspect.isabstract(rules)
    assert rules.name == name
    assert rules.title and 2 <= rules.min_players <= rules.max_players
    assert isinstance(rules.chooses_starter, bool)
    assert all(spec.name and spec.description for spec in rules.option_specs)
    assert rules.describe()["name"] == name


@pytest.mark.parametrize("name", list(RULESETS))
def test_a_ruleset_has_its_schemas(name):
    schemas = RULESET_SCHEMAS[name]
    assert isinstance(schemas, RulesetSchemas)
    for schema in (schemas.entry, schemas.round_post, schemas.round):
        assert isinstance(schema, Schema)
    assert "number" in schemas.round_post.fields and "number" not in schemas.entry_fields
    assert set(schemas.components()) == {
        f"{schemas.component}Round",
        f"{schemas.component}Entry",
        f"{schemas.component}RoundPost",
    }


def test_every_ruleset_has_schemas_and_no_schemas_lack_a_ruleset():
    assert list(RULESET_SCHEMAS) == list(RULESETS)


@pytest.mark.parametrize(
    ("body", "game", "entered"),
    [
        ({"caller": 1, "hands": []}, "twenty-two", "jhyap"),
        ({"last_trick": [], "number": 3}, "jhyap", "twenty-two"),
        ({"last_trick": [], "played_at": "2026-12-03T20:00:00Z"}, "jhyap", "twenty-two"),
        ({"hands": [], "queen": 1}, "twenty-two", "hearts"),
        ({"caller": 1, "hands": []}, "jhyap", None),  # the game's own shape: its errors say
        ({"hands": []}, "hearts", None),  # Hearts' entries have hands too
        ({"caller": 1, "hands": [], "last_trick": []}, "twenty-two", None),  # nobody's
        ({}, "twenty-two", None),
        ({"number": 3}, "jhyap", None),
        ({"note": "x"}, "jhyap", None),
    ],
)
def test_a_refused_entry_is_said_to_be_another_rulesets_only_when_it_has_that_shape(
    body, game, entered
):
    assert entered_as(body, game) == entered


def test_a_round_in_another_rulesets_shape_is_refused_in_plain_words(table):
    table.create(ruleset="twenty-two", dealer=0, starter=None)

    response = table.post_round(table.jhyap_entry(0, (1, 2, 3)))

    assert response.status_code == 422
    assert response.json["error"]["message"] == (
        "This game is Twenty Two, but the round was entered as Jhyap."
    )
    assert table.get()["rounds_played"] == 0
