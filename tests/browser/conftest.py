"""Browser tests: the phone page in headless Chromium (Debian's ``chromium``), driven by Playwright.

The app runs in a real server (``scorekeeper/testing/live_server.py``: ``scorekeeper serve``)
on a free loopback port, one per test module, on a database of its own; a test
can stop and restart it. Tests are skipped when Playwright for Python or
``/usr/bin/chromium`` is missing, except in CI (``CI`` set), where a missing
browser fails them.
Screenshots go to ``$SCOREKEEPER_TEST_OUTPUT/screenshots`` (default
``test-output/screenshots`` in the project).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.testing.live_server import LiveServer
from tests.conftest import LiveServerFactory

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OUTPUT = Path(os.environ.get("SCOREKEEPER_TEST_OUTPUT", ROOT / "test-output"))
SCREENSHOTS = OUTPUT / "screenshots"
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
VIEWPORT = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def module_server(live_server: LiveServerFactory) -> LiveServer:
    """One server for a module's tests (one worker, eight threads) on a database of its own: a
    SQLite file, or a schema on the test server. Each test's phone starts with nothing kept, and
    its games are its own."""
    return live_server("browser")


@pytest.fixture
def server(module_server: LiveServer) -> LiveServer:
    """The module's server, serving; a test may stop and start it again on its port (one that
    failed while it was stopped leaves it to the next test to start)."""
    if not module_server.running:
        module_server.start()
    return module_server


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        missing = f"{CHROMIUM} is not installed (apt-get install chromium)"
        if os.environ.get("CI"):  # in CI the browser tests must run, never be skipped quietly
            pytest.fail(missing)
        pytest.skip(missing)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Console:
    """Console errors and uncaught exceptions of a page; ``allow`` patterns for expected ones."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


@pytest.fixture
def console() -> Console:
    return Console()


@pytest.fixture
def page(browser: Any, server: LiveServer, console: Console) -> Iterator[Any]:
    context = browser.new_context(
        viewport=VIEWPORT, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on(
        "console", lambda message: message.type == "error" and console.errors.append(message.text)
    )
    page.on("pageerror", lambda error: console.errors.append(f"pageerror: {error}"))
    page.goto(server.url + "/")
    page.wait_for_selector("body.ready")
    yield page
    context.close()
    assert console.unexpected() == [], f"console errors: {console.unexpected()}"


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def check_accessibility(page: Any, name: str) -> None:
    """axe-core (vendored): no serious or critical violations."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated over the DevTools protocol: the page's CSP (no inline scripts) stays on.
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;true")
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    bad = [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert bad == [], f"{name}: {bad}"
