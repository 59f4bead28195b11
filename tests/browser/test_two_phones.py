"""Two phones scoring one game: both record round 1 offline. The same round resolves by itself;
otherwise the second to reconnect sees the other's round beside its own, the cells that differ
marked. The main button keeps theirs (no round twice); "Use mine" corrects their round to mine;
"Mine is a new round" shows the difference, then sends it and what was queued after it one number
later. The comparison is shown even when their round ended the game."""

from __future__ import annotations

import time

import pytest
import requests

pytest.importorskip("playwright.sync_api")

from .conftest import VIEWPORT, check_accessibility, screenshot
from .helpers import (
    confirm,
    create_game,
    expect,
    game_token,
    jhyap_entry,
    next_round_is,
    offline_round,
    open_entry,
    scores,
    totals,
)

pytestmark = pytest.mark.server
OFFLINE = r"Failed to load resource: net::ERR_(INTERNET_DISCONNECTED|FAILED)|status of 409"


@pytest.fixture
def other_phone(browser, server, console):
    """A second phone: its own browser, given the first phone's games (and keys) to open."""
    context = browser.new_context(
        viewport=VIEWPORT, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    phone = context.new_page()
    phone.on("pageerror", lambda error: console.errors.append(f"other phone: {error}"))
    yield phone
    context.close()


def join_game(phone, page, server, game_id):
    """Open ``game_id`` on ``phone`` with the game's key, as a shared "Add a scorer" would."""
    games = page.evaluate("() => localStorage.getItem('scorekeeper.games.v1')")
    phone.goto(server.url + "/")
    phone.evaluate("games => localStorage.setItem('scorekeeper.games.v1', games)", games)
    phone.goto(server.url + "/#/game/" + game_id)
    phone.wait_for_selector("body.ready")
    expect(phone.get_by_test_id("record-round")).to_be_visible()


def side_by_side(box):
    """The comparison table's rows as shown: the header, then one row a player."""
    table = box.get_by_test_id("side-by-side")
    expect(table).to_be_visible()
    return [
        [" ".join(cell.inner_text().split()) for cell in row.locator("th, td").all()]
        for row in table.locator("tr").all()
    ]


def both_record_round_1(page, other_phone, server, mine, theirs=("Asha", [1, 1, 1])):
    """Both phones offline record round 1 (the other: ``theirs``, by default Asha calls, 1, 1,
    1); the other phone reconnects first and records it. This phone's queue: ``mine`` (caller,
    hands) rounds."""
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    join_game(other_phone, page, server, game_id)
    page.context.set_offline(True)
    other_phone.context.set_offline(True)
    for caller, hands in mine:
        offline_round(page, caller, hands)
    offline_round(other_phone, *theirs)
    other_phone.context.set_offline(False)
    expect(other_phone.get_by_test_id("provisional")).to_have_count(0, timeout=20_000)
    assert len(server.rounds(game_id)) == 1
    page.context.set_offline(False)
    return game_id


def test_clash_resolved_by_the_main_button_keeps_theirs(page, other_phone, server, console):
    console.allow(OFFLINE)
    game_id = both_record_round_1(page, other_phone, server, [("Bikash", [2, 0, 30])])
    clash = page.get_by_test_id("clash")
    expect(clash).to_contain_text("Another phone recorded round 1", timeout=20_000)
    # Theirs and mine side by side: a column each, every player's points and score after it.
    assert side_by_side(clash) == [
        ["Player", "Their round 1", "My round 1"],
        ["Asha", "≠ differs: +0 → 0 caller", "≠ differs: +2 → 2"],
        ["Bikash", "≠ differs: +1 → 1", "≠ differs: +0 → 0 caller"],
        ["Chandra", "≠ differs: +1 → 1", "≠ differs: +30 → 30"],
    ]
    screenshot(page, "two-phones-clash")
    # Until the table chooses, the game shows what the main button leaves: theirs.
    next_round_is(page, 2)
    assert scores(page) == {"Asha": "0", "Bikash": "1", "Chandra": "1"}
    check_accessibility(page, "clash")
    page.select_option("#lang-select", "bn")
    expect(page.locator("html")).to_have_attribute("lang", "bn")
    check_accessibility(page, "clash in Bengali")
    page.select_option("#lang-select", "en")

    main = clash.get_by_role("button").first
    expect(main).to_have_text("Keep theirs")
    main.click()
    expect(clash).to_have_count(0)
    expect(page.get_by_test_id("provisional")).to_have_count(0)
    next_round_is(page, 2)
    rounds = server.rounds(game_id)
    assert [r["number"] for r in rounds] == [1]  # no round twice
    assert [r["hand"] for r in rounds[0]["results"]] == [1, 1, 1]  # theirs
    assert scores(page) == {"Asha": "0", "Bikash": "1", "Chandra": "1"}


def test_mine_is_the_next_round_shifts_what_was_queued_after_it(page, other_phone, server, console):
    console.allow(OFFLINE)
    mine = [("Bikash", [2, 0, 30]), ("Chandra", [5, 6, 3])]
    game_id = both_record_round_1(page, other_phone, server, mine)
    clash = page.get_by_test_id("clash")
    clash.get_by_role("button", name="Mine is a new round").click()
    difference = page.get_by_test_id("clash-difference")
    # Mine as round 2, on top of theirs (Asha 0, Bikash 1, Chandra 1): Bikash's call succeeds.
    expect(difference).to_contain_text("Asha: 0 → 2; Bikash: 1 → 1; Chandra: 1 → 31")
    assert len(server.rounds(game_id)) == 1  # nothing sent before the difference was seen
    page.get_by_test_id("clash-send-next").click()
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=20_000)
    rounds = server.rounds(game_id)
    assert [r["number"] for r in rounds] == [1, 2, 3]
    assert [r["caller"] for r in rounds] == [
        rounds[0]["results"][0]["player"],
        rounds[0]["results"][1]["player"],
        rounds[0]["results"][2]["player"],
    ]
    next_round_is(page, 4)


