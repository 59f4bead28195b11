"""Tables: the same friends over many games — a roster, games at the table, rematches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select

from ..models import Game, Player, RosterPlayer, Table
from ..names import name_key
from ..rules.words import Message
from ..security import hash_token, new_token, token_matches
from .commands import Answer, KeyedRequest, Render, create_once
from .errors import InvalidSeating, TableNotFound, WrongToken
from .games import (
    GameSetup,
    MadeGame,
    add_game,
    check_distinct,
    open_game,
    renamed,
)
from .made_offline import NOTHING_CHOSEN, MadeOffline, claim_id, creation_time
from .standings import standings
from .storage import (
    changed,
    find_table,
    reading_one_snapshot,
    session,
    stored_version,
    touch_table,
    writing,
)

ROSTER_LIMIT = 50
"""The most players a table's roster holds."""


@dataclass(frozen=True)
class TableSetup:
    """A new table: its name and its first roster."""

    name: str
    players: Sequence[str] = ()
    made: MadeOffline = NOTHING_CHOSEN
    """The id and creation time a phone chose for the table, if it made it with no network."""


@dataclass(frozen=True)
class TableChange:
    """A rename of the table or of roster players (by roster id), and roster players to add."""

    name: str | None = None
    player_names: Mapping[int, str] = field(default_factory=dict)
    new_players: Sequence[str] = ()


@dataclass(frozen=True)
class TableGameSetup:
    """A game at a table: ``seats`` holds roster ids or new names, in clockwise order."""

    game: GameSetup
    seats: Sequence[int | str]


@dataclass(frozen=True)
class GameAtTable:
    """A game in a table's list: its roster players by seat, and those who won."""

    id: str
    ruleset: str
    name: str
    players: list[int | None]
    winners: list[int | None]
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class TableView:
    """A table as one unit of work read it: its roster, games (newest first), standings
    (``standings.standings``) and version."""

    id: str
    name: str
    roster: list[tuple[int, str]]
    """(roster id, name), in the roster's order."""
    games: list[GameAtTable]
    standings: list[dict[str, Any]]
    created_at: datetime
    updated_at: datetime
    version: int


@dataclass(frozen=True)
class MadeTable:
    """A new table as it stands, and its token (shown to its creator only)."""

    table: TableView
    token: str


def create_table(
    setup: TableSetup, *, answer: Render[MadeTable], request: KeyedRequest | None = None
) -> Answer:
    """Create a table (once per ``Idempotency-Key``): the first answer again for a key used."""

    def create() -> MadeTable:
        table, token = add_table(setup)
        return MadeTable(table_view(table, with_games=False), token)

    return create_once("tables", request, create, answer, chosen_id=setup.made.id)


def add_table(setup: TableSetup) -> tuple[Table, str]:
    """Add a new table to the unit of work (flushed, so its roster has ids), with its token."""
    token = new_token()
    made_at = creation_time(setup.made.created_at)
    table = Table(
        id=claim_id(setup.made.id),
        name=setup.name,
        token_hash=hash_token(token),
        version=1,
        created_at=made_at,
        updated_at=made_at,
        roster=[RosterPlayer(name=name) for name in setup.players],
    )
    session().add(table)
    session().flush()
    return table, token


def table_version(table_id: str) -> int:
    """The table's version, raised by every change to it or its games: its ETag."""
    version = stored_version(Table, table_id)
    if version is None:
        raise TableNotFound("There is no table with this id.")
    return version


def read_table(table_id: str) -> TableView:
    """The Table as it stands, with its version; a fixed number of statements."""
    with reading_one_snapshot():
        return table_view(find_table(table_id))


def table_view(table: Table, *, with_games: bool = True) -> TableView:
    """The Table as this unit of work sees it (a new one has no games to read)."""
    return TableView(
        table.id,
        table.name,
        [(player.id, player.name) for player in table.roster],
        _games_at(table) if with_games else [],
        standings(table) if with_games else [],
        table.created_at,
        table.updated_at,
        table.version,
    )


