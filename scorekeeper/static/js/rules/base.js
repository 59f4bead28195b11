// The base of every ruleset: a table's players and options, the first round, standings and seat
// changes (rules/base.py). Pure: no method changes its arguments or the ruleset.

import { CannotEnd, InvalidOptions } from "./errors.js";
import { optionMaximum, resolveOptions } from "./options.js";
import { eliminationEnd } from "./round.js";
import { joinSeat, leaveSeat } from "./seats.js";
import { isFinished, lastNumber, isActive, makeState } from "./state.js";
import { isInteger } from "./words.js";

/**
 * The rules of one game, bound to one table: its players ({id, name}) in seat order and its
 * resolved options. Subclasses set the static fields and implement parseEntry and play.
 */
export class Ruleset {
  static ruleset = "";
  static title = "";
  static minPlayers = 0;
  static maxPlayers = 0;
  static optionSpecs = [];
  /** Whether the table names round 1's starter (else it follows the dealer). */
  static choosesStarter = false;
  /** What a state's tallies count for each seat, in order. */
  static tallyNames = [];
  /** What the page needs to draw the ruleset: the descriptor GET /api/v1/rulesets carries. */
  static descriptor = {};

  /** Seat `players` and resolve `options`; unless `check` is false, refuse what the rules don't allow. */
  constructor(players, options = {}, check = true) {
    const Rules = this.constructor;
    this.players = players.map(({ id, name }) => ({ id, name }));
    this.seatById = new Map(this.players.map((player, seat) => [player.id, seat]));
    const count = this.players.length;
    if (check && !(Rules.minPlayers <= count && count <= Rules.maxPlayers)) {
      const range = `${Rules.minPlayers} to ${Rules.maxPlayers}`;
      throw new InvalidOptions(`${Rules.title} is played by ${range} players, not ${count}.`, {
        players: [`Give ${range} players.`],
      });
    }
    this.options = resolveOptions(this, options || {}, check);
  }

  /** Bind an existing game's options to its players, checking neither again. */
  static restore(players, options) {
    return new this(players, options, false);
  }

  /** The largest value allowed for `spec`, which may depend on other options. */
  optionMaximum(spec, options) {
    return optionMaximum(spec, options);
  }

  // Seats and players

  /** The seat of `playerId`, or null if they are not at this table. */
  seatOf(playerId) {
    return isInteger(playerId) ? (this.seatById.get(playerId) ?? null) : null;
  }

  /** The name of the player in `seat`. */
  nameOf(seat) {
    return this.players[seat].name;
  }

  /** The players' ids in seat order: what a state of this table holds as its seating. */
  get seating() {
    return this.players.map((player) => player.id);
  }

  /** The state's tallies, all zero for a state that has none. */
  tallies(state) {
    if (state.tallies.length) return state.tallies;
    return state.scores.map(() => this.constructor.tallyNames.map(() => 0));
  }

  /** The state's tallies plus `counts` (a Map from seat to a row in tallyNames order). */
  tallied(state, counts) {
    return this.tallies(state).map((row, seat) =>
      counts.has(seat) ? row.map((value, i) => value + counts.get(seat)[i]) : [...row],
    );
  }

  /** The first active seat clockwise after `seat`. */
  nextActiveSeat(state, seat) {
    const count = this.players.length;
    for (let step = 1; step <= count; step += 1) {
      if (isActive(state, (seat + step) % count)) return (seat + step) % count;
    }
    throw new Error("no active seat");
  }

  /** Every seat, starting at `seat` and going clockwise. */
  clockwiseFrom(seat) {
    const count = this.players.length;
    return this.players.map((_, step) => (seat + step) % count);
  }

  // The game

  /** The state before round 1, with the table's first dealer and starter seats. */
  start(dealer, starter = null) {
    const Rules = this.constructor;
    const count = this.players.length;
    const seats = `a seat from 0 to ${count - 1}`;
    const isSeat = (seat) => isInteger(seat) && 0 <= seat && seat < count;
    const problems = [];
    if (!isSeat(dealer))
      problems.push(["dealer", `The first dealer must be ${seats}.`, `Give ${seats}.`]);
    const given = starter !== null && starter !== undefined;
    if (given && !Rules.choosesStarter && this.firstStarter(0) === null) {
      const rule = `In ${Rules.title} no seat starts by rule`;
      problems.push(["starter", `${rule}, so leave out starter.`, `${rule}.`]);
    } else if (given && !Rules.choosesStarter) {
      const rule = `In ${Rules.title} the player at the dealer's left starts`;
      problems.push(["starter", `${rule}, so leave out starter.`, `${rule}.`]);
    } else if (starter !== null && starter !== undefined && !isSeat(starter)) {
      problems.push(["starter", `The first starter must be ${seats}.`, `Give ${seats}.`]);
    }
    if (problems.length) {
      const details = Object.fromEntries(problems.map(([name, , detail]) => [name, [detail]]));
      throw new InvalidOptions(problems[0][1], details);
    }
    return makeState(
      {
        rounds_played: 0,
        scores: this.players.map(() => 0),
        eliminated_in_round: this.players.map(() => null),
        dealer,
        starter: starter ?? this.firstStarter(dealer),
        seating: this.seating,
        tallies: this.players.map(() => Rules.tallyNames.map(() => 0)),
      },
      this.initialExtra(),
    );
  }

