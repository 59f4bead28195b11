"""Each ruleset's schemas, found by the ruleset's name: ``rules.RULESETS`` is the one registry.

A ruleset called ``"twenty-two"`` has its schemas in ``twenty_two.py`` here, as
``SCHEMAS`` (a ``RulesetSchemas``); ``tests/api/test_rulesets_registry.py`` lists
what a ruleset must provide.
"""

from __future__ import annotations

import importlib
from typing import Any

from ...rules import RULESETS
from .base import RulesetSchemas

RULESET_SCHEMAS: dict[str, RulesetSchemas] = {
    name: importlib.import_module(f"{__name__}.{name.replace('-', '_')}").SCHEMAS
    for name in RULESETS
}


def ruleset_of_entry(body: Any) -> str:
    """Which ruleset an entry is written for: the one whose fields take all of the body's,
    else the one sharing most of them (so that a field it does not take is named)."""
    keys = set(body) - {"number"} if isinstance(body, dict) else set()
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
