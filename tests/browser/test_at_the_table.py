"""At the table, on a 390x844 phone: the next dealer and starter in large type, the distance to the
limit coloured, the halving hint and the caller's pad, the strip after a confirm with its Undo,
the final ranking, the screen kept awake, and touch targets of at least 44x44 px."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from .conftest import VIEWPORT, check_accessibility, screenshot
from .helpers import (
    POLLED,
    confirm,
    create_game,
    create_table,
    expect,
    game_token,
    jhyap_entry,
    next_round_is,
    offline_round,
    open_entry,
    other_phone_records,
    player_ids,
    player_row,
    scores,
    tab,
    table_game,
    totals,
    trick_entry,
    wait_preview,
    without_streams,
)
from .targets import small_targets

pytestmark = pytest.mark.server
LANGUAGES = ["en", "fil", "bn", "ne"]
FIVE = ["Asha", "Bikash", "Chandra", "Dipa", "Eli"]


def reload(page: Any) -> None:
    page.reload()
    page.wait_for_selector("body.ready")


def axe_in_every_language(page: Any, name: str) -> None:
    """axe on the page as it is, in each of the four languages; English again at the end."""
    for lang in LANGUAGES:
        page.select_option("#lang-select", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        check_accessibility(page, f"{name} ({lang})")
    page.select_option("#lang-select", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def in_dark_and_light(page: Any, name: str) -> None:
    page.emulate_media(color_scheme="dark")
    check_accessibility(page, f"{name} (dark)")
    page.emulate_media(color_scheme="light")
    check_accessibility(page, f"{name} (light)")


def no_small_targets(page: Any, where: str) -> None:
    assert small_targets(page) == [], where


def seat_change(page: Any, game_id: str, body: dict[str, Any]) -> int:
    """A join or a leave as another phone with the game's key would send it."""
    return page.evaluate(
        """async ([id, token, body]) => (await fetch('/api/v1/games/' + id + '/seats', {
            method: 'POST', body: JSON.stringify(body),
            headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
        })).status""",
        [game_id, game_token(page, game_id), body],
    )


def test_next_dealer_and_starter_in_large_type_and_the_distance_coloured(page):
    names = ["Asha", "Bikash", "Chandra"]
    game_id = create_game(
        page, "jhyap", names, dealer=0, starter=1, options={"elimination_limit": "40"}
    )
    box = page.get_by_test_id("next-round")
    expect(box).to_contain_text("Asha deals.")
    expect(box).to_contain_text("Bikash starts.")
    names = box.locator(".big-name")
    expect(names).to_have_text(["Asha", "Bikash"])
    sizes = names.evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert all(size >= 28 for size in sizes), sizes

    # Over 40 is out: Bikash at 31 has 9 to go (a quarter of 40 is 10), Chandra at 37 has 3 (a
    # tenth is 4), Asha at 0 is far.
    ids = player_ids(page, game_id)
    assert other_phone_records(page, game_id, totals(ids, 0, 0, 31, 37)) == 201
    reload(page)
    expect(box).to_contain_text("Bikash deals.")
    expect(box).to_contain_text("Asha starts.")
    expected = {
        "Asha": ("far", "40 to the limit"),
        "Bikash": ("warn", "9 to the limit"),
        "Chandra": ("danger", "3 to the limit"),
    }
    for name, (level, words) in expected.items():
        distance = player_row(page, name).locator(".distance")
        expect(distance).to_have_text(words)  # the words are there whatever the colour
        expect(distance).to_have_attribute("data-closeness", level)
    colours = {
        name: player_row(page, name)
        .locator(".distance")
        .evaluate("e => getComputedStyle(e).backgroundColor + ' ' + getComputedStyle(e).color")
        for name in expected
    }
    assert len(set(colours.values())) == 3, colours
    screenshot(page, "table-distance-coloured")
    in_dark_and_light(page, "table with players near the limit")
    axe_in_every_language(page, "table with players near the limit")


