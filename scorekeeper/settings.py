"""Reading the app's on/off settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ON = frozenset({"on", "true", "1", "yes"})
OFF = frozenset({"off", "false", "0", "no"})


def is_on(config: Mapping[str, Any], name: str) -> bool:
    """Whether the on/off setting ``name`` is on; a value that is neither is refused."""
    value = config[name]
    spelled = str(value).strip().lower()
    if spelled in ON:
        return True
    if spelled in OFF:
        return False
    raise ValueError(f"SCOREKEEPER_{name} must be on or off, not {value!r}.")
