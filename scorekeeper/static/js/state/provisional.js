// The game as this phone sees it before the server has everything: the server's export replayed
// through the rules on the phone (rules/), then this phone's queued changes applied in order.
// Pure: no DOM, no network, no storage; nothing given is changed. The shapes are the API's (the
// Game as GET answers it, history items as GET .../rounds), so the views draw them unchanged.
//
// A queued item is {kind: "round", key, body} | {kind: "correct", key, number, body} |
// {kind: "undo", key, number} | {kind: "seat", key, body, newcomer?: {id, name, rosterId}}
// | {kind: "create"}: the game's creation, made with no network (its export is made up on the
// phone, made-offline.js), which changes nothing here.

import {
  endGame,
  getRuleset,
  join,
  leave,
  playerFields,
  playRound,
  RuleError,
  standing,
  startGame,
} from "../rules/index.js";

/** A round's entry as the rules take it: the body without the number the phone expects. */
export function entryOf(body) {
  const { number: _number, ...entry } = body;
  return entry;
}

/** RFC 3339 in UTC, to the second, as the server writes times. */
function stamp(iso) {
  return (iso || new Date(0).toISOString()).replace(/\.\d+Z$/, "Z");
}

/** The ids of the players who joined the game in a seat change of its export. */
function joinedIds(exported) {
  return new Set(
    exported.rounds
      .map((item) => item.round.seat_change && item.round.seat_change.join)
      .filter(Boolean)
      .map((joined) => joined.player),
  );
}

/** The rules' game before round 1: the players the game began with, by id (their first seats). */
function firstGame(exported) {
  const game = exported.game;
  const joined = joinedIds(exported);
  const founders = game.players
    .filter((p) => !joined.has(p.id))
    .sort((a, b) => a.id - b.id)
    .map(({ id, name }) => ({ id, name }));
  const starter = getRuleset(game.ruleset).choosesStarter ? game.setup.starter : null;
  return startGame(game.ruleset, founders, game.options, game.setup.dealer, starter);
}

/** Apply one stored or queued history item to `rules`: {game, item (as the history shows it)}. */
function applyItem(rules, entry, stored, names) {
  if (stored && stored.end) {
    const outcome = endGame(rules);
    return { game: outcome.game, item: outcome.result };
  }
  const change = stored && stored.seat_change;
  if (change && change.join) {
    const joined = change.join;
    const newcomer = { id: joined.player, name: names.get(joined.player) ?? joined.name };
    const outcome = join(rules, newcomer, joined.after);
    return { game: outcome.game, item: outcome.result };
  }
  if (change) {
    const outcome = leave(rules, change.leave.player);
    return { game: outcome.game, item: outcome.result };
  }
  const outcome = playRound(rules, entryOf(entry));
  return { game: outcome.game, item: outcome.result };
}

/** What a queued seat change's body does, in the stored form a history item has. */
function seatStored(queued, rules) {
  const body = queued.body;
  if (body.leave !== undefined) return { seat_change: { leave: { player: body.leave } } };
  const newcomer = queued.newcomer;
  const name = newcomer.name;
  const exists = rules.players.some((p) => p.id === newcomer.id);
  if (exists) throw new RuleError(`${name} is already in this game.`, { join: ["Already in."] });
  return { seat_change: { join: { player: newcomer.id, name, after: body.join.after } } };
}

/**
 * The history replayed: a list of {number, entry, round, rules, key} (rules: the rules' game
 * after the item; key: the queued item that made it, null for the server's), and the rules'
 * game before round 1.
 */
function replayExport(exported) {
  const names = new Map(exported.game.players.map((p) => [p.id, p.name]));
  let rules = firstGame(exported);
  const start = rules;
  const history = [];
  for (const item of exported.rounds) {
    const after = applyItem(rules, item.entry, item.round, names);
    rules = after.game;
    history.push({ number: item.number, entry: item.entry, round: item.round, rules, key: null });
  }
  return { start, history, names, revision: exported.game.history_revision ?? 0 };
}

/** History items `from` on replayed again after the entry of `number` became `entry`. */
function replayFrom(start, history, number, entry, names) {
  const at = history.findIndex((item) => item.number === number);
  if (at < 0 || history[at].round.seat_change || history[at].round.end) {
    throw new RuleError(`Round ${number} has not been played in this game.`, { number: [] });
  }
  let rules = at === 0 ? start : history[at - 1].rules;
  const replayed = history.slice(0, at);
  const changed = [];
  for (const item of history.slice(at)) {
    const own = item.number === number;
    const stored = item.round.seat_change || item.round.end ? item.round : null;
    let after;
    try {
      after = applyItem(rules, own ? entry : item.entry, stored, names);
    } catch (error) {
      if (own || !(error instanceof RuleError)) throw error;
      const message = `Round ${item.number} no longer fits after this correction: ${error.message}`;
      const conflict = new RuleError(message, { round: item.number, ...error.details });
      conflict.status = 409;
      throw conflict;
    }
    rules = after.game;
    const round = { ...after.item, created_at: item.round.created_at };
    if (!own && JSON.stringify(after.item) !== JSON.stringify(strip(item.round))) {
      changed.push(item.number);
    }
    replayed.push({ ...item, entry: own ? entry : item.entry, round, rules });
  }
  return { history: replayed, changed };
}

/** A history item without when it was recorded, as the rules give it. */
function strip(round) {
  const { created_at: _created, ...rest } = round;
  return rest;
}

