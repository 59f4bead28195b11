"""Reading request bodies: JSON only, UTF-8, bounded in size and depth."""

from __future__ import annotations

import json
from typing import Any

from flask import g, request

from ..errors import BadRequest, UnsupportedMediaType

MAX_JSON_DEPTH = 64
IMPORT_MAX_BYTES = 8 * 1024 * 1024
METHODS_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (iteratively, so it cannot recurse too far)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def parse_json_body() -> None:
    """Check and parse the body of a request that should carry JSON; keep it in ``g.json_body``.

    Runs before every API view that takes a body, so that a bad body is
    answered 400, 413 or 415 before anything else happens.
    """
    if request.method not in METHODS_WITH_BODY:
        return
    if request.endpoint == "api.import_game":
        request.max_content_length = IMPORT_MAX_BYTES
    raw = request.get_data(cache=True)  # raises 413 past the size limit
    if not raw:
        raise BadRequest("The request has no body; send a JSON object.")
    if request.mimetype != "application/json":
        raise UnsupportedMediaType(
            f"Send the body as application/json, not {request.mimetype or 'an unnamed type'}."
        )
    try:
        text = raw.decode("utf-8")
        body = json.loads(text, parse_constant=_reject_constant)
    except UnicodeDecodeError:
        raise BadRequest("The request body is not UTF-8 text.") from None
    except RecursionError:
        raise BadRequest(f"The JSON nests deeper than {MAX_JSON_DEPTH} levels.") from None
    except ValueError as error:
        raise BadRequest(f"The request body is not valid JSON ({error}).") from None
    if _depth(body) > MAX_JSON_DEPTH:
        raise BadRequest(f"The JSON nests deeper than {MAX_JSON_DEPTH} levels.")
    g.json_body = body


def json_body() -> Any:
    """The parsed JSON body of this request."""
    return g.json_body
