"""The game's write token, read from ``Authorization: Bearer``."""

from __future__ import annotations

import re

from flask import request

from ..errors import Unauthorized

_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")


def bearer_token() -> str:
    """The token this request carries; 401 if it carries none or a malformed one."""
    header = request.headers.get("Authorization")
    challenge = {"WWW-Authenticate": 'Bearer realm="scorekeeper"'}
    if not header:
        raise Unauthorized(
            "This change needs the game's token: send Authorization: Bearer <token>.",
            headers=challenge,
        )
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not _TOKEN.fullmatch(token):
        raise Unauthorized(
            "The Authorization header must be Bearer followed by the game's token.",
            headers=challenge,
        )
    return token
