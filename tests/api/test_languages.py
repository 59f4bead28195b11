"""Error messages in the language of ``Accept-Language`` (api.md, "Language").

Every case is one request whose error message comes from a different place:
the edge's own words, validation sentences built from field labels, the
domain and the rules engine. ``code`` and ``details`` never change with the
language; only ``message`` does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.errors import validation_message
from scorekeeper.language import localise
from scorekeeper.rules.words import Message, in_context

from ..conftest import app_on_empty_database

WRONG_TOKEN = "x" * 22
GAME = {"ruleset": "jhyap", "players": ["Asha", "Bikash", "Chandra"], "dealer": 0, "starter": 1}
Request = Callable[[FlaskClient, dict[str, Any], dict[str, str]], Any]


def new_game(client: FlaskClient) -> dict[str, Any]:
    response = client.post("/api/v1/games", json=GAME)
    assert response.status_code == 201, response.json
    return response.json


def posting(
    path: str, body: Any, token: bool | str = False, method: str = "POST", **options: Any
) -> Request:
    """A request that sends ``body`` to ``path`` (``{game}`` is a new game's id)."""

    def send(client: FlaskClient, game: dict[str, Any], headers: dict[str, str]) -> Any:
        if token:
            shown = token if isinstance(token, str) else game["token"]
            headers = {**headers, "Authorization": f"Bearer {shown}"}
        url = path.format(game=game["id"])
        sent = body(game) if callable(body) else body
        return client.open(url, method=method, json=sent, headers=headers, **options)

    return send


def player_ids(game: dict[str, Any]) -> list[int]:
    return [player["id"] for player in game["players"]]


def hands(game: dict[str, Any], *totals: int) -> dict[str, Any]:
    """A Jhyap round that Asha calls, with these hand totals from Asha on."""
    ids = player_ids(game)
    return {
        "caller": ids[0],
        "hands": [{"player": id_, "total": total} for id_, total in zip(ids, totals, strict=False)],
    }


def getting(path: str) -> Request:
    def send(client: FlaskClient, game: dict[str, Any], headers: dict[str, str]) -> Any:
        return client.get(path.format(game=game["id"]), headers=headers)

    return send


# (name, request, status, the Bengali message)
CASES: list[tuple[str, Request, int, str]] = [
    (
        "validation, a nested field",
        posting("/api/v1/games", {**GAME, "players": [{"x": 1}, "B"]}),
        422,
        "খেলোয়াড় 1 লেখা হতে হবে।",
    ),
    (
        "validation, a name given twice",
        posting("/api/v1/games", {**GAME, "players": ["Asha", "Asha"]}),
        422,
        "খেলোয়াড়দের তালিকা — Asha নামটি দুবার আছে; প্রত্যেক খেলোয়াড়কে আলাদা নাম দিন।",
    ),
    (
        "validation, an unknown field",
        posting("/api/v1/games", {**GAME, "colour": "red"}),
        422,
        '"colour" ঘর অচেনা; এটি বাদ দিন।',
    ),
    ("404", getting("/api/v1/nowhere"), 404, "এই ঠিকানায় কিছু নেই।"),
    (
        "405",
        posting("/api/v1/games/{game}", {}),
        405,
        "এই ঠিকানা ওই মেথড নেয় না।",
    ),
    (
        "401",
        posting("/api/v1/games/{game}/rounds/1", None, method="DELETE"),
        401,
        "এই পরিবর্তনের জন্য খেলার টোকেন লাগবে: Authorization: Bearer <token> পাঠান।",
    ),
    (
        "415",
        posting("/api/v1/games", None, data="x", content_type="text/plain"),
        415,
        "বডিটি application/json হিসেবে পাঠান, text/plain হিসেবে নয়।",
    ),
    (
        "413",
        posting(
            "/api/v1/games", None, data="[" + " " * 70_000 + "]", content_type="application/json"
        ),
        413,
        "অনুরোধের বডি 64 KiB-এর চেয়ে বড়।",
    ),
    (
        "400, bad JSON",
        posting("/api/v1/games", None, data="{", content_type="application/json"),
        400,
        "অনুরোধের বডি সঠিক JSON নয় (লাইন 1, কলাম 2)।",
    ),
    (
        "domain, 404",
        getting("/api/v1/games/{game}/rounds/3"),
        404,
        "এই খেলায় রাউন্ড 3 এখনও খেলা হয়নি।",
    ),
    (
        "domain, 403",
        posting("/api/v1/games/{game}/rounds/1", None, method="DELETE", token=WRONG_TOKEN),
        403,
        "ওই টোকেন দিয়ে এই খেলা খোলে না।",
    ),
    (
        "domain, a name kept as typed",
        posting(
            "/api/v1/games/{game}",
            lambda game: {"players": [{"id": player_ids(game)[0], "name": "BIKASH"}]},
            token=True,
            method="PATCH",
        ),
        422,
        "Bikash নামটি BIKASH-এর সমান; প্রত্যেক খেলোয়াড়কে আলাদা নাম দিন।",
    ),
    (
        "domain, 409 with a number",
        posting(
            "/api/v1/games/{game}/seats",
            lambda game: {"leave": player_ids(game)[0], "number": 4},
            token=True,
        ),
        409,
        "পরের নম্বর 1, 4 নয়; হয়তো অন্য কোনো ফোন আগেই একটি রাউন্ড বা আসন বদল লিখেছে।",
    ),
    (
        "rules, a name and a counted noun",
        posting("/api/v1/games/{game}/rounds", lambda game: hands(game, 9, 9, 9), token=True),
        422,
        "Asha 9 পয়েন্ট নিয়ে ঝ্যাপ ডেকেছে; ডাকের সীমা 5।",
    ),
    (
        "rules, listed names",
        posting("/api/v1/games/{game}/rounds", lambda game: hands(game, 1), token=True),
        422,
        "খেলায় থাকা প্রত্যেক খেলোয়াড়ের হাত দিন; Bikash ও Chandra-এর হাত নেই।",
    ),
    (
        "rules, options counted and listed",
        posting("/api/v1/games", {**GAME, "options": {"jokers": 1, "wild": 2}}),
        422,
        "ঝ্যাপ-এ 'jokers' ও 'wild' নামে কোনো বিকল্প নেই।",
    ),
    (
        "rules, a card code kept as typed",
        posting(
            "/api/v1/games/{game}/rounds",
            lambda game: {
                **hands(game, 1, 2, 3),
                "hands": [
                    {"player": player_ids(game)[0], "cards": ["zz"]},
                    *hands(game, 1, 2, 3)["hands"][1:],
                ],
            },
            token=True,
        ),
        422,
        'Asha-এর "zz" কোনো তাস নয়; আগে র‍্যাঙ্ক তারপর রং লিখুন, যেমন 10H, QS, বা জোকারের জন্য JK।',
    ),
    (
        "422, not an object",
        posting("/api/v1/games", [1]),
        422,
        "একটি JSON অবজেক্ট পাঠান, তালিকা নয়।",
    ),
]


def answer(
    client: FlaskClient, game: dict[str, Any], send: Request, language: str | None
) -> dict[str, Any]:
    headers = {"Accept-Language": language} if language else {}
    response = send(client, game, headers)
    assert "Accept-Language" in response.headers.get("Vary", "")
    return {"status": response.status_code, **response.json["error"]}


@pytest.mark.parametrize(("name", "send", "status", "bengali"), CASES, ids=[c[0] for c in CASES])
def test_a_bengali_request_gets_a_bengali_message(
    client: FlaskClient, name: str, send: Request, status: int, bengali: str
) -> None:
    game = new_game(client)
    error = answer(client, game, send, "bn-BD")
    assert (error["status"], error["message"]) == (status, bengali)


@pytest.mark.parametrize(("name", "send", "status", "bengali"), CASES, ids=[c[0] for c in CASES])
def test_code_and_details_are_the_same_in_every_language(
    client: FlaskClient, name: str, send: Request, status: int, bengali: str
) -> None:
    game = new_game(client)
    errors = {language: answer(client, game, send, language) for language in LANGUAGES}
    english = errors["en"]
    for language, error in errors.items():
        assert {key: value for key, value in error.items() if key != "message"} == {
            key: value for key, value in english.items() if key != "message"
        }, language
        assert (error["message"] == english["message"]) == (language == "en"), language


LANGUAGES = ("en", "fil", "bn", "ne")


@pytest.mark.parametrize(
    ("accept", "language"),
    [
        ("bn", "bn"),
        ("fil-PH", "fil"),
        ("tl", "fil"),
        ("ne-NP, en;q=0.8", "ne"),
        ("en;q=0.5, bn-BD;q=0.9", "bn"),
        ("bn;q=0.1, fil", "fil"),
        ("de, ne;q=0.7, en;q=0.3", "ne"),
        ("ne;q=0, en-GB", "en"),
        ("de-DE, fr", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_the_language_is_the_best_one_asked_for(
    client: FlaskClient, accept: str | None, language: str
) -> None:
    expected = {
        "en": "There is nothing at this address.",
        "fil": "Walang nasa address na ito.",
        "bn": "এই ঠিকানায় কিছু নেই।",
        "ne": "यो ठेगानामा केही छैन।",
    }
    headers = {} if accept is None else {"Accept-Language": accept}
    response = client.get("/api/v1/nowhere", headers=headers)
    assert response.json["error"]["message"] == expected[language]


def test_a_rate_limit_is_said_in_the_language_asked_for(database_url: str) -> None:
    with app_on_empty_database(database_url, RATE_LIMITS="on", GAME_CREATE_LIMIT="2/minute") as app:
        client = app.test_client()
        answers = [
            client.post("/api/v1/games", json=GAME, headers={"Accept-Language": "ne"})
            for _ in range(3)
        ]
    assert [response.status_code for response in answers] == [201, 201, 429]
    assert answers[-1].json["error"]["message"] == (
        "धेरै अनुरोध भए: सीमा प्रति मिनेट 2 अनुरोध हो; अलिकति पर्खनुहोस्।"
    )


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Round 2 no longer fits after this correction: asha has already left the game."),
        (
            "fil",
            "Hindi na tugma ang round 2 pagkatapos ng pagtatamang ito: umalis na si asha sa laro.",
        ),
        ("bn", "এই সংশোধনের পরে রাউন্ড 2 আর মেলে না: asha আগেই খেলা ছেড়ে গেছে।"),
        ("ne", "यो सच्याइपछि राउन्ड 2 अब मिल्दैन: ashaले पहिले नै खेल छोडिसक्यो।"),
    ],
)
def test_a_sentence_continued_after_a_colon_keeps_a_name_as_typed(
    app: Flask, language: str, said: str
) -> None:
    context = Message("Round {number} no longer fits after this correction", number=2)
    reason = Message("{name} has already left the game.", name="asha")
    with app.test_request_context(headers={"Accept-Language": language}):
        assert localise(in_context(context, reason)) == said


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "The entry of round 1 must be a JSON object."),
        ("fil", "Ang entry ng round 1 ay dapat JSON object."),
        ("ne", "राउन्ड 1को प्रविष्टि JSON अब्जेक्ट हुनुपर्छ।"),
    ],
)
def test_a_problem_after_a_field_keeps_an_acronym(app: Flask, language: str, said: str) -> None:
    message = validation_message({"rounds": {"0": {"entry": ["Must be a JSON object."]}}})
    with app.test_request_context(headers={"Accept-Language": language}):
        assert localise(message) == said