def _games_at(table: Table) -> list[GameAtTable]:
    """The table's games, newest first, with their seats: two statements whatever their count."""
    games = (
        session()
        .execute(
            select(Game.id, Game.ruleset, Game.name, Game.created_at, Game.updated_at)
            .where(Game.table_id == table.id)
            .order_by(Game.created_at.desc(), Game.id)
        )
        .all()
    )
    seats = (
        session()
        .execute(
            select(Player.game_id, Player.roster_id, Player.won)
            .join(Game, Game.id == Player.game_id)
            .where(Game.table_id == table.id)
            .order_by(Player.game_id, Player.seat)
        )
        .all()
    )
    seated: dict[str, list[Any]] = {game.id: [] for game in games}
    for seat in seats:
        seated[seat.game_id].append(seat)
    return [
        GameAtTable(
            game.id,
            game.ruleset,
            game.name,
            [seat.roster_id for seat in seated[game.id]],
            [seat.roster_id for seat in seated[game.id] if seat.won],
            game.created_at,
            game.updated_at,
        )
        for game in games
    ]


def open_table(table_id: str, token: str) -> Table:
    """Lock a table for this unit of work, once ``token`` is shown to be its own."""
    table = find_table(table_id, lock=True)
    if not token_matches(token, table.token_hash):
        raise WrongToken("That token does not open this table.")
    return table


def token_opens_table(table_id: str, token: str) -> bool:
    """Whether ``token`` is the table's (read without a lock; no table: no)."""
    stored = session().scalar(select(Table.token_hash).where(Table.id == table_id))
    return stored is not None and token_matches(token, stored)


def change_table(table_id: str, token: str, change: TableChange) -> TableView:
    """Rename the table or roster players, or add roster players; no change keeps the ETag."""
    with writing():
        table = open_table(table_id, token)
        by_id = {player.id: player for player in table.roster}
        names = renamed(
            {player_id: player.name for player_id, player in by_id.items()},
            change.player_names,
            Message("Player {id} is not on this table's roster."),
        )
        check_distinct([*names.values(), *change.new_players])
        new_name = table.name if change.name is None else change.name
        names_changed = any(by_id[i].name != name for i, name in names.items())
        if new_name != table.name or names_changed or change.new_players:
            table.name = new_name
            for player_id, name in names.items():
                by_id[player_id].name = name
            table.roster.extend(RosterPlayer(name=name) for name in change.new_players)
            check_roster_size(table)
            table.touch()
            changed("table", table.id)
    return read_table(table_id)


def delete_table(table_id: str, token: str) -> None:
    """Delete a table with all its games.

    Its games are locked before the table, in the order every write to a game takes them
    (the game, then its table): a round recorded meanwhile is either done first or finds
    the game gone, where locking the table first deadlocked with it on PostgreSQL.
    """
    with writing():
        if not token_matches(token, find_table(table_id).token_hash):
            raise WrongToken("That token does not open this table.")
        games = session().scalars(
            select(Game.id).where(Game.table_id == table_id).order_by(Game.id).with_for_update()
        )
        for game_id in games:  # deleted with the table: their streams end too
            changed("game", game_id)
        changed("table", table_id)
        session().delete(open_table(table_id, token))


def create_game_at_table(
    table_id: str,
    token: str,
    setup: TableGameSetup,
    *,
    answer: Render[MadeGame],
    request: KeyedRequest | None = None,
) -> Answer:
    """Create a game at a table, seating roster players and adding new names to the roster."""

    def create() -> MadeGame:
        table = open_table(table_id, token)
        seated = seat_roster(table, setup.seats)
        game_setup = replace(setup.game, players=[player.name for player in seated])
        bound, game_token = add_game(
            game_setup, table_id=table.id, roster_ids=[player.id for player in seated]
        )
        table.touch()
        changed("table", table.id)
        return MadeGame(bound, game_token)

    return create_once(
        f"tables/{table_id}/games", request, create, answer, chosen_id=setup.game.made.id
    )


