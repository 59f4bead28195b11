"""On/off settings: the spellings read as on or off, anything else refused at start."""

from __future__ import annotations

import pytest

from scorekeeper.app import create_app
from scorekeeper.settings import check_shared_rate_limits, is_on


@pytest.mark.parametrize("value", ["on", "ON", "true", "True", True, 1, "1", "yes", " on "])
def test_spellings_of_on(value: object) -> None:
    assert is_on({"SWITCH": value}, "SWITCH") is True


@pytest.mark.parametrize("value", ["off", "Off", "false", False, 0, "0", "no", "off\n"])
def test_spellings_of_off(value: object) -> None:
    assert is_on({"SWITCH": value}, "SWITCH") is False


@pytest.mark.parametrize("value", ["of", "disabled", "", None, 2])
def test_anything_else_is_refused_with_the_variable_named(value: object) -> None:
    with pytest.raises(ValueError, match="SCOREKEEPER_SWITCH must be on or off"):
        is_on({"SWITCH": value}, "SWITCH")


@pytest.mark.parametrize(("environment", "switched_on"), [("false", False), ("yes", True)])
def test_the_environment_switches_rate_limits_and_the_request_log(
    monkeypatch: pytest.MonkeyPatch, database_url: str, environment: str, switched_on: bool
) -> None:
    monkeypatch.setenv("SCOREKEEPER_RATE_LIMITS", environment)  # from_prefixed_env: JSON first
    monkeypatch.setenv("SCOREKEEPER_REQUEST_LOG", environment)
    app = create_app({"DATABASE_URL": database_url})
    hooks = [hook.__name__ for hook in app.before_request_funcs.get(None, [])]
    assert app.config["RATELIMIT_ENABLED"] is switched_on
    assert ("start_clock" in hooks) is switched_on  # the request log's clock


def test_a_misspelt_switch_stops_the_app_from_starting(
    monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    monkeypatch.setenv("SCOREKEEPER_RATE_LIMITS", "of")
    with pytest.raises(ValueError, match="SCOREKEEPER_RATE_LIMITS must be on or off, not 'of'"):
        create_app({"DATABASE_URL": database_url})


@pytest.mark.parametrize(
    ("workers", "storage", "limits", "refused"),
    [
        (1, "memory://", "on", False),
        (4, "memory://", "on", True),
        (4, "memory://", "off", False),
        (4, "redis://127.0.0.1:6379", "on", False),
    ],
)
def test_several_workers_need_shared_counters(workers, storage, limits, refused):
    config = {"RATE_LIMIT_STORAGE_URI": storage, "RATE_LIMITS": limits}
    if refused:
        with pytest.raises(RuntimeError, match=f"{workers} worker processes"):
            check_shared_rate_limits(config, workers)
    else:
        check_shared_rate_limits(config, workers)
