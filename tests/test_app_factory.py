"""The app factory, and what importing the package's parts loads."""

from __future__ import annotations

import subprocess
import sys

import pytest
from flask import Flask

from scorekeeper import PROJECT_ROOT

WEB_AND_DATABASE = {"flask", "werkzeug", "sqlalchemy", "flask_sqlalchemy", "jinja2", "marshmallow"}


def modules_loaded_by(statement: str) -> set[str]:
    """The top-level packages a fresh interpreter has loaded after ``statement``."""
    probe = f"{statement}; import sys; print(' '.join({{m.split('.')[0] for m in sys.modules}}))"
    finished = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=PROJECT_ROOT
    )
    return set(finished.stdout.split())


@pytest.mark.parametrize("module", ["scorekeeper", "scorekeeper.rules", "scorekeeper.serializers"])
def test_the_rules_engine_loads_no_web_or_database_library(module: str) -> None:
    assert not modules_loaded_by(f"import {module}") & WEB_AND_DATABASE


def test_the_app_module_is_where_flask_comes_in() -> None:
    assert "flask" in modules_loaded_by("import scorekeeper.app")


def test_the_factory_serves_the_api_and_the_page(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/api/v1/health").get_json() == {"status": "ok"}
    assert client.get("/").status_code == 200
    assert app.name == "scorekeeper"
