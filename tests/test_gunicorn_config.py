"""The production gunicorn settings: workers are never recycled; a worker may open a file for
each of its connections and serves them on an event loop; the app a worker loads is frozen once
loaded."""

from __future__ import annotations

import gc
import os
import resource
import subprocess
import sys
from types import SimpleNamespace
from unittest import mock

import pytest
from gunicorn.config import Config

from scorekeeper import gunicorn_config


def starting(workers: int, storage: str = "memory://", warnings: list[str] | None = None) -> Config:
    """The settings once ``on_starting`` has run for ``workers`` workers (warnings kept)."""
    cfg = Config()
    cfg.set("workers", workers)
    cfg.set("max_requests", gunicorn_config.max_requests)
    settings = {"SCOREKEEPER_RATE_LIMIT_STORAGE_URI": storage, "SCOREKEEPER_RATE_LIMITS": "on"}
    said = warnings if warnings is not None else []
    log = SimpleNamespace(warning=lambda text, *args: said.append(text % args))
    with mock.patch.dict(os.environ, settings):  # read as the app reads them, not from the app
        gunicorn_config.on_starting(SimpleNamespace(cfg=cfg, log=log))
    return cfg


@pytest.mark.parametrize(("workers", "storage"), [(1, "memory://"), (2, "redis://127.0.0.1:6379")])
def test_no_worker_is_recycled_after_a_number_of_requests(workers: int, storage: str) -> None:
    # A recycled worker would end every event stream it holds (bench/README.md, "Capacity").
    assert starting(workers, storage=storage).max_requests == 0


def test_several_workers_with_counters_in_memory_are_refused() -> None:
    with pytest.raises(RuntimeError, match="2 worker processes"):
        starting(2)


def test_a_worker_holds_thousands_of_connections() -> None:
    assert gunicorn_config.worker_connections >= 10_000  # gthread's default is 1,000


def test_the_open_file_limit_is_raised_within_the_hard_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2_048:
        pytest.skip("this system's hard limit of open files is below 2,048")
    resource.setrlimit(resource.RLIMIT_NOFILE, (1_024, hard))
    try:
        assert gunicorn_config.allow_open_files(2_048)
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (2_048, hard)
        assert gunicorn_config.allow_open_files(1_500)  # already allowed: left as it is
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (2_048, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_hard_limit_below_what_is_wanted_is_reached_and_said() -> None:
    # In a process of its own: a hard limit, once lowered, cannot be raised again.
    script = (
        "import resource; from scorekeeper.gunicorn_config import allow_open_files\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (256, 512))\n"
        "print(allow_open_files(4096), resource.getrlimit(resource.RLIMIT_NOFILE))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "(512,", "512)"], done.stderr


def test_too_few_files_for_the_connections_is_said_at_start(monkeypatch) -> None:
    monkeypatch.setattr(gunicorn_config, "allow_open_files", lambda wanted: False)
    warnings: list[str] = []
    starting(1, warnings=warnings)
    assert len(warnings) == 1
    assert "ulimit -Hn" in warnings[0]


def test_the_app_a_worker_loaded_is_kept_off_its_collections() -> None:
    gc.unfreeze()
    try:
        worker = SimpleNamespace(wsgi=SimpleNamespace(), alive=False)  # an app without a database
        gunicorn_config.post_worker_init(worker)
        assert gc.get_freeze_count() > 10_000  # the app, its libraries and their modules
    finally:
        gc.unfreeze()


def test_a_worker_serves_its_connections_on_gevent_and_imports_the_app_itself() -> None:
    assert gunicorn_config.worker_class == "gevent"
    assert gunicorn_config.preload_app is False  # imported before gevent's patching, it would
    # keep locks that block the whole worker
    assert 0 < gunicorn_config.keepalive <= 10  # a request's head has this long to arrive


def test_a_system_cap_that_refuses_the_raise_is_said_not_raised(monkeypatch) -> None:
    def refuse(*_: object) -> None:
        raise ValueError("not allowed to raise maximum limit")

    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        pytest.skip("this process may open any number of files")
    monkeypatch.setattr(gunicorn_config.resource, "setrlimit", refuse)
    assert not gunicorn_config.allow_open_files(soft + 1)


def test_the_master_imports_nothing_that_waits_for_the_database() -> None:
    # Imported before gevent patches a worker, psycopg would wait for PostgreSQL without letting
    # the worker's other connections run (it picks how it waits as it is imported).
    script = (
        "import sys, scorekeeper.gunicorn_config\n"
        "waits = {'psycopg', 'sqlalchemy', 'redis', 'scorekeeper.extensions'}\n"
        "print(sorted(waits & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "[]", done.stderr


def served_today() -> str:
    """SECURITY.md's section on how the service is served today."""
    from scorekeeper import PROJECT_ROOT

    text = (PROJECT_ROOT / "SECURITY.md").read_text()
    start = text.index("## How it is served today")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def test_security_md_says_how_the_service_is_served_today() -> None:
    from scorekeeper import PROJECT_ROOT, deadlines

    section = served_today()
    assert f"**{gunicorn_config.worker_class}** worker" in section
    assert f"{gunicorn_config.timeout} s" in section
    assert f"closed after {gunicorn_config.keepalive} s" in section
    assert f"head has not arrived {gunicorn_config.keepalive} s" in section
    assert f"body has\n  not arrived {deadlines.BODY_SECONDS:g} s" in section
    assert f"{gunicorn_config.worker_connections:,}" in section
    security = (PROJECT_ROOT / "SECURITY.md").read_text().lower()
    assert "sync worker" not in security
    assert "gthread" not in security
