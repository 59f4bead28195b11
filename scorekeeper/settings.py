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


def check_shared_rate_limits(config: Mapping[str, Any], workers: int) -> None:
    """Refuse ``workers`` processes that would each keep their own rate-limit counters."""
    in_memory = str(config["RATE_LIMIT_STORAGE_URI"]).startswith("memory://")
    if workers > 1 and in_memory and is_on(config, "RATE_LIMITS"):
        raise RuntimeError(
            f"{workers} worker processes would each count the rate limits in their own memory, "
            "letting a client through several times the limit. Run one worker (it serves many "
            "connections at once), "
            "or share the counters: SCOREKEEPER_RATE_LIMIT_STORAGE_URI=redis://127.0.0.1:6379."
        )
