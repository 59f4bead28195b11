"""Production gunicorn settings (``--config python:scorekeeper.gunicorn_config``)."""

from __future__ import annotations

timeout = 30
graceful_timeout = 30
keepalive = 5
max_requests = 10_000
max_requests_jitter = 500
# No access log: the app writes one structured line per request itself (scorekeeper/logs.py).
accesslog = None
