"""Times as the API reads and writes them: RFC 3339 date-times with a zone, exactly (``T``
and ``Z`` in either case), in UTC."""

from __future__ import annotations

import re
from datetime import UTC, datetime

RFC3339 = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})", re.ASCII
)


def parse_time(text: object) -> datetime | None:
    """``text`` as a moment in UTC; ``None`` unless it is an RFC 3339 date-time with a zone.

    ISO 8601's other forms (``20261202T161833Z``, week dates, no zone) are not RFC 3339.
    """
    if not isinstance(text, str) or not RFC3339.fullmatch(text):
        return None
    try:
        return datetime.fromisoformat(text.upper()).astimezone(UTC)
    except (ValueError, OverflowError):  # no such day or hour, or out of range once in UTC
        return None


def in_utc(moment: datetime) -> datetime:
    """A stored time, aware and in UTC (SQLite's come back naive, in UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def timestamp(moment: datetime) -> str:
    """RFC 3339 in UTC, to the second."""
    if moment.tzinfo is not None and moment.utcoffset():  # SQLite's are naive, in UTC
        moment = moment.astimezone(UTC)
    return moment.replace(tzinfo=None, microsecond=0).isoformat() + "Z"


def utcnow() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)
