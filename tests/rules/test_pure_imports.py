"""The rules engine and the serialisers load no web framework, database or schema library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import scorekeeper

FRAMEWORKS = "{'flask', 'sqlalchemy', 'werkzeug', 'marshmallow'}"
APP_MODULE = Path(scorekeeper.__file__).with_name("app.py")


@pytest.mark.skipif(
    not APP_MODULE.exists(),
    reason="create_app is still in scorekeeper/__init__.py, which imports Flask; "
    "this runs once it moves to scorekeeper/app.py",
)
@pytest.mark.parametrize("module", ["scorekeeper.rules", "scorekeeper.serializers"])
def test_importing_loads_no_framework(module: str) -> None:
    code = (
        f"import {module}, sys; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS}))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"
