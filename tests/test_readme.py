"""What a newcomer reads first in the README: another port, a quick subset of the tests, and
what ``dealer`` and ``starter`` are in the first example."""

from __future__ import annotations

import re
import subprocess
import sys

from scorekeeper import PROJECT_ROOT

README = (PROJECT_ROOT / "README.md").read_text()


def section(title: str) -> str:
    """The README's section under ``## title``, up to the next one."""
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end > 0 else None]


def test_the_quick_start_says_how_to_serve_on_another_port():
    quick_start = section("Quick start")
    command = re.search(r"`(?:\.venv/bin/)?scorekeeper serve [^`]*--port (\d+)[^`]*`", quick_start)
    assert command, "the quick start names no other port"
    serve_help = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "--port" in serve_help and "--host" in serve_help


def test_development_names_a_quick_subset_of_the_tests_and_what_it_leaves_out():
    development = section("Development")
    found = re.search(r"`(\.venv/bin/python -m pytest -m \"not server\"[^`]*)`", development)
    assert found, "Development names no quick subset"
    assert "browser" in development and "real server" in development
    collected = subprocess.run(
        # in this process (-n 0): workers would each collect the suite again
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-n",
            "0",
            "-m",
            "not server",
            "tests",
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
    ).stdout
    ids = [line for line in collected.splitlines() if "::" in line]
    assert ids and not [i for i in ids if i.startswith("tests/server/")]
    in_chromium = [i for i in ids if i.startswith("tests/browser/")]
    assert {i.split("::")[0] for i in in_chromium} <= {"tests/browser/test_translations.py"}


def test_the_first_example_says_dealer_and_starter_are_seats_and_answers_give_player_ids():
    example = section("A game with curl")
    first_words = example.split("```sh", 1)[0] + example.split("```", 2)[2].split("```", 1)[0]
    assert re.search(r"`dealer` and `starter` are seats", first_words), first_words
    assert "player ids" in first_words
