"""Plain English for the engine's messages: counted nouns, lists of names, and templates.

A :class:`Message` is the English sentence itself (a ``str``) that also keeps
its template and parameters, so that the HTTP edge can say it in another
language (``scorekeeper.errors``) while the engine stays free of Flask and
gettext. Parameters that are messages are translated in turn; any other
parameter (a player's name, a number, a card code) is kept as given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any


class Message(str):
    """An English sentence or phrase that remembers its template and parameters."""

    template: str
    """The English template (``str.format`` fields), the gettext message id."""
    plural: str | None
    """The English template for a ``count`` other than 1, for ngettext; ``None`` if none."""
    params: Mapping[str, Any]
    lowered: tuple[str, ...]
    """Parameters that continue a sentence: said with a small first letter."""
    capitalised: bool
    """Whether the whole message starts a sentence: said with a capital first letter."""

    def __new__(cls, template: str, /, **params: Any) -> Message:
        return cls.composed(template.format(**params) if params else template, template, params)

    @classmethod
    def counted(cls, count: int, singular: str, plural: str, /, **params: Any) -> Message:
        """``singular`` or ``plural`` by ``count``, which the templates name ``{count}``."""
        params = {"count": count, **params}
        text = (singular if count == 1 else plural).format(**params)
        return cls.composed(text, singular, params, plural=plural)

    @classmethod
    def composed(
        cls,
        text: str,
        template: str,
        params: Mapping[str, Any],
        *,
        plural: str | None = None,
        lowered: tuple[str, ...] = (),
        capitalised: bool = False,
    ) -> Message:
        """A message whose English ``text`` the caller worked out from ``template`` itself."""
        message = super().__new__(cls, text)
        message.template = template
        message.plural = plural
        message.params = dict(params)
        message.lowered = lowered
        message.capitalised = capitalised
        return message


def count_of(count: int, noun: str, plural: str | None = None) -> Message:
    """``count`` with ``noun`` in the right number: "1 point", "2 points", "0 cards"."""
    return Message.counted(count, f"{{count}} {noun}", f"{{count}} {plural or noun + 's'}")


def listed(items: Sequence[str], conjunction: str = "and") -> str:
    """Items joined as a sentence lists them: "A", "A and B", "A, B and C".

    The items are kept as given (names, codes); the joining words are translated.
    """
    if len(items) <= 1:
        return "".join(items)
    rest = ", ".join(items[:-1])
    return Message(f"{{rest}} {conjunction} {{last}}", rest=rest, last=items[-1])


def shown(value: object) -> str:
    """A value the table sent, as a person reads it in a sentence: text in double quotes, each
    character that does not show written as its code point (``"KH<U+0000>"``); anything else
    as JSON writes it (``12``, ``null``)."""
    if not isinstance(value, str):
        try:
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        except TypeError:  # not a JSON value (only a Python caller could send one)
            return str(value)
    return '"' + "".join(c if c.isprintable() else f"<U+{ord(c):04X}>" for c in value) + '"'


SENTENCE_OPENERS = frozenset(
    {"A", "An", "The", "Give", "Only", "This", "That", "In", "There", "Player", "Round", "Send"}
)
"""First words of messages that continue in lower case after a colon (names keep theirs)."""


def in_context(context: str, reason: str) -> Message:
    """``context``, then the sentence ``reason`` continuing it after a colon."""
    context = context if isinstance(context, Message) else Message(context)
    reason = reason if isinstance(reason, Message) else Message(reason)
    text: str = reason
    if reason.split(" ", 1)[0] in SENTENCE_OPENERS:
        text = reason[:1].lower() + reason[1:]
    return Message.composed(
        f"{context}: {text}",
        "{context}: {reason}",
        {"context": context, "reason": reason},
        lowered=("reason",),
    )
