"""The app class: Flask, remembering which functions are synchronous."""

from __future__ import annotations

import importlib.util

import pytest
from flask import Flask

from scorekeeper import KNOWN_FUNCTIONS_LIMIT

FLASK_CAN_RUN_ASYNC = importlib.util.find_spec("asgiref") is not None


def test_a_synchronous_function_is_run_as_it_is_and_remembered(app: Flask) -> None:
    def view() -> str:
        return "ok"

    assert app.ensure_sync(view) is view
    assert app.ensure_sync(view) is view
    assert app._synchronous[view] is view  # type: ignore[attr-defined]


def test_an_async_function_is_never_taken_for_a_synchronous_one(app: Flask) -> None:
    async def view() -> str:
        return "ok"

    for _ in range(2):  # the second time from what was remembered, if anything was
        if FLASK_CAN_RUN_ASYNC:
            assert app.ensure_sync(view) is not view
        else:
            with pytest.raises(RuntimeError, match="async"):
                app.ensure_sync(view)


class UnhashableView:
    """A callable object that cannot be a dict key (``__eq__`` without ``__hash__``)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UnhashableView)

    def __call__(self) -> str:
        return "ok"


def test_an_unhashable_callable_is_still_run_as_it_is(app: Flask) -> None:
    view = UnhashableView()
    assert app.ensure_sync(view) is view
    assert app.ensure_sync(view)() == "ok"


def test_what_is_remembered_is_bounded(app: Flask) -> None:
    functions = [lambda: None for _ in range(KNOWN_FUNCTIONS_LIMIT + 10)]
    for function in functions:
        assert app.ensure_sync(function) is function
    assert len(app._synchronous) <= KNOWN_FUNCTIONS_LIMIT  # type: ignore[attr-defined]


def test_the_api_answers_through_the_remembered_views(client) -> None:  # type: ignore[no-untyped-def]
    for _ in range(2):
        response = client.get("/api/v1/health")
        assert response.status_code == 200
        assert response.get_json() == {"status": "ok"}