def test_a_sentence_continued_after_a_colon_starts_in_lower_case(app: Flask) -> None:
    context = Message("The export's game cannot be set up")
    reason = Message("The caller must be one of the players in this round.")
    with app.test_request_context(headers={"Accept-Language": "fil"}):
        assert localise(in_context(context, reason)) == (
            "Hindi maihanda ang laro ng export: "
            "ang tumawag ay dapat isa sa mga manlalaro sa round na ito."
        )


def test_an_error_says_which_language_it_is_written_in(client):
    bengali = client.get("/api/v1/games/" + "x" * 22, headers={"Accept-Language": "bn, en;q=0.5"})
    assert bengali.headers["Content-Language"] == "bn"
    assert client.get("/api/v1/games/" + "x" * 22).headers["Content-Language"] == "en"


def test_an_error_body_carries_its_letters_as_utf_8_not_as_escapes(client):
    answered = client.get("/api/v1/games/" + "x" * 22, headers={"Accept-Language": "bn"})

    message = answered.json["error"]["message"]
    assert any("\u0980" <= letter <= "\u09ff" for letter in message)  # in Bengali
    assert message.encode("utf-8") in answered.data  # readable in curl
    assert b"\\u" not in answered.data
    named = client.post(
        "/api/v1/games",
        json={"ruleset": "jhyap", "players": ["র‍্যাব", "র্যাব"]},
        headers={"Accept-Language": "ne"},
    )
    assert named.status_code == 422
    assert "र".encode() in named.data and "র্যাব".encode() in named.data
    assert b"\\u" not in named.data