def test_the_same_round_from_both_phones_resolves_by_itself(page, other_phone, server, console):
    """Both scorers entered round 1 alike: the slower phone shows no clash, its Record button
    stays, the round is recorded once, and its own round 2 queued behind goes as round 2."""
    console.allow(OFFLINE)
    mine = [("Asha", [1, 1, 1]), ("Chandra", [5, 6, 3])]
    game_id = both_record_round_1(page, other_phone, server, mine)
    expect(page.get_by_test_id("provisional")).to_have_count(0, timeout=20_000)
    expect(page.get_by_test_id("clash")).to_have_count(0)
    expect(page.get_by_test_id("record-round")).to_be_visible()
    next_round_is(page, 3)
    rounds = server.rounds(game_id)
    assert [r["number"] for r in rounds] == [1, 2]
    assert [r["hand"] for r in rounds[0]["results"]] == [1, 1, 1]
    assert [r["hand"] for r in rounds[1]["results"]] == [5, 6, 3]
    waiting = "() => Object.values(JSON.parse(localStorage.getItem('scorekeeper.outbox.v2')"
    waiting += " || '{}')).flatMap(box => box.items.filter(item => item.state !== 'done'))"
    assert page.evaluate(waiting) == []


def test_use_mine_corrects_their_round_with_the_differing_cells_marked(
    page, other_phone, server, console
):
    console.allow(OFFLINE)
    game_id = both_record_round_1(page, other_phone, server, [("Asha", [1, 1, 5])])
    clash = page.get_by_test_id("clash")
    expect(clash).to_contain_text("Another phone recorded round 1", timeout=20_000)
    # Only Chandra's hand differs: only her cells are marked.
    assert side_by_side(clash) == [
        ["Player", "Their round 1", "My round 1"],
        ["Asha", "+0 → 0 caller", "+0 → 0 caller"],
        ["Bikash", "+1 → 1", "+1 → 1"],
        ["Chandra", "≠ differs: +1 → 1", "≠ differs: +5 → 5"],
    ]
    marked = clash.locator("td[data-differs]")
    expect(marked).to_have_count(2)
    expect(clash.get_by_role("button")).to_have_text(
        ["Keep theirs", "Use mine (correct round 1)", "Mine is a new round"]
    )
    check_accessibility(page, "clash with cells marked")
    clash.get_by_role("button", name="Use mine (correct round 1)").click()
    expect(clash).to_have_count(0, timeout=20_000)
    expect(page.get_by_test_id("provisional")).to_have_count(0)
    rounds = server.rounds(game_id)
    assert [r["number"] for r in rounds] == [1]  # corrected, not a second round
    assert [r["hand"] for r in rounds[0]["results"]] == [1, 1, 5]  # mine
    next_round_is(page, 2)
    assert scores(page) == {"Asha": "0", "Bikash": "1", "Chandra": "5"}


