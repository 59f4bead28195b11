"""The registry of rulesets by name."""

from __future__ import annotations

from typing import Any

from .base import Ruleset
from .errors import UnknownRuleset
from .hearts import Hearts
from .jhyap import Jhyap
from .score_pad import ScorePad
from .twenty_two import TwentyTwo
from .words import Message, listed

RULESETS: dict[str, type[Ruleset[Any, Any]]] = {
    "jhyap": Jhyap,
    "twenty-two": TwentyTwo,
    "hearts": Hearts,
    "score-pad": ScorePad,
}


def get_ruleset(name: str) -> type[Ruleset[Any, Any]]:
    """The ruleset class called ``name``."""
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        names = listed(list(RULESETS), "or")
        raise UnknownRuleset(
            Message("There is no ruleset {name!r}; choose {names}.", name=name, names=names),
            {"ruleset": [f"Choose {names}."]},
        ) from None
