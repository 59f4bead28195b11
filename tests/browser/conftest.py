"""Browser tests: the phone page in headless Chromium (Debian's ``chromium``), driven by Playwright.

The app runs in a real gunicorn server on a free loopback port, on a SQLite
file in a temporary folder, so a test can stop and restart it. Tests are
skipped when Playwright for Python or ``/usr/bin/chromium`` is missing, except in CI
(``CI`` set), where a missing browser fails them.
Screenshots go to ``$SCOREKEEPER_TEST_OUTPUT/screenshots`` (default
``test-output/screenshots`` in the project).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn serving ``wsgi:app`` on a SQLite file; it can stop and start again on its port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database_url = f"sqlite:///{folder / 'scorekeeper.sqlite'}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = folder / "server.log"
        self._create_tables()

    def _create_tables(self) -> None:
        from scorekeeper.app import create_app
        from scorekeeper.extensions import db

        app = create_app({"DATABASE_URL": self.database_url, "RATE_LIMITS": "off"})
        app.instance_path = str(self.folder)
        with app.app_context():
            db.create_all()
            db.engine.dispose()

    def start(self) -> None:
        env = {
            **os.environ,
            "SCOREKEEPER_DATABASE_URL": self.database_url,
            "SCOREKEEPER_RATE_LIMITS": "off",
            "PYTHONUNBUFFERED": "1",
        }
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "--bind",
                    f"127.0.0.1:{self.port}",
                    "--workers",
                    "1",
                    "--threads",
                    "8",
                    "--graceful-timeout",
                    "2",
                    "wsgi:app",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/v1/health", timeout=1) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        self.process = None

    def rounds(self, game_id: str) -> list[dict[str, Any]]:
        import json

        with urllib.request.urlopen(
            f"{self.url}/api/v1/games/{game_id}/rounds", timeout=5
        ) as response:
            return json.load(response)["rounds"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path)
    server.start()
    yield server
    server.stop()


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
def page(browser: Any, server: Server, console: Console) -> Iterator[Any]:
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
