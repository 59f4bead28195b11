"""Steps a person takes on the phone page, shared by the browser tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

POLLED = 15_000
"""How long (ms) a test waits for the page to hear of another phone's change: its stream brings
it at once; where streams are not available the next poll comes within 12 s (10 s ± 20 %)."""
NO_STREAM = r"status of 404 \(Not Found\)"
"""The browser's line for a stream the test answered 404 (Playwright says "Not Found"; the
server's own 404s say "NOT FOUND", and stay errors)."""


def without_streams(page: Any, console: Any) -> None:
    """Make ``page``'s event streams unavailable (their route answers 404): it polls instead."""
    console.allow(NO_STREAM)
    page.route("**/api/v1/**/events", lambda route: route.fulfill(status=404, body="{}"))


class Taps:
    """Clicks through the page, counting them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def __call__(self, locator: Any) -> None:
        locator.click()
        self.count += 1


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def create_game(
    page: Any,
    ruleset: str,
    names: Iterable[str],
    *,
    dealer: int | None = 0,
    starter: int | None = None,
    options: Mapping[str, str] | None = None,
    name: str | None = None,
) -> str:
    """Fill in the new-game form; return the game id."""
    page.goto(page.url.split("#")[0] + "#/")
    page.get_by_test_id("new-game").click()
    page.locator(f"input[name=ruleset][value={ruleset}]").check()
    names = list(names)
    for seat, player in enumerate(names):
        if page.locator(f"#player-{seat}").count() == 0:
            page.get_by_role("button", name="Add a player").click()
        page.fill(f"#player-{seat}", player)
    if name:
        page.fill("#game-name", name)
    if dealer is not None:
        page.select_option("#dealer", str(dealer))
    if starter is not None:
        page.select_option("#starter", str(starter))
    return start_game(page, options)


def scores(page: Any) -> dict[str, str]:
    """Each player's running score, as the table shows it (once it shows any)."""
    rows = page.locator("[data-testid=player]")
    rows.first.wait_for()  # the table is drawn again after a tab switch or a fetch
    return {
        rows.nth(i).get_attribute("data-player"): rows.nth(i).locator(".score").inner_text()
        for i in range(rows.count())
    }


def player_row(page: Any, name: str) -> Any:
    return page.locator(f"[data-testid=player][data-player='{name}']")


def open_entry(page: Any, tap: Any = None) -> None:
    (tap or (lambda locator: locator.click()))(page.get_by_test_id("record-round"))
    expect(page.locator("#preview")).to_be_visible()


def jhyap_entry(page: Any, caller: str, totals: Iterable[int | list[str]], tap: Any = None) -> None:
    """Tap the caller, then each active player's total (seat order) or cards."""
    click = tap or (lambda locator: locator.click())
    click(page.get_by_test_id("caller").filter(has_text=caller))
    for total in totals:
        if isinstance(total, int):
            if page.get_by_test_id("mode-total").get_attribute("aria-pressed") == "false":
                click(page.get_by_test_id("mode-total"))  # the pad stays on cards once chosen
            click(page.get_by_test_id(f"pad-{total}"))
        else:
            if page.get_by_test_id("mode-cards").get_attribute("aria-pressed") == "false":
                click(page.get_by_test_id("mode-cards"))
            for card in total:
                if card == "JK":
                    click(page.get_by_test_id("joker"))
                else:
                    click(page.get_by_test_id(f"rank-{card[:-1]}"))
                    click(page.get_by_test_id(f"suit-{card[-1]}"))
            click(page.get_by_test_id("cards-done"))


def offline_round(page: Any, caller: str, totals: Iterable[int | list[str]]) -> None:
    """With no network: enter a Jhyap round, confirm it on the rules on the phone, and wait until
    the game shows it as provisional."""
    open_entry(page)
    jhyap_entry(page, caller, totals)
    expect(page.get_by_test_id("offline-note")).to_be_visible()
    page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("provisional")).to_be_visible()


def trick_entry(page: Any, plays: Iterable[tuple[str, str]]) -> None:
    """Tap each (player, card) of the final trick in the order played."""
    for player, card in plays:
        page.get_by_test_id("trick-player").filter(has_text=player).click()
        page.get_by_test_id(f"rank-{card[:-1]}").click()
        page.get_by_test_id(f"suit-{card[-1]}").click()


def wait_preview(page: Any) -> str:
    summary = page.get_by_test_id("preview-summary")
    expect(summary).to_be_visible()
    return page.locator("#preview").inner_text()


def painted(page: Any) -> None:
    """Wait until the page has drawn two more frames: what its last task moved (a scroll) shows."""
    page.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


