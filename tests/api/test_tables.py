"""Tables: a roster, games at the table, standings over them, rematches, export and import."""

from __future__ import annotations

from typing import Any

import pytest

from ..conftest import counted_statements, row_counts

TABLES = "/api/v1/tables"
SHORT_JHYAP = {"elimination_limit": 20, "halve_at": []}


class Friends:
    """A table of friends, driven through the API as their phones would."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.table: dict[str, Any] = {}
        self.token = ""

    @property
    def url(self) -> str:
        return f"{TABLES}/{self.table['id']}"

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def create(self, name: str = "Friday crew", players: tuple[str, ...] = ()) -> dict[str, Any]:
        response = self.client.post(TABLES, json={"name": name, "players": list(players)})
        assert response.status_code == 201, response.json
        assert response.headers["Location"] == f"{TABLES}/{response.json['id']}"
        self.table = response.json
        self.token = self.table.pop("token")
        return self.table

    def roster_id(self, name: str) -> int:
        return next(p["id"] for p in self.get()["players"] if p["name"] == name)

    def get(self) -> dict[str, Any]:
        response = self.client.get(self.url)
        assert response.status_code == 200, response.json
        return response.json

    def new_game(self, players: list[int | str], ruleset: str = "jhyap", **extra: Any) -> Any:
        body = {"ruleset": ruleset, "players": players, "dealer": 0, **extra}
        if ruleset == "jhyap":
            body.setdefault("starter", 1)
        response = self.client.post(f"{self.url}/games", json=body, headers=self.auth)
        assert response.status_code == 201, response.json
        return response.json

    def play(self, game: dict[str, Any], entry: dict[str, Any], token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        response = self.client.post(
            f"/api/v1/games/{game['id']}/rounds", json=entry, headers=headers
        )
        assert response.status_code == 201, response.json
        return response.json

    def standings(self) -> list[dict[str, Any]]:
        return self.get()["standings"]


def hands(game: dict[str, Any], caller: int, *totals: int) -> dict[str, Any]:
    """A Jhyap entry by seat: ``caller`` is a seat, ``totals`` the hands of the seats listed."""
    ids = [player["id"] for player in game["players"]]
    listed = [(seat, total) for seat, total in enumerate(totals) if total is not None]
    return {
        "caller": ids[caller],
        "hands": [{"player": ids[seat], "total": total} for seat, total in listed],
    }


def trick(game: dict[str, Any], *plays: tuple[int, str]) -> dict[str, Any]:
    ids = [player["id"] for player in game["players"]]
    return {"last_trick": [{"player": ids[seat], "card": card} for seat, card in plays]}


@pytest.fixture
def friends(client):
    return Friends(client)


def play_the_evening(friends: Friends) -> dict[str, Any]:
    """Two Jhyap games and a Twenty Two game, worked out by hand below."""
    friends.create(players=("Asha", "Bikash", "Chandra"))
    asha, bikash, chandra = (friends.roster_id(n) for n in ("Asha", "Bikash", "Chandra"))
    first = friends.new_game([asha, bikash, chandra], options=SHORT_JHYAP)
    # Asha calls on 2: Chandra goes out on 25; then Asha calls on 1 and Bikash goes out on 25.
    friends.play(first, hands(first, 0, 2, 15, 25))
    friends.play(first, hands(first, 0, 1, 10, None))
    second = friends.client.post(f"/api/v1/games/{first['id']}/rematch", headers=friends.auth).json
    # Bikash calls on 3 and is caught by Asha's 2: 30 + 3 puts him out; Chandra calls on 0 and
    # Asha's 19 takes her to 21, out: Chandra wins.
    friends.play(second, hands(second, 1, 2, 3, 9))
    friends.play(second, hands(second, 2, 19, None, 0))
    third = friends.new_game([asha, "Dev"], ruleset="twenty-two")
    # Asha takes two final tricks with aces, 22 points: out, and Dev wins.
    friends.play(third, trick(third, (1, "2H"), (0, "AS")))
    friends.play(third, trick(third, (1, "3C"), (0, "AH")))
    return {"first": first, "second": second, "third": third}


def test_a_table_is_created_with_its_roster_and_read_with_an_etag(client, friends):
    table = friends.create(players=("Asha", "Bikash"))
    assert [p["name"] for p in table["players"]] == ["Asha", "Bikash"]
    assert table["games"] == [] and table["standings"] == []
    response = client.get(friends.url)
    assert response.headers["Cache-Control"] == "no-cache"
    etag = response.headers["ETag"]
    assert client.get(friends.url, headers={"If-None-Match": etag}).status_code == 304


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["Asha"]}, "name"),
        ({"name": "", "players": []}, "name"),
        ({"name": "Crew", "players": ["Asha", "asha"]}, "players"),
        ({"name": "Crew", "players": [f"P{n}" for n in range(51)]}, "players"),
        ({"name": "Crew", "players": [3]}, "players"),
        ({"name": "Crew", "colour": "red"}, "colour"),
    ],
)
def test_a_bad_table_is_refused_and_creates_nothing(client, body, field):
    response = client.post(TABLES, json=body)
    assert response.status_code == 422
    assert field in response.json["error"]["details"]


def test_an_unknown_table_is_404(client):
    assert client.get(f"{TABLES}/{'x' * 22}").status_code == 404


def test_the_roster_is_renamed_and_grows_and_only_the_table_token_may_change_it(client, friends):
    friends.create(players=("Asha", "Bikash"))
    asha = friends.roster_id("Asha")
    change = {"name": "Saturday crew", "players": [{"id": asha, "name": "Asha D."}]}
    assert client.patch(friends.url, json=change).status_code == 401
    wrong = {"Authorization": f"Bearer {'x' * 32}"}
    assert client.patch(friends.url, json=change, headers=wrong).status_code == 403
    game = friends.new_game([asha, friends.roster_id("Bikash")])
    game_token = {"Authorization": f"Bearer {game['token']}"}
    assert client.patch(friends.url, json=change, headers=game_token).status_code == 403
    assert client.delete(friends.url, headers=game_token).status_code == 403

    response = client.patch(
        friends.url, json={**change, "add_players": ["Dev"]}, headers=friends.auth
    )
    assert response.status_code == 200, response.json
    assert response.json["name"] == "Saturday crew"
    assert [p["name"] for p in response.json["players"]] == ["Asha D.", "Bikash", "Dev"]
    # The finished or running game keeps the names it was played with.
    assert client.get(f"/api/v1/games/{game['id']}").json["players"][0]["name"] == "Asha"

    clash = client.patch(friends.url, json={"add_players": ["dev"]}, headers=friends.auth)
    assert clash.status_code == 422
    etag = client.get(friends.url).headers["ETag"]
    same = client.patch(friends.url, json={"name": "Saturday crew"}, headers=friends.auth)
    assert same.status_code == 200
    assert client.get(friends.url).headers["ETag"] == etag


def test_a_game_at_the_table_seats_roster_players_and_new_names(client, friends):
    friends.create(players=("Asha", "Bikash"))
    asha = friends.roster_id("Asha")
    game = friends.new_game([asha, "Chandra", "bikash"])
    roster = {p["name"]: p["id"] for p in friends.get()["players"]}
    assert set(roster) == {"Asha", "Bikash", "Chandra"}  # "bikash" is Bikash
    assert game["table"] == friends.table["id"]
    assert [p["roster_id"] for p in game["players"]] == [
        roster["Asha"],
        roster["Chandra"],
        roster["Bikash"],
    ]
    assert [p["name"] for p in game["players"]] == ["Asha", "Chandra", "Bikash"]
    listed = friends.get()["games"]
    assert listed[0]["id"] == game["id"]
    assert listed[0]["players"] == [roster["Asha"], roster["Chandra"], roster["Bikash"]]
    assert listed[0]["status"] == "in_progress" and listed[0]["winners"] == []


@pytest.mark.parametrize("players", [[999], ["Asha", "Asha"], [1.5]])
def test_a_game_that_the_roster_cannot_seat_is_refused(client, friends, players):
    friends.create(players=("Asha", "Bikash"))
    before = friends.get()
    seats = [friends.roster_id("Bikash"), *players]
    response = client.post(
        f"{friends.url}/games",
        json={"ruleset": "jhyap", "players": seats},
        headers=friends.auth,
    )
    assert response.status_code == 422, response.json
    assert friends.get() == before


def test_the_table_token_writes_to_its_games_but_a_game_token_only_to_its_own(client, friends):
    friends.create(players=("Asha", "Bikash"))
    ids = [friends.roster_id("Asha"), friends.roster_id("Bikash")]
    first, second = friends.new_game(ids), friends.new_game(ids)
    friends.play(first, hands(first, 0, 1, 9))  # the table's token
    friends.play(first, hands(first, 0, 1, 9), token=first["token"])
    refused = client.post(
        f"/api/v1/games/{second['id']}/rounds",
        json=hands(second, 0, 1, 9),
        headers={"Authorization": f"Bearer {first['token']}"},
    )
    assert refused.status_code == 403


def test_standings_are_the_figures_worked_out_by_hand(friends):
    play_the_evening(friends)
    standings = friends.standings()
    # One win each for Dev, Asha and Chandra: then the better average place goes first.
    assert [row["name"] for row in standings] == ["Dev", "Asha", "Chandra", "Bikash"]
    by_name = {row["name"]: row for row in standings}
    # Places: game 1 Asha 1, Bikash 2 (out in round 2), Chandra 3 (out in round 1); game 2
    # Chandra 1, Asha 2 (out in round 2), Bikash 3; game 3 Dev 1, Asha 2.
    played_won_place = {
        name: (r["games_played"], r["games_won"], r["average_place"]) for name, r in by_name.items()
    }
    assert played_won_place == {
        "Dev": (1, 1, 1.0),
        "Chandra": (2, 1, 2.0),
        "Asha": (3, 1, 1.67),
        "Bikash": (2, 0, 2.5),
    }
    assert by_name["Asha"]["jhyap"] == {
        "games_played": 2,
        "rounds_played": 4,
        "calls": 2,
        "calls_won": 2,
        "caught": 0,
        "halvings": 0,
        "eliminations": 1,
        "average_hand": 6.0,
    }
    assert by_name["Bikash"]["jhyap"] == {
        "games_played": 2,
        "rounds_played": 3,
        "calls": 1,
        "calls_won": 0,
        "caught": 1,
        "halvings": 0,
        "eliminations": 2,
        "average_hand": 9.33,
    }
    assert by_name["Chandra"]["jhyap"]["average_hand"] == 11.33
    assert by_name["Asha"]["twenty-two"] == {
        "games_played": 1,
        "rounds_played": 2,
        "tricks_taken": 2,
        "points_taken": 22,
        "eliminations": 1,
    }
    assert "jhyap" not in by_name["Dev"] and "twenty-two" not in by_name["Chandra"]
    games = friends.get()["games"]
    assert [game["status"] for game in games] == ["finished"] * 3
    assert games[0]["winners"] == [by_name["Dev"]["player"]]


def test_standings_follow_undos_corrections_and_deleted_games(client, friends):
    games = play_the_evening(friends)
    third, second = games["third"], games["second"]
    etag = client.get(friends.url).headers["ETag"]
    undone = client.delete(f"/api/v1/games/{third['id']}/rounds/2", headers=friends.auth)
    assert undone.status_code == 204
    assert client.get(friends.url, headers={"If-None-Match": etag}).status_code == 200
    by_name = {row["name"]: row for row in friends.standings()}
    assert (by_name["Dev"]["games_won"], by_name["Asha"]["twenty-two"]["points_taken"]) == (0, 11)
    assert friends.get()["games"][0]["status"] == "in_progress"

    # Round 1 of the second game again: Chandra held 12, not 9.
    corrected = client.put(
        f"/api/v1/games/{second['id']}/rounds/1",
        json=hands(second, 1, 2, 3, 12),
        headers=friends.auth,
    )
    assert corrected.status_code == 200, corrected.json
    chandra = {row["name"]: row for row in friends.standings()}["Chandra"]["jhyap"]
    assert chandra["average_hand"] == 12.33  # (25 + 12 + 0) / 3

    assert client.delete(f"/api/v1/games/{second['id']}", headers=friends.auth).status_code == 204
    by_name = {row["name"]: row for row in friends.standings()}
    assert by_name["Chandra"]["games_played"] == 1 and by_name["Chandra"]["games_won"] == 0


def test_standings_count_finished_games_and_rank_by_wins_then_average_place(client, friends):
    """A game still being played counts its rounds, but neither a game played nor a place."""
    friends.create(players=("Asha", "Bikash", "Chandra", "Dev"))
    asha, bikash, chandra, dev = (
        friends.roster_id(n) for n in ("Asha", "Bikash", "Chandra", "Dev")
    )
    first = friends.new_game([asha, bikash, chandra], options=SHORT_JHYAP)
    friends.play(first, hands(first, 0, 2, 15, 25))  # Chandra out in round 1
    friends.play(first, hands(first, 0, 1, 10, None))  # Bikash out in round 2: Asha wins
    second = friends.new_game([bikash, dev], options=SHORT_JHYAP)
    friends.play(second, hands(second, 1, 25, 2))  # Bikash out: Dev wins
    running = friends.new_game([chandra, dev, asha], options=SHORT_JHYAP)
    friends.play(running, hands(running, 0, 1, 5, 6))  # still being played
    before = friends.get()

    standings = friends.standings()
    rows = {
        row["name"]: (row["games_won"], row["average_place"], row["games_played"])
        for row in standings
    }
    assert rows == {
        "Asha": (1, 1.0, 1),
        "Dev": (1, 1.0, 1),
        "Bikash": (0, 2.0, 2),
        "Chandra": (0, 3.0, 1),
    }
    assert [row["name"] for row in standings] == ["Asha", "Dev", "Bikash", "Chandra"]
    # The running game's round counts in the figures, not in the games played.
    by_name = {row["name"]: row for row in standings}
    assert by_name["Chandra"]["jhyap"]["rounds_played"] == 2
    assert by_name["Chandra"]["jhyap"]["games_played"] == 1
    assert friends.get() == before  # reading changes nothing

    # The third game ends: Chandra wins; Dev (30) and Asha (31) go out in the same round, the
    # lower total placed first.
    friends.play(running, hands(running, 0, 1, 25, 25))
    standings = friends.standings()
    rows = {
        row["name"]: (row["games_won"], row["average_place"], row["games_played"])
        for row in standings
    }
    assert rows == {
        "Dev": (1, 1.5, 2),
        "Asha": (1, 2.0, 2),
        "Chandra": (1, 2.0, 2),
        "Bikash": (0, 2.0, 2),
    }
    assert [row["name"] for row in standings] == ["Dev", "Asha", "Chandra", "Bikash"]


def test_equal_wins_and_places_go_to_more_games_played_and_no_finished_game_ranks_last(friends):
    names = ("Asha", "Bikash", "Chandra", "Dev", "Esha", "Farid")
    friends.create(players=names)
    asha, bikash, chandra, dev, esha, farid = (friends.roster_id(n) for n in names)
    for winner, loser in [(asha, chandra), (dev, chandra), (esha, bikash)]:
        game = friends.new_game([winner, loser], options=SHORT_JHYAP)
        friends.play(game, hands(game, 0, 1, 25))  # the loser is out: the winner wins
    running = friends.new_game([farid, asha], options=SHORT_JHYAP)
    friends.play(running, hands(running, 0, 1, 5))
    standings = friends.standings()
    assert [
        (r["name"], r["games_won"], r["average_place"], r["games_played"]) for r in standings
    ] == [
        ("Asha", 1, 1.0, 1),
        ("Dev", 1, 1.0, 1),
        ("Esha", 1, 1.0, 1),
        ("Chandra", 0, 2.0, 2),  # two games lost before Bikash's one, whatever the names
        ("Bikash", 0, 2.0, 1),
        ("Farid", 0, None, 0),  # played a round, finished no game
    ]


def test_a_rematch_keeps_players_seats_options_and_table_and_moves_the_deal_on(client, friends):
    games = play_the_evening(friends)
    first, second = games["first"], games["second"]
    assert second["table"] == first["table"] == friends.table["id"]
    assert [p["roster_id"] for p in second["players"]] == [p["roster_id"] for p in first["players"]]
    assert [p["name"] for p in second["players"]] == ["Asha", "Bikash", "Chandra"]
    assert second["options"] == first["options"]
    # The first game's first dealer was Asha (seat 0): Bikash deals round 1 of the rematch.
    assert second["next_round"]["dealer"] == second["players"][1]["id"]
    assert "token" in second


def test_a_loose_game_is_rematched_loose_with_its_own_token(client, table):
    table.create(dealer=2)
    response = client.post(f"{table.url}/rematch", headers=table.auth)
    assert response.status_code == 201, response.json
    assert response.headers["Location"] == f"/api/v1/games/{response.json['id']}"
    rematch = response.json
    assert rematch["table"] is None
    assert rematch["next_round"]["dealer"] == rematch["players"][0]["id"]  # after seat 2
    assert client.post(f"{table.url}/rematch").status_code == 401


def test_a_rematch_takes_round_1s_starter_as_a_seat_of_the_new_game(app, client, friends):
    friends.create(players=("Asha", "Bikash", "Chandra"))
    ids = [friends.roster_id(n) for n in ("Asha", "Bikash", "Chandra")]
    game = friends.new_game(ids, options=SHORT_JHYAP)
    rematch = f"/api/v1/games/{game['id']}/rematch"

    chosen = client.post(rematch, json={"starter": 2}, headers=friends.auth)
    assert chosen.status_code == 201, chosen.json
    seats = [p["id"] for p in chosen.json["players"]]
    assert [p["name"] for p in chosen.json["players"]] == ["Asha", "Bikash", "Chandra"]
    assert chosen.json["next_round"] == {"number": 1, "dealer": seats[1], "starter": seats[2]}
    assert chosen.json["table"] == friends.table["id"]

    drawn = client.post(rematch, headers=friends.auth)  # none chosen: at random, as before
    assert drawn.status_code == 201, drawn.json
    assert drawn.json["next_round"]["starter"] in [p["id"] for p in drawn.json["players"]]
    assert drawn.json["next_round"]["dealer"] == drawn.json["players"][1]["id"]


@pytest.mark.parametrize(
    ("starter", "message"),
    [
        (3, "The first starter must be a seat from 0 to 2."),
        (-1, "The first starter must be a seat from 0 to 2."),
        ("Asha", "The starter must be a whole number."),
    ],
)
def test_a_rematch_with_a_starter_not_at_its_seats_is_refused_and_makes_nothing(
    app, client, friends, starter, message
):
    friends.create(players=("Asha", "Bikash", "Chandra"))
    ids = [friends.roster_id(n) for n in ("Asha", "Bikash", "Chandra")]
    game = friends.new_game(ids, options=SHORT_JHYAP)
    before = row_counts(app)
    refused = client.post(
        f"/api/v1/games/{game['id']}/rematch", json={"starter": starter}, headers=friends.auth
    )
    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["message"] == message
    assert "starter" in refused.json["error"]["details"]
    assert row_counts(app) == before
    assert len(friends.get()["games"]) == 1


def test_a_rematch_of_a_game_whose_rules_name_the_starter_takes_none(app, client, friends):
    friends.create(players=("Asha", "Bikash", "Chandra"))
    ids = [friends.roster_id(n) for n in ("Asha", "Bikash", "Chandra")]
    game = friends.new_game(ids, ruleset="twenty-two")
    before = row_counts(app)
    refused = client.post(
        f"/api/v1/games/{game['id']}/rematch", json={"starter": 0}, headers=friends.auth
    )
    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["message"] == (
        "In Twenty Two the player at the dealer's left starts, so leave out starter."
    )
    assert row_counts(app) == before


def test_creations_sent_again_with_their_key_are_answered_as_the_first_time(client, friends):
    key = {"Idempotency-Key": "table-Qs6Lp3Vn8Dy1Hf5T"}
    body = {"name": "Crew", "players": ["Asha", "Bikash"]}
    first = client.post(TABLES, json=body, headers=key)
    again = client.post(TABLES, json=body, headers=key)
    assert again.status_code == 201 and again.json == first.json
    other = client.post(TABLES, json={**body, "name": "Other"}, headers=key)
    assert other.status_code == 422

    friends.table, friends.token = first.json, first.json["token"]
    ids = [p["id"] for p in first.json["players"]]
    headers = {**friends.auth, **key}
    created = client.post(
        f"{friends.url}/games", json={"ruleset": "jhyap", "players": ids}, headers=headers
    )
    replayed = client.post(
        f"{friends.url}/games", json={"ruleset": "jhyap", "players": ids}, headers=headers
    )
    assert replayed.json == created.json
    rematch = client.post(f"/api/v1/games/{created.json['id']}/rematch", headers=headers)
    assert (
        client.post(f"/api/v1/games/{created.json['id']}/rematch", headers=headers).json
        == rematch.json
    )
    assert len(friends.get()["games"]) == 2


def test_a_table_exports_and_imports_to_the_same_standings(client, friends):
    play_the_evening(friends)
    exported = client.get(f"{friends.url}/export")
    assert exported.status_code == 200
    document = exported.json
    assert document["format"] == "scorekeeper.table" and len(document["games"]) == 3
    imported = client.post(f"{TABLES}/import", json=document)
    assert imported.status_code == 201, imported.json
    assert imported.json["id"] != friends.table["id"] and "token" in imported.json
    assert imported.json["players"] != friends.get()["players"]  # new roster ids
    original = friends.get()
    for key in ("name", "games_played", "games_won", "jhyap", "twenty-two"):
        assert [row.get(key) for row in imported.json["standings"]] == [
            row.get(key) for row in original["standings"]
        ]


def test_a_damaged_table_export_is_refused_and_creates_nothing(app, client, friends):
    play_the_evening(friends)
    document = client.get(f"{friends.url}/export").json
    document["games"][2]["rounds"][1]["round"]["results"][0]["points"] += 1
    with counted_statements(app) as importing:
        response = client.post(f"{TABLES}/import", json=document)
    assert response.status_code == 422
    assert response.json["error"]["message"].startswith("Game 3 of the export")
    assert not [s for s, _ in importing if s.split(None, 1)[0].upper() == "INSERT"]


def test_deleting_a_table_deletes_its_games(client, friends):
    games = play_the_evening(friends)
    assert client.delete(friends.url).status_code == 401
    assert client.delete(friends.url, headers=friends.auth).status_code == 204
    assert client.get(friends.url).status_code == 404
    assert client.get(f"/api/v1/games/{games['first']['id']}").status_code == 404


def test_reading_a_table_takes_the_same_statements_however_many_games(app, client, friends):
    friends.create(players=("Asha", "Bikash"))
    ids = [friends.roster_id("Asha"), friends.roster_id("Bikash")]

    def statements() -> list[str]:
        with counted_statements(app) as read:
            friends.get()
        return [statement.split(None, 1)[0].upper() for statement, _ in read]

    game = friends.new_game(ids, options=SHORT_JHYAP)
    friends.play(game, hands(game, 0, 1, 9))
    few = statements()
    for _ in range(6):
        game = friends.new_game(ids, options=SHORT_JHYAP)
        for _ in range(3):
            friends.play(game, hands(game, 0, 1, 2))
    assert statements() == few


def test_the_roster_holds_at_most_fifty_players(client, friends):
    friends.create(players=tuple(f"P{n}" for n in range(49)))
    grown = client.patch(friends.url, json={"add_players": ["Q1"]}, headers=friends.auth)
    assert grown.status_code == 200
    before = friends.get()
    full = client.patch(friends.url, json={"add_players": ["Q2"]}, headers=friends.auth)
    assert full.status_code == 422
    refused = client.post(
        f"{friends.url}/games",
        json={"ruleset": "jhyap", "players": ["New one", before["players"][0]["id"]]},
        headers=friends.auth,
    )
    assert refused.status_code == 422
    assert "at most 50" in refused.json["error"]["message"]
    assert friends.get() == before


def test_a_game_export_is_imported_back_at_a_table_by_its_players_names(client, friends):
    """A game exported from a table (and a phone that has the table's key) is imported at the
    table: each player is the roster player of their name, new names join the roster, and the
    standings count it."""
    friends.create(players=("Asha", "Bikash", "Chandra"))
    ids = [friends.roster_id(n) for n in ("Asha", "Bikash", "Chandra")]
    game = friends.new_game(ids, options=SHORT_JHYAP)
    friends.play(game, hands(game, 0, 2, 15, 25))  # Chandra out
    seats = client.post(
        f"/api/v1/games/{game['id']}/seats",
        json={"join": {"name": "Dev", "after": game["players"][0]["id"]}},
        headers=friends.auth,
    )
    assert seats.status_code == 201, seats.json
    exported = client.get(f"/api/v1/games/{game['id']}/export").json
    assert client.delete(f"/api/v1/games/{game['id']}", headers=friends.auth).status_code == 204
    # The table writes Asha's name otherwise now: she is still Asha.
    renamed = {"players": [{"id": ids[0], "name": "ASHA"}]}
    assert client.patch(friends.url, json=renamed, headers=friends.auth).status_code == 200
    before = friends.get()
    assert before["games"] == [] and before["standings"] == []

    url = f"{friends.url}/games/import"
    key = {"Idempotency-Key": "back-at-the-table-Xq3vR9tLm2"}  # 22 or more, as for any creation
    response = client.post(url, json=exported, headers={**friends.auth, **key})
    assert response.status_code == 201, response.json
    imported = response.json
    assert response.headers["Location"] == f"/api/v1/games/{imported['id']}"
    assert imported["table"] == friends.table["id"] and imported["token"]
    roster = {p["name"]: p["id"] for p in friends.get()["players"]}
    # Asha is the roster's ASHA (names compare as names do), Dev who joined is Dev: no one new.
    assert set(roster) == {"ASHA", "Bikash", "Chandra", "Dev"}
    assert [(p["name"], p["roster_id"]) for p in imported["players"]] == [
        ("Asha", roster["ASHA"]),
        ("Dev", roster["Dev"]),
        ("Bikash", roster["Bikash"]),
        ("Chandra", roster["Chandra"]),
    ]
    assert [p["score"] for p in imported["players"]] == [
        p["score"] for p in exported["game"]["players"]
    ]
    table = friends.get()
    assert [g["id"] for g in table["games"]] == [imported["id"]]
    assert {row["name"] for row in table["standings"]} == {"ASHA", "Bikash", "Chandra"}
    # Sent again with its key (no answer came): the same game, once.
    again = client.post(url, json=exported, headers={**friends.auth, **key})
    assert again.status_code == 201 and again.json["id"] == imported["id"]
    assert len(friends.get()["games"]) == 1


def test_a_game_imported_at_a_table_adds_names_not_on_its_roster(client, friends):
    friends.create(players=("Asha",))
    loose = client.post(
        "/api/v1/games", json={"ruleset": "jhyap", "players": ["Asha", "Mia"], "dealer": 0}
    ).json
    exported = client.get(f"/api/v1/games/{loose['id']}/export").json
    response = client.post(f"{friends.url}/games/import", json=exported, headers=friends.auth)
    assert response.status_code == 201, response.json
    assert [p["name"] for p in friends.get()["players"]] == ["Asha", "Mia"]


@pytest.mark.parametrize(
    ("headers", "status"),
    [({}, 401), ("game", 403), ({"Authorization": f"Bearer {'x' * 32}"}, 403)],
)
def test_only_the_tables_key_imports_a_game_at_it(client, friends, headers, status):
    friends.create(players=("Asha", "Bikash"))
    game = friends.new_game([friends.roster_id("Asha"), friends.roster_id("Bikash")])
    exported = client.get(f"/api/v1/games/{game['id']}/export").json
    if headers == "game":
        headers = {"Authorization": f"Bearer {game['token']}"}
    before = friends.get()
    response = client.post(f"{friends.url}/games/import", json=exported, headers=headers)
    assert response.status_code == status, response.json
    assert friends.get() == before


def test_an_export_that_does_not_replay_is_refused_at_the_table_and_adds_no_one(client, friends):
    friends.create(players=("Asha",))
    loose = client.post(
        "/api/v1/games", json={"ruleset": "jhyap", "players": ["Asha", "Mia"], "dealer": 0}
    ).json
    client.post(
        f"/api/v1/games/{loose['id']}/rounds",
        json=hands(loose, 0, 2, 15),
        headers={"Authorization": f"Bearer {loose['token']}"},
    )
    exported = client.get(f"/api/v1/games/{loose['id']}/export").json
    exported["rounds"][0]["round"]["results"][1]["points"] = 99  # not what the rules make it
    before = friends.get()
    response = client.post(f"{friends.url}/games/import", json=exported, headers=friends.auth)
    assert response.status_code == 422, response.json
    assert response.json["error"]["code"] == "invalid_import"
    assert friends.get() == before  # no game, and Mia not on the roster
