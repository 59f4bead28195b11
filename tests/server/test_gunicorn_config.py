"""The production gunicorn settings' hooks."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from scorekeeper import gunicorn_config


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """Leave the collector as found: nothing frozen before or after."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_pre_fork_hides_the_masters_objects_from_the_collector(unfrozen):
    assert gc.get_freeze_count() == 0
    gunicorn_config.pre_fork(server=None, worker=None)
    assert gc.get_freeze_count() > 10_000  # the modules and the app loaded by this test run
    assert len(gc.get_objects()) < gc.get_freeze_count()
