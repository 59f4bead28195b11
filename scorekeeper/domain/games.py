"""Games: create, read, rename and delete; a game bound to its rules and running state."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from ..models import Game, Player, Round, Table, utcnow
from ..names import first_clash
from ..rules import GameState, Ruleset, get_ruleset
from ..rules import Player as SeatedPlayer
from ..rules.words import Message
from ..security import hash_token, new_token, token_matches
from ..times import in_utc, timestamp
from .commands import (
    IN_PROGRESS,
    Answer,
    KeyedRequest,
    Render,
    Result,
    create_once,
    run_once,
)
from .errors import GameFull, GameNotFound, InvalidChange, PlayedAtOutOfRange, WrongToken
from .made_offline import CLOCK_AHEAD, NOTHING_CHOSEN, MadeOffline, claim_id, creation_time
from .records import end_json
from .storage import changed, find_game, session, stored_version, touch_table, writing


@dataclass(frozen=True)
class GameSetup:
    """What a new game is made of: validated at the edge, checked against the rules here."""

    ruleset: str
    players: Sequence[str]
    name: str = ""
    dealer: int | None = None
    """Seat of round 1's dealer; random if ``None``."""
    starter: int | None = None
    """Seat of round 1's starter (rulesets that choose one); random if ``None``."""
    options: Mapping[str, Any] = field(default_factory=dict)
    made: MadeOffline = NOTHING_CHOSEN
    """The id and creation time a phone chose for the game, if it made it with no network."""


@dataclass(frozen=True)
class GameChange:
    """A rename of the game or of some of its players (by player id), or its end by hand."""

    name: str | None = None
    player_names: Mapping[int, str] = field(default_factory=dict)
    finish: bool = False
    """Whether the table ends the game (a ruleset that lets it: the winners are worked out)."""


END_ENTRY = {"end": True}
"""The entry of the history item that ends a game by hand."""


def is_end(result: Mapping[str, Any]) -> bool:
    """Whether a stored history item is the end of the game by hand."""
    return bool(result.get("end"))


@dataclass
class BoundGame:
    """A stored game with its rules bound to its players, and its running state."""

    game: Game
    rules: Ruleset
    state: GameState

    @classmethod
    def of(cls, game: Game) -> BoundGame:
        """Bind ``game``'s rules to its players as they sit now, and read its state."""
        return cls(game, *state_of(game, game.state))

    def initial_state(self) -> tuple[Ruleset, GameState]:
        """The rules bound to the players the game began with, and the state before round 1."""
        founders = sorted((p for p in self.game.players if not p.joined), key=lambda p: p.id)
        rules = bind_rules(self.game, [player.id for player in founders])
        starter = self.game.first_starter if rules.chooses_starter else None
        return rules, rules.start(self.game.first_dealer, starter)

    def keep_state(self, state: GameState, rules: Ruleset | None = None) -> None:
        """Store ``state`` (and the rules bound to its seats) as the game's running state.

        The game gets a new version, and so a new ETag. The player rows take the
        seats the state gives them; at a table, each player's figures follow the
        state too, for the table's standings.
        """
        self.state = state
        self.rules = rules or self.rules
        self.game.state = state.to_dict()
        self.game.touch()
        changed("game", self.game.id)
        keep_figures(self.game, self.rules, state)
        touch_table(self.game.table_id)

    def append(
        self,
        number: int,
        entry: Mapping[str, Any],
        result: dict[str, Any],
        state: GameState,
        *,
        played_at: datetime | None = None,
        rules: Ruleset | None = None,
    ) -> None:
        """Add an item to the game's history (``result`` as ``records`` stores it), played at
        ``played_at`` (else now), and keep the state it leaves as the running state."""
        now = utcnow()
        session().add(
            Round(
                game_id=self.game.id,
                number=number,
                entry=dict(entry),
                result=result,
                state_after=state.to_dict(),
                created_at=played_at or now,
                updated_at=now,
            )
        )
        self.keep_state(state, rules)

    def end(self) -> None:
        """The table ends the game by hand: an item of its history, the winners worked out."""
        ended = self.rules.end(self.state)
        self.append(ended.result.number, END_ENTRY, end_json(ended.result), ended.state)


MAX_HISTORY_ITEMS = 10_000
"""The most rounds and seat changes a game keeps (api.md, "How long a game can be")."""


def check_room(state: GameState) -> None:
    """A ``GameFull`` if the game's history already holds ``MAX_HISTORY_ITEMS`` items."""
    if state.last_number >= MAX_HISTORY_ITEMS:
        raise GameFull(
            Message(
                "This game already holds {limit} rounds and seat changes, the most a game keeps; "
                "start a new game to play on.",
                limit=f"{MAX_HISTORY_ITEMS:,}",
            )
        )


