// The phone's rules engine (scorekeeper/static/js/rules) against the server's: every conformance
// vector the Python engine wrote to tests/js/vectors (regenerate them with
// `python -m tests.conformance.generate`; docs/conformance.md) is replayed here, item by item.
// Results and states must be the same JSON, keys in the same order; refusals the same code,
// message and details. No function may change the game it is given.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { describe, test } from "node:test";

import {
  RuleError,
  endGame,
  join,
  leave,
  playRound,
  restoreGame,
  startGame,
} from "../../scorekeeper/static/js/rules/index.js";

const DIR = new URL("./vectors/", import.meta.url);
const FILES = readdirSync(DIR).filter((name) => name.endsWith(".json"));

/** The vector's game as it starts: a new game, or one restored from a stored state. */
function begin(vector) {
  const { ruleset, players, options } = vector;
  if ("restore" in vector) return restoreGame(ruleset, players, options, vector.restore);
  return startGame(ruleset, players, options, vector.dealer, vector.starter);
}

/** Apply one item (a round, a join, a leave or the end by hand) to `game`. */
function apply(game, item) {
  if ("play" in item) return playRound(game, item.play);
  if ("join" in item) return join(game, item.join.player, item.join.after);
  if ("end" in item) return endGame(game);
  return leave(game, item.leave.player);
}

/** Assert that `run` throws the RuleError `expected` ({code, message, details}). */
function assertRefused(run, expected, where) {
  assert.throws(run, (error) => {
    assert.ok(error instanceof RuleError, `${where}: ${error.stack}`);
    assert.deepEqual(error.toJSON(), expected, where);
    return true;
  });
}

/** The same JSON, keys in the same order. */
function assertSameJson(actual, expected, where) {
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), where);
}

test("there are vectors to replay", () => {
  assert.ok(FILES.length >= 4, `vectors in ${DIR.pathname}: ${FILES}`);
});

for (const file of FILES) {
  const { vectors } = JSON.parse(readFileSync(new URL(file, DIR), "utf8"));
  describe(file, () => {
    for (const vector of vectors) {
      test(vector.name, () => replay(vector));
    }
  });
}

/** Replay one vector: its setup, then every item, checking each answer. */
function replay(vector) {
  if ("refused" in vector.start) {
    assertRefused(() => begin(vector), vector.start.refused, "setup");
    return;
  }
  let game = begin(vector);
  assertSameJson(game.options, vector.start.options, "options");
  assertSameJson(game.state, vector.start.state, "state at the start");
  vector.items.forEach((item, index) => {
    const where = `item ${index + 1} (${Object.keys(item)[0]})`;
    const before = structuredClone(game);
    if ("refused" in item) {
      assertRefused(() => apply(game, item), item.refused, where);
      assert.deepEqual(game, before, `${where}: the game is as it was`);
      return;
    }
    const outcome = apply(game, item);
    assertSameJson(outcome.result, item.result, `${where}: result`);
    assertSameJson(outcome.state, item.state, `${where}: state`);
    assert.deepEqual(game, before, `${where}: the game given is unchanged`);
    assert.deepEqual(outcome.game.state, outcome.state, where);
    const seating = outcome.game.players.map((player) => player.id);
    assert.deepEqual(seating, outcome.state.seating, `${where}: players in seat order`);
    // Every other item goes through storage, as the page keeps a game between rounds.
    const { ruleset, players, options, state } = JSON.parse(JSON.stringify(outcome.game));
    game = index % 2 ? restoreGame(ruleset, players, options, state) : outcome.game;
  });
}
