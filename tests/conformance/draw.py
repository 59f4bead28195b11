"""Seeded random draws the games share: players, card spellings, seat changes."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from scorekeeper.rules import GameState, Ruleset, get_ruleset
from scorekeeper.rules.cards import RANKS, SUITS

from .recorder import Game

NAMES = (
    "Asha",
    "Bikram",
    "Chandra",
    "Dipa",
    "Ekta",
    "Farid",
    "Gita",
    "Hari",
    "Ishaan",
    "Jaya",
    "Kiran",
    "Laxmi",
    "Mina",
    "Nabin",
    "O'Neil",
    "Prakash",
    "Rāju",
    "Sita",
    "শাপলা",
    "Tenzing",
)
DECK = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
NOT_AT_ANY_TABLE = 99999


def players(rng: random.Random, count: int) -> list[dict[str, Any]]:
    """``count`` players with distinct ids (not their seats) and names."""
    ids = rng.sample(range(1, 1000), count)
    names = rng.sample(NAMES, count)
    return [{"id": pid, "name": name} for pid, name in zip(ids, names, strict=True)]


def spelling(rng: random.Random, code: str) -> str:
    """One of the ways a table may write the card ``code`` (rules.md, "Cards")."""
    if rng.random() < 0.6:
        return code
    if code == "JK":
        return rng.choice(["jk", "X", "x", "joker", "Joker", " JK "])
    rank, suit = code[:-1], code[-1]
    rank = "T" if rank == "10" and rng.random() < 0.5 else rank
    suit = SUIT_SYMBOLS[suit] if rng.random() < 0.4 else suit
    text = rank + suit
    return rng.choice([text, text.lower(), f" {text}", f"{text}\t"])


def newcomer(rng: random.Random, game: Game) -> tuple[int, str]:
    """An id and a name no one at the table has."""
    rules, _ = game.live()
    ids = {player.id for player in rules.players}
    names = {player.name for player in rules.players}
    pid = rng.choice([p for p in range(1000, 1100) if p not in ids])
    return pid, rng.choice([name for name in NAMES if name not in names])


def seat_change(rng: random.Random, game: Game) -> None:
    """A random join or leave, now and then one the rules refuse."""
    rules, state = game.live()
    ids = [player.id for player in rules.players]
    roll = rng.random()
    if roll < 0.45:
        pid, name = newcomer(rng, game)
        game.join(pid, name, rng.choice(ids))  # refused when the table is full
    elif roll < 0.85:
        game.leave(ids[rng.choice(state.active_seats())])
    elif roll < 0.9:
        gone = [ids[seat] for seat in range(len(ids)) if not state.is_active(seat)]
        game.leave(rng.choice(gone or [NOT_AT_ANY_TABLE]))
    elif roll < 0.95:
        pid, name = newcomer(rng, game)
        game.join(pid, name, rng.choice([NOT_AT_ANY_TABLE, True, "11", None, -1]))
    else:
        game.join(rng.choice(ids), "Again", rng.choice(ids))


def after_the_end(rng: random.Random, game: Game) -> None:
    """What the rules refuse once the game is over: a round, a join, a leave."""
    rules, _ = game.live()
    ids = [player.id for player in rules.players]
    if rules.name == "jhyap":
        game.play({"caller": ids[0], "hands": [{"player": pid, "total": 0} for pid in ids]})
    elif rules.name == "twenty-two":
        game.play({"last_trick": [{"player": pid, "card": DECK[i]} for i, pid in enumerate(ids)]})
    else:
        game.play({"hands": [{"player": pid, "points": 0} for pid in ids]})
        game.end()
    pid, name = newcomer(rng, game)
    game.join(pid, name, rng.choice(ids))
    game.leave(rng.choice(ids))


EntryDraw = Callable[[random.Random, Ruleset[Any], GameState], dict[str, Any]]
BadEntry = Callable[[random.Random, Ruleset[Any], GameState, dict[str, Any]], dict[str, Any]]


def random_game(
    rng: random.Random,
    name: str,
    ruleset: str,
    options: dict[str, Any],
    count: int,
    draw_entry: EntryDraw,
    bad_entry: BadEntry,
    *,
    max_items: int = 30,
    seat_changes: float = 0.08,
    refused: float = 0.12,
    ends: float = 0.0,
) -> dict[str, Any]:
    """A game of random steps until it ends or has ``max_items`` items; then what it refuses.

    Most steps are valid rounds drawn from the state the last step left; a share are seat
    changes, a share are rounds broken in one way the rules refuse, and a share (``ends``) are
    the table ending the game by hand (refused where the rules do not allow it).
    """
    table = players(rng, count)
    chooses = get_ruleset(ruleset).chooses_starter
    starter = rng.choice([None, rng.randrange(count)]) if chooses else None
    game = Game(name, ruleset, table, options, dealer=rng.randrange(count), starter=starter)
    assert game.rules is not None, game.vector["start"]
    while not game.over and len(game.items) < max_items:
        rules, state = game.live()
        roll = rng.random()
        if ends and rng.random() < ends:
            game.end()
        elif roll < seat_changes:
            seat_change(rng, game)
        elif roll < seat_changes + refused:
            game.play(bad_entry(rng, rules, state, draw_entry(rng, rules, state)))
        else:
            game.play(draw_entry(rng, rules, state))
    if game.over:
        after_the_end(rng, game)
    return game.vector
