// The history a phone holds of the game it shows, kept as an export keeps it ({game, rounds:
// [{number, entry, round}]}), and what to read to bring it up to date when a newer Game arrives:
// nothing, only the items after the last one held (GET .../rounds?after=N), or all of it again
// (when an item held was corrected or undone: the Game's history_revision moved). Pure: no
// network, no storage; nothing given is changed.
//
// An item read with ?after=N has no entry (entry: null): the history answers rounds, not what
// was typed. A phone that may write reads the export instead, so that it can replay the game
// on the phone offline (state/provisional.js) and open a round to correct it.

import { entryOf, provisionalGame } from "./provisional.js";

/** The number of the last item of `held`'s history (0: none). */
export function lastNumber(held) {
  const rounds = (held && held.rounds) || [];
  return rounds.length ? rounds[rounds.length - 1].number : 0;
}

/** The number of the game's last history item, as the Game says it; null once it is finished. */
function lastOf(game) {
  return game.next_round ? game.next_round.number - 1 : null;
}

function revisionOf(game) {
  return (game && game.history_revision) || 0;
}

/**
 * What to read so that `held` (null: nothing held yet) is the history of `game`: null when it is
 * already, {after: N} for the items above N, {all: true} for the whole history again.
 */
export function historyRead(game, held) {
  if (!held || revisionOf(game) !== revisionOf(held.game)) return { all: true };
  const have = lastNumber(held);
  const last = lastOf(game);
  if (last === null) {
    // A finished game takes no new item; one that finished since needs the item that ended it.
    const rounds = held.rounds;
    const ended = rounds.length > 0 && rounds[rounds.length - 1].round.game.status === "finished";
    return ended ? null : { after: have };
  }
  if (last === have) return null;
  return last > have ? { after: have } : { all: true };
}

/** Whether every item of `held` has its entry, and the game its setup: it replays on the phone. */
export function replayable(held) {
  return Boolean(
    held && held.game && held.game.setup && held.rounds.every((item) => item.entry != null),
  );
}

/**
 * `held` with `items` (history items read with ?after=N) after its own, and `game` as its game
 * (its setup kept). Items beyond the game's last are left for the next read (they are newer than
 * the Game: the next one brings them with the scores that go with them). null when the items do
 * not follow on from the last one held: the whole history must be read again.
 */
export function withItems(held, items, game) {
  const last = lastOf(game);
  const fresh = items.filter((round) => last === null || round.number <= last);
  let next = lastNumber(held) + 1;
  for (const round of fresh) {
    if (round.number !== next) return null;
    next += 1;
  }
  return {
    ...held,
    game: withSetup(game, held.game),
    rounds: [
      ...held.rounds,
      ...fresh.map((round) => ({ number: round.number, entry: null, round })),
    ],
  };
}

/** `held` with the item this phone made (`entry` as it sent it, `round` the answer) on the end;
 * null when it does not follow on from the last item held. */
export function withOwnItem(held, entry, round) {
  if (!held || round.number !== lastNumber(held) + 1) return null;
  return { ...held, rounds: [...held.rounds, { number: round.number, entry, round }] };
}

/**
 * `held` with this phone's round on the end (its outbox `item`, and the service's `answer`), its
 * game the Game after it as the rules on the phone work it out; null when the round does not
 * follow on from the last item held, or the rules score it otherwise than the service did (an
 * earlier item changed meanwhile, on another phone): then the history must be read again.
 */
export function withOwnRound(held, item, answer) {
  const next = replayable(held) ? withOwnItem(held, entryOf(item.body), answer) : null;
  if (!next) return null;
  const untimed = ({ created_at: _created, ...rest }) => JSON.stringify(rest);
  try {
    const replayed = provisionalGame(held, [{ kind: "round", key: item.key, body: item.body }]);
    const last = replayed.rounds[replayed.rounds.length - 1];
    if (replayed.refused.length || untimed(last) !== untimed(answer)) return null;
    return { ...next, game: withSetup(replayed.game, held.game) };
  } catch {
    return null; // the rules on the phone cannot replay it
  }
}

/** `held` with the entry of item `number` filled in (one this phone sent: it knows it). */
export function withEntry(held, number, entry) {
  return {
    ...held,
    rounds: held.rounds.map((item) =>
      item.number === number && item.entry == null ? { ...item, entry } : item,
    ),
  };
}

/** A history as GET .../rounds answers it, held as an export holds it, for `game`. */
export function heldHistory(game, rounds) {
  return {
    format: "scorekeeper.game",
    version: 1,
    game,
    rounds: rounds.map((round) => ({ number: round.number, entry: null, round })),
  };
}

/** `game` with the setup `from` has (an export's game has one; a Game from GET has not). */
export function withSetup(game, from) {
  return from && from.setup && !game.setup ? { ...game, setup: from.setup } : game;
}

/** The Game as GET answers it, from an export's game. */
export function withoutSetup(game) {
  const { setup: _setup, ...served } = game;
  return served;
}
