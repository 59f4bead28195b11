// Steps every ruleset's round shares: who is in it, the state after it, its result and the end of
// the game (the shared checks and steps of rules/base.py).

import { RuleError } from "./errors.js";
import { activeSeats, isActive, lastNumber, makeState } from "./state.js";
import { listed, pyStr } from "./words.js";

const bySeat = (a, b) => a - b;

/** Check the entry names each active player exactly once; return their seats in entry order. */
export function checkOnePerActive(rules, state, playerIds, fieldName, noun) {
  const seats = [];
  const problem = (index, text) => ({ [fieldName]: { [String(index)]: { player: [text] } } });
  playerIds.forEach((playerId, index) => {
    const seat = rules.seatOf(playerId);
    if (seat === null) {
      throw new RuleError(
        `Player ${pyStr(playerId)} is not in this game.`,
        problem(index, "Not a player in this game."),
      );
    }
    const name = rules.nameOf(seat);
    if (state.left[seat]) {
      throw new RuleError(
        `${name} has left the game and takes no part.`,
        problem(index, "Left the game."),
      );
    }
    if (!isActive(state, seat)) {
      throw new RuleError(
        `${name} was eliminated in round ${state.eliminated_in_round[seat]} and takes no part.`,
        problem(index, "Eliminated."),
      );
    }
    if (seats.includes(seat)) {
      throw new RuleError(
        `${name} has two ${noun}s in this round.`,
        problem(index, "Listed twice."),
      );
    }
    seats.push(seat);
  });
  const missing = activeSeats(state)
    .filter((seat) => !seats.includes(seat))
    .map((seat) => rules.nameOf(seat));
  if (missing.length) {
    const which =
      missing.length === 1
        ? `${missing[0]}'s ${noun} is missing`
        : `the ${noun}s of ${listed(missing)} are missing`;
    throw new RuleError(`Give a ${noun} for every player still in the game; ${which}.`, {
      [fieldName]: [`Missing: ${missing.join(", ")}.`],
    });
  }
  return seats;
}

/**
 * The state after a round that played `seats` and left these scores and eliminations. If the
 * round ends the game the state names its winners; otherwise `nextTurns` fills in the next dealer
 * and starter. `tallies` maps a seat to the counts the round adds; `extra` is the ruleset's own.
 */
export function stateAfter(
  rules,
  state,
  seats,
  scores,
  eliminated,
  nextTurns,
  tallies,
  extra = {},
) {
  const [out, winners, finished] = rules.roundEnd(state, scores, eliminated, seats);
  const after = makeState(
    {
      rounds_played: state.rounds_played + 1,
      scores,
      eliminated_in_round: out,
      dealer: null,
      starter: null,
      winners,
      left: state.left,
      seat_changes: state.seat_changes,
      seating: rules.seating,
      tallies: rules.tallied(state, tallies),
    },
    extra,
  );
  return finished ? after : nextTurns(after);
}

/** Rules 6 and 8 (Twenty Two 5 and 7): [eliminated_in_round, winners, finished] after a round. */
export function eliminationEnd(state, newScores, eliminated, lowSeats) {
  const number = lastNumber(state) + 1;
  const out = state.eliminated_in_round.map((was, seat) =>
    eliminated.includes(seat) ? number : was,
  );
  const stillActive = out.flatMap((o, seat) => (o === null && !state.left[seat] ? [seat] : []));
  if (stillActive.length === 1) return [out, [stillActive[0]], true];
  if (!stillActive.length) {
    // Everyone still in went out together: the lowest total among them wins, ties share.
    const lowest = Math.min(...lowSeats.map((seat) => newScores[seat]));
    const winners = [...lowSeats].sort(bySeat).filter((seat) => newScores[seat] === lowest);
    return [out, winners, true];
  }
  return [out, [], false];
}

/** The seats among `seats` with the lowest (or highest) total, in seat order. */
export function bestTotals(scores, seats, lowest) {
  const values = seats.map((seat) => scores[seat]);
  const best = lowest ? Math.min(...values) : Math.max(...values);
  return [...seats].sort(bySeat).filter((seat) => scores[seat] === best);
}

/**
 * The round's JSON (round_json in domain/records.py) from `before` to `after`, in which `seats`
 * played: `row(seat)` gives the ruleset's own fields of a player's line, `fields` the round's.
 */
export function roundResult(rules, before, after, { seats, points, row, halved, fields }) {
  const results = [...seats].sort(bySeat).map((seat) => ({
    player: rules.players[seat].id,
    ...row(seat),
    points: points.get(seat),
    score_before: before.scores[seat],
    score_after: after.scores[seat],
    halved: halved.has(seat),
    eliminated: isActive(before, seat) && !isActive(after, seat),
  }));
  return {
    number: lastNumber(after),
    dealer: rules.players[before.dealer].id,
    starter: before.starter === null ? null : rules.players[before.starter].id,
    ...fields,
    results,
    game: rules.standing(after),
  };
}