def test_the_comparison_is_shown_when_their_round_ended_the_game(page, server, console):
    """Two players at 175 and 0: offline, this phone enters round 6 (Asha's call succeeds) while
    another phone records its round 6, where her call fails and puts her out. Back online, both
    round 6s are side by side (no "game is over" only); a new round is no choice, Use mine is."""
    console.allow(OFFLINE)
    game_id = create_game(page, "jhyap", ["Asha", "Bikash"], dealer=0, starter=1)
    ids = [p["id"] for p in requests.get(f"{server.url}/api/v1/games/{game_id}").json()["players"]]
    auth = {"Authorization": f"Bearer {game_token(page, game_id)}"}
    url = f"{server.url}/api/v1/games/{game_id}/rounds"
    for _ in range(5):  # Asha's call fails each time: 35 a round
        posted = requests.post(url, json=totals(ids, 0, 5, 0), headers=auth, timeout=5)
        assert posted.status_code == 201
    page.reload()
    page.wait_for_selector("body.ready")
    next_round_is(page, 6)
    page.context.set_offline(True)
    offline_round(page, "Asha", [2, 20])
    posted = requests.post(url, json=totals(ids, 0, 5, 0), headers=auth, timeout=5)
    assert posted.json()["game"]["status"] == "finished"
    page.context.set_offline(False)
    clash = page.get_by_test_id("clash")
    expect(clash).to_contain_text("Another phone recorded round 6", timeout=20_000)
    assert side_by_side(clash) == [
        ["Player", "Their round 6", "My round 6"],
        ["Asha", "≠ differs: +35 → 210 caller out", "≠ differs: +0 → 175 caller"],
        ["Bikash", "≠ differs: +0 → 0", "≠ differs: +20 → 20"],
    ]
    expect(clash.get_by_role("button")).to_have_text(["Keep theirs", "Use mine (correct round 6)"])
    check_accessibility(page, "clash after the game ended")
    clash.get_by_role("button", name="Use mine (correct round 6)").click()
    expect(clash).to_have_count(0, timeout=20_000)
    next_round_is(page, 7)
    assert scores(page) == {"Asha": "175", "Bikash": "20"}
    # The clash goes as soon as the correction is in the outbox; the service has it once sent.
    deadline = time.monotonic() + 10
    while not (rounds := server.rounds(game_id))[5]["caller_succeeded"]:
        assert time.monotonic() < deadline, f"round 6 was not corrected: {rounds[5]}"
        time.sleep(0.1)
    assert [r["number"] for r in rounds] == [1, 2, 3, 4, 5, 6]


def test_round_scored_otherwise_than_shown_is_shown_both_ways(page, server, console):
    """Another phone corrected round 1 while this one was offline: round 2 is recorded on top of
    the correction, so its scores differ from those shown; both are shown, the service's stand."""
    console.allow(OFFLINE)
    game_id = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    open_entry(page)
    jhyap_entry(page, "Asha", [2, 20, 30])
    confirm(page)
    page.context.set_offline(True)
    offline_round(page, "Bikash", [5, 1, 9])
    ids = [p["id"] for p in requests.get(f"{server.url}/api/v1/games/{game_id}").json()["players"]]
    corrected = requests.put(
        f"{server.url}/api/v1/games/{game_id}/rounds/1",
        json=totals(ids, 0, 2, 40, 30),
        headers={"Authorization": f"Bearer {game_token(page, game_id)}"},
        timeout=5,
    )
    assert corrected.status_code == 200
    page.context.set_offline(False)
    differs = page.get_by_test_id("differs")
    expect(differs).to_contain_text("scored round 2 otherwise", timeout=20_000)
    assert side_by_side(differs) == [
        ["Player", "Shown on this phone", "Recorded"],
        ["Asha", "+5 → 5", "+5 → 5"],
        ["Bikash", "≠ differs: +0 → 20 caller", "≠ differs: +0 → 40 caller"],
        ["Chandra", "+9 → 39", "+9 → 39"],
    ]
    check_accessibility(page, "scored otherwise")
    differs.get_by_role("button", name="OK").click()
    expect(differs).to_have_count(0)
    assert scores(page) == {"Asha": "5", "Bikash": "40", "Chandra": "39"}
    assert [r["number"] for r in server.rounds(game_id)] == [1, 2]
