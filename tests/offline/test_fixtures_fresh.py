"""The provisional-game fixtures the JS tests replay are the service's answers now."""

from __future__ import annotations

from tests.offline import generate


def test_committed_fixtures_are_what_the_service_answers_now() -> None:
    text = generate.build()
    committed = generate.FIXTURES.read_text("utf-8") if generate.FIXTURES.exists() else ""
    assert committed == text, f"stale: run {generate.COMMAND}"