/** Apply one queued item to the history; a RuleError when the rules refuse it. */
function applyQueued(state, queued) {
  const { start, names } = state;
  const history = state.history;
  const last = history.length ? history[history.length - 1] : null;
  const rules = last ? last.rules : start;
  const created = stamp(queued.created);
  if (queued.kind === "create") return state;
  if (queued.kind === "round" || queued.kind === "seat") {
    const stored = queued.kind === "seat" ? seatStored(queued, rules) : null;
    if (queued.kind === "seat" && queued.newcomer)
      names.set(queued.newcomer.id, queued.newcomer.name);
    const after = applyItem(rules, queued.body, stored, names);
    const round = { ...after.item, created_at: created };
    const item = { number: round.number, entry: queued.body, round, rules: after.game };
    return { ...state, history: [...history, { ...item, key: queued.key }] };
  }
  if (queued.kind === "correct") {
    const replayed = replayFrom(start, history, queued.number, entryOf(queued.body), names);
    return { ...state, history: replayed.history, revision: state.revision + 1 };
  }
  if (!last || last.number !== queued.number) {
    throw new RuleError(`Only the last round or seat change can be undone.`, { number: [] });
  }
  return { ...state, history: history.slice(0, -1), revision: state.revision + 1 };
}

/** The roster id of each player the export knows, and of newcomers queued from the roster. */
function rosterIds(exported, queue) {
  const ids = new Map(exported.game.players.map((p) => [p.id, p.roster_id ?? null]));
  for (const item of queue) {
    if (item.newcomer) ids.set(item.newcomer.id, item.newcomer.rosterId ?? null);
  }
  return ids;
}

/**
 * The Game resource (serializers.game_body) of the rules' game `rules`; `revision`: its history's
 * revision (raised by each correction and undo).
 */
export function gameBody(base, rules, roster, revision) {
  const state = rules.state;
  const now = standing(rules);
  return {
    id: base.id,
    ruleset: base.ruleset,
    name: base.name,
    table: base.table ?? null,
    options: rules.options,
    status: now.status,
    players: rules.players.map((player, seat) => ({
      id: player.id,
      name: player.name,
      seat,
      score: state.scores[seat],
      eliminated: state.eliminated_in_round[seat] !== null,
      eliminated_in_round: state.eliminated_in_round[seat],
      left: state.left[seat],
      roster_id: roster.get(player.id) ?? null,
      ...playerFields(rules, seat),
    })),
    rounds_played: state.rounds_played,
    next_round: now.next_round,
    winners: now.winners,
    history_revision: revision,
    created_at: base.created_at,
    updated_at: base.updated_at,
  };
}

/**
 * The provisional game: the export with `queue` applied. {game, rounds, entries, rules, refused}
 * (refused: the keys of queued items the rules refuse, left out, with their errors).
 */
export function provisionalGame(exported, queue = []) {
  const replayed = replayExport(exported);
  let state = { ...replayed, names: new Map(replayed.names) };
  const refused = [];
  for (const queued of queue) {
    try {
      state = applyQueued(state, queued);
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      refused.push({ key: queued.key, error });
    }
  }
  const history = state.history;
  const rules = history.length ? history[history.length - 1].rules : state.start;
  const roster = rosterIds(exported, queue);
  return {
    game: gameBody(exported.game, rules, roster, state.revision),
    rounds: history.map((item) => item.round),
    entries: history.map(({ number, entry, round }) => ({ number, entry, round })),
    made: new Map(history.filter((item) => item.key).map((item) => [item.number, item.key])),
    rules,
    refused,
  };
}

/** A new round's dry run on the provisional game, as the server's dry run answers it. */
export function previewRound(exported, queue, body) {
  const now = provisionalGame(exported, queue);
  if (now.game.status === "finished") {
    throw new RuleError("The game is over; undo or correct a round to change it.", {});
  }
  return { ...playRound(now.rules, entryOf(body)).result, dry_run: true };
}

/** A correction's dry run on the provisional game, with `rescored` as the server answers it. */
export function previewCorrection(exported, queue, number, body) {
  const replayed = replayExport(exported);
  let state = { ...replayed, names: new Map(replayed.names) };
  for (const queued of queue) {
    try {
      state = applyQueued(state, queued);
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
    }
  }
  const again = replayFrom(state.start, state.history, number, entryOf(body), state.names);
  const history = again.history;
  const rules = history[history.length - 1].rules;
  const corrected = strip(history.find((item) => item.number === number).round);
  const later = history.filter((item) => item.number >= number).length;
  const rescored = {
    rounds: later,
    changed: again.changed,
    game: gameBody(exported.game, rules, rosterIds(exported, queue), state.revision + 1),
  };
  return { ...corrected, dry_run: true, rescored };
}

/**
 * Whether `exported` already holds a change the service answered (an outbox item "done" with
 * `recorded`, what the service answered): then it is not applied again.
 */
export function included(exported, item) {
  const at = new Map(exported.rounds.map((entry) => [entry.number, entry.round]));
  const recorded = item.recorded || {};
  if (item.kind === "create") return true; // any export of it is the service's
  if (item.kind === "round") {
    const round = at.get(recorded.number);
    return Boolean(round && round.created_at === recorded.created_at);
  }
  if (item.kind === "seat") return Boolean(at.get(recorded.number)?.seat_change);
  if (item.kind === "correct") {
    return JSON.stringify(at.get(item.number)) === JSON.stringify(recorded);
  }
  const round = at.get(item.number);
  return !round || Boolean(item.target && round.created_at !== item.target);
}

/**
 * The queue as the provisional game applies it on `exported` (asked for at `asked`, ms): what
 * it holds left out (answered before it was asked for, or seen in it).
 */
export function unsettled(exported, items, asked = 0) {
  const held = (item) => item.answered < asked || included(exported, item);
  return items.filter((item) => !(item.state === "done" && held(item)));
}
