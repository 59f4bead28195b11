// Round numbers as people count them: seat changes take no number (pure, no DOM).

import assert from "node:assert/strict";
import { test } from "node:test";

import { nextRoundLabel, roundLabel } from "../../scorekeeper/static/js/round-numbers.js";

// Six rounds, a join (7) and a leave (8), then round 9 as the API numbers it.
const history = [
  ...[1, 2, 3, 4, 5, 6].map((number) => ({ number, results: [] })),
  { number: 7, seat_change: { join: { player: 9, name: "Dev", after: 1, score: 20 } } },
  { number: 8, seat_change: { leave: { player: 3 } } },
  { number: 9, results: [] },
];

test("a round's number counts the rounds before it, not the seat changes", () => {
  assert.deepEqual(
    [1, 2, 6, 9].map((number) => roundLabel(history, number)),
    [1, 2, 6, 7],
  );
});

test("the next round after the history, and with no history at all", () => {
  assert.equal(roundLabel(history, 10), 8);
  assert.equal(roundLabel([], 1), 1);
  assert.equal(roundLabel(null, 1), 1);
  assert.equal(nextRoundLabel({ rounds_played: 7, next_round: { number: 10 } }), 8);
});
