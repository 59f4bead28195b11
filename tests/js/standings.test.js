// A table's standings as the page shows them (pure, no DOM).

import assert from "node:assert/strict";
import { test } from "node:test";

import { places, rulesetFigures } from "../../scorekeeper/static/js/standings.js";

const row = (name, won, played, extra = {}) => ({
  player: name.length,
  name,
  games_won: won,
  games_played: played,
  ...extra,
});

test("the same record shares a place; the next place counts those above", () => {
  const rows = [row("Asha", 2, 3), row("Bikash", 1, 2), row("Chandra", 1, 2), row("Dev", 0, 4)];
  assert.deepEqual(places(rows), [1, 2, 2, 4]);
  assert.deepEqual(places([]), []);
});

test("equal wins with another average place, or as many more games, take the next place", () => {
  const rows = [
    row("Asha", 1, 2, { average_place: 1.5 }),
    row("Bikash", 1, 2, { average_place: 2 }),
    row("Chandra", 1, 1, { average_place: 2 }),
    row("Dev", 1, 1, { average_place: 2 }),
    row("Esha", 0, 0, { average_place: null }),
  ];
  assert.deepEqual(places(rows), [1, 2, 3, 3, 5]);
});

test("each ruleset played gives its figures, Jhyap first", () => {
  const figures = rulesetFigures(
    row("Asha", 1, 2, {
      jhyap: {
        games_played: 1,
        rounds_played: 4,
        calls: 3,
        calls_won: 2,
        caught: 1,
        halvings: 0,
        eliminations: 0,
        average_hand: 7.25,
      },
      "twenty-two": {
        games_played: 1,
        rounds_played: 2,
        tricks_taken: 1,
        points_taken: 11,
        eliminations: 1,
      },
    }),
  );
  assert.deepEqual(
    figures.map((part) => part.ruleset),
    ["jhyap", "twenty-two"],
  );
  const calls = figures[0].figures.find((f) => f.name === "calls_won");
  assert.deepEqual(calls.vars, { won: 2, n: 3 });
  assert.equal(figures[0].figures.find((f) => f.name === "average_hand").vars.n, 7.25);
  assert.deepEqual(
    figures[1].figures.map((f) => [f.name, f.vars.n]),
    [
      ["rounds_played", 2],
      ["tricks_taken", 1],
      ["points_taken", 11],
      ["eliminations", 1],
    ],
  );
});

test("a player who played only one ruleset shows only its figures", () => {
  assert.deepEqual(rulesetFigures(row("Dev", 0, 0)), []);
  const tt = { rounds_played: 1, tricks_taken: 0, points_taken: 0, eliminations: 0 };
  assert.deepEqual(
    rulesetFigures(row("Dev", 0, 1, { "twenty-two": tt })).map((p) => p.ruleset),
    ["twenty-two"],
  );
});
