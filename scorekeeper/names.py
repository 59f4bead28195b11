"""Player names: how they are stored, and when two of them are the same name."""

from __future__ import annotations

import unicodedata


def normalise_name(name: str) -> str:
    """A name as stored and shown: trimmed, in Unicode NFC."""
    return unicodedata.normalize("NFC", name.strip())


JOINERS = "\u200c\u200d"
"""The zero-width non-joiner and joiner: Bengali, Nepali and emoji sequences need them."""
_WITHOUT_JOINERS = str.maketrans("", "", JOINERS)


def printable_name(name: str) -> bool:
    """Whether every character of ``name`` shows, but joiners (``joiners_inside`` says where)."""
    return name.translate(_WITHOUT_JOINERS).isprintable()


def joiners_inside(name: str) -> bool:
    """Whether ``name`` neither begins nor ends with a joiner (so is not one alone)."""
    return not name or (name[0] not in JOINERS and name[-1] not in JOINERS)


def name_key(name: str) -> str:
    """What names are compared by: NFKC with case folded (fullwidth and plain Asha are one
    name), without joiners (which only change how the letters are drawn)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return folded.translate(_WITHOUT_JOINERS)


def first_clash(names: list[str]) -> tuple[str, str] | None:
    """The first name that is the same as an earlier one, with that one; ``None`` if none is."""
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key in seen:
            return seen[key], name
        seen[key] = name
    return None
