"""Server bugs the contract fuzzer found (tests/robustness/test_contract_fuzz.py), kept fixed."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("body", "message", "details"),
    [
        (
            {},
            "Give join (a newcomer) or leave (a player who leaves), one of the two.",
            {"join": [...]},
        ),
        (
            {"join": {"name": "Dev", "after": 1}, "leave": 2},
            "Give join (a newcomer) or leave (a player who leaves), one of the two.",
            {"join": [...]},
        ),
        (
            {"join": {"after": 1}},
            "The newcomer needs a name or a roster player id, one of the two.",
            {"join": {"_schema": [...]}},
        ),
        (
            {"join": {"name": "Dev", "player": 1, "after": 1}},
            "The newcomer needs a name or a roster player id, one of the two.",
            {"join": {"_schema": [...]}},
        ),
    ],
)
def test_a_seat_change_that_is_neither_or_both_is_refused_in_a_sentence(
    table, body, message, details
):
    # Was "The newcomer give join or leave, one of the two." and "The name of the newcomer
    # give the newcomer's name or their roster id, not both.": a field's name, then an order.
    table.create()
    response = table.client.post(f"{table.url}/seats", json=body, headers=table.auth)
    assert response.status_code == 422
    assert response.json["error"]["message"] == message
    assert _shape(response.json["error"]["details"]) == details


def _shape(details):
    """The details with every list of messages as ``[...]``."""
    if isinstance(details, dict):
        return {key: _shape(value) for key, value in details.items()}
    return [...]
