"""The installable page: a cold start with no network, and the update prompt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from scorekeeper import PROJECT_ROOT
from scorekeeper.app_shell import app_shell

from .conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, check_accessibility, screenshot
from .helpers import create_game, expect

pytestmark = pytest.mark.server
STATIC = PROJECT_ROOT / "scorekeeper" / "static"
TEMPLATES = PROJECT_ROOT / "scorekeeper" / "templates"
PHONE = {"viewport": VIEWPORT, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
# What the browser logs for a request the page makes while there is no network or no server.
OFFLINE = r"Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|CONNECTION_REFUSED|FAILED)"
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
WORKER_VERSION = """() => new Promise((done) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => done(event.data);
    navigator.serviceWorker.controller.postMessage({type: 'version'}, [channel.port2]);
})"""


def watch_console(page: Any, console: Any) -> Any:
    page.on("console", lambda m: m.type == "error" and console.errors.append(m.text))
    page.on("pageerror", lambda error: console.errors.append(f"pageerror: {error}"))
    return page


def installed_phone(browser: Any, profile: Path) -> Any:
    """A phone's browser with a profile on disk: closed and opened again, it starts cold."""
    return browser.browser_type.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE
    )


def test_an_installed_page_starts_cold_with_no_network(browser, server, console, tmp_path):
    console.allow(OFFLINE)
    profile = tmp_path / "profile"
    phone = installed_phone(browser, profile)
    phone.set_default_timeout(10_000)
    page = watch_console(phone.new_page(), console)
    page.goto(server.url + "/")
    page.wait_for_selector("body.ready")
    page.wait_for_function(CONTROLLED)
    version = app_shell(STATIC, TEMPLATES).version
    assert page.evaluate(WORKER_VERSION) == version
    assert page.evaluate("async () => await caches.keys()") == [f"scorekeeper-shell-{version}"]
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], name="Offline night")
    phone.close()

    # No server and no network; the browser itself starts again from its profile.
    server.stop()
    phone = installed_phone(browser, profile)
    phone.set_default_timeout(10_000)
    phone.set_offline(True)
    page = watch_console(phone.new_page(), console)
    page.goto(server.url + "/")
    page.wait_for_selector("body.ready")
    expect(page.locator("#home-link")).to_have_text("Scorekeeper")
    expect(page.locator("a.game-link")).to_have_count(1)
    expect(page.locator("a.game-link")).to_contain_text("Offline night")
    page.reload()
    page.wait_for_selector("body.ready")
    assert page.evaluate(CONTROLLED)
    screenshot(page, "offline-cold-start")

    # The game's page: the page's own answer (not the browser's error page) in the chosen language.
    page.locator("a.game-link").click()
    assert page.url == f"{server.url}/#/game/{game_id}"
    expect(page.locator("main h1")).to_be_visible()
    page.select_option("#lang-select", "ne")
    expect(page.locator("#home-link")).to_have_text("स्कोरकिपर")
    assert page.evaluate("() => document.documentElement.lang") == "ne"
    phone.close()
    assert [e for e in console.unexpected() if e.startswith("pageerror")] == []
    assert console.unexpected() == []


def restart_with_release(server: Any, release: str) -> None:
    """Deploy again: the same files, another ``SCOREKEEPER_RELEASE`` (so another shell version)."""
    server.stop()
    server.env["SCOREKEEPER_RELEASE"] = release
    server.start()


def test_a_new_version_is_offered_and_reload_brings_it(page, server, console):
    console.allow(OFFLINE)  # requests in flight while the server restarts
    page.wait_for_function(CONTROLLED)
    old = app_shell(STATIC, TEMPLATES).version
    assert page.evaluate(WORKER_VERSION) == old
    expect(page.get_by_test_id("update-ready")).to_have_count(0)

    new = app_shell(STATIC, TEMPLATES, "2026-12-01.2").version
    assert new != old
    restart_with_release(server, "2026-12-01.2")
    page.reload()  # a navigation: the browser fetches /sw.js again, finds it changed, installs it
    page.wait_for_selector("body.ready")
    banner = page.get_by_test_id("update-ready")
    expect(banner).to_contain_text("A new version of Scorekeeper is ready.")
    # Until Reload is tapped, the old version serves the page.
    assert page.evaluate(WORKER_VERSION) == old
    check_accessibility(page, "update banner")
    screenshot(page, "update-ready")

    page.evaluate("() => { window.beforeReload = true; }")
    with page.expect_event("load"):
        page.get_by_test_id("update-reload").click()
    page.wait_for_selector("body.ready")
    assert page.evaluate("() => window.beforeReload") is None
    assert page.evaluate(WORKER_VERSION) == new
    assert page.evaluate("async () => await caches.keys()") == [f"scorekeeper-shell-{new}"]
    assert (
        page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).waiting")
        is None
    )
    expect(page.get_by_test_id("update-ready")).to_have_count(0)