def confirm(page: Any, tap: Any = None) -> None:
    """Confirm the previewed round and wait until the service has it."""
    button = page.get_by_test_id("confirm")
    number = int(button.inner_text().split()[-1])
    (tap or (lambda locator: locator.click()))(button)
    expect(page.locator("[data-testid=players]")).to_be_visible()
    expect(page.get_by_test_id("pending")).to_have_count(0)
    expect(page.get_by_test_id("provisional")).to_have_count(0)  # shown as the service has it
    # The table is drawn again once the service has the round: the next round, or the winner.
    page.wait_for_function(
        """n => document.querySelector('[data-testid=winner]')
            || document.querySelector('.round-number')?.textContent === 'Round ' + n""",
        arg=number + 1,
    )


def next_round_is(page: Any, number: int) -> None:
    expect(page.locator(".round-number")).to_have_text(f"Round {number}")


def tab(page: Any, name: str) -> None:
    page.locator("nav.tabs a").filter(has_text=name).click()


def game_token(page: Any, game_id: str) -> str:
    """The game's key, as this phone keeps it."""
    return page.evaluate(
        "id => JSON.parse(localStorage.getItem('scorekeeper.games.v1'))"
        ".find(g => g.id === id).token",
        game_id,
    )


def player_ids(page: Any, game_id: str) -> list[int]:
    """The game's player ids in seat order."""
    return page.evaluate(
        "async id => (await (await fetch('/api/v1/games/' + id)).json()).players.map(p => p.id)",
        game_id,
    )


def other_phone_records(page: Any, game_id: str, body: Mapping[str, Any]) -> int:
    """Record a round as another phone with the game's key would (straight to the API)."""
    return page.evaluate(
        """async ([id, token, body]) => (await fetch('/api/v1/games/' + id + '/rounds', {
            method: 'POST', body: JSON.stringify(body),
            headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
        })).status""",
        [game_id, game_token(page, game_id), dict(body)],
    )


def other_phone_corrects(page: Any, game_id: str, number: int, body: Mapping[str, Any]) -> int:
    """Correct round ``number`` as another phone with the game's key would (straight to the API)."""
    return page.evaluate(
        """async ([id, token, n, body]) => (await fetch('/api/v1/games/' + id + '/rounds/' + n, {
            method: 'PUT', body: JSON.stringify(body),
            headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
        })).status""",
        [game_id, game_token(page, game_id), number, dict(body)],
    )


def totals(ids: Iterable[int], caller: int, *values: int) -> dict[str, Any]:
    """A Jhyap round body: ``caller`` is a seat, ``values`` the hand totals in seat order."""
    ids = list(ids)
    return {
        "caller": ids[caller],
        "hands": [{"player": p, "total": v} for p, v in zip(ids, values, strict=True)],
    }


def create_table(page: Any, name: str, players: Iterable[str]) -> str:
    """Create a table from the home page (name and roster); return its id."""
    page.goto(page.url.split("#")[0] + "#/")
    page.get_by_test_id("new-table").click()
    page.fill("#table-name", name)
    for seat, player in enumerate(players):
        if page.locator(f"#roster-{seat}").count() == 0:
            page.get_by_role("button", name="Add a player").click()
        page.fill(f"#roster-{seat}", player)
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("table-new-game")).to_be_visible()
    return page.url.split("#/tables/")[1].split("/")[0]


def table_game(
    page: Any,
    ruleset: str,
    chips: Iterable[str],
    *,
    dealer: int | None = 0,
    options: Mapping[str, str] | None = None,
) -> str:
    """On a table's page: New game, its roster's chips tapped in seating order; return the id."""
    page.get_by_test_id("table-new-game").click()
    page.locator(f"input[name=ruleset][value={ruleset}]").check()
    for name in chips:
        page.get_by_test_id("roster-chip").filter(has_text=name).click()
    if dealer is not None:
        page.select_option("#dealer", str(dealer))
    return start_game(page, options)


def standings(page: Any) -> dict[str, dict[str, str]]:
    """The table page's standings as shown: each player's place, games won and played, average
    place, and every
    ruleset figure (by ``ruleset.figure``, its value; ``jhyap.calls_won`` as "won/calls")."""
    rows = page.get_by_test_id("standing")
    rows.first.wait_for()
    found = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        figures = {
            "place": row.locator(".place").inner_text(),
            "games_won": row.locator("[data-figure=games_won]").inner_text(),
            "games_played": row.locator("[data-figure=games_played]").inner_text(),
            "average_place": row.locator("[data-figure=average_place]").inner_text(),
        }
        for figure in row.locator(".figure").all():
            value = figure.get_attribute("data-value")
            won = figure.get_attribute("data-won")
            figures[figure.get_attribute("data-figure")] = f"{won}/{value}" if won else value
        found[row.get_attribute("data-player")] = figures
    return found


def start_game(page: Any, options: Mapping[str, str] | None) -> str:
    """Fill in the new-game form's options, start the game; return its id."""
    if options:
        page.locator("details.options summary").click()
        for option, value in options.items():
            page.fill(f"#opt-{option}", value)
    page.get_by_test_id("start-game").click()
    expect(page.locator("[data-testid=players]")).to_be_visible()
    return page.url.split("#/game/")[1].split("/")[0]
