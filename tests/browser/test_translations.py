"""Every string the page shows exists in English, Filipino, Bengali and Nepali (no browser)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"
TEMPLATE = STATIC.parent / "templates" / "index.html"
LANGUAGES = ["en", "fil", "bn", "ne"]
PASSES = ("left", "right", "across", "keep")
DYNAMIC = {
    # keys built at run time in the page's modules (js/**)
    **{
        f"rank_{rank}": None
        for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    },
    **{f"suit_{suit}": None for suit in "SHDC"},
    **{f"err_{status}": None for status in (401, 403, 404, 409, 413, 422, 429)},
    **{
        f"choice_{choice}": None
        for choice in (
            "caller_wins",
            "caller_loses",
            "tied",
            "all",
            "add_to_others",
            "subtract_from_shooter",
            "highest",
            "lowest",
        )
    },
    **{f"ruleset_{name}": None for name in ("jhyap", "twenty_two", "hearts", "score_pad")},
    **{f"preview_hint_{kind}": None for kind in ("jhyap", "tt", "hearts", "points")},
    **{f"{what}_{way}": None for what in ("pass", "hand_passed") for way in PASSES},
    **{key: None for key in ("col_hand", "col_card", "col_taken", "starts", "leads")},
    **{key: None for key in ("next_starts", "next_leads", "elimination_limit_is")},
    **{key: None for key in ("limit_is", "target_is")},
    "first_dealer": None,
    "first_starter": None,
}
OPTIONS = [
    "call_limit",
    "caller_penalty",
    "caller_tie",
    "elimination_limit",
    "halve_at",
    "decks",
    "next_starter",
    "first_deal",
    "tie_scores",
    "limit",
    "moon",
    "winner",
    "target",
    "rounds",
]


def load(lang: str) -> dict[str, str]:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def figure_words() -> set[str]:
    """The page's words for each ruleset's figures in a table's standings (its descriptor)."""
    from scorekeeper.rules import RULESETS

    return {
        figure["words"] for rules in RULESETS.values() for figure in rules.descriptor["figures"]
    }


def used_keys() -> set[str]:
    source = "\n".join(path.read_text(encoding="utf-8") for path in (STATIC / "js").rglob("*.js"))
    keys = set(re.findall(r"\bt\(\"([a-z_0-9]+)\"", source))
    keys |= set(re.findall(r'data-i18n="([a-z_]+)"', TEMPLATE.read_text(encoding="utf-8")))
    keys |= set(DYNAMIC) | figure_words()
    for option in OPTIONS:
        keys |= {f"opt_{option}", f"opt_{option}_help"}
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_used_key_is_translated(lang):
    strings = load(lang)
    missing = sorted(key for key in used_keys() if not strings.get(key, "").strip())
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_same_keys_and_placeholders_as_english(lang):
    english, strings = load("en"), load(lang)
    assert set(strings) == set(english)
    for key, text in english.items():
        assert set(re.findall(r"\{\w+\}", strings[key])) == set(re.findall(r"\{\w+\}", text)), key


def test_option_names_match_the_rulesets():
    from scorekeeper.rules import RULESETS

    names = {name for rules in RULESETS.values() for name in rules.describe()["options"]}
    assert names == set(OPTIONS)


def test_no_inline_script_or_style_in_the_page():
    html = TEMPLATE.read_text(encoding="utf-8")
    assert "style=" not in html and "<style" not in html
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    for path in (STATIC / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert "innerHTML" not in text and ".style." not in text and '"style"' not in text, path
