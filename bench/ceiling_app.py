"""The ceiling of the stack: a bare Flask endpoint returning a small JSON document.

``bench/run.py`` serves it with the same gunicorn command and settings as the app
(``--config python:scorekeeper.gunicorn_config``, the same workers and threads), so
an endpoint's ratio to it is what Scorekeeper's own code costs on top of Flask,
gunicorn and loopback TCP.
"""

from __future__ import annotations

from flask import Flask, jsonify

app = Flask(__name__)
# Read by the gunicorn config's check of several workers; this app has no rate limits.
app.config.update(RATE_LIMITS="off", RATE_LIMIT_STORAGE_URI="memory://")


@app.get("/ceiling")
def ceiling():
    """A small JSON document, like a tiny API answer."""
    return jsonify({"status": "ok", "service": "ceiling", "answer": 42})
