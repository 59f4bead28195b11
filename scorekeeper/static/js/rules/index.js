// The rules on the phone: a port of the server's rules engine (scorekeeper/rules), kept identical
// to it by the conformance vectors in tests/js/vectors (docs/conformance.md). The server stays the
// authority; this scores provisionally. Pure functions on JSON: no DOM, no network, and no
// function changes its arguments.
//
// A game is {ruleset, players: [{id, name}] in seat order, options (resolved), state}, the state
// as GameState.to_dict() writes it. Refusals throw a RuleError with the server's code, message
// and details.

import { CannotEnd, InvalidOptions, RuleError, UnknownRuleset } from "./errors.js";
import { Hearts } from "./hearts.js";
import { Jhyap } from "./jhyap.js";
import { ScorePad } from "./score-pad.js";
import { copied } from "./state.js";
import { TwentyTwo } from "./twenty-two.js";
import { listed, pyRepr } from "./words.js";

export { CannotEnd, InvalidOptions, RuleError, UnknownRuleset };

/** The registry, in the server's order (rules/registry.py): one line a ruleset. */
export const RULESETS = Object.freeze({
  jhyap: Jhyap,
  "twenty-two": TwentyTwo,
  hearts: Hearts,
  "score-pad": ScorePad,
});

/** The ruleset class called `name`; an UnknownRuleset error for any other name. */
export function getRuleset(name) {
  if (typeof name === "string" && Object.hasOwn(RULESETS, name)) return RULESETS[name];
  const names = listed(Object.keys(RULESETS), "or");
  throw new UnknownRuleset(`There is no ruleset ${pyRepr(name)}; choose ${names}.`, {
    ruleset: [`Choose ${names}.`],
  });
}

/**
 * The ruleset called `name` as GET /api/v1/rulesets lists it, without its options: its limits and
 * its descriptor (the kind of its entry, its results' column, its figures...).
 */
export function describeRuleset(name) {
  const Rules = getRuleset(name);
  return copied({
    name: Rules.ruleset,
    title: Rules.title,
    min_players: Rules.minPlayers,
    max_players: Rules.maxPlayers,
    chooses_starter: Rules.choosesStarter,
    ...Rules.descriptor,
  });
}

/** Whether the table may end a game of `ruleset` with `options` by hand (PATCH status finished). */
export function endsByHand(ruleset, options) {
  return getRuleset(ruleset).restore([], copied(options)).canBeEnded();
}

/** Whether a lower total is better in a game of `ruleset` with `options` (else a higher one). */
export function lowerIsBetter(ruleset, options) {
  return getRuleset(ruleset).restore([], copied(options)).lowerIsBetter();
}

/** What the state of `game` shows of the player in `seat` beside their score (a score pile). */
export function playerFields(game, seat) {
  const [rules, state] = bind(game);
  return rules.playerFields(state, seat);
}

/** The game as JSON from bound rules and a state. */
function gameOf(rules, state) {
  return {
    ruleset: rules.constructor.ruleset,
    players: rules.players,
    options: rules.options,
    state,
  };
}

/** A copy of `game`'s state, and its ruleset bound to its players and options. */
function bind(game) {
  const { ruleset, players, options, state } = copied(game);
  return [getRuleset(ruleset).restore(players, options), state];
}

/** A new game: the options checked and resolved, and the state before round 1 (seats, not ids). */
export function startGame(ruleset, players, options = {}, dealer = null, starter = null) {
  const Rules = getRuleset(ruleset);
  const rules = new Rules(copied(players), copied(options) || {});
  return gameOf(rules, rules.start(dealer, starter));
}

/** A game stored earlier (its state as the server stores it), bound without checking it again. */
export function restoreGame(ruleset, players, options, state) {
  const rules = getRuleset(ruleset).restore(copied(players), copied(options));
  return gameOf(rules, rules.stateFromDict(copied(state)));
}

/** Score one round: {result (as round_json), state, game}; a RuleError if the rules refuse it. */
export function playRound(game, entry) {
  const [rules, state] = bind(game);
  const outcome = rules.play(state, rules.parseEntry(copied(entry)));
  return { ...outcome, game: gameOf(rules, outcome.state) };
}

/** Seat `newcomer` ({id, name}) right after the player `after`: {result, state, game}. */
export function join(game, newcomer, after) {
  const [rules, state] = bind(game);
  const outcome = rules.join(state, copied(newcomer), after);
  return {
    result: outcome.result,
    state: outcome.state,
    game: gameOf(outcome.rules, outcome.state),
  };
}

/** The active `player` leaves the game: {result (as seat_change_json), state, game}. */
export function leave(game, player) {
  const [rules, state] = bind(game);
  const outcome = rules.leave(state, player);
  return { result: outcome.result, state: outcome.state, game: gameOf(rules, outcome.state) };
}

/** The table ends the game by hand: {result (as end_json), state, game}; a CannotEnd if not. */
export function endGame(game) {
  const [rules, state] = bind(game);
  const outcome = rules.end(state);
  return { ...outcome, game: gameOf(rules, outcome.state) };
}

/** Whether the table may end `game` by hand (its ruleset and options allow it). */
export function canBeEnded(game) {
  const [rules] = bind(game);
  return rules.canBeEnded();
}

/** The game's status, next round and winners (player ids), as a round's `game` shows them. */
export function standing(game) {
  const [rules, state] = bind(game);
  return rules.standing(state);
}