def when_played(bound: BoundGame, played_at: datetime | None) -> datetime:
    """When the next history item was played: ``played_at`` as the phone sent it, else now.

    It must not be before the item before it (the first: before the game was created), as
    the history shows them, to the second; nor more than a minute ahead, and a time ahead
    (a phone's clock a little fast) is taken as now.
    """
    now = utcnow()
    if played_at is None:
        return now
    if played_at > now + CLOCK_AHEAD:
        raise PlayedAtOutOfRange(
            Message(
                "This was played at {played_at} by the phone's clock, more than a minute from "
                "now; check the phone's clock.",
                played_at=timestamp(played_at),
            ),
            {"played_at": ["More than a minute ahead of the server's clock."]},
        )
    last = bound.state.last_number
    previous = bound.game.created_at
    if last:
        previous = (
            session()
            .scalars(
                select(Round.created_at).where(Round.game_id == bound.game.id, Round.number == last)
            )
            .one()
        )
    previous = in_utc(previous)
    if played_at < previous.replace(microsecond=0):
        earlier = (
            Message("before the game was created ({previous})", previous=timestamp(previous))
            if last == 0
            else Message(
                "before item {number} of the game's history ({previous})",
                number=last,
                previous=timestamp(previous),
            )
        )
        raise PlayedAtOutOfRange(
            Message(
                "This was played at {played_at} by the phone's clock, {earlier}; send the "
                "rounds in the order they were played, or check the phone's clock.",
                played_at=timestamp(played_at),
                earlier=earlier,
            ),
            {"played_at": ["Before the item before it."]},
        )
    return min(played_at, now)


def bind_rules(game: Game, seating: Sequence[int]) -> Ruleset:
    """``game``'s rules bound to the players with ids ``seating``, in seat order.

    An existing game's options are not checked again.
    """
    names = {player.id: player.name for player in game.players}
    players = [SeatedPlayer(player_id, names[player_id]) for player_id in seating]
    return get_ruleset(game.ruleset).restore(players, game.options)


def state_of(game: Game, stored: Mapping[str, Any]) -> tuple[Ruleset, GameState]:
    """A stored state of ``game``, with the rules bound to the players seated in it."""
    rules = bind_rules(game, stored["seating"])
    return rules, rules.state_from_dict(stored)


def keep_figures(game: Game, rules: Ruleset, state: GameState) -> None:
    """Mirror the state on the game's player rows: seats, and at a table, the figures too.

    The figures of every player go in one statement, whichever of them changed.
    """
    by_id = {player.id: player for player in game.players}
    for seat, seated in enumerate(rules.players):
        by_id[seated.id].seat = seat
    if game.table_id is None:
        return
    winners = set(state.winners) if state.finished else set()
    figures = [
        {
            "id": seated.id,
            "won": seat in winners,
            "eliminated": state.eliminated_in_round[seat] is not None,
            "tallies": rules.tallies_of(state, seat),
        }
        for seat, seated in enumerate(rules.players)
    ]
    session().execute(update(Player), figures)


def read_game(game_id: str) -> BoundGame:
    """A game as it stands."""
    return BoundGame.of(find_game(game_id))


def game_version(game_id: str) -> int:
    """The game's version, which every change raises: what a phone's ETag names."""
    version = stored_version(Game, game_id)
    if version is None:
        raise GameNotFound("There is no game with this id.")
    return version


def open_game(game_id: str, token: str) -> BoundGame:
    """Lock a game for this unit of work, once ``token`` is shown to be its own or its table's."""
    game = find_game(game_id, lock=True)
    check_token(game, token)
    return BoundGame.of(game)


def add_to_history(
    game_id: str,
    token: str,
    request: KeyedRequest | None,
    add: Callable[[BoundGame], Result],
    answer: Render[Result],
    *,
    dry_run: bool = False,
    in_progress: str = IN_PROGRESS,
) -> Answer:
    """Add a round or seat change to a game's history (``add`` scores and stores it), once per
    key: the game is locked and its token checked, then the key looked up. A game's rounds and
    seat changes share one space of keys, deleted with the game."""
    return run_once(
        f"games/{game_id}/history",
        request,
        lambda: open_game(game_id, token),
        add,
        answer,
        game_id=game_id,
        dry_run=dry_run,
        in_progress=in_progress,
    )


def check_token(game: Game, token: str) -> None:
    """A ``WrongToken`` unless ``token`` is the game's own or its table's."""
    if not _opens(game.token_hash, game.table_id, token):
        raise WrongToken("That token does not open this game.")


def token_opens_game(game_id: str, token: str) -> bool:
    """Whether ``token`` is the game's own or its table's (read without a lock; no game: no)."""
    row = (
        session().execute(select(Game.token_hash, Game.table_id).where(Game.id == game_id)).first()
    )
    return row is not None and _opens(row.token_hash, row.table_id, token)


