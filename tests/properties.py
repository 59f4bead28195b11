"""How many examples a Hypothesis property runs: its weight, scaled by the profile loaded.

Profiles (registered in ``tests/conftest.py``): ``suite``, the README's test command, runs each
property on half its weight; ``thorough``, which ``.ci/run`` runs the properties again with,
on twice its weight. A weight is the examples a property runs at Hypothesis's default (100).
"""

from __future__ import annotations

from hypothesis import settings

HYPOTHESIS_DEFAULT_EXAMPLES = 100
PROFILES = {"suite": 50, "thorough": 200}
"""Each profile's ``max_examples``: what a property of weight 100 runs."""


def examples(weight: int) -> int:
    """The examples a property of ``weight`` runs under the profile loaded now."""
    return max(1, round(weight * settings.default.max_examples / HYPOTHESIS_DEFAULT_EXAMPLES))
