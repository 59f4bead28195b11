"""Network safety: a round confirmed while the service is down is kept, resent with the same
Idempotency-Key, and recorded exactly once."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("playwright.sync_api")

from .helpers import (
    create_game,
    expect,
    game_token,
    jhyap_entry,
    next_round_is,
    open_entry,
    other_phone_records,
    player_ids,
    scores,
    totals,
    wait_preview,
)

pytestmark = pytest.mark.server
OUTBOX_JS = "JSON.parse(localStorage.getItem('scorekeeper.outbox.v2') || '{}')"
# Each game's first item not yet answered, as {game id: item}.
PENDING_JS = (
    f"Object.fromEntries(Object.entries({OUTBOX_JS})"
    ".map(([id, box]) => [id, box.items.find(item => item.state !== 'done')])"
    ".filter(([, item]) => item))"
)
OUTBOX_LONGEST_WAIT_MS = 8000  # MAX_DELAY in static/js/outbox.js (a retryable 409 waits 1000)
# What the browser logs while the server is stopped (an event stream open then is cut off).
REFUSED = (
    r"Failed to load resource: net::ERR_"
    r"(CONNECTION_REFUSED|CONNECTION_RESET|FAILED|EMPTY_RESPONSE|INCOMPLETE_CHUNKED_ENCODING)"
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
    return page.evaluate(f"() => {PENDING_JS}")


def run_the_outbox_timers(page):
    """Run the page's clock (installed with ``page.clock.install()``) past the longest wait the
    outbox schedules a resend for, then see a request the page sends after: any resend those
    timers made has been seen by ``page.on("request")`` by then."""
    page.clock.run_for(OUTBOX_LONGEST_WAIT_MS + 1000)
    with page.expect_request("**/api/v1/health"):
        page.evaluate("() => { fetch('/api/v1/health'); }")


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
    # The round shows at once, provisionally, and the next one can be entered on top of it.
    expect(page.get_by_test_id("provisional")).to_contain_text("1 not yet sent")
    next_round_is(page, 2)
    assert scores(page) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    # At least one automatic retry fails too.
    page.wait_for_function(f"id => ({PENDING_JS})[id]?.attempts >= 2", arg=game_id)
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


def test_a_new_game_whose_answer_was_lost_is_created_once_when_started_again(page, server, console):
    console.allow(REFUSED)
    created, keys = [], []

    def swallow_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        response = route.fetch()  # the service creates the game...
        created.append(response.json())
        route.abort("connectionreset")  # ...and the phone never hears back

    page.route("**/api/v1/games", swallow_answer)
    page.goto(server.url + "/#/")
    page.get_by_test_id("new-game").click()
    for seat, name in enumerate(["Asha", "Bikash"]):
        page.fill(f"#player-{seat}", name)
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("error")).to_contain_text("No connection to the scorekeeper")
    expect(page.locator("#player-1")).to_have_value("Bikash")  # nothing typed is lost

    page.unroute("**/api/v1/games")
    page.on("request", lambda r: r.method == "POST" and keys.append(r.headers["idempotency-key"]))
    page.get_by_test_id("start-game").click()
    expect(page.locator("[data-testid=players]")).to_be_visible()

    game_id = page.url.split("#/game/")[1].split("/")[0]
    assert [game["id"] for game in created] == [game_id]  # the game the first tap created
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]
    assert list(scores(page)) == ["Asha", "Bikash"]


def confirm_round_1_taken_by_another_phone(page, console, hands) -> tuple[str, list[int]]:
    """Enter round 1 of a new game (Asha calls; ``hands`` in seat order), let another phone
    record round 1 first, then confirm: the service refuses it (409). The game and player ids."""
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    open_entry(page)
    jhyap_entry(page, "Asha", hands)
    wait_preview(page)
    ids = player_ids(page, game_id)
    assert other_phone_records(page, game_id, totals(ids, 1, 1, 1, 1)) == 201
    console.allow(r"status of 409")  # the browser logs the refused POST itself
    page.get_by_test_id("confirm").click()
    return game_id, ids


def test_round_taken_by_another_phone_keep_theirs_by_default(page, server, console):
    """Another phone recorded round 1 first: theirs and mine side by side, kept after a reload;
    the main button keeps theirs and drops mine, so no round is recorded twice."""
    game_id, _ = confirm_round_1_taken_by_another_phone(page, console, [2, 20, 30])
    clash = page.get_by_test_id("clash")
    expect(clash).to_contain_text("Another phone recorded round 1")
    expect(clash).to_contain_text("Their round 1")
    expect(clash).to_contain_text("My round 1")
    expect(clash.get_by_role("button").first).to_have_text("Keep theirs")
    expect(page.get_by_test_id("record-round")).to_have_count(0)
    assert game_id in pending_store(page)
    page.reload()
    page.wait_for_selector("body.ready")
    expect(clash).to_be_visible()  # still there after a reload
    clash.get_by_role("button", name="Keep theirs").click()
    expect(clash).to_have_count(0)
    assert pending_store(page) == {}
    assert len(server.rounds(game_id)) == 1
    next_round_is(page, 2)


def test_round_taken_by_another_phone_mine_is_the_next(page, server, console):
    """ "Mine is a new round" first shows what the scores become, then sends it as round 2, after a
    reload that cleared the tab's session too."""
    game_id, ids = confirm_round_1_taken_by_another_phone(page, console, [2, 20, ["KH", "JK"]])
    page.goto("about:blank")
    page.goto(server.url + "/#/game/" + game_id)
    page.wait_for_selector("body.ready")
    page.evaluate("() => sessionStorage.clear()")
    page.reload()
    page.wait_for_selector("body.ready")
    clash = page.get_by_test_id("clash")
    clash.get_by_role("button", name="Mine is a new round").click()
    # Their round 1 scored 1 each (Asha's call of 1 ties: she scores 0); mine on top of it.
    expect(page.get_by_test_id("clash-difference")).to_contain_text("With mine as round 2:")
    assert len(server.rounds(game_id)) == 1  # nothing sent before the difference was seen
    page.get_by_test_id("clash-send-next").click()
    expect(clash).to_have_count(0)
    expect(page.get_by_test_id("provisional")).to_have_count(0)  # the service has it
    next_round_is(page, 3)
    assert pending_store(page) == {}
    rounds = server.rounds(game_id)
    assert [r["number"] for r in rounds] == [1, 2]
    assert rounds[1]["caller"] == ids[0]
    assert rounds[1]["results"][2]["cards"] == ["KH", "JK"]


