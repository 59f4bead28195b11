"""How the page follows a game at a phone's size: a watcher hears of another phone's round on the
event stream and reads only that round; without streams it polls every 10 s ± 20 % with its
ETag, never while the page is hidden; the scorer reads nothing after its own round.

The stream tests need ``GET /api/v1/games/{id}/events`` (issue 28; built on the ``live`` branch):
they are skipped, saying so, while the server answers 404 for it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

pytest.importorskip("playwright.sync_api")

from .conftest import VIEWPORT
from .helpers import (
    confirm,
    create_game,
    expect,
    jhyap_entry,
    next_round_is,
    open_entry,
    other_phone_records,
    player_ids,
    scores,
    totals,
    wait_preview,
    without_streams,
)

pytestmark = pytest.mark.server
NAMES = ["Asha", "Bikash", "Chandra"]


def round_1(ids: list[int]) -> dict[str, Any]:
    """Round 1 as another phone records it: Asha calls with 2, Bikash holds 20, Chandra 30."""
    return totals(ids, 0, 2, 20, 30)


class Requests:
    """The API requests a page makes, but its event streams: "GET /api/v1/... If-None-Match"."""

    def __init__(self, page: Any) -> None:
        self.seen: list[str] = []
        page.on("request", self.record)

    def record(self, request: Any) -> None:
        url = urlsplit(request.url)
        if not url.path.startswith("/api/v1/games/") or url.path.endswith("/events"):
            return
        line = f"{request.method} {url.path}" + (f"?{url.query}" if url.query else "")
        if tag := request.headers.get("if-none-match"):
            line += f" If-None-Match: {tag}"
        self.seen.append(line)

    def since(self, mark: int) -> list[str]:
        return self.seen[mark:]


def streams_answer(server: Any, game_id: str) -> bool:
    """Whether the server streams a game's events (else it answers 404 for the route)."""
    url = f"{server.url}/api/v1/games/{game_id}/events"
    with requests.get(url, stream=True, timeout=5) as response:
        kind = response.headers.get("Content-Type", "")
        return response.status_code == 200 and kind.startswith("text/event-stream")


def need_streams(server: Any, game_id: str) -> None:
    if not streams_answer(server, game_id):
        pytest.skip("needs GET /api/v1/games/{id}/events (issue 28, branch live): absent here")


