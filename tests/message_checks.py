"""What no error message may be: a library's words, bad plurals, sentences nested in prefixes.

``tests/conftest.py`` runs :func:`message_problems` on every error body the
suite's apps answer, so any test that provokes a badly worded error fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

LIBRARY_PHRASES = (
    "Not a valid",
    "Missing data for required field",
    "Unknown field",
    "Length must be",
    "Must be one of:",
    "Must be equal to",
    "Field may not be null",
    "Invalid input type",
    "Invalid value",
    "Longer than maximum length",
    "mapping type",
    "utf-8-sig",
    "decode using",
    "Expecting value",
    "Expecting property name",
    "Error parsing headers",
    "Invalid Request Line",
    "limit request",
    "Traceback",
    "The request has an invalid field",
)
BAD_GRAMMAR = {
    "a plural after 1": re.compile(
        r"\b1 (points|cards|players|rounds|characters|levels|scores|requests|hands|decks"
        r"|copies|jokers|seconds|minutes|games)\b"
    ),
    "a sentence restarted after a colon": re.compile(
        r": (The|A|An|Give|Only|This|That|Option|In|Send|Player|Round|Each)\b"
    ),
    "a field-name prefix": re.compile(r"^(Option \w+|The first \w+|[a-z_\[\]0-9.]+):"),
    "two sentences": re.compile(r"[a-z][.!?] [A-Z]"),
    # "The newcomer give join or leave": a problem worded as an order, after the field's name.
    "an order after a field's name": re.compile(r'^The [a-z _"]+? (give|send) '),
}


def _texts(value: Any) -> Iterator[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def message_problems(error: dict[str, Any]) -> list[str]:
    """What is wrong with an error body's ``message`` and ``details``; empty if nothing is."""
    message = error.get("message", "")
    problems = [
        f"library words {phrase!r}"
        for text in (message, *_texts(error.get("details", {})))
        for phrase in LIBRARY_PHRASES
        if phrase in text
    ]
    problems += [name for name, pattern in BAD_GRAMMAR.items() if pattern.search(message)]
    if not message or (not message[0].isupper() and message[0].isalpha()):
        problems.append("does not start with a capital letter")
    if not message.endswith((".", "!", "?")):
        problems.append("does not end a sentence")
    return problems
