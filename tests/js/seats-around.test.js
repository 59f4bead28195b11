// Which edge each label goes to on a phone lying in the middle of the table (pure, no DOM).

import assert from "node:assert/strict";
import { test } from "node:test";

import { seatEdges } from "../../scorekeeper/static/js/seats-around.js";

test("clockwise from the bottom edge's middle, evenly round a phone twice as tall as wide", () => {
  assert.deepEqual(seatEdges(2), { bottom: [0], left: [], top: [1], right: [] });
  assert.deepEqual(seatEdges(3), { bottom: [0], left: [1], top: [], right: [2] });
  assert.deepEqual(seatEdges(4), { bottom: [0], left: [1], top: [2], right: [3] });
  // Up the left side (1 below 2), down the right side (3 above 4).
  assert.deepEqual(seatEdges(5), { bottom: [0], left: [1, 2], top: [], right: [3, 4] });
  assert.deepEqual(seatEdges(6), { bottom: [0], left: [1, 2], top: [3], right: [4, 5] });
  assert.deepEqual(seatEdges(8), { bottom: [0], left: [1, 2, 3], top: [4], right: [5, 6, 7] });
});

test("Turn moves every seat one place on, clockwise", () => {
  // Seat 4 comes round to the bottom; the bottom edge lists right to left (clockwise).
  assert.deepEqual(seatEdges(5, 1), { bottom: [4], left: [0, 1], top: [], right: [2, 3] });
  assert.deepEqual(seatEdges(5, 5), seatEdges(5));
  // With two at the bottom, the one by the right-hand corner comes first, clockwise.
  assert.deepEqual(seatEdges(12).bottom, [11, 0]);
});

test("every seat is on one edge, once", () => {
  for (let count = 2; count <= 12; count++) {
    for (let turn = 0; turn < count; turn++) {
      const all = Object.values(seatEdges(count, turn)).flat();
      assert.deepEqual(
        all.slice().sort((a, b) => a - b),
        [...Array(count).keys()],
      );
    }
  }
});
