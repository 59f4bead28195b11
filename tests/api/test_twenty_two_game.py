"""Twenty Two through the HTTP API: scripted games worked out by hand, bad final tricks,
corrections, undo, export and import, and retries.

Seats are 0, 1, 2, ... in the order the players are given; in the three-player games
Asha is seat 0, Bikash seat 1 and Chandra seat 2. Point values: ace 11, J/Q/K 10,
pips at face value. The pack is 52 minus every card kept in a score pile.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

ASHA, BIKASH, CHANDRA = 0, 1, 2

# A scripted three-player game (dealer Asha, defaults: first_deal 7, elimination_limit 22),
# worked out by hand under both values of tie_scores. Each round lists:
#   trick       (seat, card) in the order played; some codes are lower case on purpose
#   dealer, starter, cards_each   of the round itself (seats; cards it was dealt with)
#   takers      seats who scored
#   results     by seat, for the players in the trick: (card, points, score_before,
#               score_after, eliminated)
#   next        (dealer seat, starter seat, cards_each, pack) of the next round, or None
#   piles       every seat's score pile after the round
#
# tie_scores "tied"
# -----------------
# R1: dealer A, starter B (dealer's left), 7 cards each, pack 52.
#     Final trick B 5H, C AS, A 9D: the ace is highest; Chandra takes, keeps AS, scores 11.
#     Scores 0/0/11. Piles -/-/AS. Pack 52 - 1 = 51.
#     Next: the loser Chandra deals, Asha (his left) leads. An ace was lost: 11 cards;
#     3 x 11 = 33 <= 51, so cards_each 11.
# R2: dealer C, starter A, 11 cards. Final trick A KH, B KC, C 4D: a tie on kings.
#     "tied": only Asha and Bikash score 10 each. Scores 10/10/11. Piles KH/KC/AS; pack 49.
#     Next: the tied player who played last (Bikash) deals, Chandra leads; a king: 10 cards;
#     floor(49 / 3) = 16, so cards_each 10.
# R3: dealer B, starter C, 10 cards. Final trick C 3S, A QD, B 7C: Asha takes QD, +10.
#     Scores 20/10/11. Piles KH QD/KC/AS; pack 48. Next: Asha deals, Bikash leads, 10 cards.
# R4: dealer A, starter B, 10 cards. Final trick B 9D, C 2H, A 6S (9D went back into the
#     pack in R1, so it may be played again): Bikash takes, +9. Scores 20/19/11.
#     Piles KH QD/KC 9D/AS; pack 47. Next: Bikash deals, Chandra leads, 9 cards.
# R5: dealer B, starter C, 9 cards. Final trick C AH, A 3C, B 5D: Chandra takes, +11:
#     11 + 11 = 22 >= 22, so Chandra is eliminated. Scores 20/19/22. Piles KH QD/KC 9D/AS AH;
#     pack 46. Next: the eliminated loser Chandra still deals (then leaves); the dealer's
#     left among the active players is Asha; an ace: 11 cards; 2 active, floor(46 / 2) = 23,
#     so cards_each 11.
# R6: dealer C, starter A, 11 cards; only Asha and Bikash play. Final trick A 3H, B 3D:
#     a tie on threes, both score 3: Asha 23, Bikash 22; both reach 22, so both are out.
#     Every player still active before the round is eliminated: the lowest total among
#     them wins: Bikash (22). Chandra also has 22 but left in round 5, so he does not share.
#     Finished; no next round. Piles KH QD 3H/KC 9D 3D/AS AH.
#
# tie_scores "all"
# ----------------
# R1: as above. Scores 0/0/11; pack 51; next C deals, A leads, 11 cards.
# R2: the tie on kings: every player in the trick scores their card: A +10, B +10, C +4.
#     Scores 10/10/15. Piles KH/KC/AS 4D; pack 48. Next: Bikash (the last tied king) deals,
#     Chandra leads; 10 cards (floor(48 / 3) = 16).
# R3: Asha takes QD, +10. Scores 20/10/15; pack 47; next A deals, B leads, 10 (15 each fit).
# R4: Bikash takes 9D, +9. Scores 20/19/15; pack 46; next B deals, C leads, 9 cards.
# R5: Chandra takes AH, +11: 26, eliminated. Scores 20/19/26; pack 45. Next: Chandra deals,
#     Asha leads, 11 cards (floor(45 / 2) = 22).
# R6: tie on threes: Asha 23, Bikash 22, both out; Bikash wins with the lowest total.
#     Piles KH QD 3H/KC 9D 3D/AS 4D AH.

TRICKS = [
    [(BIKASH, "5h"), (CHANDRA, "AS"), (ASHA, "9D")],
    [(ASHA, "KH"), (BIKASH, "KC"), (CHANDRA, "4D")],
    [(CHANDRA, "3S"), (ASHA, "qd"), (BIKASH, "7C")],
    [(BIKASH, "9D"), (CHANDRA, "2H"), (ASHA, "6S")],
    [(CHANDRA, "AH"), (ASHA, "3C"), (BIKASH, "5D")],
    [(ASHA, "3H"), (BIKASH, "3D")],
]

EXPECTED: dict[str, list[dict[str, Any]]] = {
    "tied": [
        {
            "dealer": ASHA,
            "starter": BIKASH,
            "cards_each": 7,
            "takers": [CHANDRA],
            "results": {
                ASHA: ("9D", 0, 0, 0, False),
                BIKASH: ("5H", 0, 0, 0, False),
                CHANDRA: ("AS", 11, 0, 11, False),
            },
            "next": (CHANDRA, ASHA, 11, 51),
            "piles": [[], [], ["AS"]],
        },
        {
            "dealer": CHANDRA,
            "starter": ASHA,
            "cards_each": 11,
            "takers": [ASHA, BIKASH],
            "results": {
                ASHA: ("KH", 10, 0, 10, False),
                BIKASH: ("KC", 10, 0, 10, False),
                CHANDRA: ("4D", 0, 11, 11, False),
            },
            "next": (BIKASH, CHANDRA, 10, 49),
            "piles": [["KH"], ["KC"], ["AS"]],
        },
        {
            "dealer": BIKASH,
            "starter": CHANDRA,
            "cards_each": 10,
            "takers": [ASHA],
            "results": {
                ASHA: ("QD", 10, 10, 20, False),
                BIKASH: ("7C", 0, 10, 10, False),
                CHANDRA: ("3S", 0, 11, 11, False),
            },
            "next": (ASHA, BIKASH, 10, 48),
            "piles": [["KH", "QD"], ["KC"], ["AS"]],
        },
        {
            "dealer": ASHA,
            "starter": BIKASH,
            "cards_each": 10,
            "takers": [BIKASH],
            "results": {
                ASHA: ("6S", 0, 20, 20, False),
                BIKASH: ("9D", 9, 10, 19, False),
                CHANDRA: ("2H", 0, 11, 11, False),
            },
            "next": (BIKASH, CHANDRA, 9, 47),
            "piles": [["KH", "QD"], ["KC", "9D"], ["AS"]],
        },
        {
            "dealer": BIKASH,
            "starter": CHANDRA,
            "cards_each": 9,
            "takers": [CHANDRA],
            "results": {
                ASHA: ("3C", 0, 20, 20, False),
                BIKASH: ("5D", 0, 19, 19, False),
                CHANDRA: ("AH", 11, 11, 22, True),
            },
            "next": (CHANDRA, ASHA, 11, 46),
            "piles": [["KH", "QD"], ["KC", "9D"], ["AS", "AH"]],
        },
        {
            "dealer": CHANDRA,
            "starter": ASHA,
            "cards_each": 11,
            "takers": [ASHA, BIKASH],
            "results": {
                ASHA: ("3H", 3, 20, 23, True),
                BIKASH: ("3D", 3, 19, 22, True),
            },
            "next": None,
            "piles": [["KH", "QD", "3H"], ["KC", "9D", "3D"], ["AS", "AH"]],
        },
    ],
    "all": [
        {
            "dealer": ASHA,
            "starter": BIKASH,
            "cards_each": 7,
            "takers": [CHANDRA],
            "results": {
                ASHA: ("9D", 0, 0, 0, False),
                BIKASH: ("5H", 0, 0, 0, False),
                CHANDRA: ("AS", 11, 0, 11, False),
            },
            "next": (CHANDRA, ASHA, 11, 51),
            "piles": [[], [], ["AS"]],
        },
        {
            "dealer": CHANDRA,
            "starter": ASHA,
            "cards_each": 11,
            "takers": [ASHA, BIKASH, CHANDRA],
            "results": {
                ASHA: ("KH", 10, 0, 10, False),
                BIKASH: ("KC", 10, 0, 10, False),
                CHANDRA: ("4D", 4, 11, 15, False),
            },
            "next": (BIKASH, CHANDRA, 10, 48),
            "piles": [["KH"], ["KC"], ["AS", "4D"]],
        },
        {
            "dealer": BIKASH,
            "starter": CHANDRA,
            "cards_each": 10,
            "takers": [ASHA],
            "results": {
                ASHA: ("QD", 10, 10, 20, False),
                BIKASH: ("7C", 0, 10, 10, False),
                CHANDRA: ("3S", 0, 15, 15, False),
            },
            "next": (ASHA, BIKASH, 10, 47),
            "piles": [["KH", "QD"], ["KC"], ["AS", "4D"]],
        },
        {
            "dealer": ASHA,
            "starter": BIKASH,
            "cards_each": 10,
            "takers": [BIKASH],
            "results": {
                ASHA: ("6S", 0, 20, 20, False),
                BIKASH: ("9D", 9, 10, 19, False),
                CHANDRA: ("2H", 0, 15, 15, False),
            },
            "next": (BIKASH, CHANDRA, 9, 46),
            "piles": [["KH", "QD"], ["KC", "9D"], ["AS", "4D"]],
        },
        {
            "dealer": BIKASH,
            "starter": CHANDRA,
            "cards_each": 9,
            "takers": [CHANDRA],
            "results": {
                ASHA: ("3C", 0, 20, 20, False),
                BIKASH: ("5D", 0, 19, 19, False),
                CHANDRA: ("AH", 11, 15, 26, True),
            },
            "next": (CHANDRA, ASHA, 11, 45),
            "piles": [["KH", "QD"], ["KC", "9D"], ["AS", "4D", "AH"]],
        },
        {
            "dealer": CHANDRA,
            "starter": ASHA,
            "cards_each": 11,
            "takers": [ASHA, BIKASH],
            "results": {
                ASHA: ("3H", 3, 20, 23, True),
                BIKASH: ("3D", 3, 19, 22, True),
            },
            "next": None,
            "piles": [["KH", "QD", "3H"], ["KC", "9D", "3D"], ["AS", "4D", "AH"]],
        },
    ],
}

FINAL = {
    # scores, eliminated_in_round by seat, winner seats
    "tied": ([23, 22, 22], [6, 6, 5], [BIKASH]),
    "all": ([23, 22, 26], [6, 6, 5], [BIKASH]),
}


def ids(table: Any, seats: list[int]) -> list[int]:
    """Player ids of ``seats``."""
    return [table.players[seat] for seat in seats]


def expected_next_round(table: Any, number: int, next_: tuple[int, int, int, int] | None) -> Any:
    """The ``next_round`` object for (dealer seat, starter seat, cards_each, pack)."""
    if next_ is None:
        return None
    dealer, starter, cards_each, pack = next_
    return {
        "number": number,
        "dealer": table.players[dealer],
        "starter": table.players[starter],
        "cards_each": cards_each,
        "pack": pack,
    }


def check_round(table: Any, body: dict[str, Any], number: int, expected: dict[str, Any]) -> None:
    """A Round body against the hand-worked expectation."""
    assert body["number"] == number
    assert body["dealer"] == table.players[expected["dealer"]]
    assert body["starter"] == table.players[expected["starter"]]
    assert body["cards_each"] == expected["cards_each"]
    assert sorted(body["takers"]) == sorted(ids(table, expected["takers"]))
    assert "caller" not in body and "caller_succeeded" not in body
    assert body["results"] == [
        {
            "player": table.players[seat],
            "card": card,
            "points": points,
            "score_before": before,
            "score_after": after,
            "halved": False,
            "eliminated": eliminated,
        }
        for seat, (card, points, before, after, eliminated) in sorted(expected["results"].items())
    ]
    finished = expected["next"] is None
    assert body["game"]["status"] == ("finished" if finished else "in_progress")
    assert body["game"]["next_round"] == expected_next_round(table, number + 1, expected["next"])


def play_scripted_game(
    table: Any, tie_scores: str, rounds: int = len(TRICKS)
) -> list[dict[str, Any]]:
    """Create the scripted game and record its first ``rounds`` rounds, checking each."""
    game = table.create(ruleset="twenty-two", dealer=0, tie_scores=tie_scores)
    assert game["options"] == {"elimination_limit": 22, "first_deal": 7, "tie_scores": tie_scores}
    assert game["next_round"] == {
        "number": 1,
        "dealer": table.players[ASHA],
        "starter": table.players[BIKASH],
        "cards_each": 7,
        "pack": 52,
    }
    assert [player["pile"] for player in game["players"]] == [[], [], []]
    bodies = []
    for number, (trick, expected) in enumerate(
        zip(TRICKS[:rounds], EXPECTED[tie_scores], strict=False), start=1
    ):
        body = table.trick(*trick)
        check_round(table, body, number, expected)
        bodies.append(body)
    return bodies


@pytest.mark.parametrize("tie_scores", ["tied", "all"])
def test_scripted_three_player_game(table, client, tie_scores):
    scores = [0, 0, 0]
    eliminated_in: list[int | None] = [None, None, None]
    game = table.create(ruleset="twenty-two", dealer=0, tie_scores=tie_scores)
    assert game["ruleset"] == "twenty-two"
    assert game["options"] == {"elimination_limit": 22, "first_deal": 7, "tie_scores": tie_scores}
    assert game["next_round"] == {
        "number": 1,
        "dealer": table.players[ASHA],
        "starter": table.players[BIKASH],
        "cards_each": 7,
        "pack": 52,
    }
    script = zip(TRICKS, EXPECTED[tie_scores], strict=True)
    for number, (trick, expected) in enumerate(script, start=1):
        body = table.trick(*trick)
        check_round(table, body, number, expected)
        assert client.get(f"{table.url}/rounds/{number}").json == body

        for seat, (_card, _points, _before, after, out) in expected["results"].items():
            scores[seat] = after
            if out:
                eliminated_in[seat] = number
        state = table.get()
        assert state["rounds_played"] == number
        assert state["next_round"] == expected_next_round(table, number + 1, expected["next"])
        assert [player["score"] for player in state["players"]] == scores
        assert [player["pile"] for player in state["players"]] == expected["piles"]
        assert [player["eliminated_in_round"] for player in state["players"]] == eliminated_in
        assert [player["eliminated"] for player in state["players"]] == [
            out is not None for out in eliminated_in
        ]
        if expected["next"] is not None:
            assert state["status"] == "in_progress"
            assert state["winners"] == []
            # 52 minus the kept cards
            assert state["next_round"]["pack"] == 52 - sum(len(pile) for pile in expected["piles"])

    final_scores, final_out, winners = FINAL[tie_scores]
    state = table.get()
    assert state["status"] == "finished"
    assert state["next_round"] is None
    assert state["winners"] == ids(table, winners)
    assert [player["score"] for player in state["players"]] == final_scores
    assert [player["eliminated_in_round"] for player in state["players"]] == final_out
    last = client.get(f"{table.url}/rounds/6").json
    finished = {"status": "finished", "next_round": None, "winners": ids(table, winners)}
    assert last["game"] == finished
    listed = client.get(f"{table.url}/rounds").json["rounds"]
    assert [round_["number"] for round_ in listed] == [1, 2, 3, 4, 5, 6]
    assert listed[-1] == last

    # A finished game takes no more rounds.
    response = table.post_round(table.trick_entry([(ASHA, "2C"), (BIKASH, "4C")]))
    assert response.status_code == 409, response.json
    assert response.json["error"]["code"] == "conflict"


def test_eliminated_loser_deals_then_the_table_moves_on(table):
    """After R5 Chandra (out) deals R6; he appears in no result of R6 and cannot play in it."""
    play_scripted_game(table, "tied", rounds=5)
    state = table.get()
    chandra = state["players"][CHANDRA]
    assert chandra["eliminated"] is True and chandra["eliminated_in_round"] == 5
    assert state["next_round"]["dealer"] == table.players[CHANDRA]
    assert state["next_round"]["starter"] == table.players[ASHA]
    before = table.export_bytes()
    response = table.post_round(table.trick_entry([(ASHA, "3H"), (BIKASH, "3D"), (CHANDRA, "2S")]))
    assert response.status_code == 422, response.json
    assert "Chandra" in response.json["error"]["message"]
    assert table.export_bytes() == before
    body = table.trick((ASHA, "3H"), (BIKASH, "3D"))
    assert [result["player"] for result in body["results"]] == ids(table, [ASHA, BIKASH])
    assert body["dealer"] == table.players[CHANDRA]


def test_two_players_one_reaches_the_limit_the_other_wins(table):
    """One of two reaches the limit: the other is the only active player and wins."""
    table.create(players=("Asha", "Bikash"), ruleset="twenty-two", dealer=1, elimination_limit=10)
    # R1: dealer Bikash, starter Asha, 7 cards. Asha JS (10) beats Bikash 4H: 10 >= 10, out.
    body = table.trick((ASHA, "JS"), (BIKASH, "4H"))
    assert body["dealer"] == table.players[1] and body["starter"] == table.players[0]
    assert body["takers"] == [table.players[ASHA]]
    assert body["results"][ASHA]["eliminated"] is True
    winners = [table.players[BIKASH]]
    assert body["game"] == {"status": "finished", "next_round": None, "winners": winners}


# pagat's example ---------------------------------------------------------------------


def test_pagat_six_players_first_round_lost_with_a_queen(table):
    players = ("P0", "P1", "P2", "P3", "P4", "P5")
    game = table.create(players=players, ruleset="twenty-two", dealer=0)
    assert game["next_round"]["cards_each"] == 7 and game["next_round"]["pack"] == 52
    # R1: dealer P0, starter P1. The queen is the highest card; P2 keeps QH and scores 10.
    # Pack 52 - 1 = 51; 6 x 10 = 60 > 51, so the pack is dealt out evenly:
    # floor(51 / 6) = 8 each (3 left over). P2 deals, P3 leads.
    body = table.trick((1, "2C"), (2, "QH"), (3, "5D"), (4, "7S"), (5, "JC"), (0, "10D"))
    assert body["cards_each"] == 7
    assert body["takers"] == [table.players[2]]
    assert [result["points"] for result in body["results"]] == [0, 0, 10, 0, 0, 0]
    expected_next = {
        "number": 2,
        "dealer": table.players[2],
        "starter": table.players[3],
        "cards_each": 8,
        "pack": 51,
    }
    assert body["game"]["next_round"] == expected_next
    state = table.get()
    assert state["next_round"] == expected_next
    assert [player["pile"] for player in state["players"]] == [[], [], ["QH"], [], [], []]
    assert [player["score"] for player in state["players"]] == [0, 0, 10, 0, 0, 0]


def test_first_deal_option_sets_round_one(table):
    game = table.create(players=("A", "B", "C", "D"), ruleset="twenty-two", dealer=3, first_deal=13)
    assert game["next_round"] == {
        "number": 1,
        "dealer": table.players[3],
        "starter": table.players[0],
        "cards_each": 13,
        "pack": 52,
    }


def test_twenty_two_refuses_a_starter_and_a_too_large_first_deal(client):
    body = {"ruleset": "twenty-two", "players": ["A", "B", "C"], "dealer": 0, "starter": 1}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 422, response.json
    del body["starter"]
    # first_deal is at most 52 // 3 = 17 for three players.
    response = client.post("/api/v1/games", json={**body, "options": {"first_deal": 18}})
    assert response.status_code == 422, response.json
    response = client.post("/api/v1/games", json={**body, "options": {"tie_scores": "everyone"}})
    assert response.status_code == 422, response.json


# Bad final tricks --------------------------------------------------------------------


def bad_trick_table(table: Any) -> None:
    """Three players, elimination_limit 11, so that there is a pile of an active player
    and an eliminated player.

    R1: dealer A, starter B. B 4H, C 2S, A 10S: Asha takes 10S (10 < 11). Scores 10/0/0.
        Next: A deals, B leads, 10 cards, pack 51.
    R2: B 3C, C AS, A 5H: Chandra takes AS (11 >= 11): out in round 2. Scores 10/0/11.
        Next: C deals, A leads; 2 active, min(11, floor(50 / 2)) = 11; pack 50.
    """
    table.create(ruleset="twenty-two", dealer=0, elimination_limit=11)
    table.trick((BIKASH, "4H"), (CHANDRA, "2S"), (ASHA, "10S"))
    body = table.trick((BIKASH, "3C"), (CHANDRA, "AS"), (ASHA, "5H"))
    assert body["results"][CHANDRA]["eliminated"] is True
    assert body["game"]["next_round"] == {
        "number": 3,
        "dealer": table.players[CHANDRA],
        "starter": table.players[ASHA],
        "cards_each": 11,
        "pack": 50,
    }


BAD_TRICKS = {
    # name: (plays as (seat or raw id, card) in the order played, words the message must hold)
    "joker": ([(ASHA, "JK"), (BIKASH, "7C")], ["Asha", "joker"]),
    "joker alias X": ([(ASHA, "7C"), (BIKASH, "x")], ["Bikash", "joker"]),
    "joker alias JOKER": ([(ASHA, "joker"), (BIKASH, "7C")], ["joker"]),
    "duplicate card": ([(ASHA, "7H"), (BIKASH, "7h")], ["7H", "Asha", "Bikash"]),
    "duplicate via 10/T": ([(ASHA, "10D"), (BIKASH, "TD")], ["10D"]),
    "kept by an active player": ([(ASHA, "2D"), (BIKASH, "10S")], ["10S", "Asha's"]),
    "kept by an eliminated player": ([(ASHA, "as"), (BIKASH, "2D")], ["AS", "Chandra's"]),
    "own kept card": ([(ASHA, "10S"), (BIKASH, "2D")], ["10S", "Asha's"]),
    "bad code": ([(ASHA, "1H"), (BIKASH, "2D")], ["1H"]),
    "bad suit": ([(ASHA, "QX"), (BIKASH, "2D")], ["QX"]),
    "empty code": ([(ASHA, ""), (BIKASH, "2D")], []),
    "missing player": ([(ASHA, "2D")], ["Bikash"]),
    "no cards at all": ([], []),
    "extra unknown id": ([(ASHA, "2D"), (BIKASH, "3D"), ("unknown", "4D")], ["not in this game"]),
    "unknown instead of a player": ([(ASHA, "2D"), ("unknown", "4D")], ["not in this game"]),
    "eliminated player": (
        [(ASHA, "2D"), (BIKASH, "3D"), (CHANDRA, "4D")],
        ["Chandra", "eliminated"],
    ),
    "player twice": ([(ASHA, "2D"), (BIKASH, "3D"), (ASHA, "4D")], ["Asha"]),
}


@pytest.mark.parametrize("name", list(BAD_TRICKS))
def test_bad_final_trick_is_a_clear_422_and_changes_nothing(table, name):
    bad_trick_table(table)
    plays, words = BAD_TRICKS[name]
    unknown = max(table.players) + 1000
    entry = {
        "last_trick": [
            {"player": unknown if seat == "unknown" else table.players[seat], "card": card}
            for seat, card in plays
        ]
    }
    before = table.export_bytes()
    game_before = table.get()
    response = table.post_round(entry)
    assert response.status_code == 422, response.json
    error = response.json["error"]
    assert error["status"] == 422
    assert error["code"].startswith("invalid_")
    message = error["message"]
    assert message and message.endswith(".") and "\n" not in message
    for word in words:
        assert word.lower() in message.lower(), message
    if name.startswith("extra unknown") or name.startswith("unknown instead"):
        assert str(unknown) in message
    assert table.export_bytes() == before
    assert table.get() == game_before


@pytest.mark.parametrize("card", ["AS", "as", "A♠", "10S", "TS", "t♠"])
def test_kept_card_is_recognised_in_every_spelling(table, card):
    bad_trick_table(table)
    before = table.export_bytes()
    response = table.post_round(table.trick_entry([(ASHA, "2D"), (BIKASH, card)]))
    assert response.status_code == 422, response.json
    owner = "Chandra" if card.upper().startswith("A") else "Asha"
    assert f"{owner}'s" in response.json["error"]["message"]
    assert table.export_bytes() == before


def test_good_trick_after_the_bad_ones_is_scored(table):
    """Aliases are canonicalised in the result: T♥ is 10H, q♣ is QC."""
    bad_trick_table(table)
    # R3: dealer C (out), starter A, 11 cards. A T♥, B q♣: the queen is higher; Bikash +10.
    # Pack 50 - 1 = 49; next: B deals, A leads (C is out), min(10, floor(49 / 2)) = 10.
    body = table.trick((ASHA, "T♥"), (BIKASH, "q♣"))
    assert [result["card"] for result in body["results"]] == ["10H", "QC"]
    assert body["takers"] == [table.players[BIKASH]]
    assert body["game"]["next_round"] == {
        "number": 4,
        "dealer": table.players[BIKASH],
        "starter": table.players[ASHA],
        "cards_each": 10,
        "pack": 49,
    }
    assert [player["pile"] for player in table.get()["players"]] == [["10S"], ["QC"], ["AS"]]


@pytest.mark.parametrize(
    "entry",
    [
        {"caller": "bikash", "hands": []},
        {"caller": 0, "hands": [{"player": 0, "total": 3}]},
        {"hands": [{"player": 0, "total": 3}]},
        {"last_trick": [], "caller": 0},
        {"last_trick": [{"player": 0, "card": "2D", "total": 2}]},
        {"last_trick": [{"player": "0", "card": "2D"}]},
        {"last_trick": [{"player": 0, "card": 2}]},
        {"last_trick": [{"player": 0}]},
        {"last_trick": {"player": 0, "card": "2D"}},
        {},
    ],
    ids=[
        "caller-hands",
        "jhyap-body",
        "hands-only",
        "trick-and-caller",
        "extra-play-field",
        "id-as-string",
        "card-as-number",
        "no-card",
        "trick-not-a-list",
        "empty",
    ],
)
def test_jhyap_or_malformed_body_is_422(table, entry):
    bad_trick_table(table)
    # Use real player ids where the body names seat 0.
    text = json.dumps(entry).replace('"player": 0', f'"player": {table.players[ASHA]}')
    text = text.replace('"caller": 0', f'"caller": {table.players[ASHA]}')
    entry = json.loads(text)
    before = table.export_bytes()
    response = table.post_round(entry)
    assert response.status_code == 422, response.json
    assert response.json["error"]["code"].startswith("invalid_")
    response = table.client.put(f"{table.url}/rounds/2", json=entry, headers=table.auth)
    assert response.status_code == 422, response.json
    assert table.export_bytes() == before


def test_bad_correction_is_a_422_and_changes_nothing(table):
    bad_trick_table(table)
    before = table.export_bytes()
    # Round 1 with a joker, with a duplicate card, and with Asha missing; then round 2 with
    # 10S, which Asha kept in round 1, so nobody can play it in round 2.
    for plays in (
        [(BIKASH, "JK"), (CHANDRA, "2S"), (ASHA, "10S")],
        [(BIKASH, "2S"), (CHANDRA, "2S"), (ASHA, "10S")],
        [(BIKASH, "4H"), (CHANDRA, "2S")],
    ):
        response = table.client.put(
            f"{table.url}/rounds/1", json=table.trick_entry(plays), headers=table.auth
        )
        assert response.status_code == 422, response.json
    response = table.client.put(
        f"{table.url}/rounds/2",
        json=table.trick_entry([(BIKASH, "10S"), (CHANDRA, "AS"), (ASHA, "5H")]),
        headers=table.auth,
    )
    assert response.status_code == 422, response.json
    assert "Asha's" in response.json["error"]["message"]
    assert table.export_bytes() == before


# Correction, undo, export and import, retries ----------------------------------------


def test_correcting_round_one_replays_later_deal_sizes(table, client):
    """R1: B 5H, C AS, A 9D: Chandra +11; next C deals, A leads, 11 cards, pack 51.
    R2 (11 cards): A 4C, B 8H, C 2D: Bikash +8. Scores 0/8/11. Next B deals, C leads,
       8 cards, pack 50.

    Correct R1 to B 5H, C 3S, A 9D: now Asha takes 9D (+9); next A deals, B leads,
    9 cards, pack 51. R2 is scored again from its entry: dealt 9 cards by Asha, led by
    Bikash; Bikash still takes 8H. Scores 9/8/0. Next B deals, C leads, 8 cards, pack 50.
    """
    table.create(ruleset="twenty-two", dealer=0)
    table.trick((BIKASH, "5H"), (CHANDRA, "AS"), (ASHA, "9D"))
    round2 = table.trick((ASHA, "4C"), (BIKASH, "8H"), (CHANDRA, "2D"))
    assert round2["cards_each"] == 11
    assert round2["dealer"] == table.players[CHANDRA] and round2["starter"] == table.players[ASHA]
    assert table.scores() == [0, 8, 11]

    response = client.put(
        f"{table.url}/rounds/1",
        json=table.trick_entry([(BIKASH, "5H"), (CHANDRA, "3S"), (ASHA, "9D")]),
        headers=table.auth,
    )
    assert response.status_code == 200, response.json
    corrected = response.json
    assert corrected["number"] == 1
    assert corrected["takers"] == [table.players[ASHA]]
    assert [result["points"] for result in corrected["results"]] == [9, 0, 0]
    assert corrected["game"]["next_round"] == {
        "number": 2,
        "dealer": table.players[ASHA],
        "starter": table.players[BIKASH],
        "cards_each": 9,
        "pack": 51,
    }
    round2 = client.get(f"{table.url}/rounds/2").json
    assert round2["cards_each"] == 9
    assert round2["dealer"] == table.players[ASHA] and round2["starter"] == table.players[BIKASH]
    scores = [(r["score_before"], r["score_after"]) for r in round2["results"]]
    assert scores == [(9, 9), (0, 8), (0, 0)]
    state = table.get()
    assert [player["score"] for player in state["players"]] == [9, 8, 0]
    assert [player["pile"] for player in state["players"]] == [["9D"], ["8H"], []]
    assert state["next_round"] == {
        "number": 3,
        "dealer": table.players[BIKASH],
        "starter": table.players[CHANDRA],
        "cards_each": 8,
        "pack": 50,
    }
    # The export keeps the corrected entry.
    assert table.export()["rounds"][0]["entry"] == table.trick_entry(
        [(BIKASH, "5H"), (CHANDRA, "3S"), (ASHA, "9D")]
    )


def test_correction_that_breaks_a_later_round_is_409_and_changes_nothing(table, client):
    """elimination_limit 11. R1: A 9D takes (+9). R2: A 4C, B 8H, C 2D: B takes (+8).
    Correcting R1 so that Chandra takes AS (11, out) leaves R2 listing Chandra: 409."""
    table.create(ruleset="twenty-two", dealer=0, elimination_limit=11)
    table.trick((BIKASH, "5H"), (CHANDRA, "3S"), (ASHA, "9D"))
    table.trick((ASHA, "4C"), (BIKASH, "8H"), (CHANDRA, "2D"))
    before = table.export_bytes()
    response = client.put(
        f"{table.url}/rounds/1",
        json=table.trick_entry([(BIKASH, "5H"), (CHANDRA, "AS"), (ASHA, "9D")]),
        headers=table.auth,
    )
    assert response.status_code == 409, response.json
    message = response.json["error"]["message"]
    assert "2" in message and "Chandra" in message
    assert table.export_bytes() == before


def test_correction_that_makes_a_later_card_already_kept_is_409(table, client):
    """R1: C takes AS. R2: A 4C, B 8H, C 2D: B takes 8H. Correcting R1 so that Asha
    takes 4C makes R2's 4C a card already in Asha's pile: 409, nothing changes."""
    table.create(ruleset="twenty-two", dealer=0)
    table.trick((BIKASH, "2H"), (CHANDRA, "AS"), (ASHA, "3D"))
    table.trick((ASHA, "4C"), (BIKASH, "8H"), (CHANDRA, "2D"))
    before = table.export_bytes()
    response = client.put(
        f"{table.url}/rounds/1",
        json=table.trick_entry([(BIKASH, "2H"), (CHANDRA, "3S"), (ASHA, "4C")]),
        headers=table.auth,
    )
    assert response.status_code == 409, response.json
    assert "Asha" in response.json["error"]["message"]
    assert table.export_bytes() == before


def test_undo(table, client):
    bodies = play_scripted_game(table, "tied", rounds=2)
    after_one = client.get(f"{table.url}/rounds/1").json
    assert bodies[0] == after_one

    # Only the last round can be undone.
    response = client.delete(f"{table.url}/rounds/1", headers=table.auth)
    assert response.status_code == 409, response.json
    response = client.delete(f"{table.url}/rounds/3", headers=table.auth)
    assert response.status_code == 404, response.json

    response = client.delete(f"{table.url}/rounds/2", headers=table.auth)
    assert response.status_code == 204
    state = table.get()
    assert state["rounds_played"] == 1
    assert state["next_round"] == expected_next_round(table, 2, EXPECTED["tied"][0]["next"])
    assert [player["pile"] for player in state["players"]] == [[], [], ["AS"]]
    assert [player["score"] for player in state["players"]] == [0, 0, 11]
    assert client.get(f"{table.url}/rounds/2").status_code == 404

    # KH and KC are back in the pack: the same round records again.
    body = table.trick(*TRICKS[1])
    check_round(table, body, 2, EXPECTED["tied"][1])


def test_undo_reopens_a_finished_game(table, client):
    bodies = play_scripted_game(table, "tied")
    assert bodies[-1]["game"]["status"] == "finished"
    response = client.delete(f"{table.url}/rounds/6", headers=table.auth)
    assert response.status_code == 204
    state = table.get()
    assert state["status"] == "in_progress"
    assert state["winners"] == []
    assert state["next_round"] == expected_next_round(table, 6, EXPECTED["tied"][4]["next"])
    assert [player["eliminated_in_round"] for player in state["players"]] == [None, None, 5]
    assert [player["pile"] for player in state["players"]] == EXPECTED["tied"][4]["piles"]
    # Play a different last round: Asha 9H, Bikash 2C: Asha takes +9 = 29, out; Bikash,
    # the only one left, wins.
    body = table.trick((ASHA, "9H"), (BIKASH, "2C"))
    winners = [table.players[BIKASH]]
    assert body["game"] == {"status": "finished", "next_round": None, "winners": winners}


ID_KEYS = {"id", "player", "dealer", "starter", "caller", "takers", "winners"}
TIME_KEYS = {"created_at", "updated_at", "exported_at"}


def by_seat(value: Any, seat_of: dict[int, int], key: str | None = None) -> Any:
    """``value`` with player ids replaced by ``seat:N``, and the game id and times left out."""
    if key == "setup":  # holds seats already
        return value
    if isinstance(value, dict):
        return {
            k: by_seat(v, seat_of, k)
            for k, v in value.items()
            if k not in TIME_KEYS and not (k == "id" and isinstance(v, str))
        }
    if isinstance(value, list):
        return [by_seat(item, seat_of, key) for item in value]
    if key in ID_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return f"seat:{seat_of[value]}"
    return value


@pytest.mark.parametrize("tie_scores", ["tied", "all"])
@pytest.mark.parametrize("rounds", [3, 6])
def test_export_import_round_trip(table, client, tie_scores, rounds):
    play_scripted_game(table, tie_scores, rounds=rounds)
    document = table.export()
    assert document["format"] == "scorekeeper.game" and document["version"] == 1
    assert document["game"]["setup"] == {"dealer": 0, "starter": 1}
    assert "token" not in json.dumps(document)
    assert [item["number"] for item in document["rounds"]] == list(range(1, rounds + 1))
    first_entry = document["rounds"][0]["entry"]["last_trick"]
    assert [(play["player"], play["card"].upper()) for play in first_entry] == [
        (table.players[seat], card.upper()) for seat, card in TRICKS[0]
    ]
    old_seats = {player["id"]: player["seat"] for player in document["game"]["players"]}

    response = client.post("/api/v1/games/import", json=document)
    assert response.status_code == 201, response.json
    imported = response.json
    assert imported["id"] != document["game"]["id"]
    assert imported["token"] and imported["token"] != table.token
    assert response.headers["Location"].endswith(f"/api/v1/games/{imported['id']}")
    new_seats = {player["id"]: player["seat"] for player in imported["players"]}

    copy = client.get(f"/api/v1/games/{imported['id']}/export").json
    assert by_seat(copy, new_seats) == by_seat(document, old_seats)
    assert copy["game"]["next_round"] == (
        None
        if rounds == 6
        else {
            "number": rounds + 1,
            "dealer": imported["players"][EXPECTED[tie_scores][rounds - 1]["next"][0]]["id"],
            "starter": imported["players"][EXPECTED[tie_scores][rounds - 1]["next"][1]]["id"],
            "cards_each": EXPECTED[tie_scores][rounds - 1]["next"][2],
            "pack": EXPECTED[tie_scores][rounds - 1]["next"][3],
        }
    )
    piles = [player["pile"] for player in copy["game"]["players"]]
    assert piles == EXPECTED[tie_scores][rounds - 1]["piles"]


def test_import_refuses_a_changed_result(table, client):
    play_scripted_game(table, "tied", rounds=3)
    document = table.export()
    document["rounds"][1]["round"]["cards_each"] = 7  # was 11 (an ace was lost in R1)
    response = client.post("/api/v1/games/import", json=document)
    assert response.status_code == 422, response.json
    document = table.export()
    document["rounds"][2]["entry"]["last_trick"][1]["card"] = "KH"  # Asha kept KH in R2
    response = client.post("/api/v1/games/import", json=document)
    assert response.status_code == 422, response.json
    assert "Asha" in response.json["error"]["message"]


def test_idempotent_retry(table, client):
    table.create(ruleset="twenty-two", dealer=0)
    entry = {"number": 1, **table.trick_entry(TRICKS[0])}
    first = table.post_round(entry, **{"Idempotency-Key": "round-1-abc"})
    assert first.status_code == 201, first.json
    check_round(table, first.json, 1, EXPECTED["tied"][0])
    after_first = table.export_bytes()

    again = table.post_round(entry, **{"Idempotency-Key": "round-1-abc"})
    assert again.status_code == 201, again.json
    assert again.json == first.json
    assert again.headers["Location"] == first.headers["Location"]
    assert table.export_bytes() == after_first
    assert table.get()["rounds_played"] == 1

    # Same key, different body: 422, nothing recorded.
    other = {"number": 1, **table.trick_entry(TRICKS[1])}
    response = table.post_round(other, **{"Idempotency-Key": "round-1-abc"})
    assert response.status_code == 422, response.json
    assert table.export_bytes() == after_first

    # After round 2, a late resend of round 1 (its number now stale) still gets the first answer.
    table.trick(*TRICKS[1])
    after_second = table.export_bytes()
    late = table.post_round(entry, **{"Idempotency-Key": "round-1-abc"})
    assert late.status_code == 201, late.json
    assert late.json == first.json
    assert table.export_bytes() == after_second

    # A stale number without the key is a 409.
    response = table.post_round(entry)
    assert response.status_code == 409, response.json
    assert table.export_bytes() == after_second


# A long game: the score piles go back into the pack (rules.md, "Decision (an empty pack)").
#
# Two players, elimination_limit 1000, dealer Asha. Every round of a cycle of 50 rounds:
#   rounds 1-48  Bikash plays 2S, Asha one of the 48 cards from 3 up, highest first
#                (AS AH AD AC KS ... 3C): Asha takes each (+value); 2S goes back each time.
#                Asha loses, so she deals and Bikash leads. After round k the pack is 52 - k
#                and the deal is min(value of Asha's card, floor((52 - k) / 2)).
#   round 49     Bikash 2S, Asha 2H: a tie, both keep their card (+2 each); Asha played
#                last of the tied, so she deals. Pack 2: min(2, floor(2 / 2)) = 1 card each.
#   round 50     Bikash 2C, Asha 2D: a tie again, +2 each. Pack 0 cannot give 2 players a
#                card: both piles go back, the pack is 52 and the deal min(2, 26) = 2.
# A cycle gives Asha 44 (aces) + 160 (K Q J 10) + 36 + 32 + 28 + 24 + 20 + 16 + 12 (9 down
# to 3) + 2 + 2 = 376 and Bikash 2 + 2 = 4. After two cycles (round 100): 752 and 8.
# Cycle 3: aces and K Q J 10 (rounds 101-120) bring Asha to 752 + 204 = 956, the nines
# (121-124) to 992, and 8S in round 125 to 1000: out at the limit. Bikash wins on 8.
RANKS_HIGH_FIRST = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]
HIGH_FIRST = [f"{rank}{suit}" for rank in RANKS_HIGH_FIRST for suit in "SHDC"]
CYCLE = [
    *([(BIKASH, "2S"), (ASHA, card)] for card in HIGH_FIRST),
    [(BIKASH, "2S"), (ASHA, "2H")],
    [(BIKASH, "2C"), (ASHA, "2D")],
]


def test_long_two_player_game_gives_the_piles_back_and_plays_to_the_end(table, client):
    game = table.create(
        players=("Asha", "Bikash"), ruleset="twenty-two", dealer=ASHA, elimination_limit=1000
    )
    assert game["next_round"] == expected_next_round(table, 1, (ASHA, BIKASH, 7, 52))
    tricks = [*CYCLE, *CYCLE, *CYCLE[:25]]
    bodies = [table.trick(*trick) for trick in tricks[:50]]

    # Round 1: Asha takes AS (+11); pack 51; min(11, 25) = 11 cards.
    assert bodies[0]["game"]["next_round"] == expected_next_round(table, 2, (ASHA, BIKASH, 11, 51))
    # Round 48: Asha takes 3C; 372 points; pack 4; min(3, 2) = 2 cards.
    assert bodies[47]["results"][ASHA]["score_after"] == 372
    assert bodies[47]["game"]["next_round"] == expected_next_round(table, 49, (ASHA, BIKASH, 2, 4))
    # Round 49: dealt 2 each; the tie on twos: 374 and 2; pack 2, 1 card each.
    assert bodies[48]["cards_each"] == 2
    assert sorted(bodies[48]["takers"]) == table.players
    assert [r["score_after"] for r in bodies[48]["results"]] == [374, 2]
    assert bodies[48]["game"]["next_round"] == expected_next_round(table, 50, (ASHA, BIKASH, 1, 2))
    # Round 50, the exact round the piles go back: 376 and 4; pack 52; 2 cards each.
    assert bodies[49]["cards_each"] == 1
    assert [r["score_after"] for r in bodies[49]["results"]] == [376, 4]
    assert bodies[49]["game"]["next_round"] == expected_next_round(table, 51, (ASHA, BIKASH, 2, 52))
    state = table.get()
    assert [player["score"] for player in state["players"]] == [376, 4]
    assert [player["pile"] for player in state["players"]] == [[], []]
    assert state["next_round"] == expected_next_round(table, 51, (ASHA, BIKASH, 2, 52))

    # Undo round 50: the piles are as round 49 left them (Asha 49 cards, Bikash 2S).
    assert client.delete(f"{table.url}/rounds/50", headers=table.auth).status_code == 204
    piles = [player["pile"] for player in table.get()["players"]]
    assert piles == [[*HIGH_FIRST, "2H"], ["2S"]]
    # Played again, it scores as before; only its time is the new one's.
    again, before = table.trick(*tricks[49]), bodies[49]
    assert again.pop("created_at") >= before.pop("created_at")
    assert again == before

    # Round 51: AS, in Asha's pile until round 50, is played again: +11, 387; pack 51.
    body = table.trick(*tricks[50])
    assert body["results"][ASHA]["card"] == "AS"
    assert body["results"][ASHA]["score_after"] == 387
    assert body["game"]["next_round"] == expected_next_round(table, 52, (ASHA, BIKASH, 11, 51))
    assert [player["pile"] for player in table.get()["players"]] == [["AS"], []]

    for trick in tricks[51:100]:
        body = table.trick(*trick)
    # Round 100: the second time the piles go back. 752 and 8.
    assert body["number"] == 100
    assert [r["score_after"] for r in body["results"]] == [752, 8]
    assert body["game"]["next_round"] == expected_next_round(table, 101, (ASHA, BIKASH, 2, 52))

    for trick in tricks[100:]:
        body = table.trick(*trick)
    # Round 125: Asha takes 8S: 992 + 8 = 1000, out at the limit; Bikash wins.
    assert body["number"] == 125
    assert body["results"][ASHA] == {
        "player": table.players[ASHA], "card": "8S", "points": 8, "score_before": 992,
        "score_after": 1000, "halved": False, "eliminated": True,
    }  # fmt: skip
    assert body["game"] == {
        "status": "finished",
        "next_round": None,
        "winners": [table.players[BIKASH]],
    }
    state = table.get()
    assert [(p["score"], p["eliminated_in_round"]) for p in state["players"]] == [
        (1000, 125),
        (8, None),
    ]
    assert [player["pile"] for player in state["players"]] == [HIGH_FIRST[:25], []]

    # The export replays through both returns of the piles on import.
    response = client.post("/api/v1/games/import", json=table.export())
    assert response.status_code == 201, response.json
    imported = response.json
    assert [(p["score"], p["pile"]) for p in imported["players"]] == [
        (1000, HIGH_FIRST[:25]),
        (8, []),
    ]
    assert imported["winners"] == [imported["players"][BIKASH]["id"]]
