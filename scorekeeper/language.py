"""The language of error messages: ``Accept-Language`` among en, fil, bn, ne (api.md, "Language").

Messages are written in English; gettext catalogs in ``translations/`` say
them in the other languages. The rules engine and the domain raise
:class:`~scorekeeper.rules.words.Message` values (English text that keeps its
template and parameters); :func:`localise` translates the template, then
fills in the parameters, translating those that are messages in turn. Names
and other plain parameters are kept as given.
"""

from __future__ import annotations

from typing import Any

from blinker import Namespace
from flask import Flask, current_app, request
from flask_babel import Babel, get_locale, get_translations

from .rules.words import Message

LANGUAGES = ("en", "fil", "bn", "ne")
"""The languages messages are written in; English when a request asks for none of them."""
ALIASES = {"tl": "fil"}
"""Tags some phones send for a language we write under another tag (Tagalog as Filipino)."""

signals = Namespace()
message_translated = signals.signal("message-translated")
"""Sent with ``template`` and ``plural`` for each message id looked up (tests check catalogs)."""


def select_language() -> str:
    """The first language of ``Accept-Language``, by quality, that messages are written in."""
    for tag, quality in request.accept_languages:
        language = tag.lower().replace("_", "-").split("-", 1)[0]
        language = ALIASES.get(language, language)
        if quality > 0 and language in LANGUAGES:
            return language
    return "en"


def register_language(app: Flask) -> None:
    """Choose each request's language from its ``Accept-Language`` (Flask-Babel)."""
    Babel(app, locale_selector=select_language, default_locale="en")


def localise(text: str) -> str:
    """``text`` in the request's language: a message's template translated, then filled in."""
    message = text if isinstance(text, Message) else Message(text)
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    for template, plural in message_ids(message):
        message_translated.send(app, template=template, plural=plural)
    if str(get_locale()) == "en":
        return str(text)
    said, _ = _translated(message)
    return said


def message_ids(message: Message) -> list[tuple[str, str | None]]:
    """The message ids (template, and plural template or ``None``) ``message`` is made of."""
    ids = [(message.template, message.plural)] if message.template else []
    for value in message.params.values():
        if isinstance(value, Message):
            ids += message_ids(value)
    return ids


def _translated(message: Message) -> tuple[str, str]:
    """``message`` in the request's language, and the translated template it was made from."""
    if not message.template:
        return str(message), ""
    translations = get_translations()
    if message.plural is None:
        template = translations.gettext(message.template)
    else:
        count = message.params["count"]
        template = translations.ngettext(message.template, message.plural, count)
    params: dict[str, Any] = {}
    for name, value in message.params.items():
        said, said_from = _translated(value) if isinstance(value, Message) else (value, "")
        if name in message.lowered and not said_from.startswith("{") and said[1:2].islower():
            said = said[:1].lower() + said[1:]  # a word, not a name or an acronym (JSON)
        params[name] = said
    said = template.format(**params) if params else template
    if message.capitalised:
        said = said[:1].upper() + said[1:]
    return said, template
