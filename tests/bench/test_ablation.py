"""``bench/ablation.py`` still runs against the code it patches."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ablation_measures_every_variant():
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ablation.py"), "--requests", "3", "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    rows = [
        line for line in result.stdout.splitlines() if line.startswith("| ") and "---" not in line
    ]
    names = [row.split("|")[1].strip() for row in rows]
    assert names == [
        "POST",
        "(a) ceiling: bare Flask JSON",
        "(c) POST a round, as served",
        "without Flask-Limiter's checks",
        "without marshmallow's load",
        "without either",
        "with the domain stubbed (games.record_round)",
        "GET",
        "(a) ceiling: bare Flask JSON",
        "(b) GET a game, as served",
        "without the request log",
        "without the security headers",
        "without reading the version",
        "without all three",
    ]
