"""Every screen of the phone page in English, Filipino, Bengali and Nepali: axe finds no serious or
critical violation, and a translated page shows none of the page's own English sentences."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

pytest.importorskip("playwright.sync_api")

from .conftest import VIEWPORT, check_accessibility, screenshot
from .helpers import expect, jhyap_entry, wait_preview

pytestmark = pytest.mark.server
I18N = Path(__file__).resolve().parents[2] / "scorekeeper" / "static" / "i18n"
LANGUAGES = ["en", "fil", "bn", "ne"]
# English words a translation may rightly keep: card-game loanwords and the games' names.
# Bengali and Devanagari digits: the page writes every number in Latin digits instead.
NATIVE_DIGITS = "[\u09e6-\u09ef\u0966-\u096f]"
LOANWORDS = {"round", "rounds", "jhyap", "twenty", "two", "joker", "json"}

# The text a person reads, in the page's language: text nodes whose nearest `lang` is the page's
# (a name or a message marked `lang="en"` is English on purpose), plus controls' labels.
VISIBLE_TEXT_JS = """() => {
  const page = document.documentElement.lang;
  const parts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || element.closest("script, style, [hidden]")) continue;
    if ((element.closest("[lang]")?.lang || page) !== page) continue;
    if (!element.checkVisibility()) continue;
    parts.push(node.textContent);
  }
  for (const element of document.querySelectorAll("[aria-label], [placeholder], [title]")) {
    if ((element.closest("[lang]")?.lang || page) !== page) continue;
    for (const name of ["aria-label", "placeholder", "title"]) {
      if (element.hasAttribute(name)) parts.push(element.getAttribute(name));
    }
  }
  return parts.join("\\n");
}"""


def strings(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def english_phrases(lang: str) -> dict[str, str]:
    """Pieces of English (two or more words between placeholders) that `lang` translates."""
    english, translated = strings("en"), strings(lang)
    phrases = {}
    for key, text in english.items():
        if translated.get(key, text) == text:
            continue
        for piece in re.split(r"\{\w+\}", text):
            words = re.findall(r"[A-Za-z']+", piece)
            if len([w for w in words if w.lower() not in LOANWORDS]) >= 2:
                phrases[piece.strip(" .,:;·()")] = key
    return phrases


def english_left(page: Any, lang: str) -> list[str]:
    """The English phrases of the page's own strings still shown on a `lang` page."""
    text = page.evaluate(VISIBLE_TEXT_JS)
    return sorted(
        f"{key}: {phrase!r}" for phrase, key in english_phrases(lang).items() if phrase in text
    )


class Evening:
    """Games made through the API and kept on the phone with their keys, as if it started them."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.api = url + "/api/v1"

    def keep(self, game: dict[str, Any]) -> None:
        self.page.evaluate(
            """async ([game, token]) => {
                const { store } = await import('/static/js/store.js');
                store.saveGame(game, token);
            }""",
            [game, game.get("token")],
        )

    def game(self, ruleset: str, players: list[str], **body: Any) -> dict[str, Any]:
        payload = {"ruleset": ruleset, "players": players, "dealer": 0, **body}
        game = requests.post(f"{self.api}/games", json=payload, timeout=5).json()
        self.keep(game)
        return game

    def round(self, game: dict[str, Any], entry: dict[str, Any]) -> None:
        headers = {"Authorization": f"Bearer {game['token']}"}
        answer = requests.post(
            f"{self.api}/games/{game['id']}/rounds", json=entry, headers=headers, timeout=5
        )
        assert answer.status_code == 201, answer.text

    def table(self, name: str, players: list[str]) -> dict[str, Any]:
        table = requests.post(
            f"{self.api}/tables", json={"name": name, "players": players}, timeout=5
        ).json()
        self.page.evaluate(
            """async ([table, token]) => {
                const { store } = await import('/static/js/store.js');
                store.saveTable(table, token);
            }""",
            [table, table["token"]],
        )
        return table

    def table_game(self, table: dict[str, Any]) -> None:
        """A finished game at the table: Asha's call of 1 puts Bikash out (25 over 20)."""
        headers = {"Authorization": f"Bearer {table['token']}"}
        roster = [player["id"] for player in table["players"]][:2]
        body = {"ruleset": "jhyap", "players": roster, "dealer": 0, "starter": 0}
        body["options"] = {"elimination_limit": 20, "halve_at": []}
        game = requests.post(
            f"{self.api}/tables/{table['id']}/games", json=body, headers=headers, timeout=5
        ).json()
        self.round({**game, "token": table["token"]}, hands(game, 0, 1, 25))


