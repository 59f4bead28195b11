// Joins and leaves between rounds (Ruleset.join and Ruleset.leave in rules/base.py).

import { RuleError } from "./errors.js";
import { activeSeats, inserted, isActive, isFinished, lastNumber } from "./state.js";
import { pyStr } from "./words.js";

/** Seat `newcomer` right after the player `after`, from the next round on: {result, state, rules}. */
export function joinSeat(rules, state, newcomer, after) {
  const Rules = rules.constructor;
  if (isFinished(state)) {
    throw new RuleError("The game is over, so no one can join it.", {
      join: ["The game is over."],
    });
  }
  const afterSeat = rules.seatOf(after);
  if (afterSeat === null) {
    throw new RuleError(
      `Player ${pyStr(after)} is not in this game, so no one can sit after them.`,
      { join: { after: ["Not a player in this game."] } },
    );
  }
  if (rules.seatOf(newcomer.id) !== null) {
    throw new RuleError(`Player ${pyStr(newcomer.id)} already has a seat in this game.`, {
      join: { player: ["Already in this game."] },
    });
  }
  const active = activeSeats(state);
  if (active.length >= Rules.maxPlayers) {
    throw new RuleError(
      `${Rules.title} is played by at most ${Rules.maxPlayers} players and ` +
        `${active.length} are still in the game, so ${newcomer.name} cannot join.`,
      { join: [`At most ${Rules.maxPlayers} players may be in the game.`] },
    );
  }
  const at = afterSeat + 1;
  const seatAfter = (seat) => (seat !== null && seat >= at ? seat + 1 : seat);
  const seated = Rules.restore(inserted(rules.players, at, newcomer), rules.options);
  const score = rules.newcomerScore(state, active);
  let joined = {
    ...state,
    scores: inserted(state.scores, at, score),
    eliminated_in_round: inserted(state.eliminated_in_round, at, null),
    dealer: seatAfter(state.dealer),
    starter: seatAfter(state.starter),
    left: inserted(state.left, at, false),
    seat_changes: state.seat_changes + 1,
    seating: seated.seating,
    tallies: inserted(
      rules.tallies(state),
      at,
      Rules.tallyNames.map(() => 0),
    ),
  };
  joined = seated.afterSeatChange(rules.seatAdded(joined, at));
  const change = { join: { player: newcomer.id, name: newcomer.name, after, score } };
  return { result: seatChange(seated, joined, change), state: joined, rules: seated };
}

/** The active `player` leaves; the deal and the start pass on, or the last one in wins. */
export function leaveSeat(rules, state, player) {
  if (isFinished(state)) {
    throw new RuleError("The game is over, so no one can leave it.", {
      leave: ["The game is over."],
    });
  }
  const seat = rules.seatOf(player);
  if (seat === null) {
    throw new RuleError(`Player ${pyStr(player)} is not in this game.`, {
      leave: ["Not a player in this game."],
    });
  }
  const name = rules.nameOf(seat);
  if (state.left[seat]) {
    throw new RuleError(`${name} has already left the game.`, { leave: ["Already left."] });
  }
  if (!isActive(state, seat)) {
    throw new RuleError(
      `${name} was eliminated in round ${state.eliminated_in_round[seat]} ` +
        "and is already out of the game.",
      { leave: ["Eliminated."] },
    );
  }
  rules.checkLeave(state, seat);
  let gone = {
    ...state,
    left: state.left.map((was, s) => was || s === seat),
    seat_changes: state.seat_changes + 1,
    seating: rules.seating,
    tallies: rules.tallies(state),
  };
  const remaining = activeSeats(gone);
  if (remaining.length === 1) {
    gone = { ...gone, dealer: null, starter: null, winners: [remaining[0]] };
  } else {
    gone = rules.passTurns(gone, seat);
  }
  gone = rules.afterSeatChange(gone);
  return { result: seatChange(rules, gone, { leave: { player } }), state: gone, rules };
}

/** A seat change as the history shows it (seat_change_json in domain/records.py). */
function seatChange(rules, state, change) {
  return { number: lastNumber(state), seat_change: change, game: rules.standing(state) };
}