def test_round_sent_after_the_game_ended_elsewhere_is_shown_beside_theirs_not_resent(
    page, server, console
):
    """Another phone recorded round 1 and went on to finish the game meanwhile: the 409 stands
    (no Retry-After), so the round is not resent for ever; theirs and mine are side by side, and
    a new round is no choice once the game is over."""
    game_id = create_game(page, "jhyap", ["Asha", "Bikash"], dealer=0, starter=1)
    keys = round_posts(page)
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20])
    wait_preview(page)
    ids = player_ids(page, game_id)
    for _ in range(6):  # Asha's call fails each time: 35 a round, 210 > 200 after six
        assert other_phone_records(page, game_id, totals(ids, 0, 5, 0)) == 201
    console.allow(r"status of 409")
    page.clock.install()  # the outbox's timers from here on run when the test says
    page.get_by_test_id("confirm").click()

    clash = page.get_by_test_id("clash")
    expect(clash).to_contain_text("Another phone recorded round 1")
    expect(clash).to_contain_text("Their round 1")
    expect(clash).to_contain_text("My round 1")
    expect(clash.get_by_role("button")).to_have_text(["Keep theirs", "Use mine (correct round 1)"])
    run_the_outbox_timers(page)  # the outbox would have resent a retryable 409 by now
    assert len([key for key in keys if key]) == 1  # the other phone's posts carry no key
    clash.get_by_role("button", name="Keep theirs").click()
    expect(clash).to_have_count(0)
    assert [r["number"] for r in server.rounds(game_id)] == [1, 2, 3, 4, 5, 6]


def test_invalid_round_typed_offline_is_refused_by_the_rules_on_the_phone(page, server, console):
    """Typed offline, the round breaks a rule (a call over the limit): the rules on the phone
    refuse it as the service would, Confirm stays off, and the fixed round is kept and sent."""
    console.allow(r"net::ERR_INTERNET_DISCONNECTED")
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    open_entry(page)
    page.context.set_offline(True)
    # The call limit is 5, and the caller's pad stops there: Asha's 9 is typed before she calls.
    page.get_by_test_id("hand-slot").filter(has_text="Asha").click()
    for total in (9, 20, 30):
        page.get_by_test_id(f"pad-{total}").click()
    page.get_by_test_id("caller").filter(has_text="Asha").click()
    expect(page.get_by_test_id("preview-error")).to_contain_text("the call limit is 5")
    expect(page.get_by_test_id("confirm")).to_be_disabled()
    page.get_by_test_id("hand-slot").filter(has_text="Asha").click()
    page.get_by_test_id("pad-4").click()
    expect(page.get_by_test_id("offline-note")).to_contain_text("scored on this phone")
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("provisional")).to_be_visible()
    assert scores(page) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}

    page.context.set_offline(False)
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=20_000)
    assert scores(page) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    assert len(server.rounds(game_id)) == 1


def test_double_tap_on_confirm_records_once_without_errors(page, server, console):
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20, 30])
    wait_preview(page)
    # Two taps before the page has moved on (what a quick double tap does).
    page.get_by_test_id("confirm").evaluate("button => { button.click(); button.click(); }")
    next_round_is(page, 2)  # shown at once, provisionally: wait until the service has it
    page.wait_for_function(f"id => !({PENDING_JS})[id]", arg=game_id)
    assert console.unexpected() == []
    assert len(server.rounds(game_id)) == 1


def test_a_round_kept_by_an_older_page_is_sent_when_the_page_starts(page, server, console):
    """A round the page kept before the outbox was a queue (its old key) moves into the outbox
    once, as the page starts, and is sent; the old key is gone."""
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    asha, bikash, chandra = player_ids(page, game_id)
    hands = [{"player": asha, "total": 2}, {"player": bikash, "total": 20}]
    body = {"number": 1, "caller": asha, "hands": [*hands, {"player": chandra, "total": 30}]}
    kept = {game_id: {"key": "round-kept-by-an-older-page", "token": game_token(page, game_id),
                      "body": body, "state": "waiting"}}  # fmt: skip
    page.evaluate("kept => localStorage.setItem('scorekeeper.pending.v1', kept)", json.dumps(kept))
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.get_by_test_id("pending")).to_have_count(0, timeout=20_000)
    next_round_is(page, 2)
    assert scores(page) == {"Asha": "0", "Bikash": "20", "Chandra": "30"}
    assert len(server.rounds(game_id)) == 1
    assert page.evaluate("localStorage.getItem('scorekeeper.pending.v1')") is None
