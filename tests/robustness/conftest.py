"""Shared by the robustness tests: a report printed at the end of the run.

Each robustness test appends the figures it measured (cases per operation,
games played, kills survived...) to ``REPORT``; they are printed in pytest's
terminal summary, also under ``-q``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

REPORT: list[str] = []


def report(line: str) -> None:
    """Print ``line`` in the run's summary."""
    REPORT.append(line)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The figures measured by the robustness tests."""
    if REPORT:
        terminalreporter.section("robustness figures")
        for line in REPORT:
            terminalreporter.write_line(line)


@pytest.fixture
def reported() -> Iterator[list[str]]:
    """Lines a test wants printed in the summary (kept even when the test fails)."""
    lines: list[str] = []
    yield lines
    REPORT.extend(lines)
