"""Scripted 4-player Jhyap games played through the HTTP API (api.md, rules.md "Jhyap").

Acceptance: a scripted game with a failed call, a tie with the caller under
both ``caller_tie`` values, a halving at 200 and at 100, an elimination and a
shared win gives the numbers worked out by hand below.

Every expected number is worked out by hand in the comments from rules.md;
none is computed by the test. Seats are 0 Asha (A), 1 Bikash (B),
2 Chandra (C), 3 Dipa (D). Rule numbers refer to the Jhyap section.
"""

from __future__ import annotations

from typing import Any

PLAYERS = ("Asha", "Bikash", "Chandra", "Dipa")
A, B, C, D = range(4)

Row = tuple[int, int | None, int, int, int, bool, bool]


def rows(table: Any, round_: dict[str, Any]) -> list[Row]:
    """The round's results by seat: (seat, hand, points, before, after, halved, eliminated)."""
    seat_of = {player_id: seat for seat, player_id in enumerate(table.players)}
    return [
        (
            seat_of[r["player"]],
            r["hand"],
            r["points"],
            r["score_before"],
            r["score_after"],
            r["halved"],
            r["eliminated"],
        )
        for r in round_["results"]
    ]


def check_round(
    table: Any,
    round_: dict[str, Any],
    *,
    number: int,
    dealer: int,
    starter: int,
    caller: int,
    succeeded: bool,
    results: list[Row],
    next_round: tuple[int, int, int] | None,
    winners: tuple[int, ...] = (),
) -> None:
    """Check a Round body against numbers worked out by hand (seats, not ids)."""
    ids = table.players
    assert round_["number"] == number
    assert round_["dealer"] == ids[dealer]
    assert round_["starter"] == ids[starter]
    assert round_["caller"] == ids[caller]
    assert round_["caller_succeeded"] is succeeded
    assert rows(table, round_) == results
    if next_round is None:
        expected_next = None
        status = "finished"
    else:
        number, next_dealer, next_starter = next_round
        expected_next = {"number": number, "dealer": ids[next_dealer], "starter": ids[next_starter]}
        status = "in_progress"
    assert round_["game"] == {
        "status": status,
        "next_round": expected_next,
        "winners": [ids[seat] for seat in winners],
    }


def standings(game: dict[str, Any]) -> list[tuple[int, bool, int | None]]:
    """(score, eliminated, eliminated_in_round) by seat."""
    return [(p["score"], p["eliminated"], p["eliminated_in_round"]) for p in game["players"]]


