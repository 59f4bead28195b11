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


SENTENCE_OPENERS = frozenset(
    {"A", "An", "The", "Give", "Only", "This", "That", "In", "There", "Player", "Round", "Send"}
)
"""First words of messages that continue in lower case after a colon (names keep theirs)."""


def in_context(context: str, reason: str) -> str:
    """``context``, then the sentence ``reason`` continuing it after a colon."""
    if reason.split(" ", 1)[0] in SENTENCE_OPENERS:
        reason = reason[:1].lower() + reason[1:]
    return f"{context}: {reason}"
