"""Reading request bodies: JSON only, UTF-8, bounded in size and depth."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import flask_smorest
from flask import Request, g, request
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import RequestEntityTooLarge

from ..errors import BadRequest, Invalid, UnsupportedMediaType
from ..rules.words import Message

MAX_JSON_DEPTH = 64
IMPORT_MAX_BYTES = {
    "api.import_game": 8 * 1024 * 1024,
    "api.import_game_at_table": 8 * 1024 * 1024,
    "api.import_table": 32 * 1024 * 1024,
}
"""Imports may be larger than other bodies: a game's whole history (8 MiB, also into a table),
or a table's (32 MiB). README.md, SECURITY.md and docs/api.md say the same
(tests/test_body_limits.py)."""
BODY_OPTIONAL = frozenset({"api.rematch"})
"""POSTs that may come without a body (or an empty one), read as ``{}``."""
METHODS_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
JSON_KINDS = {list: "a list", str: "a string", bool: "true or false", type(None): "null"}


UTF8_BOM = b"\xef\xbb\xbf"


class ConstantNotJson(ValueError):
    """NaN, Infinity or -Infinity: Python's json reads them, but JSON has no such values."""


def _reject_constant(name: str) -> Any:
    raise ConstantNotJson(f"{name} is not JSON")


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when it names a field twice (which one counts would be a guess)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        repeated = next(key for key, count in Counter(key for key, _ in pairs).items() if count > 1)
        raise BadRequest(
            Message(
                "The field {name} is given twice; give it once.",
                name=json.dumps(repeated, ensure_ascii=False),
            ),
            {repeated: ["Given twice."]},
        )
    return obj


def _check_structure(value: Any) -> None:
    """Refuse JSON nested deeper than ``MAX_JSON_DEPTH`` or holding text that is not Unicode.

    Walks iteratively, so that no input can make it recurse too far. A lone
    surrogate escape (``"\\ud800"``) parses, but cannot be stored or sent back.
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise BadRequest("The JSON holds a \\u escape that is not a character.") from None
        elif isinstance(item, dict | list):
            if depth > MAX_JSON_DEPTH:
                raise BadRequest(
                    Message("The JSON nests deeper than {depth} levels.", depth=MAX_JSON_DEPTH)
                )
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def _may_need_structure_check(raw: bytes) -> bool:
    """Whether ``raw`` could hold what ``_check_structure`` refuses; most bodies cannot.

    Nesting deeper than ``MAX_JSON_DEPTH`` needs that many ``{`` or ``[``, and a lone
    surrogate can only come from a ``\\u`` escape: UTF-8 text cannot carry one.
    """
    return raw.count(b"{") + raw.count(b"[") > MAX_JSON_DEPTH or b"\\u" in raw


def parse_json_body() -> None:
    """Check and parse the body of a request that should carry JSON; keep it in ``g.json_body``.

    Runs before every API view that takes a body, so that a bad body is
    answered 400, 413 or 415 before anything else happens.
    """
    if request.method not in METHODS_WITH_BODY:
        return
    if request.endpoint in IMPORT_MAX_BYTES:
        request.max_content_length = IMPORT_MAX_BYTES[request.endpoint]
    limit = request.max_content_length
    streamed_limit = limit if request.content_length is None else None
    if streamed_limit is not None:
        # A streamed (chunked) body has no Content-Length to refuse up front, and werkzeug
        # stops reading it at the limit without saying whether more was coming: read one
        # byte further, so that a body of exactly the limit is told from a longer one.
        request.max_content_length = streamed_limit + 1
    try:
        raw = request.get_data(cache=True)  # raises 413 past the size limit
    except RequestEntityTooLarge:
        raise
    except Exception:  # a malformed chunked encoding, or fewer bytes than announced
        _check_media_type()
        raise BadRequest("The request body could not be read; send the request again.") from None
    if streamed_limit is not None and len(raw) > streamed_limit:
        raise RequestEntityTooLarge()
    if not raw:
        if request.endpoint in BODY_OPTIONAL:
            g.json_body = {}
            return
        raise BadRequest("The request has no body; send a JSON object.")
    _check_media_type()
    try:
        text = raw.removeprefix(UTF8_BOM).decode("utf-8")
        body = json.loads(
            text, parse_constant=_reject_constant, object_pairs_hook=_object_without_repeats
        )
    except UnicodeDecodeError:
        raise BadRequest("The request body is not UTF-8 text.") from None
    except RecursionError:
        raise BadRequest(
            Message("The JSON nests deeper than {depth} levels.", depth=MAX_JSON_DEPTH)
        ) from None
    except json.JSONDecodeError as error:
        raise BadRequest(
            Message(
                "The request body is not valid JSON (line {line}, column {column}).",
                line=error.lineno,
                column=error.colno,
            )
        ) from None
    except ConstantNotJson:
        raise BadRequest(
            "The request body is not valid JSON: NaN and Infinity are not numbers."
        ) from None
    except ValueError:  # valid JSON, but an integer longer than Python converts (4,300 digits)
        raise Invalid("A number in the body has far too many digits.") from None
    if _may_need_structure_check(raw):
        _check_structure(body)
    if not isinstance(body, dict):
        kind = Message(JSON_KINDS.get(type(body), "a number"))
        raise Invalid(Message("Send a JSON object, not {kind}.", kind=kind))
    g.json_body = body


def _check_media_type() -> None:
    """415 unless the body is declared as JSON."""
    if request.mimetype != "application/json":
        kind = request.mimetype or Message("a body without a Content-Type")
        raise UnsupportedMediaType(
            Message("Send the body as application/json, not {kind}.", kind=kind)
        )


def json_body() -> Any:
    """The parsed JSON body of this request."""
    return g.json_body


class CheckedBodyParser(FlaskParser):
    """webargs' parser, reading the JSON body ``parse_json_body`` checked rather than its own."""

    def _raw_load_json(self, req: Request) -> Any:
        return g.json_body


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's blueprint, whose ``@arguments`` read the checked body."""

    ARGUMENTS_PARSER = CheckedBodyParser()
