// The outbox as this phone keeps it: a round kept before the outbox was a queue moves into it
// once, as the page starts, first in its game's queue; and exports are kept for this game, the games this phone keeps that
// are still being played, and games with a queue.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { unsettled } from "../../scorekeeper/static/js/state/provisional.js";

const items = new Map();
globalThis.localStorage = {
  getItem: (key) => (items.has(key) ? items.get(key) : null),
  setItem: (key, value) => items.set(key, String(value)),
  removeItem: (key) => items.delete(key),
};
const { store } = await import("../../scorekeeper/static/js/store.js");

beforeEach(() => items.clear());

test("a round kept under the old key moves to the front of its game's queue, once", () => {
  const waitingRound = { key: "round-a", token: "t", body: { number: 3 }, state: "waiting" };
  const taken = { key: "round-b", body: { number: 1 }, state: "failed", error: { taken: true } };
  items.set("scorekeeper.pending.v1", JSON.stringify({ g1: waitingRound, g2: taken }));
  items.set(
    "scorekeeper.outbox.v2",
    JSON.stringify({ g1: { items: [{ kind: "undo", key: "undo-x", number: 3 }], notices: [] } }),
  );
  assert.equal(store.outbox("g1").items.length, 1); // a read moves nothing: the start does
  store.moveOldOutbox();
  assert.deepEqual(
    store.outbox("g1").items.map((item) => [item.kind, item.key]),
    [
      ["round", "round-a"],
      ["undo", "undo-x"],
    ],
  );
  assert.equal(store.outbox("g2").items[0].state, "taken");
  assert.equal(items.has("scorekeeper.pending.v1"), false);
  store.moveOldOutbox();
  assert.equal(store.outbox("g1").items.length, 2); // moved once, not again
});

test("an empty outbox is not kept; a game's export is kept while its queue waits", () => {
  store.setOutbox("g1", { items: [{ kind: "round", key: "k" }], notices: [] });
  store.saveExport("g1", { rounds: [] }, 5);
  store.saveExport("g2", { rounds: [] }, 6);
  store.saveExport("g3", { rounds: [] }, 7);
  assert.deepEqual(store.exported("g1"), { export: { rounds: [] }, asked: 5 });
  assert.equal(store.exported("g2"), null); // nothing waits for it, and another was kept since
  store.setOutbox("g1", { items: [], notices: [] });
  assert.deepEqual(Object.keys(store.outboxes()), []);
});

test("exports of the games this phone plays are kept; a finished or forgotten game's goes", () => {
  const game = (id, status) => ({ id, ruleset: "jhyap", name: "", players: [], status });
  store.saveGame(game("playing", "in_progress"), "t1");
  store.saveGame(game("over", "finished"), "t2");
  for (const id of ["playing", "over", "forgotten"]) store.saveExport(id, { rounds: [] }, 1);
  store.saveExport("shown", { rounds: [] }, 2);
  assert.deepEqual(Object.keys(JSON.parse(items.get("scorekeeper.exports.v1"))).sort(), [
    "playing",
    "shown",
  ]);
});

test("a done item leaves the queue once an export holds it", () => {
  const round = { number: 1, round: { number: 1, created_at: "2026-01-01T00:00:01Z" } };
  const exported = { rounds: [round] };
  const done = (extra) => ({ state: "done", answered: 10, ...extra });
  const queue = [
    done({ kind: "round", key: "a", recorded: { number: 1, created_at: round.round.created_at } }),
    done({ kind: "round", key: "b", recorded: { number: 2, created_at: "x" } }),
    done({ kind: "undo", key: "c", number: 2, target: "x" }),
    { kind: "round", key: "d", state: "queued" },
  ];
  assert.deepEqual(
    unsettled(exported, queue).map((item) => item.key),
    ["b", "d"], // a is in the export; the undo of round 2 is done there (no round 2)
  );
  assert.deepEqual(
    unsettled(exported, queue, 11).map((item) => item.key),
    ["d"], // asked for after every answer: it holds them all
  );
});
