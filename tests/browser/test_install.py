"""The installable page: a cold start with no network, the update prompt, and the scorer link that
gives another phone a game's (or a table's) key."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from scorekeeper import PROJECT_ROOT
from scorekeeper.app_shell import app_shell

from .conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, check_accessibility, screenshot
from .helpers import (
    confirm,
    create_game,
    create_table,
    expect,
    game_token,
    jhyap_entry,
    offline_round,
    open_entry,
    scores,
    table_game,
    wait_preview,
)

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


def first_visit(browser: Any, profile: Path, server: Any, console: Any) -> tuple[Any, Any]:
    """The phone opens the page online once: it is installed (the shell and the rulesets kept)."""
    phone = installed_phone(browser, profile)
    phone.set_default_timeout(10_000)
    page = watch_console(phone.new_page(), console)
    page.goto(server.url + "/")
    page.wait_for_selector("body.ready")
    page.wait_for_function(CONTROLLED)
    return phone, page


def cold_offline(browser: Any, profile: Path, server: Any, console: Any) -> tuple[Any, Any]:
    """The service stopped, no network: the phone starts again from its profile."""
    server.stop()
    phone = installed_phone(browser, profile)
    phone.set_default_timeout(10_000)
    phone.set_offline(True)
    page = watch_console(phone.new_page(), console)
    page.goto(server.url + "/")
    page.wait_for_selector("body.ready")
    return phone, page


def test_an_installed_page_starts_cold_with_no_network(browser, server, console, tmp_path):
    console.allow(OFFLINE)
    profile = tmp_path / "profile"
    phone, page = first_visit(browser, profile, server, console)
    version = app_shell(STATIC, TEMPLATES).version
    assert page.evaluate(WORKER_VERSION) == version
    assert page.evaluate("async () => await caches.keys()") == [f"scorekeeper-shell-{version}"]
    game_id = create_game(
        page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1, name="Offline night"
    )
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20, 30])
    wait_preview(page)
    confirm(page)
    phone.close()

    # No server and no network; the browser itself starts again from its profile.
    phone, page = cold_offline(browser, profile, server, console)
    expect(page.locator("#home-link")).to_have_text("Scorekeeper")
    expect(page.locator("a.game-link")).to_have_count(1)
    expect(page.locator("a.game-link")).to_contain_text("Offline night")
    page.reload()
    page.wait_for_selector("body.ready")
    assert page.evaluate(CONTROLLED)
    screenshot(page, "offline-cold-start")

    # The game's page, from what the phone kept: the scores after round 1, and round 2 is
    # scored on the phone and kept until the service is back.
    page.locator("a.game-link").click()
    assert page.url == f"{server.url}/#/game/{game_id}"
    assert scores(page) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    offline_round(page, "Bikash", [5, 1, 9])
    assert scores(page) == {"Asha": "5", "Bikash": "20", "Chandra": "39"}
    page.select_option("#lang-select", "ne")
    expect(page.locator("#home-link")).to_have_text("स्कोरकिपर")
    assert page.evaluate("() => document.documentElement.lang") == "ne"
    page.select_option("#lang-select", "en")

    server.start()
    phone.set_offline(False)
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=20_000)
    assert [r["number"] for r in server.rounds(game_id)] == [1, 2]
    assert scores(page) == {"Asha": "5", "Bikash": "20", "Chandra": "39"}
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
    screenshot(page, "update-ready")
    for lang in ("fil", "bn", "ne", "en"):
        page.select_option("#lang-select", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(banner).to_be_visible()
        check_accessibility(page, f"update banner ({lang})")
    expect(page.get_by_test_id("update-reload")).to_have_text("Reload")

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


def decoded_qr(page: Any) -> list[str]:
    """What a QR reader finds in the drawn code (zxing-cpp on a screenshot of it)."""
    image = pytest.importorskip("PIL.Image")
    zxingcpp = pytest.importorskip("zxingcpp")
    png = page.get_by_test_id("scorer-qr").screenshot()
    return [code.text for code in zxingcpp.read_barcodes(image.open(io.BytesIO(png)))]


def test_a_second_phone_added_by_the_scorer_link_records_the_next_round(
    page, server, browser, console
):
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    token = game_token(page, game_id)
    # Shown only after a tap.
    expect(page.get_by_test_id("scorer-link")).to_have_count(0)
    toggle = page.get_by_test_id("add-scorer")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#scorer-link-box .notice")).to_contain_text(
        "anyone with them can record and change rounds"
    )
    link = page.get_by_test_id("scorer-link").input_value()
    assert link == f"{server.url}/#/scorer/game/{game_id}/{token}"
    assert decoded_qr(page) == [link]
    share = page.get_by_test_id("share-link").input_value()
    assert token not in share
    screenshot(page, "scorer-link")
    for lang in ("en", "fil", "bn", "ne"):
        page.select_option("#lang-select", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.get_by_test_id("scorer-qr")).to_be_visible()  # still open once redrawn
        check_accessibility(page, f"scorer link ({lang})")
    page.select_option("#lang-select", "en")

    other = browser.new_context(**PHONE)
    second = watch_console(other.new_page(), console)
    second.goto(f"{server.url}/#/game/{game_id}")  # without the key: read only, no scorer link
    expect(second.locator(".watching")).to_be_visible()
    expect(second.get_by_test_id("record-round")).to_have_count(0)
    expect(second.get_by_test_id("add-scorer")).to_have_count(0)
    second.goto(link)
    expect(second.get_by_test_id("record-round")).to_be_visible()
    expect(second.locator("main .notice")).to_have_text(
        "This phone now has this game's key: it can record rounds."
    )
    # The key left the address bar and the history entry; the phone keeps it.
    assert second.url == f"{server.url}/#/game/{game_id}"
    assert game_token(second, game_id) == token
    # Back: the game as opened before, without the key; forward: the link's entry, replaced.
    assert second.evaluate("() => history.length") == 3  # the new tab's blank page, then two
    second.go_back()
    expect(second.get_by_test_id("record-round")).to_be_visible()  # now it has the key
    assert second.url == f"{server.url}/#/game/{game_id}"
    second.go_forward()
    assert second.url == f"{server.url}/#/game/{game_id}"
    open_entry(second)
    jhyap_entry(second, "Bikash", [12, 1, 7])
    wait_preview(second)
    confirm(second)
    assert scores(second) == {"Asha": "12", "Bikash": "0", "Chandra": "7"}

    # The first phone shows the round the second recorded (its poll).
    expect(page.locator(".round-number")).to_have_text("Round 2", timeout=15_000)
    assert scores(page) == {"Asha": "12", "Bikash": "0", "Chandra": "7"}

    # The watch link stays read only, even on a phone that has the key.
    second.goto(share)
    expect(second.locator(".watching")).to_be_visible()
    expect(second.locator(".round-number")).to_have_text("Round 2")
    expect(second.get_by_test_id("record-round")).to_have_count(0)
    expect(second.get_by_test_id("add-scorer")).to_have_count(0)
    other.close()

    log = server.log_text()
    assert f"/api/v1/games/{game_id}/rounds" in log  # the log has the requests...
    assert token not in log  # ...and never the key


def test_a_table_scorer_link_gives_the_table(page, server, browser, console):
    table_id = create_table(page, "Friday crew", ["Asha", "Bikash", "Chandra"])
    token = page.evaluate(
        "id => JSON.parse(localStorage.getItem('scorekeeper.tables.v1'))"
        ".find(t => t.id === id).token",
        table_id,
    )
    page.get_by_test_id("add-scorer").click()
    expect(page.locator("#scorer-link-box .notice")).to_contain_text("start games")
    link = page.get_by_test_id("scorer-link").input_value()
    assert link == f"{server.url}/#/scorer/tables/{table_id}/{token}"
    assert decoded_qr(page) == [link]
    check_accessibility(page, "table scorer link")

    other = browser.new_context(**PHONE)
    second = watch_console(other.new_page(), console)
    second.goto(server.url + f"/#/tables/{table_id}")
    expect(second.locator(".watching")).to_be_visible()  # no key yet: read only
    second.goto(link)
    expect(second.get_by_test_id("table-new-game")).to_be_visible()
    expect(second.locator("main .notice")).to_contain_text("this table's key")
    assert second.url == f"{server.url}/#/tables/{table_id}"

    # A game the first phone starts there: its own key on the first phone, the table's on the
    # second (which only has the table's), and each phone's scorer link says which it gives.
    page.goto(f"{server.url}/#/tables/{table_id}")
    game_id = table_game(page, "jhyap", ["Asha", "Bikash", "Chandra"])
    page.get_by_test_id("add-scorer").click()
    game_link = page.get_by_test_id("scorer-link").input_value()
    assert game_link == f"{server.url}/#/scorer/game/{game_id}/{game_token(page, game_id)}"
    second.goto(f"{server.url}/#/game/{game_id}")
    expect(second.get_by_test_id("record-round")).to_be_visible()
    second.get_by_test_id("add-scorer").click()
    expect(second.locator("#scorer-link-box .notice")).to_contain_text("this table's key")
    assert second.get_by_test_id("scorer-link").input_value() == link
    other.close()
    assert token not in server.log_text()


def test_a_scorer_link_for_no_such_game_changes_nothing(page, server, console):
    console.allow(r"status of 404")
    page.goto(server.url + "/#/scorer/game/no-such-game/some-key")
    expect(page.get_by_test_id("retry-route")).to_be_visible()
    expect(page.locator("main .error")).to_be_visible()
    assert page.evaluate("() => localStorage.getItem('scorekeeper.games.v1')") is None