  /** Round 1's starter when the table names none: the dealer's left. */
  firstStarter(dealer) {
    return (dealer + 1) % this.players.length;
  }

  /** Rebuild a stored state (stored with every field: the service's migrations gave old ones theirs). */
  stateFromDict(data) {
    return makeState(data, this.extraFromDict(data));
  }

  /** The ruleset's own fields of a stored state, with their defaults. */
  extraFromDict() {
    return {};
  }

  /** Ruleset-specific fields of the state before round 1. */
  initialExtra() {
    return {};
  }

  /** Status, next round and winners (player ids), as a round's `game` shows them. */
  standing(state) {
    const winners = state.winners.map((seat) => this.players[seat].id);
    if (isFinished(state)) return { status: "finished", next_round: null, winners };
    return { status: "in_progress", next_round: this.nextRound(state), winners };
  }

  /** Who deals and starts the round after `state` (player ids), and its number. */
  nextRound(state) {
    return {
      number: lastNumber(state) + 1,
      dealer: this.players[state.dealer].id,
      starter: state.starter === null ? null : this.players[state.starter].id,
    };
  }

  /** After a round that played `seats`: [eliminated_in_round, winners, finished]. By default the
   * game ends when at most one player is still in (elimination games). */
  roundEnd(state, newScores, eliminated, seats) {
    return eliminationEnd(state, newScores, eliminated, seats);
  }

  // The end of a game by hand

  /** Whether the table may end a game of these rules and options by hand. */
  canBeEnded() {
    return false;
  }

  /** The table ends the game: {result (as end_json), state}; the winners as the ruleset says. */
  end(state) {
    const Rules = this.constructor;
    if (!this.canBeEnded()) {
      throw new CannotEnd(
        `A game of ${Rules.title} ends by its own rules, so it cannot be ended by hand.`,
        { status: ["This game ends by its own rules."] },
      );
    }
    if (isFinished(state)) {
      throw new CannotEnd("The game is over already.", { status: ["The game is over."] });
    }
    const ended = {
      ...state,
      dealer: null,
      starter: null,
      winners: this.winnersAtEnd(state),
      seat_changes: state.seat_changes + 1,
    };
    const result = { number: lastNumber(ended), end: true, game: this.standing(ended) };
    return { result, state: ended };
  }

  /** The total a newcomer starts with: the highest among the `active` seats. */
  newcomerScore(state, active) {
    return Math.max(...active.map((seat) => state.scores[seat]));
  }

  /** Whether a lower total is better (elimination games, Hearts); else a higher one. */
  lowerIsBetter() {
    return true;
  }

  /** Refuse a leave of the player in `seat` that the ruleset does not allow. */
  checkLeave() {}

  /** What the state shows of the player in `seat` beside their score (GameState.player_fields). */
  playerFields() {
    return {};
  }

  // Seat changes between rounds (rules.md, "Seat changes between rounds")

  /** Seat `newcomer` ({id, name}) clockwise right after the player `after`: {result, state, rules}. */
  join(state, newcomer, after) {
    return joinSeat(this, state, newcomer, after);
  }

  /** The active `player` leaves: their total freezes and they never win. {result, state, rules}. */
  leave(state, player) {
    return leaveSeat(this, state, player);
  }

  /** The deal and the start of the next round, passed on from `seat`, who just left. */
  passTurns(state, seat) {
    let { dealer, starter } = state;
    if (dealer === seat) dealer = this.nextActiveSeat(state, seat);
    if (starter === seat) starter = this.nextActiveSeat(state, seat);
    return { ...state, dealer, starter };
  }

  /** The ruleset's own fields after a newcomer took `seat` (the other seats moved on). */
  seatAdded(state) {
    return state;
  }

  /** What the ruleset works out again once the players at the table change. */
  afterSeatChange(state) {
    return state;
  }
}
