"""Bad input never changes a game.

Every malformed request below gets its documented status and the one error
body of ``api.md`` ("Errors", "Which status when"), and the export of every
game on the table, and the number of stored rows, are the same before and
after it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, RequestKey, Round

NAMES = ("Asha", "Bikash", "Chandra", "Dipa")
KIB = 1024
MAX_BODY = 64 * KIB
STRANGER_TOKEN = "A" * 32  # well-formed, but no game's token
LEAKS = re.compile(
    r"Traceback|sqlalchemy|psycopg|sqlite|File \"|\.py\b|/work/|/usr/|site-packages"
    r"|SELECT |INSERT ",
    re.IGNORECASE,
)


# The games every case runs against


@dataclass
class Tables:
    """The games on the table when a bad request arrives."""

    main: Any
    """Jhyap, four players, two rounds played (round 2 with Idempotency-Key "round-2")."""
    out: Any
    """Jhyap, four players, Bikash eliminated in round 1, two rounds played."""
    done: Any
    """Jhyap, two players, finished after round 1."""
    two: Any
    """Twenty Two, three players, no rounds yet."""

    def all(self) -> dict[str, Any]:
        """Every game by name."""
        return {"main": self.main, "out": self.out, "done": self.done, "two": self.two}


@pytest.fixture
def tables(client: FlaskClient, table: Any) -> Tables:
    """Four games in known states (see :class:`Tables`)."""
    table_actions = type(table)

    main = table
    main.create(players=NAMES, dealer=0, starter=1)
    main.jhyap(1, 10, 3, 20, 8)
    response = main.post_round(main.jhyap_entry(2, (12, 7, 2, 9)), **{"Idempotency-Key": "round-2"})
    assert response.status_code == 201, response.json

    out = table_actions(client)
    out.create(players=NAMES, dealer=0, starter=1, elimination_limit=20, halve_at=[])
    out.jhyap(0, 0, 25, 3, 4)  # Bikash: 25 > 20, out in round 1
    out.jhyap(0, 1, None, 5, 6)
    assert out.get()["players"][1]["eliminated_in_round"] == 1

    done = table_actions(client)
    done.create(players=NAMES[:2], dealer=0, starter=0, elimination_limit=10, halve_at=[])
    done.jhyap(0, 0, 11)
    assert done.get()["status"] == "finished"

    two = table_actions(client)
    two.create(players=NAMES[:3], ruleset="twenty-two", dealer=0, starter=None)
    return Tables(main=main, out=out, done=done, two=two)


def snapshot(app: Flask, tables: Tables) -> dict[str, Any]:
    """Everything a bad request must leave alone: each export, and the row counts."""
    exports = {name: game.export_bytes() for name, game in tables.all().items()}
    with app.app_context():
        counts = {
            model.__tablename__: db.session.scalar(sa.select(sa.func.count()).select_from(model))
            for model in (Game, Player, Round, RequestKey)
        }
        db.session.remove()
    return {"exports": exports, "counts": counts}


# Checking an error answer


def assert_error_body(response: Any, status: int, code: str) -> dict[str, Any]:
    """The one error body, with ``status`` and ``code`` (``invalid_*`` matches any ``invalid_``)."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    error = body["error"]
    assert set(error) <= {"status", "code", "message", "details"}, error
    assert {"status", "code", "message"} <= set(error), error
    assert error["status"] == status == response.status_code
    if code.endswith("*"):
        assert error["code"].startswith(code[:-1]), error
    else:
        assert error["code"] == code, error
    message = error["message"]
    assert isinstance(message, str) and message.strip() == message and message, error
    assert "\n" not in message
    assert message[0].isupper() or not message[0].isalpha(), message
    assert message.endswith((".", "!", "?")), message
    if "details" in error:
        assert isinstance(error["details"], dict), error
    text = response.get_data(as_text=True)
    assert not LEAKS.search(text), text
    return error


# Building requests


Build = Callable[[Tables], dict[str, Any]]


def headers_for(tables: Tables, game: Any, auth: str) -> dict[str, str]:
    """The Authorization header of a case: ``own``, ``none``, the ``other`` game's, or raw."""
    if auth == "own":
        return dict(game.auth)
    if auth == "none":
        return {}
    if auth == "other":
        other = tables.out if game is tables.main else tables.main
        return dict(other.auth)
    return {"Authorization": auth}


def body_kwargs(body: Any) -> dict[str, Any]:
    """Client keywords for a body: ``Raw`` as given, anything else as JSON."""
    if isinstance(body, Raw):
        kwargs: dict[str, Any] = {"data": body.data}
        if body.content_type is not None:
            kwargs["content_type"] = body.content_type
        return kwargs
    return {"data": json.dumps(body), "content_type": "application/json"}


@dataclass(frozen=True)
class Raw:
    """A body sent byte for byte, with its Content-Type (``None``: no Content-Type)."""

    data: bytes | str
    content_type: str | None = "application/json"


def request(
    method: str,
    path: Callable[[Tables], str],
    body: Callable[[Tables], Any] | None = None,
    *,
    game: str = "main",
    auth: str = "own",
    headers: Mapping[str, str] | None = None,
) -> Build:
    """A request on ``game``: ``path`` and ``body`` are built from the tables."""

    def build(tables: Tables) -> dict[str, Any]:
        target = getattr(tables, game)
        kwargs: dict[str, Any] = {
            "method": method,
            "path": path(tables),
            "headers": {**headers_for(tables, target, auth), **(headers or {})},
        }
        if body is not None:
            kwargs.update(body_kwargs(body(tables)))
        return kwargs

    return build