def test_halving_hint_caller_pad_and_the_strip_with_undo(page, server):
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    ids = player_ids(page, game_id)
    for _ in range(2):
        assert other_phone_records(page, game_id, totals(ids, 0, 0, 45, 10)) == 201
    reload(page)
    assert scores(page) == {"Asha": "0", "Bikash": "90", "Chandra": "20"}

    open_entry(page)
    page.get_by_test_id("caller").filter(has_text="Asha").click()
    # Asha called: her pad goes only up to the call limit (5).
    expect(page.locator("#pad legend")).to_have_text("Asha's hand total")
    pad = page.get_by_role("group", name="Number pad")
    expect(pad.get_by_role("button")).to_have_text([str(n) for n in range(6)])
    page.get_by_test_id("pad-0").click()
    # Bikash did not call: his pad is 0 to 50, as before.
    expect(page.locator("#pad legend")).to_have_text("Bikash's hand total")
    expect(pad.get_by_role("button")).to_have_count(51)
    page.get_by_test_id("pad-11").click()
    expect(page.get_by_test_id("halving-hint")).to_have_count(0)  # 101: no halving
    page.get_by_test_id("hand-slot").filter(has_text="Bikash").click()
    page.get_by_test_id("pad-10").click()
    hint = page.get_by_test_id("hand-slot").filter(has_text="Bikash").get_by_test_id("halving-hint")
    expect(hint).to_have_text("Lands on 100: halved to 50")
    expect(page.get_by_test_id("halving-hint")).to_have_count(1)
    page.get_by_test_id("pad-9").click()  # Chandra: 29
    assert "halved" in wait_preview(page)
    screenshot(page, "jhyap-entry-halving-hint")
    axe_in_every_language(page, "jhyap entry with a halving hint")
    expect(hint).to_have_text("Lands on 100: halved to 50")

    confirm(page)
    strip = page.get_by_test_id("round-strip")
    expect(strip.get_by_test_id("strip-text")).to_have_text("Bikash halved to 50 · Asha deals")
    assert scores(page) == {"Asha": "0", "Bikash": "50", "Chandra": "29"}
    screenshot(page, "table-round-strip")
    axe_in_every_language(page, "table with the round strip")
    page.select_option("#lang-select", "ne")
    expect(strip.get_by_test_id("strip-text")).to_have_text("Bikash आधा भएर 50 · Ashaले बाँड्नेछ")
    page.select_option("#lang-select", "en")

    # One tap undoes round 3: the table is as before it.
    page.get_by_test_id("strip-undo").click()
    next_round_is(page, 3)
    expect(page.get_by_test_id("round-strip")).to_have_count(0)
    assert scores(page) == {"Asha": "0", "Bikash": "90", "Chandra": "20"}
    assert [r["number"] for r in server.rounds(game_id)] == [1, 2]


def test_the_strip_goes_at_the_next_step_and_undo_is_refused_when_a_round_came_after(
    page, server, console
):
    # This phone must not hear of another phone's round below until it asks: no stream, and
    # its polls are answered "unchanged" meanwhile.
    without_streams(page, console)
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    ids = player_ids(page, game_id)
    open_entry(page)
    jhyap_entry(page, "Chandra", [40, 12, 3])
    wait_preview(page)
    confirm(page)
    strip_text = page.get_by_test_id("strip-text")
    expect(strip_text).to_have_text("Bikash deals")
    tab(page, "History")
    tab(page, "Table")
    expect(page.get_by_test_id("round-strip")).to_have_count(0)  # gone at the next step

    # A failed call says so, with the caller's points (penalty 30 plus the hand); Bikash's 4 beat
    # Asha's 5, and over 200 is far off.
    open_entry(page)
    jhyap_entry(page, "Asha", [5, 4, 20])
    wait_preview(page)
    confirm(page)
    expect(strip_text).to_have_text("Asha's call failed: +35 · Chandra deals")

    # Another phone records round 3 while this one has not heard of it yet: Undo of round 2 is
    # refused by the service and nothing is undone.
    page.route(f"**/api/v1/games/{game_id}", lambda route: route.fulfill(status=304))
    assert other_phone_records(page, game_id, totals(ids, 1, 2, 1, 9)) == 201
    page.get_by_test_id("strip-undo").click()
    expect(page.get_by_test_id("strip-undo-error")).to_have_text(
        "Round 2 is no longer the last; undo it from History."
    )
    console.allow(r"status of 409")
    assert [r["number"] for r in server.rounds(game_id)] == [1, 2, 3]
    page.unroute(f"**/api/v1/games/{game_id}")
    # The next poll brings round 3.
    expect(page.locator(".round-number")).to_have_text("Round 4", timeout=POLLED)
    expect(page.get_by_test_id("round-strip")).to_have_count(0)
    expect(page.get_by_test_id("strip-undo-error")).to_be_visible()
    assert [r["number"] for r in server.rounds(game_id)] == [1, 2, 3]


def test_the_strip_offline_shows_at_once_and_undo_takes_the_round_back(page, server, console):
    """Offline, the strip comes from the rules on the phone as soon as the round is confirmed, and
    its Undo takes back the round never sent: nothing reaches the service."""
    console.allow(r"net::ERR_INTERNET_DISCONNECTED")
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    page.context.set_offline(True)
    offline_round(page, "Chandra", [40, 12, 3])
    expect(page.get_by_test_id("strip-text")).to_have_text("Bikash deals")
    assert scores(page) == {"Asha": "40", "Bikash": "12", "Chandra": "0"}

    page.get_by_test_id("strip-undo").click()
    expect(page.get_by_test_id("round-strip")).to_have_count(0)
    next_round_is(page, 1)
    assert scores(page) == {"Asha": "0", "Bikash": "0", "Chandra": "0"}
    page.context.set_offline(False)
    expect(page.get_by_test_id("provisional")).to_have_count(0)
    assert server.rounds(game_id) == []


