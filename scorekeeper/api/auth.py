"""The write token of a game or table, read from ``Authorization: Bearer``."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import request

from ..errors import Unauthorized
from ..rules.words import Message

View = TypeVar("View", bound=Callable[..., Any])
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")


def presented_token() -> str | None:
    """The token of the request's ``Authorization: Bearer``; ``None`` if none or malformed.

    The scheme is read in any case, then one or more spaces (RFC 6750).
    """
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not _TOKEN.fullmatch(token):
        return None
    return token


def bearer_token(owner: str = "game") -> str:
    """The token this request carries; 401 if it carries none or a malformed one.

    ``owner`` is what the token opens, as the message names it (``game`` or ``table``).
    """
    challenge = {"WWW-Authenticate": 'Bearer realm="scorekeeper"'}
    if not request.headers.get("Authorization"):
        raise Unauthorized(
            Message(f"This change needs the {owner}'s token: send Authorization: Bearer <token>."),
            headers=challenge,
        )
    token = presented_token()
    if token is None:
        raise Unauthorized(
            Message(f"The Authorization header must be Bearer followed by the {owner}'s token."),
            headers=challenge,
        )
    return token


def token_first(owner: str = "game") -> Callable[[View], View]:
    """Ask for the token before the body is read: a request without one is 401, not 422."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            bearer_token(owner)
            return view(*args, **kwargs)

        return cast(View, checked)

    return decorate
