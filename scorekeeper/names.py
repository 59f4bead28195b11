"""Player names: how they are stored, and when two of them are the same name."""

from __future__ import annotations

import unicodedata


def normalise_name(name: str) -> str:
    """A name as stored and shown: trimmed, in Unicode NFC."""
    return unicodedata.normalize("NFC", name.strip())


def name_key(name: str) -> str:
    """What names are compared by: NFKC with case folded (fullwidth and plain Asha are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def first_clash(names: list[str]) -> tuple[str, str] | None:
    """The first name that is the same as an earlier one, with that one; ``None`` if none is."""
    seen: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key in seen:
            return seen[key], name
        seen[key] = name
    return None
