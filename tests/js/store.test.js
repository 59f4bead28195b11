// What this phone keeps: tables next to games, and a game at a table written with the table's key.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

const items = new Map();
globalThis.localStorage = {
  getItem: (key) => (items.has(key) ? items.get(key) : null),
  setItem: (key, value) => items.set(key, String(value)),
  removeItem: (key) => items.delete(key),
};
const { store } = await import("../../scorekeeper/static/js/store.js");

const table = {
  id: "t1",
  name: "Friday crew",
  players: [{ id: 1, name: "Asha" }],
  updated_at: "2026-12-01T20:00:00Z",
};
const game = (id, tableId) => ({
  id,
  ruleset: "jhyap",
  name: null,
  players: [{ name: "Asha" }, { name: "Bikash" }],
  status: "in_progress",
  updated_at: "2026-12-01T20:00:00Z",
  table: tableId,
});

beforeEach(() => items.clear());

test("a table is kept with its key, the newest first, and forgotten on its own", () => {
  store.saveTable(table, "table-key");
  store.saveTable({ ...table, id: "t2", name: "Sunday" }, "other-key");
  assert.deepEqual(
    store.tables().map((t) => t.id),
    ["t2", "t1"],
  );
  assert.equal(store.tableToken("t1"), "table-key");
  store.updateTable({
    ...table,
    name: "Friday",
    players: [...table.players, { id: 2, name: "Dev" }],
  });
  assert.deepEqual(store.table("t1").players, ["Asha", "Dev"]);
  assert.equal(store.tableToken("t1"), "table-key"); // an update keeps the key
  store.forgetTable("t2");
  assert.deepEqual(
    store.tables().map((t) => t.id),
    ["t1"],
  );
});

test("a game's own key first, else its table's key, else none", () => {
  store.saveTable(table, "table-key");
  store.saveGame(game("g1", "t1"), "game-key");
  store.saveGame(game("g2", "t1"), null); // started by another phone at this table
  store.saveGame(game("g3", null), null);
  assert.equal(store.token("g1"), "game-key");
  assert.equal(store.token("g2"), "table-key");
  assert.equal(store.token("g3"), null);
  assert.equal(store.game("g2").table, "t1");
  store.forgetTable("t1");
  assert.equal(store.token("g2"), null);
});

test("a table's copy as last read is kept while the phone keeps the table, and forgotten with it", () => {
  const read = { ...table, standings: [], games: [{ id: "g1", status: "in_progress" }] };
  store.keepTable(read, 1000); // not a table this phone keeps: no copy
  assert.equal(store.keptTable("t1"), null);
  store.saveTable(table, "table-key");
  store.saveTable({ ...table, id: "t2", name: "Sunday" }, null);
  store.keepTable(read, 1000);
  store.keepTable({ ...read, id: "t2" }, 1500);
  assert.deepEqual(store.keptTable("t1"), { table: read, seen: 1000 });
  const later = { ...read, games: [...read.games, { id: "g2", status: "in_progress" }] };
  store.keepTable(later, 2000); // read again: the newer copy replaces it
  assert.deepEqual(store.keptTable("t1"), { table: later, seen: 2000 });
  store.forgetTable("t1");
  assert.equal(store.keptTable("t1"), null);
  assert.deepEqual(store.keptTable("t2"), { table: { ...read, id: "t2" }, seen: 1500 });
});