def test_default_options_game_with_failed_call_ties_halvings_and_elimination(table):
    """Defaults (call_limit 5, penalty 30, caller_wins, limit 200, halve_at [100, 200])."""
    game = table.create(players=PLAYERS, dealer=D, starter=B)
    assert game["options"] == {
        "call_limit": 5,
        "caller_penalty": 30,
        "caller_tie": "caller_wins",
        "elimination_limit": 200,
        "halve_at": [100, 200],
        "decks": 1,
        "next_starter": "lowest_hand",
    }
    ids = table.players
    assert game["next_round"] == {"number": 1, "dealer": ids[D], "starter": ids[B]}

    # Round 1: dealer D, starter B. B calls with 2; A 50 (as cards), C 50, D 46.
    # Lowest other hand 46 >= 2: the call succeeds, B scores 0.
    # Scores 0,0,0,0 -> A 50, B 0, C 50, D 46. No halving (none is 100 or 200).
    # Next dealer: the seat after D (3) is A (0). Next starter: lowest hand, B (2).
    round_ = table.jhyap(B, ["kh", "Q♥", "JH", "TH", "10S"], 2, 50, 46)
    check_round(
        table, round_, number=1, dealer=D, starter=B, caller=B, succeeded=True,
        results=[
            (A, 50, 50, 0, 50, False, False),
            (B, 2, 0, 0, 0, False, False),
            (C, 50, 50, 0, 50, False, False),
            (D, 46, 46, 0, 46, False, False),
        ],
        next_round=(2, A, B),
    )  # fmt: skip
    assert round_["results"][A]["cards"] == ["KH", "QH", "JH", "10H", "10S"]
    assert round_["results"][B]["cards"] is None

    # Round 2: dealer A, starter B. B calls with 1; A 45, C 50, D 50: success.
    # A 50+45 = 95; B 0; C 50+50 = 100 -> halved to 50 (halving at 100); D 46+50 = 96.
    # Next dealer B (1); next starter B (hand 1, the lowest).
    round_ = table.jhyap(B, 45, 1, 50, 50)
    check_round(
        table, round_, number=2, dealer=A, starter=B, caller=B, succeeded=True,
        results=[
            (A, 45, 45, 50, 95, False, False),
            (B, 1, 0, 0, 0, False, False),
            (C, 50, 50, 50, 50, True, False),
            (D, 50, 50, 46, 96, False, False),
        ],
        next_round=(3, B, B),
    )  # fmt: skip

    # Round 3: dealer B, starter B. B calls with 3; C also has 3 (the lowest other hand):
    # a tie with the caller, and caller_wins gives it to the caller, so B scores 0.
    # A 95+50 = 145; B 0; C 50+3 = 53; D 96+50 = 146.
    # Next dealer C (2). Next starter: B and C tie on 3; clockwise from the seat after
    # this round's dealer B, i.e. from C (2): C comes first, so C starts (not B, seat 1).
    round_ = table.jhyap(B, 50, 3, 3, 50)
    check_round(
        table, round_, number=3, dealer=B, starter=B, caller=B, succeeded=True,
        results=[
            (A, 50, 50, 95, 145, False, False),
            (B, 3, 0, 0, 0, False, False),
            (C, 3, 3, 50, 53, False, False),
            (D, 50, 50, 96, 146, False, False),
        ],
        next_round=(4, C, C),
    )  # fmt: skip

    # Round 4: dealer C, starter C. B calls holding only a joker (total 0); A 50, C 20, D 50.
    # A 145+50 = 195; B 0; C 53+20 = 73; D 146+50 = 196.
    # Next dealer D (3); next starter B (hand 0).
    round_ = table.jhyap(B, 50, ["JOKER"], 20, 50)
    check_round(
        table, round_, number=4, dealer=C, starter=C, caller=B, succeeded=True,
        results=[
            (A, 50, 50, 145, 195, False, False),
            (B, 0, 0, 0, 0, False, False),
            (C, 20, 20, 53, 73, False, False),
            (D, 50, 50, 146, 196, False, False),
        ],
        next_round=(5, D, B),
    )  # fmt: skip
    assert round_["results"][B]["cards"] == ["JK"]

    # Round 5: dealer D, starter B. B calls with 5; D has 4, strictly lower: the call FAILS.
    # B scores caller_penalty 30 + 5 = 35. A 10, C 30, D 4.
    # A 195+10 = 205 > 200: eliminated. B 0+35 = 35. C 73+30 = 103 (not a halving score).
    # D 196+4 = 200 -> halved to 100, once only (100 is not halved again this round).
    # Next dealer: the seat after D (3) is A (0), eliminated, so it skips to B (1).
    # Next starter: lowest hand among players still active (B 5, C 30, D 4): D.
    round_ = table.jhyap(B, 10, 5, 30, 4)
    check_round(
        table, round_, number=5, dealer=D, starter=B, caller=B, succeeded=False,
        results=[
            (A, 10, 10, 195, 205, False, True),
            (B, 5, 35, 0, 35, False, False),
            (C, 30, 30, 73, 103, False, False),
            (D, 4, 4, 196, 100, True, False),
        ],
        next_round=(6, B, D),
    )  # fmt: skip

    # An eliminated player takes no part: a hand for A is refused and changes nothing.
    refused = table.post_round(table.jhyap_entry(D, [7, 2, 40, 2]))
    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["code"] == "invalid_round"
    assert "Asha" in refused.json["error"]["message"]
    assert table.get()["rounds_played"] == 5

    # Round 6: dealer B, starter D; A is out (no hand). D calls with 2; B also has 2:
    # a tie, the caller wins, D scores 0. C 40.
    # B 35+2 = 37; C 103+40 = 143; D 100+0 = 100, still exactly 100 at the end of
    # the round -> halved to 50 (the check covers a player who scored 0).
    # Next dealer C (2). Next starter: B and D tie on 2; clockwise from the seat after
    # dealer B, i.e. C (40), then D (2): D starts, although B has the lower seat.
    round_ = table.jhyap(D, None, 2, 40, 2)
    check_round(
        table, round_, number=6, dealer=B, starter=D, caller=D, succeeded=True,
        results=[
            (B, 2, 2, 35, 37, False, False),
            (C, 40, 40, 103, 143, False, False),
            (D, 2, 0, 100, 50, True, False),
        ],
        next_round=(7, C, D),
    )  # fmt: skip

    game = table.get()
    assert game["status"] == "in_progress"
    assert game["rounds_played"] == 6
    assert game["next_round"] == {"number": 7, "dealer": ids[C], "starter": ids[D]}
    assert game["winners"] == []
    # (score, eliminated, eliminated_in_round) by seat: A frozen at 205, out in round 5.
    assert standings(game) == [
        (205, True, 5),
        (37, False, None),
        (143, False, None),
        (50, False, None),
    ]

    # The rounds list gives every round in order, as each was answered.
    listed = table.client.get(f"{table.url}/rounds").json["rounds"]
    assert [r["number"] for r in listed] == [1, 2, 3, 4, 5, 6]
    assert listed[-1] == round_
    # An old round keeps the standing as it was right after it.
    old = table.client.get(f"{table.url}/rounds/2").json
    assert old["game"]["next_round"] == {"number": 3, "dealer": ids[B], "starter": ids[B]}


