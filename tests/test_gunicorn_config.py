"""The production gunicorn settings: several workers are recycled now and then, a lone one never."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from gunicorn.config import Config

from scorekeeper import gunicorn_config


def starting(workers: int, storage: str = "memory://") -> Config:
    """The settings once ``on_starting`` has run for ``workers`` workers."""
    cfg = Config()
    cfg.set("workers", workers)
    cfg.set("max_requests", gunicorn_config.max_requests)
    config = {"RATE_LIMIT_STORAGE_URI": storage, "RATE_LIMITS": "on"}
    app = SimpleNamespace(wsgi=lambda: SimpleNamespace(config=config))
    gunicorn_config.on_starting(SimpleNamespace(cfg=cfg, app=app))
    return cfg


def test_a_lone_worker_is_never_recycled() -> None:
    assert gunicorn_config.max_requests > 0
    assert starting(1).max_requests == 0


def test_several_workers_are_recycled_in_turn() -> None:
    cfg = starting(2, storage="redis://127.0.0.1:6379")
    assert cfg.max_requests == gunicorn_config.max_requests


def test_several_workers_with_counters_in_memory_are_refused() -> None:
    with pytest.raises(RuntimeError, match="2 worker processes"):
        starting(2)
