"""Tables on the phone page: a table's standings and games, a new game from its roster, Play
again, a game without a table moving to one, and players joining and leaving between rounds."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api")

from .conftest import check_accessibility, screenshot
from .helpers import (
    POLLED,
    confirm,
    create_game,
    create_table,
    expect,
    jhyap_entry,
    next_round_is,
    open_entry,
    other_phone_records,
    player_ids,
    player_row,
    scores,
    standings,
    tab,
    table_game,
    totals,
    trick_entry,
    wait_preview,
)

pytestmark = pytest.mark.server
# What the browser logs while the server is stopped (an event stream open then is cut off).
REFUSED = (
    r"Failed to load resource: net::ERR_"
    r"(CONNECTION_REFUSED|CONNECTION_RESET|FAILED|EMPTY_RESPONSE|INCOMPLETE_CHUNKED_ENCODING)"
)
# Short Jhyap games: over 30 is out, exactly 20 is halved (a failed call is out at once).
SHORT_JHYAP = {"elimination_limit": "30", "halve_at": "20"}


def jhyap_round(page, caller, totals):
    open_entry(page)
    jhyap_entry(page, caller, totals)
    wait_preview(page)
    confirm(page)


def trick_round(page, plays):
    open_entry(page)
    trick_entry(page, plays)
    wait_preview(page)
    confirm(page)


def someone_leaves(page, name):
    page.get_by_test_id("someone-leaves").click()
    page.get_by_role("radio", name=name).check()
    page.get_by_test_id("seat-submit").click()
    page.get_by_test_id("leave-confirm").click()
    expect(page.get_by_test_id("players")).to_be_visible()


def play_again(page, game_id):
    page.get_by_test_id("play-again").click()
    page.wait_for_url(lambda url: "#/game/" in url and game_id not in url)
    expect(page.get_by_test_id("next-round")).to_be_visible()
    return page.url.split("#/game/")[1].split("/")[0]


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_table_of_five_plays_an_evening(page, server):
    """The issue's acceptance test: three Jhyap games and a Twenty Two game at one table, with a
    late arrival and an early leaver; the standings are checked against figures worked out by
    hand from the rounds entered here."""
    create_table(page, "Friday crew", ["Asha", "Bikash", "Chandra", "Dev", "Esha"])

    # Game 1, Jhyap: Asha, Bikash, Chandra and Dev; Esha comes late.
    game = table_game(page, "jhyap", ["Asha", "Bikash", "Chandra", "Dev"], options=SHORT_JHYAP)
    expect(page.locator(".subtitle")).to_have_text("Jhyap · Friday crew")
    expect(page.get_by_test_id("next-round")).to_contain_text("Asha deals.")
    jhyap_round(page, "Asha", [3, 10, 12, 20])  # Asha's call holds; Dev's 20 is halved
    assert scores(page) == {"Asha": "0", "Bikash": "10", "Chandra": "12", "Dev": "10"}
    # Esha sits at the dealer's right (Bikash deals round 2): after Asha, with the top score.
    page.get_by_test_id("someone-joins").click()
    expect(page.locator("#join-after option:checked")).to_have_text("Asha")
    page.get_by_test_id("join-chip").filter(has_text="Esha").click()
    page.get_by_test_id("seat-submit").click()
    next_round_is(page, 2)  # people count rounds: the join takes no number
    assert list(scores(page).items()) == [
        ("Asha", "0"),
        ("Esha", "12"),
        ("Bikash", "10"),
        ("Chandra", "12"),
        ("Dev", "10"),
    ]
    expect(page.get_by_test_id("next-round")).to_contain_text("Bikash deals.")
    jhyap_round(page, "Bikash", [1, 5, 2, 9, 4])  # Asha's 1 catches Bikash: 10 + 30 + 2, out
    jhyap_round(page, "Asha", [0, 10, 10, 20])  # Chandra 31 and Dev 34: out
    jhyap_round(page, "Asha", [1, 5])  # Esha 32: out
    expect(page.get_by_test_id("winner")).to_contain_text("Asha wins!")
    tab(page, "History")
    expect(page.get_by_test_id("round-2")).to_contain_text("Esha joined with 12, after Asha.")
    tab(page, "Table")

    # Game 2: Play again, the same five in the same seats; Esha deals first (after Asha).
    game = play_again(page, game)
    assert list(scores(page)) == ["Asha", "Esha", "Bikash", "Chandra", "Dev"]
    expect(page.get_by_test_id("next-round")).to_contain_text("Esha deals.")
    jhyap_round(page, "Chandra", [8, 6, 7, 5, 9])
    someone_leaves(page, "Bikash")  # Bikash goes home
    expect(player_row(page, "Bikash").locator(".distance")).to_have_text("left the game")
    expect(player_row(page, "Bikash")).to_have_class("player left")
    next_round_is(page, 2)
    jhyap_round(page, "Dev", [2, 10, 20, 3])  # Asha catches Dev (42, out); Chandra's 20 halved
    assert scores(page) == {"Asha": "10", "Esha": "16", "Bikash": "7", "Chandra": "10", "Dev": "42"}
    jhyap_round(page, "Chandra", [25, 15, 0])  # Asha 35 and Esha 31: out
    expect(page.get_by_test_id("winner")).to_contain_text("Chandra wins!")

    # Game 3: Play again without Bikash; the deal moves on from Esha to Chandra.
    game = play_again(page, game)
    assert list(scores(page)) == ["Asha", "Esha", "Chandra", "Dev"]
    expect(page.get_by_test_id("next-round")).to_contain_text("Chandra deals.")
    jhyap_round(page, "Asha", [2, 31, 40, 50])
    expect(page.get_by_test_id("winner")).to_contain_text("Asha wins!")

    # Game 4, Twenty Two, from the table's page: 11 or more is out.
    page.get_by_test_id("game-table").click()
    table_game(
        page, "twenty-two", ["Asha", "Esha", "Chandra", "Dev"], options={"elimination_limit": "11"}
    )
    trick_round(page, [("Esha", "2S"), ("Chandra", "3S"), ("Dev", "4S"), ("Asha", "AS")])
    trick_round(page, [("Esha", "KH"), ("Chandra", "5H"), ("Dev", "6H")])
    trick_round(page, [("Chandra", "2C"), ("Dev", "3C"), ("Esha", "JC")])
    trick_round(page, [("Chandra", "AD"), ("Dev", "4D")])
    expect(page.get_by_test_id("winner")).to_contain_text("Dev wins!")

    page.get_by_test_id("game-table").click()
    expect(page.get_by_test_id("table-game")).to_have_count(4)
    expect(page.locator("[data-testid=table-game][data-status=finished]")).to_have_count(4)
    expect(page.get_by_test_id("table-game").first).to_contain_text("Twenty Two")
    expect(page.get_by_test_id("table-game").first).to_contain_text("won by Dev")
    # Worked out by hand from the rounds above. Places in the four games: Asha 1, 3, 1, 4;
    # Chandra 3, 1, 3, 2; Dev 4, 4, 4, 1; Bikash 5, 5 (out in round 2, then left); Esha 2, 2, 2,
    # 3 (out after the others, or with a lower total in the same round). Average hands:
    # Asha (3+1+0+1 + 8+2+25 + 2) / 8,
    # Bikash (10+2 + 7) / 3, Chandra (12+9+10 + 5+20+0 + 40) / 7, Dev (20+4+20 + 9+3 + 50) / 6,
    # Esha (5+10+5 + 6+10+15 + 31) / 7.
    assert standings(page) == {
        "Asha": {
            "place": "1",
            "games_won": "2",
            "games_played": "4",
            "average_place": "2.25",
            "jhyap.rounds_played": "8",
            "jhyap.calls_won": "4/4",
            "jhyap.caught": "0",
            "jhyap.halvings": "0",
            "jhyap.average_hand": "5.25",
            "jhyap.eliminations": "1",
            "twenty-two.rounds_played": "1",
            "twenty-two.tricks_taken": "1",
            "twenty-two.points_taken": "11",
            "twenty-two.eliminations": "1",
        },
        "Chandra": {
            "place": "2",
            "games_won": "1",
            "games_played": "4",
            "average_place": "2.25",
            "jhyap.rounds_played": "7",
            "jhyap.calls_won": "2/2",
            "jhyap.caught": "0",
            "jhyap.halvings": "1",
            "jhyap.average_hand": "13.71",
            "jhyap.eliminations": "2",
            "twenty-two.rounds_played": "4",
            "twenty-two.tricks_taken": "1",
            "twenty-two.points_taken": "11",
            "twenty-two.eliminations": "1",
        },
        "Dev": {
            "place": "3",
            "games_won": "1",
            "games_played": "4",
            "average_place": "3.25",
            "jhyap.rounds_played": "6",
            "jhyap.calls_won": "0/1",
            "jhyap.caught": "1",
            "jhyap.halvings": "1",
            "jhyap.average_hand": "17.67",
            "jhyap.eliminations": "3",
            "twenty-two.rounds_played": "4",
            "twenty-two.tricks_taken": "0",
            "twenty-two.points_taken": "0",
            "twenty-two.eliminations": "0",
        },
        "Bikash": {
            "place": "5",
            "games_won": "0",
            "games_played": "2",
            "average_place": "5.00",
            "jhyap.rounds_played": "3",
            "jhyap.calls_won": "0/1",
            "jhyap.caught": "1",
            "jhyap.halvings": "0",
            "jhyap.average_hand": "6.33",
            "jhyap.eliminations": "1",
        },
        "Esha": {
            "place": "4",
            "games_won": "0",
            "games_played": "4",
            "average_place": "2.25",
            "jhyap.rounds_played": "7",
            "jhyap.calls_won": "0/0",
            "jhyap.caught": "0",
            "jhyap.halvings": "0",
            "jhyap.average_hand": "11.71",
            "jhyap.eliminations": "3",
            "twenty-two.rounds_played": "3",
            "twenty-two.tricks_taken": "2",
            "twenty-two.points_taken": "20",
            "twenty-two.eliminations": "1",
        },
    }
    # The order on the page: most games won, then the better average place, then more games
    # played, then name; no one shares a place here.
    expect(page.get_by_test_id("standing")).to_have_count(5)
    order = page.get_by_test_id("standing").evaluate_all("rows => rows.map(r => r.dataset.player)")
    assert order == ["Asha", "Chandra", "Dev", "Esha", "Bikash"]
    expect(page.locator(".standings-order")).to_have_text(
        "Ranked by games won, then by average finishing place, then by finished games played."
    )
    no_sideways_scroll(page)
    screenshot(page, "table-standings")
    check_accessibility(page, "table page with standings")


def test_tables_first_on_the_home_page_and_a_game_from_the_roster(page, server):
    create_game(page, "jhyap", ["Mia", "Noor", "Omar"])
    page.goto(server.url + "/#/")
    page.get_by_test_id("new-table").click()
    check_accessibility(page, "new table form")
    page.get_by_test_id("create-table").click()  # no name: the page says so, nothing is sent
    expect(page.locator("#form-error")).to_contain_text("Give the table a name.")
    create_table(page, "Friday crew", ["Asha", "Bikash", "Chandra"])
    expect(page.locator("h1")).to_have_text("Friday crew")
    expect(page.get_by_text("No rounds played at this table yet.")).to_be_visible()
    check_accessibility(page, "table page, no games yet")

    page.get_by_test_id("table-new-game").click()
    expect(page.locator(".subtitle")).to_have_text("At the table Friday crew")
    chips = page.get_by_test_id("roster-chip")
    expect(chips).to_have_count(3)
    seating = page.get_by_test_id("seating")
    chips.filter(has_text="Chandra").click()
    chips.filter(has_text="Asha").click()
    page.fill("#new-name", "Dev")
    page.keyboard.press("Enter")  # a new name joins the chips, picked
    expect(chips).to_have_count(4)
    expect(page.locator("#new-name")).to_have_value("")
    expect(seating).to_have_text("Seating: Chandra → Asha → Dev")
    chips.filter(has_text="Asha").click()  # a second tap takes her out; the rest move up
    expect(chips.filter(has_text="Asha")).to_have_attribute("aria-pressed", "false")
    expect(seating).to_have_text("Seating: Chandra → Dev")
    chips.filter(has_text="Asha").click()
    expect(seating).to_have_text("Seating: Chandra → Dev → Asha")
    page.select_option("#dealer", label="Dev")
    no_sideways_scroll(page)
    screenshot(page, "table-new-game")
    check_accessibility(page, "new game at a table")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("next-round")).to_contain_text("Dev deals.")
    assert list(scores(page)) == ["Chandra", "Dev", "Asha"]

    # The table: Dev joined its roster; the game is listed, in progress.
    page.get_by_test_id("game-table").click()
    expect(page.locator(".subtitle")).to_have_text("Players: Asha, Bikash, Chandra, Dev")
    expect(page.get_by_test_id("table-game")).to_have_count(1)
    expect(page.get_by_test_id("table-game")).to_contain_text("Chandra, Dev, Asha")
    expect(page.get_by_test_id("table-game")).to_contain_text("in progress")

    # Home: this phone's tables first, then its games without a table.
    page.locator("#home-link").click()
    expect(page.locator("main h2")).to_have_text(
        ["Tables on this phone", "Games without a table", "Import a game"]
    )
    expect(page.get_by_test_id("table-link")).to_have_count(1)
    expect(page.get_by_test_id("table-link")).to_contain_text("Friday crew")
    expect(page.locator(".game-link")).to_have_count(2)  # the table, and Mia's game
    expect(page.locator(".game-link").nth(1)).to_contain_text("Mia, Noor, Omar")
    check_accessibility(page, "home with a table")
    screenshot(page, "home-with-table")

    # The table's page in the other languages.
    page.get_by_test_id("table-link").click()
    for lang, heading in [("fil", "Talaan ng puwesto"), ("bn", "অবস্থান"), ("ne", "स्थान तालिका")]:
        page.select_option("#lang-select", lang)
        expect(page.locator("#standings-heading")).to_have_text(heading)
        check_accessibility(page, f"table page in {lang}")


def test_a_game_without_a_table_moves_to_one(page, server):
    create_game(page, "jhyap", ["Mia", "Noor", "Omar"], dealer=0, options=SHORT_JHYAP)
    jhyap_round(page, "Mia", [0, 31, 40])
    expect(page.get_by_test_id("winner")).to_contain_text("Mia wins!")
    expect(page.locator("#again-table-name")).to_have_value("Mia, Noor, Omar")
    check_accessibility(page, "winner with play again")
    screenshot(page, "play-again")
    page.fill("#again-table-name", "Sunday crew")
    page.get_by_test_id("start-table").click()

    # A new game at the new table: the same players, seats and rules; the deal moves on.
    expect(page.get_by_test_id("next-round")).to_contain_text("Noor deals.")
    assert scores(page) == {"Mia": "0", "Noor": "0", "Omar": "0"}
    expect(page.locator(".limit")).to_have_text("Elimination limit: 30.")
    page.get_by_test_id("game-table").click()
    expect(page.locator("h1")).to_have_text("Sunday crew")
    expect(page.locator(".subtitle")).to_have_text("Players: Mia, Noor, Omar")
    expect(page.get_by_test_id("table-game")).to_have_count(1)
    page.locator("#home-link").click()
    expect(page.get_by_test_id("table-link")).to_contain_text("Sunday crew")


def test_someone_joins_and_someone_leaves_between_rounds(page, server):
    game = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0, starter=1)
    jhyap_round(page, "Asha", [2, 20, 30])
    next_round_is(page, 2)  # the game drawn again with the round, before a key is pressed

    # Joining, by keyboard: a name, the seat (suggested: at the dealer's right), Enter.
    page.get_by_test_id("someone-joins").press("Enter")
    expect(page.locator("h1")).to_have_text("Someone joins")
    expect(page.locator("#join-after option:checked")).to_have_text("Asha")  # Bikash deals next
    check_accessibility(page, "someone joins")
    screenshot(page, "someone-joins")
    page.keyboard.press("Escape")  # nothing typed yet: back to the game
    expect(page.get_by_test_id("players")).to_be_visible()
    page.get_by_test_id("someone-joins").click()
    page.locator("#join-name").focus()
    page.keyboard.type("Dev")
    # The service's dry run says where and with what Dev starts, before anything is saved.
    expect(page.locator("#join-preview")).to_have_text("Dev will join with 30 points, after Asha.")
    page.keyboard.press("Enter")
    next_round_is(page, 2)  # the join takes no round number
    assert list(scores(page).items()) == [
        ("Asha", "0"),
        ("Dev", "30"),
        ("Bikash", "20"),
        ("Chandra", "30"),
    ]
    expect(page.get_by_test_id("next-round")).to_contain_text("Bikash deals.")

    # Leaving: pick who, then confirm.
    page.get_by_test_id("someone-leaves").click()
    check_accessibility(page, "someone leaves")
    page.get_by_role("radio", name="Chandra").check()
    expect(page.get_by_test_id("seat-submit")).to_have_text("Chandra leaves")
    page.get_by_test_id("seat-submit").click()
    expect(page.get_by_test_id("leave-confirm")).to_have_text("Yes, Chandra leaves the game")
    page.get_by_test_id("leave-confirm").click()
    next_round_is(page, 2)
    expect(player_row(page, "Chandra").locator(".distance")).to_have_text("left the game")
    expect(player_row(page, "Chandra").locator(".score")).to_have_text("30")

    # History: both seat changes, in order with the round; the chart draws all four players.
    tab(page, "History")
    expect(page.get_by_test_id("round-3")).to_contain_text("Chandra left.")
    expect(page.get_by_test_id("round-2")).to_have_text("Dev joined with 30, after Asha.")
    check_accessibility(page, "history with seat changes")
    tab(page, "Chart")
    expect(page.locator("polyline.series")).to_have_count(4)

    # Undo the last item: Chandra is back; then Dev's join.
    tab(page, "History")
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("undo-confirm")).to_have_text("Yes, undo: Chandra left.")
    page.get_by_test_id("undo-confirm").click()
    expect(page.get_by_test_id("round-3")).to_have_count(0)
    expect(page.get_by_test_id("undo")).to_have_text("Undo this")
    page.get_by_test_id("undo").click()
    page.get_by_test_id("undo-confirm").click()
    expect(page.get_by_test_id("round-2")).to_have_count(0)
    expect(page.get_by_test_id("undo")).to_have_text("Undo round 1")
    tab(page, "Table")
    assert list(scores(page)) == ["Asha", "Bikash", "Chandra"]
    next_round_is(page, 2)
    assert game in page.url


def test_seat_change_and_new_table_through_a_flaky_network(page, server, console):
    console.allow(REFUSED)
    create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0)
    jhyap_round(page, "Asha", [2, 20, 30])
    keys = []
    page.on(
        "request",
        lambda r: (
            r.method == "POST"
            and r.url.endswith("/seats")
            and keys.append(r.headers.get("idempotency-key"))
        ),
    )
    page.get_by_test_id("someone-joins").click()
    page.fill("#join-name", "Dev")
    page.select_option("#join-after", label="Chandra")

    server.stop()
    page.get_by_test_id("seat-submit").click()
    expect(page.get_by_test_id("seat-error")).to_contain_text("No connection to the scorekeeper")
    expect(page.locator("#join-name")).to_have_value("Dev")  # nothing typed is lost
    expect(page.locator("#join-after option:checked")).to_have_text("Chandra")
    check_accessibility(page, "seat change offline")

    server.start()
    page.get_by_test_id("seat-submit").click()
    next_round_is(page, 2)
    assert list(scores(page)) == ["Asha", "Bikash", "Chandra", "Dev"]
    assert len(keys) == 2 and keys[0] == keys[1]  # sent again as the same change

    # A new table while the service is down: the form keeps what was typed.
    page.locator("#home-link").click()
    page.get_by_test_id("new-table").click()
    page.fill("#table-name", "Late crew")
    page.fill("#roster-0", "Asha")
    server.stop()
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("error")).to_contain_text("No connection to the scorekeeper")
    expect(page.locator("#table-name")).to_have_value("Late crew")
    expect(page.locator("#roster-0")).to_have_value("Asha")
    server.start()
    page.get_by_test_id("create-table").click()
    expect(page.locator("h1")).to_have_text("Late crew")


def test_play_again_through_a_flaky_network(page, server, console):
    console.allow(REFUSED)
    game = create_game(page, "jhyap", ["Mia", "Noor"], dealer=0, options=SHORT_JHYAP)
    jhyap_round(page, "Mia", [0, 31])
    server.stop()
    page.get_by_test_id("play-again").click()
    expect(page.get_by_test_id("again-error")).to_contain_text("No connection to the scorekeeper")
    expect(page.get_by_test_id("play-again")).to_be_enabled()
    server.start()
    new = play_again(page, game)
    expect(page.get_by_test_id("next-round")).to_contain_text("Noor deals.")
    assert new != game


def test_a_game_another_phone_started_at_the_table_is_played_with_the_tables_key(page, server):
    table_id = create_table(page, "Friday crew", ["Asha", "Bikash", "Chandra"])
    # Another phone with the table's key starts a game at it (straight to the API).
    status = page.evaluate(
        """async id => {
            const table = JSON.parse(localStorage.getItem('scorekeeper.tables.v1'))
                .find(t => t.id === id);
            const response = await fetch('/api/v1/tables/' + id + '/games', {
                method: 'POST',
                body: JSON.stringify({ruleset: 'jhyap', players: ['Asha', 'Bikash', 'Chandra']}),
                headers: {
                    'Content-Type': 'application/json', Authorization: 'Bearer ' + table.token,
                },
            });
            return response.status;
        }""",
        table_id,
    )
    assert status == 201
    page.reload()
    page.wait_for_selector("body.ready")
    page.get_by_test_id("table-game").click()
    expect(page.get_by_test_id("record-round")).to_be_visible()  # the table's key writes to it
    expect(page.locator(".watching")).to_have_count(0)
    jhyap_round(page, "Asha", [0, 10, 20])
    assert scores(page) == {"Asha": "0", "Bikash": "10", "Chandra": "20"}
    page.get_by_test_id("someone-joins").click()
    expect(page.get_by_test_id("join-chip")).to_have_count(0)  # the whole roster is seated
    page.fill("#join-name", "Dev")
    page.get_by_test_id("seat-submit").click()
    next_round_is(page, 2)
    # Dev joined the table's roster too; the home page lists the game under its table only.
    page.get_by_test_id("game-table").click()
    expect(page.locator(".subtitle")).to_have_text("Players: Asha, Bikash, Chandra, Dev")
    expect(page.get_by_test_id("standing")).to_have_count(3)  # Dev has played no round yet
    page.locator("#home-link").click()
    expect(page.locator(".game-link")).to_have_count(1)


def test_a_table_page_that_could_not_load_is_tried_again(page, server, console):
    console.allow(REFUSED)
    create_table(page, "Friday crew", ["Asha", "Bikash"])
    table_url = page.url
    page.locator("#home-link").click()
    # Listed, but with no copy kept (a kept table shows its copy instead: test_offline_start.py).
    page.evaluate("() => localStorage.removeItem('scorekeeper.kept-tables.v1')")
    server.stop()
    page.get_by_test_id("table-link").click()
    expect(page.get_by_test_id("error")).to_contain_text("No connection to the scorekeeper")
    expect(page.locator("h1")).to_have_text("Friday crew")  # known on this phone
    check_accessibility(page, "table page offline")
    server.start()
    page.get_by_test_id("retry-route").click()
    expect(page.get_by_test_id("table-new-game")).to_be_visible()
    assert page.url == table_url


def test_undo_of_a_seat_change_is_cancelled_when_another_phone_records(page, server):
    game = create_game(page, "jhyap", ["Asha", "Bikash", "Chandra"], dealer=0)
    jhyap_round(page, "Asha", [2, 20, 30])
    someone_leaves(page, "Chandra")
    tab(page, "History")
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("undo-confirm")).to_have_text("Yes, undo: Chandra left.")
    ids = player_ids(page, game)[:2]  # Asha and Bikash play on
    assert other_phone_records(page, game, {"number": 3, **totals(ids, 0, 1, 9)}) == 201
    expect(page.get_by_test_id("undo-note")).to_have_text(
        "The game changed meanwhile (perhaps on another phone); undo cancelled: Chandra left.",
        timeout=POLLED,
    )
    # The second round: the leave took no number.
    expect(page.get_by_test_id("undo")).to_have_text("Undo round 2")


def test_moving_to_a_table_goes_on_from_where_the_network_failed(page, server, console):
    console.allow(r"Failed to load resource: net::ERR_FAILED")
    create_game(page, "jhyap", ["Mia", "Noor"], dealer=0, options=SHORT_JHYAP)
    jhyap_round(page, "Mia", [0, 31])
    # The table is made; the game at it gets no answer (the connection drops once).
    dropped = []

    def drop_once(route):
        if dropped:
            route.continue_()
        else:
            dropped.append(route.request.url)
            route.abort()

    page.route("**/api/v1/tables/*/games", drop_once)
    page.fill("#again-table-name", "Sunday crew")
    page.get_by_test_id("start-table").click()
    expect(page.get_by_test_id("again-error")).to_contain_text("No connection to the scorekeeper")
    expect(page.locator("#again-table-name")).to_have_value("Sunday crew")
    page.get_by_test_id("start-table").click()  # on from there: the same table, not a second
    expect(page.get_by_test_id("next-round")).to_contain_text("Noor deals.")
    assert len(dropped) == 1
    tables = page.evaluate("JSON.parse(localStorage.getItem('scorekeeper.tables.v1'))")
    assert [t["name"] for t in tables] == ["Sunday crew"]
    page.get_by_test_id("game-table").click()
    expect(page.get_by_test_id("table-game")).to_have_count(1)