def post_round(
    body: Callable[[Any], Any],
    *,
    game: str = "main",
    auth: str = "own",
    query: str = "",
    **headers: str,
) -> Build:
    """POST to ``game``'s rounds; ``body`` is built from that game."""
    return request(
        "POST",
        lambda t: f"{getattr(t, game).url}/rounds{query}",
        lambda t: body(getattr(t, game)),
        game=game,
        auth=auth,
        headers=headers,
    )


def put_round(
    number: int, body: Callable[[Any], Any], *, game: str = "main", auth: str = "own"
) -> Build:
    """PUT round ``number`` of ``game``."""
    return request(
        "PUT",
        lambda t: f"{getattr(t, game).url}/rounds/{number}",
        lambda t: body(getattr(t, game)),
        game=game,
        auth=auth,
    )


def create_game(body: Any) -> Build:
    """POST /api/v1/games (no token needed)."""
    return request("POST", lambda t: "/api/v1/games", lambda t: body, auth="none")


# Jhyap entries on the main game (seats: Asha 0, Bikash 1, Chandra 2, Dipa 3)


def good(game: Any) -> dict[str, Any]:
    """A valid round 3 on the main game: Asha calls with 2."""
    return game.jhyap_entry(0, (2, 10, 20, 30))


def with_hand(seat: int, **changes: Any) -> Callable[[Any], dict[str, Any]]:
    """The good entry with hand ``seat`` changed (a value of ``...`` removes the key)."""

    def body(game: Any) -> dict[str, Any]:
        entry = good(game)
        hand = entry["hands"][seat]
        for key, value in changes.items():
            if value is ...:
                hand.pop(key, None)
            else:
                hand[key] = value
        return entry

    return body


def with_entry(**changes: Any) -> Callable[[Any], dict[str, Any]]:
    """The good entry with top-level keys changed (``...`` removes the key)."""

    def body(game: Any) -> dict[str, Any]:
        entry = good(game)
        for key, value in changes.items():
            if value is ...:
                entry.pop(key, None)
            else:
                entry[key] = value
        return entry

    return body


def cards_by_seat(*hands: list[str], caller: int = 0) -> Callable[[Any], dict[str, Any]]:
    """An entry on the main game with every hand given as cards."""
    return lambda game: game.jhyap_entry(caller, hands)


def nested(depth: int) -> Callable[[Any], Raw]:
    """The good entry plus an extra field whose lists make the body ``depth`` levels deep."""

    def body(game: Any) -> Raw:
        text = json.dumps(good(game))
        inner = "[" * (depth - 1) + "]" * (depth - 1)
        return Raw(text[:-1] + f', "extra": {inner}}}')

    return body


def padded(size: int) -> Callable[[Any], Raw]:
    """The good entry padded with an extra field to exactly ``size`` bytes."""

    def body(game: Any) -> Raw:
        head = json.dumps(good(game))[:-1] + ', "pad": "'
        tail = '"}'
        return Raw(head + "x" * (size - len(head) - len(tail)) + tail)

    return body


def raw(data: bytes | str, content_type: str | None = "application/json") -> Callable[[Any], Raw]:
    """A fixed body."""
    return lambda game: Raw(data, content_type)


def jhyap_game(**changes: Any) -> dict[str, Any]:
    """A valid Jhyap creation body with ``changes`` (``...`` removes a key)."""
    body: dict[str, Any] = {
        "ruleset": "jhyap",
        "name": "Friday table",
        "players": ["Asha", "Bikash", "Chandra"],
        "dealer": 0,
        "starter": 1,
    }
    for key, value in changes.items():
        if value is ...:
            body.pop(key)
        else:
            body[key] = value
    return body


def options(**given: Any) -> dict[str, Any]:
    """A Jhyap creation body with these options."""
    return jhyap_game(options=given)


# The cases


@dataclass(frozen=True)
class Case:
    """One bad request and its documented answer."""

    id: str
    build: Build
    status: int
    code: str
    message: str | None = None
    """Exact message when it starts with ``=``, else a fragment it must contain."""
    headers: Mapping[str, str] = field(default_factory=dict)
    """Response headers that must be present: name to a fragment of the value."""