def watcher_phone(browser: Any, console: Any) -> Any:
    context = browser.new_context(
        viewport=VIEWPORT, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    phone = context.new_page()
    phone.on("console", lambda m: m.type == "error" and console.errors.append(f"watcher: {m.text}"))
    phone.on("pageerror", lambda error: console.errors.append(f"watcher: {error}"))
    return phone


def watch(phone: Any, server: Any, game_id: str) -> None:
    phone.goto(f"{server.url}/#/watch/{game_id}")
    phone.wait_for_selector("body.ready")
    expect(phone.locator(".watching")).to_be_visible()
    next_round_is(phone, 1)


def hide(phone: Any, hidden: bool) -> None:
    """The page hidden (another app in front, the screen off) or shown again."""
    phone.evaluate(
        """hidden => {
            const state = hidden ? "hidden" : "visible";
            Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
            Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def test_a_watcher_hears_of_another_phones_round_on_the_stream_and_reads_only_it(
    page, server, browser, console
):
    game_id = create_game(page, "jhyap", NAMES, dealer=0, starter=1)
    need_streams(server, game_id)
    ids = player_ids(page, game_id)
    watcher = watcher_phone(browser, console)
    seen = Requests(watcher)
    with watcher.expect_request(lambda request: request.url.endswith("/events")):
        watch(watcher, server, game_id)
    assert seen.since(0) == [f"GET /api/v1/games/{game_id}", f"GET /api/v1/games/{game_id}/rounds"]
    mark = len(seen.seen)

    assert other_phone_records(page, game_id, round_1(ids)) == 201

    # Sooner than any poll could (the first would come after 8 s at least), without a reload.
    expect(watcher.locator(".round-number")).to_have_text("Round 2", timeout=5_000)
    assert scores(watcher) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    # The event, then one read: the new round only.
    assert seen.since(mark) == [f"GET /api/v1/games/{game_id}/rounds?after=0"]
    watcher.context.close()


def test_without_streams_the_watcher_polls_every_10_s_with_its_etag(page, server, browser, console):
    game_id = create_game(page, "jhyap", NAMES, dealer=0, starter=1)
    ids = player_ids(page, game_id)
    watcher = watcher_phone(browser, console)
    without_streams(watcher, console)
    # The page's clock stands still from the start: its timers run only when the test says, so a
    # page slow to open (a loaded machine) cannot see a poll fall due while it opens.
    watcher.clock.install()
    watcher.clock.pause_at(datetime.now(UTC) + timedelta(seconds=1))
    seen = Requests(watcher)
    watch(watcher, server, game_id)
    etag = requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=5).headers["ETag"]
    mark = len(seen.seen)

    assert other_phone_records(page, game_id, round_1(ids)) == 201
    watcher.clock.run_for(7_900)  # 10 s less 20 % since it began: not yet
    watcher.wait_for_timeout(500)
    assert seen.since(mark) == []
    next_round_is(watcher, 1)

    # By 10 s and 20 % since it began polling, at the latest once open: one poll, with its ETag.
    watcher.clock.run_for(4_200)
    expect(watcher.locator(".round-number")).to_have_text("Round 2")
    assert scores(watcher) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    assert seen.since(mark) == [
        f"GET /api/v1/games/{game_id} If-None-Match: {etag}",
        f"GET /api/v1/games/{game_id}/rounds?after=0",
    ]

    # Nothing new: the next poll is answered 304, and nothing more is read.
    mark = len(seen.seen)
    new_etag = requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=5).headers["ETag"]
    with watcher.expect_response(lambda response: response.status == 304):
        watcher.clock.run_for(12_100)
    assert seen.since(mark) == [f"GET /api/v1/games/{game_id} If-None-Match: {new_etag}"]
    watcher.context.close()


def test_no_poll_while_the_page_is_hidden(page, server, browser, console):
    game_id = create_game(page, "jhyap", NAMES, dealer=0, starter=1)
    ids = player_ids(page, game_id)
    watcher = watcher_phone(browser, console)
    without_streams(watcher, console)
    watcher.clock.install()
    watcher.clock.pause_at(datetime.now(UTC) + timedelta(seconds=1))  # timers run when told
    seen = Requests(watcher)
    watch(watcher, server, game_id)
    mark = len(seen.seen)

    hide(watcher, True)
    assert other_phone_records(page, game_id, round_1(ids)) == 201
    watcher.clock.run_for(120_000)  # two minutes: a dozen polls, were it shown
    watcher.wait_for_timeout(500)
    assert seen.since(mark) == []
    next_round_is(watcher, 1)

    hide(watcher, False)  # shown again: what changed meanwhile, at once
    expect(watcher.locator(".round-number")).to_have_text("Round 2")
    assert seen.since(mark)[0].startswith(f"GET /api/v1/games/{game_id} If-None-Match:")
    watcher.context.close()


def test_a_tables_page_hears_of_a_new_game_at_the_table_on_its_stream(
    page, server, browser, console
):
    made = requests.post(
        f"{server.url}/api/v1/tables", json={"name": "Friday crew", "players": NAMES}, timeout=5
    ).json()
    table_id = made["id"]
    with requests.get(
        f"{server.url}/api/v1/tables/{table_id}/events", stream=True, timeout=5
    ) as response:
        if response.status_code != 200:
            pytest.skip("needs GET /api/v1/tables/{id}/events (issue 28, branch live): absent here")
    watcher = watcher_phone(browser, console)
    with watcher.expect_request(lambda request: request.url.endswith("/events")):
        watcher.goto(f"{server.url}/#/tables/{table_id}")
        watcher.wait_for_selector("body.ready")
    expect(watcher.get_by_test_id("table-game")).to_have_count(0)

    created = requests.post(  # another phone starts a game at the table
        f"{server.url}/api/v1/tables/{table_id}/games",
        json={"ruleset": "jhyap", "players": [p["id"] for p in made["players"]]},
        headers={"Authorization": f"Bearer {made['token']}"},
        timeout=5,
    )
    assert created.status_code == 201

    # Sooner than any poll could, without a reload.
    expect(watcher.get_by_test_id("table-game")).to_have_count(1, timeout=5_000)
    watcher.context.close()


@pytest.mark.parametrize("streams", [True, False], ids=["stream", "polling"])
def test_the_scorer_reads_nothing_after_its_own_round(page, server, console, streams):
    if not streams:
        without_streams(page, console)
        # The clock stands still: no poll comes meanwhile (one would be a read of its own).
        page.clock.install()
        page.clock.pause_at(datetime.now(UTC) + timedelta(seconds=1))
    game_id = create_game(page, "jhyap", NAMES, dealer=0, starter=1)
    if streams:
        need_streams(server, game_id)
    seen = Requests(page)
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20, 30])
    wait_preview(page)
    mark = len(seen.seen)

    confirm(page)
    page.wait_for_timeout(2_000)  # the round's event, when there is a stream, has come

    assert seen.since(mark) == [f"POST /api/v1/games/{game_id}/rounds"]
    assert scores(page) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    expect(page.get_by_test_id("strip-text")).to_have_text("Bikash deals")
    next_round_is(page, 2)