def test_caller_loses_game_to_a_shared_win(table):
    """Small options so the game ends quickly; caller_loses turns every tie against the caller."""
    game = table.create(
        players=PLAYERS,
        dealer=A,
        starter=B,
        caller_tie="caller_loses",
        caller_penalty=10,
        elimination_limit=50,
        halve_at=[20, 40],
    )
    ids = table.players
    assert game["options"] == {
        "call_limit": 5,
        "caller_penalty": 10,
        "caller_tie": "caller_loses",
        "elimination_limit": 50,
        "halve_at": [20, 40],
        "decks": 1,
        "next_starter": "lowest_hand",
    }

    # Round 1: dealer A, starter B. C calls with 3; B also has 3: a tie, and under
    # caller_loses an equal hand beats the caller: the call FAILS, C scores 10 + 3 = 13.
    # A 47; B 3; C 13; D 20 -> halved to 10 (halve_at 20).
    # Next dealer B. Next starter: B and C tie on 3; clockwise from the seat after dealer
    # A, i.e. from B (1): B starts.
    round_ = table.jhyap(C, 47, 3, 3, 20)
    check_round(
        table, round_, number=1, dealer=A, starter=B, caller=C, succeeded=False,
        results=[
            (A, 47, 47, 0, 47, False, False),
            (B, 3, 3, 0, 3, False, False),
            (C, 3, 13, 0, 13, False, False),
            (D, 20, 20, 0, 10, True, False),
        ],
        next_round=(2, B, B),
    )  # fmt: skip

    # Round 2: dealer B, starter B. D calls with 5; A has 4 (lower): the call fails,
    # D scores 10 + 5 = 15. A 47+4 = 51 > 50: eliminated. B 3+45 = 48. C 13+17 = 30.
    # D 10+15 = 25.
    # Next dealer C. Next starter: A had the lowest hand (4) but is eliminated, so the
    # lowest among the active players: D (5).
    round_ = table.jhyap(D, 4, 45, 17, 5)
    check_round(
        table, round_, number=2, dealer=B, starter=B, caller=D, succeeded=False,
        results=[
            (A, 4, 4, 47, 51, False, True),
            (B, 45, 45, 3, 48, False, False),
            (C, 17, 17, 13, 30, False, False),
            (D, 5, 15, 10, 25, False, False),
        ],
        next_round=(3, C, D),
    )  # fmt: skip

    # Round 3: dealer C, starter D; A is out. B calls with 1; C 6, D 13: both strictly
    # higher, the call succeeds. B 48; C 30+6 = 36; D 25+13 = 38.
    # Next dealer D (3). Next starter B (1).
    round_ = table.jhyap(B, None, 1, 6, 13)
    check_round(
        table, round_, number=3, dealer=C, starter=D, caller=B, succeeded=True,
        results=[
            (B, 1, 0, 48, 48, False, False),
            (C, 6, 6, 30, 36, False, False),
            (D, 13, 13, 25, 38, False, False),
        ],
        next_round=(4, D, B),
    )  # fmt: skip

    # Round 4: dealer D, starter B. D calls with 4; B also has 4: a tie, the caller
    # loses; D scores 10 + 4 = 14. C 20.
    # B 48+4 = 52; C 36+20 = 56; D 38+14 = 52. All three still active players go over
    # 50: all eliminated. The lowest total among them, 52, is shared by B and D: a shared
    # win (A, out in round 2, does not contend). The game is finished, no next round.
    round_ = table.jhyap(D, None, 4, 20, 4)
    check_round(
        table, round_, number=4, dealer=D, starter=B, caller=D, succeeded=False,
        results=[
            (B, 4, 4, 48, 52, False, True),
            (C, 20, 20, 36, 56, False, True),
            (D, 4, 14, 38, 52, False, True),
        ],
        next_round=None,
        winners=(B, D),
    )  # fmt: skip

    game = table.get()
    assert game["status"] == "finished"
    assert game["next_round"] is None
    assert game["winners"] == [ids[B], ids[D]]
    assert game["rounds_played"] == 4
    assert standings(game) == [(51, True, 2), (52, True, 4), (56, True, 4), (52, True, 4)]

    # Recording on a finished game is a 409 and changes nothing.
    before = table.export_bytes()
    refused = table.post_round(table.jhyap_entry(B, [None, 1, 2, 3]))
    assert refused.status_code == 409, refused.json
    assert refused.json["error"]["code"] == "conflict"
    assert refused.json["error"]["status"] == 409
    assert table.export_bytes() == before