def cases() -> list[Case]:
    bearer = {"WWW-Authenticate": "Bearer"}
    return [
        # Who is in the round
        Case(
            "unknown-player-in-hands",
            post_round(with_hand(3, player=999_999)),
            422,
            "invalid_round",
            "999999",
        ),
        Case(
            "missing-player-in-hands",
            post_round(lambda g: {**good(g), "hands": good(g)["hands"][:3]}),
            422,
            "invalid_round",
            "Dipa",
        ),
        Case(
            "duplicate-player-in-hands",
            post_round(
                lambda g: {
                    **good(g),
                    "hands": [*good(g)["hands"][:3], {"player": g.players[0], "total": 4}],
                }
            ),
            422,
            "invalid_round",
            "=Asha has two hands in this round.",
        ),
        Case(
            "eliminated-player-in-hands",
            post_round(lambda g: g.jhyap_entry(0, (1, 9, 5, 6)), game="out"),
            422,
            "invalid_round",
            "=Bikash was eliminated in round 1 and takes no part.",
        ),
        Case(
            "eliminated-player-as-caller",
            post_round(lambda g: g.jhyap_entry(1, (1, None, 5, 6)), game="out"),
            422,
            "invalid_round",
            "caller",
        ),
        Case(
            "caller-not-at-table",
            post_round(with_entry(caller=999_999)),
            422,
            "invalid_round",
            "caller",
        ),
        Case("no-hands", post_round(with_entry(hands=[])), 422, "invalid_round", "missing"),
        # The call and the totals
        Case(
            "caller-over-limit",
            post_round(lambda g: g.jhyap_entry(2, (9, 10, 7, 30))),
            422,
            "invalid_round",
            "=Chandra called Jhyap with 7 points; the call limit is 5.",
        ),
        Case(
            "caller-over-limit-by-cards",
            post_round(lambda g: g.jhyap_entry(2, (9, 10, ["4H", "3C"], 30))),
            422,
            "invalid_round",
            "=Chandra called Jhyap with 7 points; the call limit is 5.",
        ),
        Case("total-negative", post_round(with_hand(1, total=-1)), 422, "invalid_round", "Bikash"),
        Case("total-51", post_round(with_hand(1, total=51)), 422, "invalid_round", "Bikash"),
        Case("total-huge", post_round(with_hand(1, total=10**30)), 422, "invalid_round", "Bikash"),
        # Cards
        Case(
            "six-cards",
            post_round(with_hand(1, total=..., cards=["2S", "3S", "4S", "5S", "6S", "7S"])),
            422,
            "invalid_round",
            "Bikash",
        ),
        Case(
            "zero-cards",
            post_round(with_hand(1, total=..., cards=[])),
            422,
            "invalid_round",
            "Bikash",
        ),
        Case(
            "cards-and-total",
            post_round(with_hand(1, cards=["KH"])),
            422,
            "invalid_round",
            "Bikash",
        ),
        Case(
            "neither-cards-nor-total",
            post_round(with_hand(1, total=...)),
            422,
            "invalid_round",
            "Bikash",
        ),
        Case(
            "three-jokers-one-deck",
            post_round(cards_by_seat(["JK", "JK"], ["JK"], ["KH"], ["QH"])),
            422,
            "invalid_round",
            "jokers",
        ),
        Case(
            "same-card-twice-one-deck",
            post_round(cards_by_seat(["AS"], ["AS", "KD"], ["KH"], ["QH"])),
            422,
            "invalid_round",
            "AS",
        ),
        Case(
            "card-code-1S",
            post_round(with_hand(1, total=..., cards=["1S"])),
            422,
            "invalid_round",
            "1S",
        ),
        Case(
            "card-code-ZZ",
            post_round(with_hand(1, total=..., cards=["KH", "ZZ"])),
            422,
            "invalid_round",
            "ZZ",
        ),
        Case(
            "card-code-empty", post_round(with_hand(1, total=..., cards=[""])), 422, "invalid_round"
        ),
        Case(
            "card-code-too-long",
            post_round(with_hand(1, total=..., cards=["KING-OF-HEARTS"])),
            422,
            "invalid_request",
        ),
        Case(
            "card-not-a-string",
            post_round(with_hand(1, total=..., cards=[10])),
            422,
            "invalid_request",
        ),
        Case(
            "cards-not-a-list",
            post_round(with_hand(1, total=..., cards="KH")),
            422,
            "invalid_request",
        ),
        # Strict types
        Case(
            "total-as-string", post_round(with_hand(1, total="10")), 422, "invalid_request", "total"
        ),
        Case(
            "total-as-float", post_round(with_hand(1, total=10.5)), 422, "invalid_request", "total"
        ),
        Case(
            "total-as-bool", post_round(with_hand(1, total=True)), 422, "invalid_request", "total"
        ),
        Case("total-null", post_round(with_hand(1, total=None)), 422, "invalid_request", "total"),
        Case(
            "player-as-string",
            post_round(with_hand(1, player="11")),
            422,
            "invalid_request",
            "player",
        ),
        Case(
            "player-as-float",
            post_round(with_hand(1, player=2.0)),
            422,
            "invalid_request",
            "player",
        ),
        Case(
            "caller-as-string",
            post_round(lambda g: {**good(g), "caller": str(g.players[0])}),
            422,
            "invalid_request",
            "caller",
        ),
        Case(
            "caller-as-bool", post_round(with_entry(caller=True)), 422, "invalid_request", "caller"
        ),
        Case(
            "caller-missing", post_round(with_entry(caller=...)), 422, "invalid_request", "caller"
        ),
        Case("hands-missing", post_round(with_entry(hands=...)), 422, "invalid_request", "hands"),
        Case(
            "hands-an-object",
            post_round(lambda g: {**good(g), "hands": good(g)["hands"][0]}),
            422,
            "invalid_request",
            "hands",
        ),
        Case(
            "hand-not-an-object",
            post_round(with_entry(hands=[1, 2, 3, 4])),
            422,
            "invalid_request",
            "Hand 1 must be a JSON object.",
        ),
        Case(
            "number-as-string", post_round(with_entry(number="3")), 422, "invalid_request", "number"
        ),
        Case("body-an-array", post_round(lambda g: [good(g)]), 422, "invalid_request"),
        Case("body-a-string", post_round(lambda g: "round 3"), 422, "invalid_request"),
        Case("body-a-number", post_round(lambda g: 3), 422, "invalid_request"),
        Case("body-null", post_round(raw("null")), 422, "invalid_request"),
        # Extra fields
        Case(
            "extra-field-in-entry", post_round(with_entry(bonus=5)), 422, "invalid_request", "bonus"
        ),
        Case(
            "extra-field-in-hand",
            post_round(with_hand(0, note="lucky")),
            422,
            "invalid_request",
            "note",
        ),
        Case(
            "twenty-two-field-in-jhyap",
            post_round(lambda g: {**good(g), "last_trick": []}),
            422,
            "invalid_request",
            "last_trick",
        ),
        Case(
            "query-dry-run-not-bool",
            post_round(good, query="?dry_run=maybe"),
            422,
            "invalid_request",
            "dry_run",
        ),
        # Twenty Two entries
        Case(
            "twenty-two-joker",
            post_round(lambda g: g.trick_entry([(1, "9C"), (2, "JK"), (0, "4H")]), game="two"),
            422,
            "invalid_round",
        ),
        Case(
            "twenty-two-same-card-twice",
            post_round(lambda g: g.trick_entry([(1, "9C"), (2, "9C"), (0, "4H")]), game="two"),
            422,
            "invalid_round",
        ),
        Case(
            "twenty-two-missing-player",
            post_round(lambda g: g.trick_entry([(1, "9C"), (2, "KD")]), game="two"),
            422,
            "invalid_round",
            "Asha",
        ),
        Case(
            "twenty-two-card-not-string",
            post_round(
                lambda g: {"last_trick": [{"player": p, "card": 9} for p in g.players]}, game="two"
            ),
            422,
            "invalid_request",
            "card",
        ),
        Case(
            "twenty-two-jhyap-entry",
            post_round(lambda g: g.jhyap_entry(0, (1, 2, 3)), game="two"),
            422,
            "invalid_request",
        ),
        # The game's state
        Case(
            "game-finished",
            post_round(lambda g: g.jhyap_entry(0, (0, 3)), game="done"),
            409,
            "conflict",
        ),
        Case(
            "game-finished-with-number",
            post_round(lambda g: {**g.jhyap_entry(0, (0, 3)), "number": 2}, game="done"),
            409,
            "conflict",
        ),
        Case("number-stale", post_round(with_entry(number=2)), 409, "conflict", "3"),
        Case("number-ahead", post_round(with_entry(number=4)), 409, "conflict", "3"),
        Case(
            "idempotency-key-reused-other-body",
            post_round(good, **{"Idempotency-Key": "round-2"}),
            422,
            "invalid_idempotency_key",
        ),
        Case(
            "bad-body-with-fresh-idempotency-key",
            post_round(with_hand(1, total=51), **{"Idempotency-Key": "k-1"}),
            422,
            "invalid_round",
        ),
        # Tokens
        Case("no-token", post_round(good, auth="none"), 401, "unauthorized", headers=bearer),
        Case("wrong-token", post_round(good, auth=f"Bearer {STRANGER_TOKEN}"), 403, "forbidden"),
        Case("other-games-token", post_round(good, auth="other"), 403, "forbidden"),
        Case("basic-auth", post_round(good, auth="Basic x"), 401, "unauthorized", headers=bearer),
        Case("bearer-alone", post_round(good, auth="Bearer"), 401, "unauthorized", headers=bearer),
        Case(
            "bearer-space-alone",
            post_round(good, auth="Bearer "),
            401,
            "unauthorized",
            headers=bearer,
        ),
        Case(
            "bearer-short-token",
            post_round(good, auth="Bearer abc"),
            401,
            "unauthorized",
            headers=bearer,
        ),
        Case(
            "bearer-token-with-bad-chars",
            post_round(good, auth="Bearer " + "a" * 20 + "!@#"),
            401,
            "unauthorized",
            headers=bearer,
        ),
        Case(
            "token-without-scheme",
            post_round(good, auth=STRANGER_TOKEN),
            401,
            "unauthorized",
            headers=bearer,
        ),
        # The body guard
        Case("oversized-body", post_round(padded(MAX_BODY + 1)), 413, "too_large"),
        Case("oversized-body-1-mib", post_round(padded(1024 * KIB)), 413, "too_large"),
        Case(
            "body-exactly-64-kib-is-read",
            post_round(padded(MAX_BODY)),
            422,
            "invalid_request",
            "pad",
        ),
        Case(
            "text-plain",
            post_round(lambda g: Raw(json.dumps(good(g)), "text/plain")),
            415,
            "unsupported_media_type",
        ),
        Case(
            "form-urlencoded",
            post_round(raw("caller=1", "application/x-www-form-urlencoded")),
            415,
            "unsupported_media_type",
        ),
        Case(
            "no-content-type",
            post_round(lambda g: Raw(json.dumps(good(g)), None)),
            415,
            "unsupported_media_type",
        ),
        Case("empty-body", post_round(raw(b"")), 400, "bad_request"),
        Case("whitespace-body", post_round(raw(b"  \n ")), 400, "bad_request"),
        Case("bad-json", post_round(raw('{"caller": 1,')), 400, "bad_request"),
        Case(
            "bad-json-trailing-comma",
            post_round(raw('{"caller": 1, "hands": [],}')),
            400,
            "bad_request",
        ),
        Case("bad-json-single-quotes", post_round(raw("{'caller': 1}")), 400, "bad_request"),
        Case(
            "non-utf8-body",
            post_round(raw(b'{"caller": 1, "hands": [], "x": "\xff\xfe"}')),
            400,
            "bad_request",
        ),
        Case(
            "utf16-body",
            post_round(lambda g: Raw(json.dumps(good(g)).encode("utf-16"))),
            400,
            "bad_request",
        ),
        Case("nan", post_round(raw('{"caller": NaN, "hands": []}')), 400, "bad_request"),
        Case(
            "infinity",
            post_round(raw('{"caller": 1, "hands": [{"player": 1, "total": Infinity}]}')),
            400,
            "bad_request",
        ),
        Case(
            "minus-infinity",
            post_round(raw('{"caller": -Infinity, "hands": []}')),
            400,
            "bad_request",
        ),
        Case(
            "integer-of-5000-digits",
            post_round(raw('{"caller": ' + "9" * 5000 + ', "hands": []}')),
            422,
            "invalid_request",
            "too many digits",
        ),
        Case("nested-65-levels", post_round(nested(65)), 400, "bad_request", "64"),
        Case("nested-64-levels-is-read", post_round(nested(64)), 422, "invalid_request", "extra"),
        Case("nested-100-levels", post_round(raw("[" * 100 + "]" * 100)), 400, "bad_request"),
        Case("nested-32000-levels", post_round(raw("[" * 32000 + "]" * 32000)), 400, "bad_request"),
        Case(
            "nested-100000-levels-over-the-size-limit",
            post_round(raw("[" * 100_000 + "]" * 100_000)),
            413,
            "too_large",
        ),
        Case(
            "nested-100000-levels-import",
            request(
                "POST",
                lambda t: "/api/v1/games/import",
                lambda t: Raw("[" * 100_000 + "]" * 100_000),
                auth="none",
            ),
            400,
            "bad_request",
        ),
        Case(
            "nested-100000-objects-import",
            request(
                "POST",
                lambda t: "/api/v1/games/import",
                lambda t: Raw('{"a":' * 100_000 + "1" + "}" * 100_000),
                auth="none",
            ),
            400,
            "bad_request",
        ),
        # Idempotency-Key
        Case(
            "idempotency-key-empty",
            post_round(good, **{"Idempotency-Key": ""}),
            400,
            "bad_request",
            "Idempotency-Key",
        ),
        Case(
            "idempotency-key-256-chars",
            post_round(good, **{"Idempotency-Key": "k" * 256}),
            400,
            "bad_request",
            "Idempotency-Key",
        ),
        Case(
            "idempotency-key-non-ascii",
            post_round(good, **{"Idempotency-Key": "caf\u00e9"}),
            400,
            "bad_request",
            "Idempotency-Key",
        ),
        Case(
            "idempotency-key-control-char",
            post_round(good, **{"Idempotency-Key": "key\x01"}),
            400,
            "bad_request",
            "Idempotency-Key",
        ),
        # Correct and undo
        Case(
            "put-with-number",
            put_round(2, lambda g: {**g.jhyap_entry(2, (12, 7, 2, 9)), "number": 2}),
            422,
            "invalid_request",
            "number",
        ),
        Case(
            "put-invalid-entry",
            put_round(2, lambda g: g.jhyap_entry(2, (12, 7, 9, 9))),
            422,
            "invalid_round",
            "Chandra",
        ),
        Case("put-nonexistent-round", put_round(3, good), 404, "not_found"),
        Case("put-round-0", put_round(0, good), 404, "not_found"),
        Case(
            "put-without-token",
            put_round(1, good, auth="none"),
            401,
            "unauthorized",
            headers=bearer,
        ),
        Case("put-other-games-token", put_round(1, good, auth="other"), 403, "forbidden"),
        Case(
            "put-later-round-no-longer-fits",
            put_round(1, lambda g: g.jhyap_entry(0, (0, 5, 3, 4)), game="out"),
            409,
            "conflict",
            "Round 2",
        ),
        Case(
            "put-text-plain",
            request(
                "PUT",
                lambda t: f"{t.main.url}/rounds/1",
                lambda t: Raw(json.dumps(good(t.main)), "text/plain"),
            ),
            415,
            "unsupported_media_type",
        ),
        Case(
            "get-nonexistent-round",
            request("GET", lambda t: f"{t.main.url}/rounds/3", auth="none"),
            404,
            "not_found",
        ),
        Case(
            "get-round-0",
            request("GET", lambda t: f"{t.main.url}/rounds/0", auth="none"),
            404,
            "not_found",
        ),
        Case(
            "get-round-beyond-int32",
            request("GET", lambda t: f"{t.main.url}/rounds/{2**31}", auth="none"),
            404,
            "not_found",
        ),
        Case(
            "get-round-beyond-int64",
            request("GET", lambda t: f"{t.main.url}/rounds/{10**20}", auth="none"),
            404,
            "not_found",
        ),
        Case(
            "get-round-not-a-number",
            request("GET", lambda t: f"{t.main.url}/rounds/one", auth="none"),
            404,
            "not_found",
        ),
        Case(
            "delete-nonexistent-round",
            request("DELETE", lambda t: f"{t.main.url}/rounds/3"),
            404,
            "not_found",
        ),
        Case(
            "delete-round-beyond-int64",
            request("DELETE", lambda t: f"{t.main.url}/rounds/{10**20}"),
            404,
            "not_found",
        ),
        Case(
            "delete-not-last-round",
            request("DELETE", lambda t: f"{t.main.url}/rounds/1"),
            409,
            "conflict",
            "2",
        ),
        Case(
            "delete-round-without-token",
            request("DELETE", lambda t: f"{t.main.url}/rounds/2", auth="none"),
            401,
            "unauthorized",
            headers=bearer,
        ),
        Case(
            "delete-round-wrong-token",
            request("DELETE", lambda t: f"{t.main.url}/rounds/2", auth=f"Bearer {STRANGER_TOKEN}"),
            403,
            "forbidden",
        ),
        # Change or delete the game
        Case(
            "patch-wrong-token",
            request("PATCH", lambda t: t.main.url, lambda t: {"name": "Mine"}, auth="other"),
            403,
            "forbidden",
        ),
        Case(
            "patch-no-token",
            request("PATCH", lambda t: t.main.url, lambda t: {"name": "Mine"}, auth="none"),
            401,
            "unauthorized",
            headers=bearer,
        ),
        Case(
            "patch-duplicate-names",
            request(
                "PATCH",
                lambda t: t.main.url,
                lambda t: {"players": [{"id": t.main.players[1], "name": "ASHA"}]},
            ),
            422,
            "invalid_*",
        ),
        Case(
            "patch-unknown-player",
            request(
                "PATCH",
                lambda t: t.main.url,
                lambda t: {"players": [{"id": 999_999, "name": "Zed"}]},
            ),
            422,
            "invalid_*",
            "999999",
        ),
        Case(
            "patch-name-41-chars",
            request(
                "PATCH",
                lambda t: t.main.url,
                lambda t: {"players": [{"id": t.main.players[0], "name": "x" * 41}]},
            ),
            422,
            "invalid_request",
        ),
        Case(
            "patch-seat",
            request(
                "PATCH",
                lambda t: t.main.url,
                lambda t: {"players": [{"id": t.main.players[0], "name": "Asha", "seat": 3}]},
            ),
            422,
            "invalid_request",
            "seat",
        ),
        Case(
            "patch-options",
            request("PATCH", lambda t: t.main.url, lambda t: {"options": {"call_limit": 9}}),
            422,
            "invalid_request",
            "options",
        ),
        Case(
            "patch-form-body",
            request("PATCH", lambda t: t.main.url, lambda t: Raw("name=x", "multipart/form-data")),
            415,
            "unsupported_media_type",
        ),
        Case(
            "delete-game-no-token",
            request("DELETE", lambda t: t.main.url, auth="none"),
            401,
            "unauthorized",
            headers=bearer,
        ),
        Case(
            "delete-game-other-token",
            request("DELETE", lambda t: t.main.url, auth="other"),
            403,
            "forbidden",
        ),
        # Addresses and methods
        Case(
            "list-games",
            request("GET", lambda t: "/api/v1/games", auth="none"),
            405,
            "method_not_allowed",
            headers={"Allow": "POST"},
        ),
        Case(
            "put-game",
            request("PUT", lambda t: t.main.url, lambda t: {"name": "x"}),
            405,
            "method_not_allowed",
            headers={"Allow": "GET"},
        ),
        Case(
            "post-round-by-number",
            request("POST", lambda t: f"{t.main.url}/rounds/3", lambda t: good(t.main)),
            405,
            "method_not_allowed",
        ),
        Case(
            "unknown-api-path",
            request("GET", lambda t: "/api/v1/nothing-here", auth="none"),
            404,
            "not_found",
        ),
        Case(
            "unknown-path", request("GET", lambda t: "/wp-admin.php", auth="none"), 404, "not_found"
        ),
        Case(
            "unknown-game",
            request("GET", lambda t: "/api/v1/games/" + "x" * 22, auth="none"),
            404,
            "not_found",
        ),
        Case(
            "unknown-game-export",
            request("GET", lambda t: "/api/v1/games/nope/export", auth="none"),
            404,
            "not_found",
        ),
        Case(
            "unknown-game-rounds",
            request("GET", lambda t: "/api/v1/games/nope/rounds", auth="none"),
            404,
            "not_found",
        ),
        Case(
            "unknown-game-post-round",
            request("POST", lambda t: "/api/v1/games/nope/rounds", lambda t: good(t.main)),
            404,
            "not_found",
        ),
        Case(
            "game-id-very-long",
            request("GET", lambda t: "/api/v1/games/" + "x" * 2000, auth="none"),
            404,
            "not_found",
        ),
        Case(
            "game-id-with-nul",
            request("GET", lambda t: "/api/v1/games/ab%00cd", auth="none"),
            404,
            "not_found",
        ),
        Case(
            "game-id-with-nul-export",
            request("GET", lambda t: "/api/v1/games/ab%00cd/export", auth="none"),
            404,
            "not_found",
        ),
        Case(
            "game-id-with-nul-post-round",
            request("POST", lambda t: "/api/v1/games/ab%00cd/rounds", lambda t: good(t.main)),
            404,
            "not_found",
        ),
        Case(
            "game-id-percent-ff",
            request("GET", lambda t: "/api/v1/games/%FF%FE", auth="none"),
            404,
            "not_found",
        ),
        # Creating a game
        Case(
            "create-unknown-ruleset",
            create_game(jhyap_game(ruleset="poker")),
            422,
            "invalid_*",
            "ruleset",
        ),
        Case(
            "create-ruleset-missing",
            create_game(jhyap_game(ruleset=...)),
            422,
            "invalid_*",
            "ruleset",
        ),
        Case(
            "create-players-missing",
            create_game(jhyap_game(players=...)),
            422,
            "invalid_*",
            "players",
        ),
        Case("create-no-players", create_game(jhyap_game(players=[])), 422, "invalid_*"),
        Case(
            "create-1-player",
            create_game(jhyap_game(players=["Asha"], starter=0)),
            422,
            "invalid_*",
        ),
        Case(
            "create-6-players-jhyap",
            create_game(jhyap_game(players=["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Farid"])),
            422,
            "invalid_*",
            "2 to 5",
        ),
        Case(
            "create-7-players-twenty-two",
            create_game(
                {
                    "ruleset": "twenty-two",
                    "players": ["A", "B", "C", "D", "E", "F", "G"],
                    "dealer": 0,
                }
            ),
            422,
            "invalid_*",
            "2 to 6",
        ),
        Case(
            "create-duplicate-names-ignoring-case",
            create_game(jhyap_game(players=["Asha", "Bikash", "ASHA"])),
            422,
            "invalid_*",
            "ASHA",
        ),
        Case(
            "create-duplicate-names-after-trim",
            create_game(jhyap_game(players=["Asha", "Bikash", " Asha "])),
            422,
            "invalid_*",
        ),
        Case(
            "create-blank-name",
            create_game(jhyap_game(players=["Asha", "   ", "Chandra"])),
            422,
            "invalid_*",
        ),
        Case(
            "create-empty-name",
            create_game(jhyap_game(players=["Asha", "", "Chandra"])),
            422,
            "invalid_*",
        ),
        Case(
            "create-name-41-chars",
            create_game(jhyap_game(players=["Asha", "x" * 41, "Chandra"])),
            422,
            "invalid_*",
        ),
        Case(
            "create-name-with-control-char",
            create_game(jhyap_game(players=["Asha", "Bi\x00kash", "Chandra"])),
            422,
            "invalid_*",
        ),
        Case(
            "create-name-not-string",
            create_game(jhyap_game(players=["Asha", 7, "Chandra"])),
            422,
            "invalid_*",
        ),
        Case(
            "create-players-a-string",
            create_game(jhyap_game(players="Asha, Bikash")),
            422,
            "invalid_*",
        ),
        Case(
            "create-game-name-81-chars",
            create_game(jhyap_game(name="x" * 81)),
            422,
            "invalid_*",
            "name",
        ),
        Case(
            "create-unknown-field",
            create_game(jhyap_game(colour="green")),
            422,
            "invalid_*",
            "colour",
        ),
        Case("create-unknown-option", create_game(options(jokers=2)), 422, "invalid_*", "jokers"),
        Case(
            "create-call-limit-51",
            create_game(options(call_limit=51)),
            422,
            "invalid_*",
            "call_limit",
        ),
        Case(
            "create-call-limit-negative",
            create_game(options(call_limit=-1)),
            422,
            "invalid_*",
            "call_limit",
        ),
        Case(
            "create-call-limit-string",
            create_game(options(call_limit="5")),
            422,
            "invalid_*",
            "call_limit",
        ),
        Case(
            "create-call-limit-bool",
            create_game(options(call_limit=True)),
            422,
            "invalid_*",
            "call_limit",
        ),
        Case(
            "create-call-limit-float",
            create_game(options(call_limit=5.5)),
            422,
            "invalid_*",
            "call_limit",
        ),
        Case(
            "create-caller-penalty-1001",
            create_game(options(caller_penalty=1001)),
            422,
            "invalid_*",
            "caller_penalty",
        ),
        Case(
            "create-elimination-limit-0",
            create_game(options(elimination_limit=0, halve_at=[])),
            422,
            "invalid_*",
            "elimination_limit",
        ),
        Case(
            "create-halve-at-odd",
            create_game(options(halve_at=[101])),
            422,
            "invalid_*",
            "halve_at",
        ),
        Case(
            "create-halve-at-above-elimination-limit",
            create_game(options(elimination_limit=150, halve_at=[100, 200])),
            422,
            "invalid_*",
            "halve_at",
        ),
        Case(
            "create-halve-at-duplicate",
            create_game(options(halve_at=[100, 100])),
            422,
            "invalid_*",
            "halve_at",
        ),
        Case(
            "create-halve-at-not-a-list",
            create_game(options(halve_at=100)),
            422,
            "invalid_*",
            "halve_at",
        ),
        Case(
            "create-halve-at-11-items",
            create_game(options(halve_at=list(range(2, 24, 2)))),
            422,
            "invalid_*",
            "halve_at",
        ),
        Case(
            "create-halve-at-strings",
            create_game(options(halve_at=["100"])),
            422,
            "invalid_*",
            "halve_at",
        ),
        Case(
            "create-caller-tie-bad",
            create_game(options(caller_tie="coin_toss")),
            422,
            "invalid_*",
            "caller_tie",
        ),
        Case("create-decks-3", create_game(options(decks=3)), 422, "invalid_*", "decks"),
        Case(
            "create-options-a-list",
            create_game(jhyap_game(options=[1])),
            422,
            "invalid_*",
            "options",
        ),
        Case(
            "create-dealer-out-of-range",
            create_game(jhyap_game(dealer=3)),
            422,
            "invalid_*",
            "dealer",
        ),
        Case(
            "create-dealer-negative", create_game(jhyap_game(dealer=-1)), 422, "invalid_*", "dealer"
        ),
        Case(
            "create-dealer-huge", create_game(jhyap_game(dealer=2**70)), 422, "invalid_*", "dealer"
        ),
        Case(
            "create-dealer-string", create_game(jhyap_game(dealer="0")), 422, "invalid_*", "dealer"
        ),
        Case(
            "create-starter-out-of-range",
            create_game(jhyap_game(starter=3)),
            422,
            "invalid_*",
            "starter",
        ),
        Case(
            "create-starter-bool",
            create_game(jhyap_game(starter=True)),
            422,
            "invalid_*",
            "starter",
        ),
        Case(
            "create-starter-for-twenty-two",
            create_game(
                {
                    "ruleset": "twenty-two",
                    "players": ["Asha", "Bikash", "Chandra"],
                    "dealer": 0,
                    "starter": 1,
                }
            ),
            422,
            "invalid_*",
            "starter",
        ),
        Case(
            "create-twenty-two-first-deal-too-big",
            create_game(
                {
                    "ruleset": "twenty-two",
                    "players": ["Asha", "Bikash"],
                    "options": {"first_deal": 27},
                }
            ),
            422,
            "invalid_*",
            "first_deal",
        ),
        Case(
            "create-twenty-two-jhyap-option",
            create_game(
                {
                    "ruleset": "twenty-two",
                    "players": ["Asha", "Bikash"],
                    "options": {"call_limit": 5},
                }
            ),
            422,
            "invalid_*",
            "call_limit",
        ),
        Case("create-body-an-array", create_game(["jhyap"]), 422, "invalid_*"),
        Case(
            "create-body-text-plain",
            request(
                "POST",
                lambda t: "/api/v1/games",
                lambda t: Raw(json.dumps(jhyap_game()), "text/plain"),
                auth="none",
            ),
            415,
            "unsupported_media_type",
        ),
        Case(
            "create-body-empty",
            request("POST", lambda t: "/api/v1/games", lambda t: Raw(b""), auth="none"),
            400,
            "bad_request",
        ),
        Case(
            "create-body-oversized",
            request(
                "POST",
                lambda t: "/api/v1/games",
                lambda t: Raw(json.dumps(jhyap_game(name="x" * MAX_BODY))),
                auth="none",
            ),
            413,
            "too_large",
        ),
        # Import
        Case(
            "import-not-an-export",
            request(
                "POST", lambda t: "/api/v1/games/import", lambda t: {"format": "csv"}, auth="none"
            ),
            422,
            "invalid_*",
        ),
    ]


