"""The ceiling of the stack: a bare Flask endpoint returning a small JSON document.

Served by ``bench/run.py`` with the same gunicorn command and settings as the
real app (``--config python:scorekeeper.gunicorn_config``, same worker count),
so the ratio of a Scorekeeper endpoint to this one is what Scorekeeper's own
code costs on top of Flask + gunicorn + loopback TCP.
"""

from __future__ import annotations

from flask import Flask, jsonify

app = Flask(__name__)


@app.get("/ceiling")
def ceiling():
    """A small JSON document, like a tiny API answer."""
    return jsonify({"status": "ok", "service": "ceiling", "answer": 42})
