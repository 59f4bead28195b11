"""Ids of games and tables, and write tokens (random, URL-safe, hashed at rest); answer headers."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

PUBLIC_ID_BYTES = 16  # 128 bits
NEW_ID_LENGTH = 22
"""The length of an id ``new_public_id`` makes: 128 bits in URL-safe base64, unpadded."""
NEW_ID = re.compile(rf"[A-Za-z0-9_-]{{{NEW_ID_LENGTH}}}", re.ASCII)
"""What a new game's or table's id looks like, the service's own or one a phone chose."""
TOKEN_BYTES = 24  # 192 bits
RESPONSE_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
"""On every response, the app's own and those gunicorn answers by itself."""


def new_public_id() -> str:
    """An unguessable, URL-safe id of a game or table (``NEW_ID``)."""
    return secrets.token_urlsafe(PUBLIC_ID_BYTES)


def new_token() -> str:
    """A fresh write token, shown to its creator once."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The stored form of a token (tokens are random, so a plain SHA-256 is enough)."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, compared in constant time."""
    return hmac.compare_digest(hash_token(token), stored_hash)