def test_the_winner_screen_ranks_every_player(page, server):
    game_id = create_game(
        page, "jhyap", FIVE[:4], dealer=0, starter=1, options={"elimination_limit": "30"}
    )
    ids = player_ids(page, game_id)
    asha, _, chandra, dipa = ids
    # Round 1: Bikash goes over 30; round 2: Chandra does; then Dipa goes home and Asha wins.
    assert other_phone_records(page, game_id, totals(ids, 0, 0, 31, 10, 5)) == 201
    hands = [(asha, 0), (chandra, 25), (dipa, 5)]
    body = {"caller": asha, "hands": [{"player": p, "total": v} for p, v in hands]}
    assert other_phone_records(page, game_id, body) == 201
    assert seat_change(page, game_id, {"leave": dipa}) == 201
    reload(page)
    expect(page.get_by_test_id("winner")).to_contain_text("Asha wins!")
    ranking = page.get_by_test_id("ranked")
    expect(ranking).to_have_count(4)
    rows = [
        (
            row.get_attribute("data-place"),
            row.get_attribute("data-player"),
            row.locator("td").last.inner_text(),
        )
        for row in ranking.all()
    ]
    assert rows == [
        ("1", "Asha", "0"),
        ("2", "Chandra", "35"),
        ("3", "Bikash", "31"),
        ("4", "Dipa", "10"),
    ]
    expect(ranking.nth(1)).to_contain_text("out in round 2")
    expect(ranking.nth(3)).to_contain_text("left the game")
    screenshot(page, "winner-ranking")
    no_small_targets(page, "winner screen")
    in_dark_and_light(page, "winner screen")
    axe_in_every_language(page, "winner screen")


WAKE_LOCK_STUB = """
window.__wake = {requests: [], releases: 0, held: 0, last: null, hidden: false};
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true,
  get() { return window.__wake.hidden ? "hidden" : "visible"; },
});
class StubSentinel extends EventTarget {
  constructor() { super(); this.released = false; }
  async release() {
    if (this.released) return;
    this.released = true;
    window.__wake.releases += 1;
    window.__wake.held -= 1;
    this.dispatchEvent(new Event("release"));
  }
}
Object.defineProperty(navigator, "wakeLock", {
  configurable: true,
  value: {
    async request(type) {
      window.__wake.requests.push(type);
      window.__wake.held += 1;
      window.__wake.last = new StubSentinel();
      return window.__wake.last;
    },
  },
});
"""


def wake(page: Any) -> dict[str, Any]:
    return page.evaluate(
        "() => ({requests: __wake.requests.length, types: __wake.requests,"
        " releases: __wake.releases, held: __wake.held})"
    )


def wake_is(page: Any, requests: int, held: int) -> None:
    page.wait_for_function(
        "([r, h]) => __wake.requests.length === r && __wake.held === h", arg=[requests, held]
    )


def set_visible(page: Any, visible: bool) -> None:
    page.evaluate(
        "visible => { __wake.hidden = !visible;"
        " document.dispatchEvent(new Event('visibilitychange')); }",
        visible,
    )


def test_the_screen_stays_awake_during_a_game(page):
    page.add_init_script(WAKE_LOCK_STUB)
    reload(page)
    assert wake(page)["requests"] == 0  # the home page leaves the screen alone
    game_id = create_game(
        page, "jhyap", ["Asha", "Bikash"], dealer=0, starter=1, options={"elimination_limit": "30"}
    )
    wake_is(page, 1, 1)
    assert wake(page)["types"] == ["screen"]
    # Drawn again (a tab, a round) with the lock still held: not asked for again.
    tab(page, "History")
    tab(page, "Table")
    open_entry(page)
    jhyap_entry(page, "Asha", [0, 10])
    wait_preview(page)
    confirm(page)
    wake_is(page, 1, 1)

    # Hidden, the browser drops the lock; shown again, the page asks again.
    set_visible(page, False)
    page.evaluate("() => __wake.last.release()")
    wake_is(page, 1, 0)
    set_visible(page, True)
    wake_is(page, 2, 1)

    # Leaving the game lets the screen sleep; coming back keeps it awake again.
    page.locator("a.brand").click()
    wake_is(page, 2, 0)
    page.locator(".game-link").first.click()
    wake_is(page, 3, 1)

    # Watching (not writing) does not; nor does a finished game.
    page.goto(page.url.split("#")[0] + f"#/watch/{game_id}")
    wake_is(page, 3, 0)
    page.goto(page.url.split("#")[0] + f"#/game/{game_id}")
    wake_is(page, 4, 1)
    open_entry(page)
    jhyap_entry(page, "Asha", [0, 25])  # Bikash at 35 is out: Asha wins
    wait_preview(page)
    confirm(page)
    expect(page.get_by_test_id("winner")).to_be_visible()
    wake_is(page, 4, 0)
    assert wake(page)["releases"] == 4


