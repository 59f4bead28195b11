"""Network safety: a round confirmed while the service is down is kept, resent with the same
Idempotency-Key, and recorded exactly once."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("playwright.sync_api")

from .helpers import (
    create_game,
    expect,
    jhyap_entry,
    next_round_is,
    open_entry,
    scores,
    wait_preview,
)

pytestmark = pytest.mark.server
REFUSED = (
    r"Failed to load resource: net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|FAILED|EMPTY_RESPONSE)"
)


def round_posts(page):
    """Idempotency-Keys of every (non dry-run) round POST the page makes."""
    keys = []

    def on_request(request):
        if request.method == "POST" and request.url.endswith("/rounds"):
            keys.append(request.headers.get("idempotency-key"))

    page.on("request", on_request)
    return keys


def pending_store(page):
    return page.evaluate("() => JSON.parse(localStorage.getItem('scorekeeper.pending.v1') || '{}')")


def test_server_stopped_mid_entry_round_sent_once(page, server, console):
    console.allow(REFUSED)
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    keys = round_posts(page)
    open_entry(page)
    page.get_by_test_id("caller").filter(has_text="Asha").click()
    page.get_by_test_id("pad-2").click()

    server.stop()  # mid-entry: the rest of the round is entered with no service
    page.get_by_test_id("pad-20").click()
    page.get_by_test_id("pad-30").click()
    expect(page.get_by_test_id("offline-note")).to_be_visible()
    page.get_by_test_id("confirm").click()

    banner = page.get_by_test_id("pending")
    expect(banner).to_contain_text("kept on this phone")
    stored = pending_store(page)[game_id]
    assert stored["body"]["number"] == 1
    assert stored["body"]["caller"] and len(stored["body"]["hands"]) == 3
    expect(page.get_by_test_id("record-round")).to_have_count(0)  # no second round on top of it
    page.wait_for_timeout(1500)  # at least one automatic retry fails too
    assert pending_store(page)[game_id]["attempts"] >= 2

    server.start()
    expect(banner).to_have_count(0, timeout=20_000)
    next_round_is(page, 2)
    assert scores(page) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    assert pending_store(page) == {}
    assert len(server.rounds(game_id)) == 1
    sent = [key for key in keys if key]
    assert sent and len(set(sent)) == 1  # every attempt carried the one key


def test_lost_answer_and_reload_resend_with_the_same_key(page, server, console):
    """The service records the round but the answer never arrives; the page is closed and opened
    again after a server restart: it resends with the same key and the round exists once."""
    console.allow(REFUSED)
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    keys = round_posts(page)

    def swallow_answer(route):
        if route.request.method == "POST" and "dry_run" not in route.request.url:
            route.fetch()  # reaches the service, which records the round...
            route.abort("connectionreset")  # ...but the phone never hears back
        else:
            route.continue_()

    page.route("**/api/v1/games/*/rounds*", swallow_answer)
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20, 30])
    wait_preview(page)
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("pending")).to_contain_text("kept on this phone")
    assert len(server.rounds(game_id)) == 1
    key = pending_store(page)[game_id]["key"]

    page.goto("about:blank")  # the phone closes the page
    page.unroute("**/api/v1/games/*/rounds*")
    server.stop()
    server.start()
    page.goto(server.url + "/#/game/" + game_id)  # and opens it again: the round is resent
    page.wait_for_selector("body.ready")
    expect(page.get_by_test_id("pending")).to_have_count(0, timeout=20_000)
    next_round_is(page, 2)
    assert scores(page) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    assert len(server.rounds(game_id)) == 1
    assert set(filter(None, keys)) == {key}


def test_refused_round_is_kept_until_discarded(page, server, console):
    """A round the service refuses (another phone recorded that round first) is not dropped."""
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20, 30])
    wait_preview(page)
    # Another phone records round 1 in the meantime.
    token = page.evaluate(
        "id => JSON.parse(localStorage.getItem('scorekeeper.games.v1'))"
        ".find(g => g.id === id).token",
        game_id,
    )
    players = page.evaluate(
        "async id => (await (await fetch('/api/v1/games/' + id)).json()).players.map(p => p.id)",
        game_id,
    )
    body = {"caller": players[1], "hands": [{"player": p, "total": 1} for p in players]}
    status = page.evaluate(
        """async ([id, token, body]) => (await fetch('/api/v1/games/' + id + '/rounds', {
            method: 'POST', body: JSON.stringify(body),
            headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
        })).status""",
        [game_id, token, json.loads(json.dumps(body))],
    )
    assert status == 201
    console.allow(r"status of 409")  # the browser logs the refused POST itself
    page.get_by_test_id("confirm").click()
    failed = page.get_by_test_id("pending-failed")
    expect(failed).to_contain_text("was not accepted")
    expect(failed).to_contain_text("not round 1")
    assert game_id in pending_store(page)
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.get_by_test_id("pending-failed")).to_be_visible()  # still there after a reload
    page.get_by_role("button", name="Discard this round").click()
    expect(page.get_by_test_id("pending-failed")).to_have_count(0)
    assert pending_store(page) == {}
    assert len(server.rounds(game_id)) == 1
