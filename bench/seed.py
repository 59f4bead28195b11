"""Seeding the benchmark databases in-process, through ``scorekeeper.games``.

Games are Jhyap tables of five players that never finish: ``elimination_limit``
10000 and ``halve_at`` [] with small hand totals, so any number of benchmark
rounds can be recorded into them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select

from scorekeeper import create_app, games
from scorekeeper.extensions import db
from scorekeeper.models import Game, Player, Round
from scorekeeper.security import hash_token, new_game_id, new_token

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"]
OPTIONS = {"elimination_limit": 10000, "halve_at": []}

# Cards hands: caller 1 point, others 3-4; two jokers, each other card once (two decks).
CARD_HANDS = [["AD", "JK"], ["2H", "AS", "JK"], ["3C", "AC"], ["2D", "AH"], ["2S", "2C"]]


@dataclass
class SeededGame:
    """A game the benchmark drives: its id, write token and player ids in seat order."""

    id: str
    token: str
    player_ids: list[int]


def bench_app(url: str, rate_limits: bool = False):
    """The app bound to ``url`` (rate limits off unless asked), for seeding and measuring."""
    return create_app({"DATABASE_URL": url, "RATE_LIMITS": "on" if rate_limits else "off"})


def totals_entry(ids: list[int], n: int, light: bool = False) -> dict[str, Any]:
    """A valid Jhyap entry with totals for round ``n`` (0-based); the caller holds at most 5.

    ``light``: at most 1 point for one player per round, so 10,000 rounds stay under
    the 10,000 elimination limit. Otherwise each player scores 0-3 per round.
    """
    count = len(ids)
    caller = n % count
    hands = []
    for seat, player in enumerate(ids):
        if light:
            total = 1 if seat == (n + 1) % count else 0
        else:
            total = 1 if seat == caller else 1 + (seat + n) % 3
        hands.append({"player": player, "total": total})
    if light:
        hands[caller]["total"] = 0
    return {"caller": ids[caller], "hands": hands}


def cards_entry(ids: list[int], n: int) -> dict[str, Any]:
    """A valid Jhyap entry with cards; the caller (rotating) holds 1 point."""
    count = len(ids)
    caller = n % count
    hands = []
    for seat, player in enumerate(ids):
        hand = CARD_HANDS[(seat - caller) % count]
        hands.append({"player": player, "cards": hand})
    return {"caller": ids[caller], "hands": hands}


def create(name: str) -> SeededGame:
    """A new five-player Jhyap game that does not end."""
    table, token = games.create_game(
        {
            "ruleset": "jhyap",
            "name": name,
            "players": PLAYERS,
            "dealer": 0,
            "starter": 1,
            "options": dict(OPTIONS),
        }
    )
    return SeededGame(table.game.id, token, [player.id for player in table.game.players])


def play(game: SeededGame, rounds: int, light: bool = False) -> None:
    """Record ``rounds`` rounds through ``games.record_round`` (schema, rules, storage)."""
    for n in range(rounds):
        answer = games.record_round(game.id, game.token, totals_entry(game.player_ids, n, light))
        assert answer.status == 201, answer


def seed_read_and_posted(app: Any, posted_count: int) -> tuple[SeededGame, list[SeededGame]]:
    """Into a new database: a game of 50 rounds to read, ``posted_count`` games to post to."""
    with app.app_context():
        db.create_all()
        read = create("b: 50 rounds")
        play(read, 50)
        posted = [create(f"posted {index}") for index in range(posted_count)]
        db.session.remove()
    return read, posted


def clone_games(template: SeededGame, count: int, name: str, batch: int = 100) -> list[SeededGame]:
    """``count`` copies of the template game and its rounds, inserted in bulk (the ballast).

    Rows are written with Core ``INSERT``s, many at a time: games as ``_add_game``
    would make them (new id, new token), players in the same seats, and the
    template's rounds with their player ids translated, so each copy reads and
    exports as if it had been played.
    """
    rows = db.session.execute(
        select(
            Round.number,
            Round.entry,
            Round.result,
            Round.state_after,
            Round.created_at,
            Round.updated_at,
        )
        .where(Round.game_id == template.id)
        .order_by(Round.number)
    ).all()
    source = db.session.get(Game, template.id)
    columns = {
        column: getattr(source, column)
        for column in (
            "ruleset",
            "options",
            "first_dealer",
            "first_starter",
            "state",
            "version",
            "created_at",
            "updated_at",
        )
    }
    # End the read before writing: on SQLite a read transaction cannot become a write
    # transaction once another connection (a gunicorn worker) has written since it began.
    db.session.commit()
    games_table, players_table = Game.__table__, Player.__table__
    clones: list[SeededGame] = []
    for start in range(0, count, batch):
        chunk = []
        for index in range(start, min(count, start + batch)):
            token = new_token()
            chunk.append(
                (
                    {
                        "id": new_game_id(),
                        "name": f"{name} {index}",
                        "token_hash": hash_token(token),
                        **columns,
                    },
                    token,
                )
            )
        db.session.execute(insert(games_table), [game for game, _ in chunk])
        inserted = (
            db.session.execute(
                insert(players_table).returning(players_table.c.id, sort_by_parameter_order=True),
                [
                    {"game_id": game["id"], "seat": seat, "name": player}
                    for game, _ in chunk
                    for seat, player in enumerate(PLAYERS)
                ],
            )
            .scalars()
            .all()
        )
        round_rows = []
        for position, (game, token) in enumerate(chunk):
            ids = list(inserted[position * len(PLAYERS) : (position + 1) * len(PLAYERS)])
            clones.append(SeededGame(game["id"], token, ids))
            mapping = dict(zip(template.player_ids, ids, strict=True))
            round_rows += [
                {
                    "game_id": game["id"],
                    "number": number,
                    "entry": games._with_ids(entry, mapping),
                    "result": games._with_ids(result, mapping),
                    "state_after": state_after,
                    "created_at": created_at,
                    "updated_at": updated_at,
                }
                for number, entry, result, state_after, created_at, updated_at in rows
            ]
        if round_rows:
            db.session.execute(insert(Round.__table__), round_rows)
        db.session.commit()
    return clones