CASES = cases()


def test_the_table_has_at_least_40_cases() -> None:
    assert len(CASES) >= 40
    assert len({case.id for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_bad_input_never_changes_a_game(
    app: Flask, client: FlaskClient, tables: Tables, case: Case
) -> None:
    before = snapshot(app, tables)

    response = client.open(**case.build(tables))

    error = assert_error_body(response, case.status, case.code)
    if case.message is not None:
        if case.message.startswith("="):
            assert error["message"] == case.message[1:]
        else:
            assert case.message in error["message"], error
    for name, fragment in case.headers.items():
        assert fragment in response.headers.get(name, ""), (name, response.headers)
    assert snapshot(app, tables) == before


def test_the_game_still_takes_the_good_round_afterwards(tables: Tables) -> None:
    """The good entry the cases spoil is valid, so each case fails only by what it changes."""
    response = tables.main.post_round(good(tables.main), **{"Idempotency-Key": "k-1"})
    assert response.status_code == 201, response.json
    assert response.json["number"] == 3


# Errors in detail


def test_caller_over_limit_details_name_the_field(tables: Tables) -> None:
    response = tables.main.post_round(tables.main.jhyap_entry(2, (9, 10, 7, 30)))
    error = assert_error_body(response, 422, "invalid_round")
    assert error["details"] == {"caller": ["Over the call limit of 5."]}


def test_caller_limit_follows_the_game_option(client: FlaskClient, table: Any) -> None:
    table.create(players=NAMES, call_limit=2)
    response = table.post_round(table.jhyap_entry(0, (3, 10, 20, 30)))
    error = assert_error_body(response, 422, "invalid_round")
    assert error["message"] == "Asha called Jhyap with 3 points; the call limit is 2."


def test_type_errors_say_which_field(tables: Tables) -> None:
    response = tables.main.post_round(with_hand(1, total="10")(tables.main))
    error = assert_error_body(response, 422, "invalid_request")
    assert error["message"] == "The total of hand 2 must be a whole number."
    assert error["details"] == {"hands": {"1": {"total": ["Must be a whole number."]}}}


def test_401_challenges_for_a_bearer_token(tables: Tables) -> None:
    response = tables.main.client.post(f"{tables.main.url}/rounds", json=good(tables.main))
    assert_error_body(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_405_lists_the_allowed_methods(client: FlaskClient) -> None:
    response = client.get("/api/v1/games")
    assert_error_body(response, 405, "method_not_allowed")
    allowed = {method.strip() for method in response.headers["Allow"].split(",")}
    assert "POST" in allowed and "GET" not in allowed


def test_a_failed_request_does_not_use_up_its_idempotency_key(tables: Tables) -> None:
    """A key sent with a bad body is not stored: the same key then records the good body."""
    key = {"Idempotency-Key": "retry-after-typo"}
    bad = tables.main.post_round(with_hand(1, total=51)(tables.main), **key)
    assert_error_body(bad, 422, "invalid_round")
    response = tables.main.post_round(good(tables.main), **key)
    assert response.status_code == 201, response.json


def test_a_finished_game_answers_409_even_with_a_valid_looking_entry(tables: Tables) -> None:
    response = tables.done.post_round(tables.done.jhyap_entry(0, (0, 3)))
    error = assert_error_body(response, 409, "conflict")
    assert "over" in error["message"]


def test_correction_conflict_names_the_round_and_the_player(tables: Tables) -> None:
    response = tables.out.client.put(
        f"{tables.out.url}/rounds/1",
        json=tables.out.jhyap_entry(0, (0, 5, 3, 4)),
        headers=tables.out.auth,
    )
    error = assert_error_body(response, 409, "conflict")
    assert "Round 2" in error["message"] and "Bikash" in error["message"]


def test_import_over_8_mib_is_413_and_does_not_claim_64_kib(client: FlaskClient) -> None:
    """The import takes up to 8 MiB; its 413 must not tell the phone the limit is 64 KiB."""
    response = client.post(
        "/api/v1/games/import", data=b" " * (8 * 1024 * KIB + 1), content_type="application/json"
    )
    error = assert_error_body(response, 413, "too_large")
    assert "64 KiB" not in error["message"], error


def test_import_between_64_kib_and_8_mib_passes_the_size_guard(client: FlaskClient) -> None:
    body = json.dumps({"format": "csv", "pad": "x" * (200 * KIB)})
    response = client.post("/api/v1/games/import", data=body, content_type="application/json")
    assert_error_body(response, 422, "invalid_*")


@pytest.mark.parametrize(
    "where",
    ["unknown-field-value", "card-code", "player-name"],
)
def test_lone_surrogate_escape_is_a_client_error_not_a_500(
    app: Flask, tables: Tables, where: str
) -> None:
    """``"\\ud800"`` is legal JSON syntax but not Unicode text: refused as 400 or 422, never 500."""
    before = snapshot(app, tables)
    game = tables.main
    if where == "player-name":
        text = '{"ruleset": "jhyap", "players": ["Asha", "\\ud800"], "dealer": 0, "starter": 0}'
        response = game.client.post("/api/v1/games", data=text, content_type="application/json")
    else:
        entry = good(game)
        if where == "card-code":
            entry["hands"][1] = {"player": game.players[1], "cards": ["SURROGATE"]}
        else:
            entry["note"] = "SURROGATE"
        text = json.dumps(entry).replace("SURROGATE", "\\ud800")
        response = game.client.post(
            f"{game.url}/rounds", data=text, content_type="application/json", headers=game.auth
        )
    assert response.status_code in (400, 422), response.get_data(as_text=True)
    assert_error_body(
        response,
        response.status_code,
        "bad_request" if response.status_code == 400 else "invalid_*",
    )
    assert snapshot(app, tables) == before
