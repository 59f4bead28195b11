"""A first game through the API."""

from __future__ import annotations


def test_create_and_record_round(table):
    table.create()
    round_ = table.jhyap(2, 17, ["KH", "JK", "4S"], 3)
    assert round_["caller_succeeded"] is True
    assert [r["score_after"] for r in round_["results"]] == [17, 14, 0]
    assert table.scores() == [17, 14, 0]