def seat_roster(table: Table, seats: Sequence[int | str]) -> list[RosterPlayer]:
    """The roster players for ``seats`` (roster ids or names), adding new names to the roster.

    A name already on the roster (compared as names are) is that roster player.
    """
    by_id = {player.id: player for player in table.roster}
    seated: list[RosterPlayer] = []
    for index, seat in enumerate(seats):
        if isinstance(seat, int):
            if seat not in by_id:
                raise InvalidSeating(
                    Message("Player {id} is not on this table's roster.", id=seat),
                    {"players": {str(index): ["Not on the roster."]}},
                )
            player = by_id[seat]
        else:
            player = roster_player(table, seat)
        if player in seated:
            raise InvalidSeating(
                Message("{name} is seated twice; give each player one seat.", name=player.name),
                {"players": {str(index): ["Seated twice."]}},
            )
        seated.append(player)
    check_roster_size(table)
    session().flush()  # new roster players get their ids
    return seated


def roster_player(table: Table, name: str) -> RosterPlayer:
    """The roster player called ``name`` (compared as names are), added to the roster if new.

    The caller flushes (new roster players get their ids) and checks the roster's size.
    """
    key = name_key(name)
    for player in table.roster:
        if name_key(player.name) == key:
            return player
    player = RosterPlayer(name=name)
    table.roster.append(player)
    return player


def check_roster_size(table: Table) -> None:
    """An ``InvalidSeating`` if the roster has grown past its limit."""
    if len(table.roster) > ROSTER_LIMIT:
        raise InvalidSeating(
            Message(
                "A table's roster holds at most {limit} players; this one is full.",
                limit=ROSTER_LIMIT,
            ),
            {"players": [f"At most {ROSTER_LIMIT} players on the roster."]},
        )


@dataclass(frozen=True)
class RematchSetup:
    """What a rematch's request may choose: the id and creation time a phone chose, and the
    seat of round 1's starter in the new game (random if ``None``, as for a new game)."""

    made: MadeOffline = NOTHING_CHOSEN
    starter: int | None = None


def rematch(
    game_id: str,
    token: str,
    chosen: RematchSetup = RematchSetup(),
    *,
    answer: Render[MadeGame],
    request: KeyedRequest | None = None,
) -> Answer:
    """A new game with the same players, seats, ruleset, options and table; the deal moves on.

    Players who left are not in it. Round 1's dealer is the first player
    clockwise after the previous game's first dealer who plays in the new game.
    """

    def create() -> MadeGame:
        bound = open_game(game_id, token)
        game, state = bound.game, bound.state
        rows = {player.id: player for player in game.players}
        seating = [player.id for player in bound.rules.players]
        playing = [player_id for seat, player_id in enumerate(seating) if not state.left[seat]]
        first_dealer = _first_dealer_id(game)
        after = seating.index(first_dealer)
        dealer_id = next(
            seating[(after + step) % len(seating)]
            for step in range(1, len(seating) + 1)
            if seating[(after + step) % len(seating)] in playing
        )
        setup = GameSetup(
            ruleset=game.ruleset,
            players=[rows[player_id].name for player_id in playing],
            name=game.name,
            dealer=playing.index(dealer_id),
            starter=chosen.starter,
            options=game.options,
            made=chosen.made,
        )
        new, new_token_ = add_game(
            setup,
            table_id=game.table_id,
            roster_ids=[rows[player_id].roster_id for player_id in playing],
        )
        touch_table(game.table_id)
        return MadeGame(new, new_token_)

    return create_once(
        f"games/{game_id}/rematch", request, create, answer, chosen_id=chosen.made.id
    )


def _first_dealer_id(game: Game) -> int:
    """The player id of round 1's dealer: seats at creation are the first players, by id."""
    founders = sorted((player for player in game.players if not player.joined), key=_by_id)
    return founders[game.first_dealer].id


def _by_id(player: Player) -> int:
    """A player's id, to sort by."""
    return player.id
