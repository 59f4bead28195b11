"""The migration that gives states stored before seat changes their fields, for the tests.

Revision ``5b7d2e9c4a10`` holds the upgrade the engines once made on every read;
its ``upgraded`` is pure, so the rules tests use it to load such a state.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

_PATH = (
    Path(__file__).resolve().parents[1]
    / "migrations"
    / "versions"
    / "5b7d2e9c4a10_stored_states_hold_every_field.py"
)
_SPEC = importlib.util.spec_from_file_location("stored_states_migration", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
_MIGRATION = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_MIGRATION)


def upgraded(ruleset: str, state: dict[str, Any], seating: Any) -> dict[str, Any]:
    """``state`` as the migration stores it, for a game whose players sit as ``seating``."""
    return _MIGRATION.upgraded(ruleset, state, list(seating))