def test_last_active_player_wins_and_the_deal_skips_the_eliminated(table):
    """Three players, elimination_limit 10 and no halving: a single winner."""
    table.create(players=PLAYERS[:3], dealer=A, starter=B, elimination_limit=10, halve_at=[])
    ids = table.players

    # Round 1: dealer A, starter B. C calls with 1; A 4, B 11: success, C scores 0.
    # A 4; B 11 > 10: eliminated; C 0.
    # Next dealer: the seat after A is B, eliminated, so C. Next starter: C (hand 1),
    # the lowest among the players still active.
    round_ = table.jhyap(C, 4, 11, 1)
    check_round(
        table, round_, number=1, dealer=A, starter=B, caller=C, succeeded=True,
        results=[
            (A, 4, 4, 0, 4, False, False),
            (B, 11, 11, 0, 11, False, True),
            (C, 1, 0, 0, 0, False, False),
        ],
        next_round=(2, C, C),
    )  # fmt: skip

    # Round 2: dealer C, starter C. A calls with 2; C 7: success. A 4; C 0+7 = 7.
    # Next dealer: after C (2) comes A (0). Next starter A (hand 2).
    round_ = table.jhyap(A, 2, None, 7)
    check_round(
        table, round_, number=2, dealer=C, starter=C, caller=A, succeeded=True,
        results=[
            (A, 2, 0, 4, 4, False, False),
            (C, 7, 7, 0, 7, False, False),
        ],
        next_round=(3, A, A),
    )  # fmt: skip

    # Round 3: dealer A, starter A. C calls with 3; A 7: success. A 4+7 = 11 > 10:
    # eliminated; C 7. Only C is left active: C wins alone, the game is finished.
    round_ = table.jhyap(C, 7, None, 3)
    check_round(
        table, round_, number=3, dealer=A, starter=A, caller=C, succeeded=True,
        results=[
            (A, 7, 7, 4, 11, False, True),
            (C, 3, 0, 7, 7, False, False),
        ],
        next_round=None,
        winners=(C,),
    )  # fmt: skip

    game = table.get()
    assert game["status"] == "finished"
    assert game["next_round"] is None
    assert game["winners"] == [ids[C]]
    assert standings(game) == [(11, True, 3), (11, True, 1), (7, False, None)]

    refused = table.post_round({"number": 4, **table.jhyap_entry(C, [None, None, 0])})
    assert refused.status_code == 409, refused.json
    assert refused.json["error"]["code"] == "conflict"
    assert table.get()["rounds_played"] == 3


