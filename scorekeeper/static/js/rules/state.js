// The game state as plain JSON (GameState.to_dict() in rules/base.py), and what it tells.

/** A state with its fields in the order GameState.to_dict() writes them; `extra` follows. */
export function makeState(fields, extra = {}) {
  const { rounds_played, scores, eliminated_in_round, dealer, starter } = fields;
  return {
    rounds_played,
    scores,
    eliminated_in_round,
    dealer,
    starter,
    winners: fields.winners ?? [],
    left: fields.left?.length ? fields.left : scores.map(() => false),
    seat_changes: fields.seat_changes ?? 0,
    seating: fields.seating ?? [],
    tallies: fields.tallies ?? [],
    ...extra,
  };
}

/** The number of the last history item: rounds and seat changes share one numbering. */
export function lastNumber(state) {
  return state.rounds_played + state.seat_changes;
}

/** Whether the game is over. */
export function isFinished(state) {
  return state.dealer === null;
}

/** Whether the player in `seat` is still in the game: not eliminated, not left. */
export function isActive(state, seat) {
  return state.eliminated_in_round[seat] === null && !state.left[seat];
}

/** Seats still in the game, in seat order. */
export function activeSeats(state) {
  return state.scores.map((_, seat) => seat).filter((seat) => isActive(state, seat));
}

/** `values` with `value` inserted at index `at` (a new array). */
export function inserted(values, at, value) {
  return [...values.slice(0, at), value, ...values.slice(at)];
}

/** A deep copy of a JSON value, so that what the engine returns shares nothing with its input. */
export function copied(value) {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}