def _opens(game_token_hash: str, table_id: str | None, token: str) -> bool:
    """Whether ``token`` hashes to the game's token or to that of its table, if it has one."""
    if token_matches(token, game_token_hash):
        return True
    if table_id is None:
        return False
    table_hash = session().scalar(select(Table.token_hash).where(Table.id == table_id))
    return table_hash is not None and token_matches(token, table_hash)


@dataclass(frozen=True)
class MadeGame:
    """A new game, and its token (shown to its creator only)."""

    bound: BoundGame
    token: str


def create_game(
    setup: GameSetup, *, answer: Render[MadeGame], request: KeyedRequest | None = None
) -> Answer:
    """Create a game (once per ``Idempotency-Key``): the first answer again for a key used."""
    return create_once(
        "games", request, lambda: MadeGame(*add_game(setup)), answer, chosen_id=setup.made.id
    )


def add_game(
    setup: GameSetup,
    created_at: datetime | None = None,
    updated_at: datetime | None = None,
    *,
    table_id: str | None = None,
    roster_ids: Sequence[int | None] = (),
) -> tuple[BoundGame, str]:
    """Add a new game to the unit of work (flushed, so its players have ids), with its token.

    Its id and creation time are the ones ``setup.made`` chose, if any (an import gives
    ``created_at`` and ``updated_at`` instead). At a table, ``roster_ids`` names the roster
    player in each seat.
    """
    seated = [SeatedPlayer(seat, name) for seat, name in enumerate(setup.players)]
    rules = get_ruleset(setup.ruleset)(seated, setup.options)
    count = len(setup.players)
    dealer = secrets.randbelow(count) if setup.dealer is None else setup.dealer
    starter = setup.starter
    if starter is None and rules.chooses_starter:
        starter = secrets.randbelow(count)
    state = rules.start(dealer, starter)
    token = new_token()
    made_at = creation_time(setup.made.created_at)
    game = Game(
        id=claim_id(setup.made.id),
        ruleset=rules.name,
        name=setup.name,
        options=rules.options,
        first_dealer=dealer,
        first_starter=state.starter,
        token_hash=hash_token(token),
        state=state.to_dict(),
        version=1,
        history_revision=0,
        created_at=created_at or made_at,
        updated_at=updated_at or made_at,
        table_id=table_id,
        players=[
            Player(seat=seat, name=name, roster_id=roster_id)
            for seat, (name, roster_id) in enumerate(
                zip(setup.players, roster_ids or [None] * count, strict=True)
            )
        ],
    )
    session().add(game)
    session().flush()
    # The state before round 1 again, now that the players have their ids to be seated by.
    rules = bind_rules(game, [player.id for player in game.players])
    state = rules.start(dealer, starter)
    game.state = state.to_dict()
    return BoundGame(game, rules, state), token


def rename_game(game_id: str, token: str, change: GameChange) -> BoundGame:
    """Rename the game or its players, or end it; a change to what already is changes nothing."""
    with writing():
        bound = open_game(game_id, token)
        players = {player.id: player for player in bound.game.players}
        names = renamed(
            {player_id: player.name for player_id, player in players.items()},
            change.player_names,
            Message("Player {id} is not in this game."),
        )
        check_distinct(list(names.values()))
        new_name = bound.game.name if change.name is None else change.name
        if new_name != bound.game.name or any(players[i].name != n for i, n in names.items()):
            bound.game.name = new_name
            for player_id, name in names.items():
                players[player_id].name = name
            bound.game.touch()  # only a real change: watching phones keep their ETag
            changed("game", bound.game.id)
            touch_table(bound.game.table_id)
        if change.finish and not bound.state.finished:
            bound.end()
    return BoundGame.of(bound.game)


def renamed(
    current: Mapping[int, str], changes: Mapping[int, str], unknown: Message
) -> dict[int, str]:
    """The names by id after ``changes``; ``unknown`` (naming an ``{id}``) if one is not there."""
    names = dict(current)
    for player_id, name in changes.items():
        if player_id not in names:
            problem = Message(unknown.template, id=player_id)
            raise InvalidChange(problem, {"players": [str(problem)]})
        names[player_id] = name
    return names


def check_distinct(names: Sequence[str], field_name: str = "players") -> None:
    """An ``InvalidChange`` if two of ``names`` are the same name."""
    if (clash := first_clash(list(names))) is not None:
        earlier, later = clash
        raise InvalidChange(
            Message(
                "The name {later} is the same as {earlier}; give each player a different name.",
                later=later,
                earlier=earlier,
            ),
            {field_name: [f"{later} is the same name as {earlier}."]},
        )


def delete_game(game_id: str, token: str) -> None:
    """Delete a game with its rounds."""
    with writing():
        game = open_game(game_id, token).game
        touch_table(game.table_id)
        changed("game", game.id)
        session().delete(game)
