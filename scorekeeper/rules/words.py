"""Plain English for the engine's messages: counted nouns and lists of names."""

from __future__ import annotations

from collections.abc import Sequence


def count_of(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` with ``noun`` in the right number: "1 point", "2 points", "0 cards"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def listed(items: Sequence[str], conjunction: str = "and") -> str:
    """Items joined as a sentence lists them: "A", "A and B", "A, B and C"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"