def test_touch_targets_on_every_screen_and_record_round_above_the_fold(page):
    no_small_targets(page, "home")
    page.get_by_test_id("new-game").click()
    no_small_targets(page, "new game")
    page.locator("details.options summary").click()
    no_small_targets(page, "new game with its options")
    game_id = create_game(page, "jhyap", FIVE, dealer=0, starter=1, options={"call_limit": "3"})

    def record_round_above_the_fold(where: str) -> None:
        page.evaluate("() => window.scrollTo(0, 0)")
        box = page.get_by_test_id("record-round").bounding_box()
        assert box is not None and box["y"] >= 0, where
        assert box["y"] + box["height"] <= VIEWPORT["height"], f"{where}: {box}"

    record_round_above_the_fold("five players, round 1")
    no_small_targets(page, "game table")
    open_entry(page)
    page.get_by_test_id("caller").filter(has_text="Chandra").click()
    no_small_targets(page, "jhyap entry, number pad")
    # The caller's pad follows the game's call limit (3 here).
    page.get_by_test_id("hand-slot").filter(has_text="Chandra").click()
    pad = page.get_by_role("group", name="Number pad")
    expect(pad.get_by_role("button")).to_have_text(["0", "1", "2", "3"])
    no_small_targets(page, "jhyap entry, the caller's pad")
    page.get_by_test_id("hand-slot").filter(has_text="Asha").click()
    expect(pad.get_by_role("button")).to_have_count(51)
    page.get_by_test_id("mode-cards").click()
    no_small_targets(page, "jhyap entry, cards")
    page.get_by_test_id("mode-total").click()
    jhyap_entry(page, "Chandra", [17, 12, 3, 41, 9])
    wait_preview(page)
    no_small_targets(page, "jhyap entry with its preview")
    confirm(page)
    expect(page.get_by_test_id("round-strip")).to_be_visible()
    record_round_above_the_fold("five players, with the round strip")
    no_small_targets(page, "game table with the round strip")
    tab(page, "History")
    no_small_targets(page, "history")
    page.get_by_test_id("undo").click()
    no_small_targets(page, "history, undo asked")
    page.get_by_role("button", name="Cancel").click()
    tab(page, "Chart")
    no_small_targets(page, "chart")
    tab(page, "Table")
    record_round_above_the_fold("five players, round 2")
    page.get_by_test_id("someone-leaves").click()
    page.get_by_test_id("seat-submit").wait_for()
    no_small_targets(page, "someone leaves")
    page.goto(page.url.split("#")[0] + f"#/game/{game_id}")
    page.get_by_test_id("someone-leaves").click()
    page.get_by_role("radio", name="Eli").check()
    page.get_by_test_id("seat-submit").click()
    page.get_by_test_id("leave-confirm").click()
    expect(page.get_by_test_id("players")).to_be_visible()
    page.get_by_test_id("someone-joins").click()
    page.locator("#join-name").wait_for()
    no_small_targets(page, "someone joins")

    create_game(page, "twenty-two", ["Asha", "Bikash", "Chandra"], dealer=0)
    # Twenty Two: the dealer and the leader, in large type too.
    box = page.get_by_test_id("next-round")
    expect(box).to_contain_text("Bikash leads the first trick.")
    expect(box.locator(".big-name")).to_have_text(["Asha", "Bikash"])
    no_small_targets(page, "twenty two table")
    axe_in_every_language(page, "twenty two table")
    open_entry(page)
    no_small_targets(page, "twenty two entry")
    trick_entry(page, [("Bikash", "9C")])
    no_small_targets(page, "twenty two entry, a card played")
    page.get_by_test_id("trick-play").first.click()
    no_small_targets(page, "twenty two entry, a card being changed")

    create_table(page, "Friday crew", ["Asha", "Bikash"])
    no_small_targets(page, "table page")
    table_game(page, "jhyap", ["Asha", "Bikash"])
    no_small_targets(page, "game at a table")
    page.get_by_test_id("game-table").click()
    expect(page.get_by_test_id("table-game")).to_have_count(1)
    no_small_targets(page, "table page with a game")
    page.goto(page.url.split("#")[0] + "#/")
    no_small_targets(page, "home with a table and games")
