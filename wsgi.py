"""The WSGI entry point for gunicorn: ``gunicorn wsgi:app``."""

from __future__ import annotations

from scorekeeper import create_app

app = create_app()