def hands(game: dict[str, Any], caller: int, *totals: int) -> dict[str, Any]:
    ids = [player["id"] for player in game["players"]]
    return {
        "caller": ids[caller],
        "hands": [{"player": p, "total": v} for p, v in zip(ids, totals, strict=True)],
    }


def screens(page: Any, evening: Evening) -> Iterator[tuple[str, Callable[[], None]]]:
    """Each screen as (name, a way to show it); shown one after the other."""
    jhyap = evening.game("jhyap", ["Asha", "Bikash", "Chandra"], starter=1, name="Friday")
    evening.round(jhyap, hands(jhyap, 2, 17, 14, 3))
    finished = evening.game("jhyap", ["Dev", "Esha"], starter=0, options={"elimination_limit": 20})
    evening.round(finished, hands(finished, 0, 1, 30))
    twenty_two = evening.game("twenty-two", ["Mia", "Noor", "Omar"])
    table = evening.table("Friday crew", ["Asha", "Bikash", "Chandra"])
    evening.table_game(table)  # its standings and games list: figures and dates

    def go(hash_: str, ready: str) -> Callable[[], None]:
        def show() -> None:
            page.evaluate("hash => { location.hash = hash; }", hash_)
            page.locator(ready).first.wait_for()

        return show

    def preview() -> None:
        go(f"#/game/{jhyap['id']}/round", "#preview")()
        jhyap_entry(page, "Asha", [2, 20, 30])
        wait_preview(page)

    def strip() -> None:  # shown right after the preview, whose round it confirms
        page.get_by_test_id("confirm").click()
        page.get_by_test_id("round-strip").wait_for()

    def scorer(hash_: str) -> Callable[[], None]:
        def show() -> None:
            go(hash_, "[data-testid=add-scorer]")()
            page.get_by_test_id("add-scorer").click()
            page.get_by_test_id("scorer-link").wait_for()

        return show

    game = f"#/game/{jhyap['id']}"
    yield "home", go("#/", "[data-testid=new-game]")
    yield "new game", go("#/new", "[data-testid=start-game]")
    yield "new table", go("#/new-table", "[data-testid=create-table]")
    yield "game", go(game, "[data-testid=record-round]")
    yield "round entry", go(f"{game}/round", "#preview")
    yield "preview", preview
    yield "what just happened", strip
    yield "add a scorer", scorer(game)
    yield "history", go(f"{game}/history", "nav.tabs")
    yield "chart", go(f"{game}/chart", "nav.tabs")

    def sheet() -> None:
        go(f"{game}/history", "nav.tabs")()
        page.get_by_test_id("history-sheet").click()
        page.get_by_test_id("score-sheet").wait_for()

    yield "score sheet", sheet
    yield "phone in the middle", go(f"{game}/middle", "[data-testid=middle-seat]")
    yield "someone joins", go(f"{game}/join", "form")
    yield "someone leaves", go(f"{game}/leave", "form")
    yield "watching", go(f"#/watch/{jhyap['id']}", "[data-testid=players]")
    yield "winner", go(f"#/game/{finished['id']}", "[data-testid=winner]")
    yield "twenty two entry", go(f"#/game/{twenty_two['id']}/round", "#preview")
    yield "table", go(f"#/tables/{table['id']}", "[data-testid=table-new-game]")

    def kept_table() -> None:  # offline: the copy of the table this phone kept when it read it
        page.context.set_offline(True)
        go(f"#/tables/{table['id']}", "[data-testid=table-kept]")()
        page.get_by_test_id("table-game-away").wait_for()  # the game this phone does not keep

    def offline_entry() -> None:
        page.context.set_offline(True)
        go(f"{game}/round", "#preview")()
        jhyap_entry(page, "Bikash", [5, 1, 9])
        page.get_by_test_id("offline-note").wait_for()

    def provisional() -> None:
        page.get_by_test_id("confirm").click()
        page.get_by_test_id("provisional").wait_for()

    def clash() -> None:  # another phone records round 3 first; this phone comes back online
        evening.round(jhyap, hands(jhyap, 0, 1, 1, 1))
        page.context.set_offline(False)
        page.get_by_test_id("clash").wait_for(timeout=20_000)
        # The round last is theirs now: no strip offers to undo it as this phone's.
        expect(page.get_by_test_id("round-strip")).to_have_count(0)

    def made_game() -> None:  # with no network: made on the phone, created when it is back
        page.context.set_offline(True)
        go("#/new", "[data-testid=start-game]")()
        for seat, player in enumerate(["Asha", "Bikash", "Chandra"]):
            page.fill(f"#player-{seat}", player)
        page.get_by_test_id("start-game").click()
        page.locator("[data-testid=pending][data-state=offline]").wait_for()
        page.get_by_test_id("record-round").wait_for()

    def made_table() -> None:
        page.context.set_offline(True)
        go("#/new-table", "[data-testid=create-table]")()
        page.fill("#table-name", "Saturday crew")
        page.fill("#roster-0", "Dev")
        page.fill("#roster-1", "Esha")
        page.get_by_test_id("create-table").click()
        page.get_by_test_id("table-kept").wait_for()
        page.get_by_test_id("table-new-game").wait_for()

    yield "add a scorer to the table", scorer(f"#/tables/{table['id']}")
    yield "new game at the table", go(f"#/tables/{table['id']}/new", "[data-testid=start-game]")
    yield "table kept on this phone", kept_table
    yield "offline entry", offline_entry
    yield "provisional scores", provisional
    yield "another phone's round first", clash
    yield "a game made with no network", made_game
    yield "a table made with no network", made_table


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_screen_in_every_language(page, server, console, lang):
    console.allow(r"net::ERR_INTERNET_DISCONNECTED|status of 409")
    page.select_option("#lang-select", lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    evening = Evening(page, server.url)
    seen = []
    for name, show in screens(page, evening):
        show()
        check_accessibility(page, f"{name} in {lang}")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= VIEWPORT["width"], f"the {name} screen in {lang} is {width} px wide"
        if lang != "en":
            assert english_left(page, lang) == [], f"English on the {name} screen in {lang}"
        # One kind of digit on a screen: Latin, as on the cards and the pads (docs/phone.md).
        native = re.findall(NATIVE_DIGITS, page.evaluate(VISIBLE_TEXT_JS))
        assert native == [], f"{lang} digits on the {name} screen in {lang}: {native}"
        seen.append(name)
        if lang in ("bn", "ne"):
            screenshot(page, f"every-screen-{lang}-{name.replace(' ', '-')}")
    assert len(seen) == 26


def test_the_english_check_finds_english(page):
    """The check this file relies on: an English sentence of en.json on a Bengali page is found,
    unless it is marked English."""
    page.select_option("#lang-select", "bn")
    expect(page.locator("html")).to_have_attribute("lang", "bn")
    assert english_left(page, "bn") == []
    english = strings("en")["skip_to_main"]
    page.evaluate(
        """text => {
            const note = document.createElement("p");
            note.id = "planted";
            note.textContent = text;
            document.querySelector("main").append(note);
        }""",
        english,
    )
    assert english_left(page, "bn") == [f"skip_to_main: {english!r}"]
    page.evaluate("() => document.getElementById('planted').setAttribute('lang', 'en')")
    assert english_left(page, "bn") == []
