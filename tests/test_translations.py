"""The gettext catalogs: complete, with the English template's fields, and compiled.

The compiled ``.mo`` files are committed beside their ``.po`` files, so that a
plain ``pip install`` serves them; this test fails when a ``.po`` was edited
without ``pybabel compile -d scorekeeper/translations``.
"""

from __future__ import annotations

from pathlib import Path
from string import Formatter

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from scorekeeper.language import LANGUAGES

TRANSLATIONS = Path(__file__).parent.parent / "scorekeeper" / "translations"
TRANSLATED = [language for language in LANGUAGES if language != "en"]


def fields(template: str) -> set[str]:
    """The replacement fields of a ``str.format`` template."""
    return {name for _, name, _, _ in Formatter().parse(template) if name is not None}


def entries(path: Path) -> dict[object, object]:
    """A catalog's messages (id to translation), without its header."""
    with path.open("rb") as file:
        catalog = read_mo(file) if path.suffix == ".mo" else read_po(file)
    return {_tuple(message.id): _tuple(message.string) for message in catalog if message.id}


def _tuple(value: object) -> object:
    """A plural message's ids or strings as a tuple (a list in some readers)."""
    return tuple(value) if isinstance(value, list | tuple) else value


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_same_fields(language: str) -> None:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
        catalog = read_po(file)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if (
            message.fuzzy
            or not all(strings)
            or len(strings) != catalog.num_plurals ** (len(ids) > 1)
        ):
            problems.append(f"{ids[0]!r}: fuzzy, empty or missing a plural form")
        for string in strings:
            if fields(string) != fields(ids[0]) | (fields(ids[-1]) if len(ids) > 1 else set()):
                problems.append(f"{ids[0]!r}: fields {fields(string)} in {string!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalog_is_up_to_date(language: str) -> None:
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    assert entries(folder / "messages.mo") == entries(folder / "messages.po"), (
        "run: pybabel compile -d scorekeeper/translations"
    )


def test_every_catalog_has_the_same_messages() -> None:
    ids = {
        language: set(entries(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"))
        for language in TRANSLATED
    }
    assert all(found == ids[TRANSLATED[0]] for found in ids.values())
