"""What no error message may be: a library's words, bad plurals, sentences nested in prefixes.

``tests/conftest.py`` runs :func:`message_problems` on every error body the
suite's apps answer, so any test that provokes a badly worded error fails; and
:func:`untranslated` on every message id (template) those errors are made of,
so any test that provokes a message missing from a catalog fails too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from scorekeeper.language import LANGUAGES

TRANSLATIONS = Path(__file__).parent.parent / "scorekeeper" / "translations"

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
    if not message or message[0].islower():  # Bengali and Nepali letters have no case
        problems.append("does not start with a capital letter")
    if not message.endswith((".", "!", "?", "।")):
        problems.append("does not end a sentence")
    return problems


@cache
def catalog(language: str) -> dict[str, tuple[str, ...]]:
    """A catalog's translations by message id (a plural's by its singular), from its ``.po``."""
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
        messages = read_po(file)
    return {
        message.id[0] if isinstance(message.id, list | tuple) else message.id: (
            tuple(message.string) if isinstance(message.string, list | tuple) else (message.string,)
        )
        for message in messages
        if message.id and not message.fuzzy
    }


def untranslated(template: str) -> list[str]:
    """The languages whose catalog lacks ``template`` (with a translation for every form)."""
    return [
        language
        for language in LANGUAGES
        if language != "en" and not all(catalog(language).get(template, ("",)))
    ]
