"""Reading JSON bodies: the quick test that lets most bodies skip the structure walk."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.api.body import MAX_JSON_DEPTH, _check_structure, _may_need_structure_check
from scorekeeper.errors import BadRequest

# Text with lone surrogates now and then, which only a \u escape can carry.
TEXT = st.text(st.characters(max_codepoint=0xFFFF) | st.sampled_from("\ud800\udfff"), max_size=6)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(TEXT, children, max_size=3),
    max_leaves=80,
)


def deep(depth: int) -> Any:
    """A list ``depth`` levels deep."""
    value: Any = []
    for _ in range(depth - 1):
        value = [value]
    return value


def encodings(value: Any) -> list[bytes]:
    """``value`` as a client could send it: ASCII with escapes, and UTF-8 where it can be."""
    sent = [json.dumps(value).encode()]
    with contextlib.suppress(UnicodeEncodeError):  # a lone surrogate has no UTF-8 form
        sent.append(json.dumps(value, ensure_ascii=False).encode("utf-8"))
    return sent


@given(JSON_VALUES | st.integers(1, 3 * MAX_JSON_DEPTH).map(deep))
def test_every_body_the_walk_refuses_is_sent_to_the_walk(value: Any) -> None:
    try:
        _check_structure(value)
    except BadRequest:
        for raw in encodings(value):
            assert _may_need_structure_check(raw)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b'{"caller": 3, "hands": [{"player": 3, "total": 2}]}', False),
        ('{"name": "Ädhyā 🂡"}'.encode(), False),
        (json.dumps(deep(MAX_JSON_DEPTH)).encode(), False),
        (json.dumps(deep(MAX_JSON_DEPTH + 1)).encode(), True),
        (b'{"name": "\\ud800"}', True),
        (b'{"name": "\\u00e4"}', True),  # any escape is walked: only the walk tells them apart
    ],
)
def test_quick_test_of_typical_bodies(raw: bytes, expected: bool) -> None:
    assert _may_need_structure_check(raw) is expected


def test_a_json_body_after_a_utf8_byte_order_mark_is_read(client: Any) -> None:
    body = '{"ruleset": "jhyap", "players": ["Asha", "Bikash"]}'.encode("utf-8-sig")

    response = client.post("/api/v1/games", data=body, content_type="application/json")

    assert response.status_code == 201, response.json


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"ruleset": "jhyap", "ruleset": "twenty-two", "players": ["A", "B"]}', "ruleset"),
        (
            '{"ruleset": "jhyap", "players": ["A", "B"], "options": {"decks": 1, "decks": 2}}',
            "decks",
        ),
    ],
    ids=["top level", "nested"],
)
def test_a_field_given_twice_is_400_and_creates_nothing(client: Any, text: str, field: str) -> None:
    response = client.post("/api/v1/games", data=text, content_type="application/json")

    assert response.status_code == 400
    assert response.json["error"] == {
        "status": 400,
        "code": "bad_request",
        "message": f'The field "{field}" is given twice; give it once.',
        "details": {field: ["Given twice."]},
    }


@pytest.mark.parametrize(
    "keys",
    [["round-1", "round-1-again"], ["round-1", "round-1"], ["a,b"]],
    ids=["two keys", "the same key twice", "a comma"],
)
def test_two_idempotency_keys_are_400_and_record_nothing(table: Any, keys: list[str]) -> None:
    table.create()
    entry = table.jhyap_entry(2, (17, 14, 3))
    headers = [("Authorization", f"Bearer {table.token}")]
    headers += [("Idempotency-Key", key) for key in keys]

    response = table.client.post(f"{table.url}/rounds", json=entry, headers=headers)

    assert response.status_code == 400, response.json
    assert response.json["error"]["code"] == "bad_request"
    assert "Idempotency-Key" in response.json["error"]["message"]
    assert table.get()["rounds_played"] == 0
