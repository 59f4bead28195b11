"""Write the conformance vectors: ``python -m tests.conformance.generate`` (docs/conformance.md).

Each file under ``tests/js/vectors/`` holds one vector a line: a game's setup, then each item
(a round, a join, a leave or the end by hand) with the JSON result and state the Python engine
gave for it, or the refusal (code, message and details) it raised. ``--check`` writes nothing
and exits 1 when a committed file differs from what the engine gives now.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.rules import RULESETS

from . import (
    hearts_vectors,
    jhyap_vectors,
    score_pad_vectors,
    seat_vectors,
    setup_vectors,
    twenty_two_vectors,
)

VECTORS_DIR = Path(__file__).resolve().parents[1] / "js" / "vectors"
COMMAND = "python -m tests.conformance.generate"
FILES: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "setup.json": setup_vectors.vectors,
    "jhyap.json": jhyap_vectors.vectors,
    "twenty-two.json": twenty_two_vectors.vectors,
    "seat-changes.json": seat_vectors.vectors,
    "hearts.json": hearts_vectors.vectors,
    "score-pad.json": score_pad_vectors.vectors,
}


def render(vectors: list[dict[str, Any]]) -> str:
    """The file's text: a short header, then one vector a line (so a diff shows which changed)."""
    names = [vector["name"] for vector in vectors]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    assert not duplicates, f"vector names must be unique: {duplicates}"
    lines = ",\n".join(json.dumps(v, ensure_ascii=False, separators=(",", ":")) for v in vectors)
    return f'{{"generated_by": "{COMMAND}",\n"vectors": [\n{lines}\n]}}\n'


DESCRIPTORS = VECTORS_DIR.parent / "rulesets.json"
"""Each ruleset as GET /api/v1/rulesets lists it, options aside: the JavaScript port's are equal."""


def descriptors() -> str:
    """The rulesets' limits and descriptors as the service lists them, one ruleset a line."""
    listed = []
    for rules in RULESETS.values():
        described = rules.describe()
        described.pop("options")
        listed.append(json.dumps(described, ensure_ascii=False, separators=(",", ":")))
    return f'{{"generated_by": "{COMMAND}",\n"rulesets": [\n' + ",\n".join(listed) + "\n]}\n"


def build() -> dict[Path, str]:
    """Every vectors file's path and the text the engine gives for it now."""
    return {VECTORS_DIR / name: render(make()) for name, make in FILES.items()}


def stale(files: dict[Path, str]) -> list[Path]:
    """The files whose committed text differs from ``files`` (or that are missing)."""
    return [
        path for path, text in files.items() if not path.exists() or path.read_text("utf-8") != text
    ]


def main(argv: list[str]) -> int:
    """Write the vectors, or with ``--check`` only tell which are stale."""
    files = {**build(), DESCRIPTORS: descriptors()}
    if "--check" in argv:
        for path in stale(files):
            print(f"stale: {path}; run {COMMAND}", file=sys.stderr)
        return 1 if stale(files) else 0
    VECTORS_DIR.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        path.write_text(text, "utf-8")
        print(f"{path}: {text.count(chr(10)) - 3} vectors, {len(text.encode()) // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