def test_round_winner_starts_under_next_starter_round_winner(table):
    """Option next_starter "round_winner" (rule 7's decision): the caller after a successful
    call, else the catcher with the lowest hand (ties: first clockwise from the caller's
    left); a catcher who goes out hands the start to the next active seat after the caller.
    Limit 60, no halving. The comments give the default (lowest_hand) starter where it differs.
    """
    game = table.create(
        players=PLAYERS, dealer=D, starter=A, next_starter="round_winner",
        elimination_limit=60, halve_at=[],
    )  # fmt: skip
    assert game["options"]["next_starter"] == "round_winner"
    ids = table.players
    assert game["next_round"] == {"number": 1, "dealer": ids[D], "starter": ids[A]}

    # Round 1: dealer D, starter A. B calls 3; A ties with 3 (the tie goes to the caller),
    # C 25, D 9: success. Scores A 3, B 0, C 25, D 9. Next dealer A (after D).
    # Next starter: the caller B. (lowest_hand: A and B tie on 3 and from the dealer's
    # left, A, comes first: A.)
    round_ = table.jhyap(B, 3, 3, 25, 9)
    check_round(
        table, round_, number=1, dealer=D, starter=A, caller=B, succeeded=True,
        results=[
            (A, 3, 3, 0, 3, False, False),
            (B, 3, 0, 0, 0, False, False),
            (C, 25, 25, 0, 25, False, False),
            (D, 9, 9, 0, 9, False, False),
        ],
        next_round=(2, A, B),
    )  # fmt: skip

    # Round 2: dealer A, starter B. C calls 5; A 9, B 2, D 2: B and D catch him, C scores
    # 30 + 5: 25 + 35 = 60, not above 60. A 12, B 2, D 11. Next dealer B.
    # Next starter: B and D tie on 2; from the caller's left (D, then A, then B): D.
    # (lowest_hand counts from the dealer's left, B: B.)
    round_ = table.jhyap(C, 9, 2, 5, 2)
    check_round(
        table, round_, number=2, dealer=A, starter=B, caller=C, succeeded=False,
        results=[
            (A, 9, 9, 3, 12, False, False),
            (B, 2, 2, 0, 2, False, False),
            (C, 5, 35, 25, 60, False, False),
            (D, 2, 2, 9, 11, False, False),
        ],
        next_round=(3, B, D),
    )  # fmt: skip

    # Round 3: dealer B, starter D. D calls 4; A 7, B 30, C 1: C catches her, D scores
    # 34: 11 + 34 = 45. C 60 + 1 = 61 > 60: eliminated. A 19, B 32.
    # Next dealer: after B comes C (out), so D. Next starter: the catcher C is out, so the
    # next active seat clockwise after the caller D: A. (lowest_hand: D's 4, the lowest
    # active hand.)
    round_ = table.jhyap(D, 7, 30, 1, 4)
    check_round(
        table, round_, number=3, dealer=B, starter=D, caller=D, succeeded=False,
        results=[
            (A, 7, 7, 12, 19, False, False),
            (B, 30, 30, 2, 32, False, False),
            (C, 1, 1, 60, 61, False, True),
            (D, 4, 34, 11, 45, False, False),
        ],
        next_round=(4, D, A),
    )  # fmt: skip

    # Round 4: dealer D, starter A; C is out. B calls 3; A 20, D 2: D catches him, B scores
    # 33: 32 + 33 = 65 > 60, eliminated. A 39, D 47. Next dealer: after D comes A.
    # Next starter: the catcher D (still active).
    round_ = table.jhyap(B, 20, 3, None, 2)
    check_round(
        table, round_, number=4, dealer=D, starter=A, caller=B, succeeded=False,
        results=[
            (A, 20, 20, 19, 39, False, False),
            (B, 3, 33, 32, 65, False, True),
            (D, 2, 2, 45, 47, False, False),
        ],
        next_round=(5, A, D),
    )  # fmt: skip

    # Round 5: dealer A, starter D. A calls 1; D 30: success. A 39; D 77 > 60: out.
    # A is the last active player and wins.
    round_ = table.jhyap(A, 1, None, None, 30)
    check_round(
        table, round_, number=5, dealer=A, starter=D, caller=A, succeeded=True,
        results=[
            (A, 1, 0, 39, 39, False, False),
            (D, 30, 30, 47, 77, False, True),
        ],
        next_round=None,
        winners=(A,),
    )  # fmt: skip
    assert standings(table.get()) == [(39, False, None), (65, True, 4), (61, True, 3),
                                      (77, True, 5)]  # fmt: skip
