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
from .base import NEXT_ROUND_FIELDS, RulesetSchemas


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


def rulesets_taking(body: Any) -> list[str]:
    """The rulesets whose entries have every field of ``body`` (its round number aside)."""
    keys = set(body) - {"number"} if isinstance(body, dict) else set()
    return [name for name, schemas in RULESET_SCHEMAS.items() if keys <= schemas.entry_fields]


def ruleset_of_entry(body: Any, game_ruleset: str | None = None) -> str:
    """Which ruleset an entry is written for: the game's if its fields take all of the body's,
    else the one whose fields take all of them, else the one sharing most of them (so that a
    field it does not take is named)."""
    keys = set(body) - {"number"} if isinstance(body, dict) else set()
    if game_ruleset in RULESET_SCHEMAS and keys <= RULESET_SCHEMAS[game_ruleset].entry_fields:
        return game_ruleset
    return max(
        RULESET_SCHEMAS,
        key=lambda name: (
            keys <= RULESET_SCHEMAS[name].entry_fields,
            len(keys & RULESET_SCHEMAS[name].entry_fields),
        ),
    )


def one_of(kind: str) -> dict[str, Any]:
    """A ``oneOf`` over each ruleset's component schema of ``kind`` (Entry, RoundPost, Round)."""
    return {
        "oneOf": [
            {"$ref": f"#/components/schemas/{schemas.component}{kind}"}
            for schemas in RULESET_SCHEMAS.values()
        ]
    }
