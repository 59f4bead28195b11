"""Each ruleset's schemas: one module here per ruleset, holding ``SCHEMAS`` for the ruleset.

``rules.RULESETS`` is the one registry: this package's modules are read as
they are found in it, and each says which ruleset its schemas are for
(``RulesetSchemas.ruleset``); ``tests/api/test_rulesets_registry.py`` lists
what a ruleset must provide.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from marshmallow import Schema

from ...rules import RULESETS
from .base import NEXT_ROUND_FIELDS, PostedRoundSchema, RulesetSchemas


def _found_schemas() -> dict[str, RulesetSchemas]:
    """The ``SCHEMAS`` of every module of this package, by the ruleset each is for."""
    found: dict[str, RulesetSchemas] = {}
    for module in pkgutil.iter_modules(__path__):
        schemas = getattr(importlib.import_module(f"{__name__}.{module.name}"), "SCHEMAS", None)
        if isinstance(schemas, RulesetSchemas):
            found[schemas.ruleset] = schemas
    return found


_FOUND = _found_schemas()
RULESET_SCHEMAS: dict[str, RulesetSchemas] = {
    name: _FOUND[name] for name in RULESETS if name in _FOUND
}
"""Every ruleset's schemas, in the registry's order."""

POSTED_FIELDS = frozenset(PostedRoundSchema().fields)
"""What a posted round adds to any ruleset's entry: the number the phone expects, and when."""

NextRoundSchema = Schema.from_dict(
    {
        **NEXT_ROUND_FIELDS,
        **{
            name: field
            for schemas in RULESET_SCHEMAS.values()
            for name, field in schemas.next_round_fields.items()
        },
    },
    name="NextRoundSchema",
)
"""Who deals and starts the coming round, and what each ruleset says of it."""


def player_fields() -> dict[str, Any]:
    """The fields each ruleset adds to a player of the Game."""
    return {
        name: field
        for schemas in RULESET_SCHEMAS.values()
        for name, field in schemas.player_fields.items()
    }


def entered_as(body: Any, game_ruleset: str) -> str | None:
    """The ruleset a body its game's ruleset refused looks written for, to say so: the first
    other whose entry has every field of it (what a posted round adds aside), when the game's
    entry has not."""
    keys = set(body) - POSTED_FIELDS if isinstance(body, dict) else set()
    if not keys or keys <= RULESET_SCHEMAS[game_ruleset].entry_fields:
        return None
    return next(
        (
            name
            for name, schemas in RULESET_SCHEMAS.items()
            if name != game_ruleset and keys <= schemas.entry_fields
        ),
        None,
    )


def one_of(kind: str) -> dict[str, Any]:
    """A ``oneOf`` over each ruleset's component schema of ``kind`` (Entry, RoundPost, Round)."""
    return {
        "oneOf": [
            {"$ref": f"#/components/schemas/{schemas.component}{kind}"}
            for schemas in RULESET_SCHEMAS.values()
        ]
    }
