"""The registry of rulesets by name."""

from __future__ import annotations

from .base import Ruleset
from .errors import UnknownRuleset
from .jhyap import Jhyap
from .twenty_two import TwentyTwo
from .words import Message, listed

RULESETS: dict[str, type[Ruleset]] = {"jhyap": Jhyap, "twenty-two": TwentyTwo}


def get_ruleset(name: str) -> type[Ruleset]:
    """The ruleset class called ``name``."""
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        names = listed(list(RULESETS), "or")
        raise UnknownRuleset(
            Message("There is no ruleset {name!r}; choose {names}.", name=name, names=names),
            {"ruleset": [f"Choose {names}."]},
        ) from None
