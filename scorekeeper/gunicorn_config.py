"""Production gunicorn settings (``--config python:scorekeeper.gunicorn_config``)."""

from __future__ import annotations

timeout = 30
graceful_timeout = 30
keepalive = 5
max_requests = 10_000
max_requests_jitter = 500
accesslog = "-"
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(B)s %(M)sms'
