// A game and a table made with no network, sent when the service is back (outbox.js with
// state/made.js): the creation goes first, with its Idempotency-Key and the id the phone chose;
// the rounds queued behind it follow with the token and the player ids its answer gives; a game
// at a table made offline waits for the table.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

const items = new Map();
globalThis.localStorage = {
  getItem: (key) => (items.has(key) ? items.get(key) : null),
  setItem: (key, value) => items.set(key, String(value)),
  removeItem: (key) => items.delete(key),
};
globalThis.window = { addEventListener: () => {} };
Object.defineProperty(globalThis, "navigator", {
  value: { onLine: false, languages: ["en"] },
  configurable: true,
});

// The service as the phone reaches it: each request kept, answered by `answer`.
let sent = [];
let answer = () => ({ status: 500, body: null });
globalThis.fetch = async (url, init) => {
  const request = {
    method: init.method,
    path: url.replace("/api/v1", ""),
    body: init.body === undefined ? undefined : JSON.parse(init.body),
    headers: init.headers,
  };
  sent.push(request);
  const { status, body } = answer(request);
  return {
    ok: status < 400,
    status,
    headers: { get: () => null },
    json: async () => body,
  };
};

const { store } = await import("../../scorekeeper/static/js/store.js");
const { enqueue, flushAll, onOutboxChange, waiting } =
  await import("../../scorekeeper/static/js/outbox.js");
const { makeGame, makeTable } = await import("../../scorekeeper/static/js/state/made.js");
const { newId, madeId } = await import("../../scorekeeper/static/js/made-offline.js");

beforeEach(() => {
  items.clear();
  sent = [];
  navigator.onLine = false;
});

/** Resolves once every outbox is empty of items not yet answered. */
function allSent() {
  return new Promise((done) => {
    const check = () => {
      if (Object.keys(store.outboxes()).every((id) => waiting(id).length === 0)) {
        stop();
        done();
      }
    };
    const stop = onOutboxChange(check);
    check();
  });
}

const GAME = { ruleset: "jhyap", players: ["Asha", "Bikash"], dealer: 0, starter: 1 };

function made(id, extra = {}) {
  return {
    id,
    ruleset: "jhyap",
    name: "",
    table: null,
    players: GAME.players,
    dealer: 0,
    starter: 1,
    options: {},
    createdAt: "2026-12-04T18:00:00Z",
    ...extra,
  };
}

// The Game the service answers a creation with: its own player ids, 70 and 71.
function createdGame(request, table = null) {
  const players = ["Asha", "Bikash"].map((name, seat) => ({ id: 70 + seat, name, seat }));
  return {
    id: request.body.id,
    ruleset: "jhyap",
    name: "",
    players,
    status: "in_progress",
    table,
    token: "game-token",
    updated_at: "2026-12-04T18:00:01Z",
  };
}

test("a game made offline is created first; its rounds follow with its token and real ids", async () => {
  const id = newId();
  const body = { id, ...GAME, created_at: "2026-12-04T18:00:00Z" };
  const game = makeGame({ what: "game", body, made: made(id), key: "game-" + "k".repeat(32) });
  assert.deepEqual(
    game.players.map((p) => p.id),
    [madeId(0), madeId(1)],
  );
  assert.equal(store.game(id).made, true);
  assert.equal(store.writable(id), true);
  assert.equal(store.token(id), null);
  const hands = [
    { player: madeId(0), total: 3 },
    { player: madeId(1), total: 0 },
  ];
  enqueue(id, store.token(id), { kind: "round", body: { number: 1, caller: madeId(1), hands } });
  enqueue(id, store.token(id), { kind: "round", body: { number: 2, caller: madeId(0), hands } });
  assert.deepEqual(sent, []); // offline: nothing goes

  answer = (request) =>
    request.path === "/games"
      ? { status: 201, body: createdGame(request) }
      : { status: 201, body: { number: request.body.number, created_at: "2026-12-04T18:00:02Z" } };
  navigator.onLine = true;
  flushAll();
  await allSent();

  assert.deepEqual(
    sent.map((r) => [r.method, r.path]),
    [
      ["POST", "/games"],
      ["POST", `/games/${id}/rounds`],
      ["POST", `/games/${id}/rounds`],
    ],
  );
  assert.deepEqual(sent[0].body, body);
  assert.ok(sent[0].headers["Idempotency-Key"].length >= 22);
  assert.equal(sent[0].headers.Authorization, undefined);
  for (const round of sent.slice(1)) {
    assert.equal(round.headers.Authorization, "Bearer game-token");
    assert.deepEqual(
      round.body.hands.map((hand) => hand.player),
      [70, 71],
    );
  }
  assert.deepEqual(
    sent.slice(1).map((r) => [r.body.number, r.body.caller]),
    [
      [1, 71],
      [2, 70],
    ],
  );
  assert.equal(store.token(id), "game-token");
  assert.equal(store.game(id).made, undefined);
});

test("a game at a table made offline waits for the table's creation", async () => {
  const tableId = newId();
  const table = makeTable({
    body: {
      id: tableId,
      name: "Crew",
      players: ["Asha", "Bikash"],
      created_at: "2026-12-04T18:00:00Z",
    },
    key: "table-" + "k".repeat(32),
  });
  assert.equal(store.tableWritable(tableId), true);
  assert.deepEqual(store.keptTable(tableId).table, table);
  const id = newId();
  const body = { id, ...GAME };
  makeGame({
    what: "table-game",
    at: tableId,
    body,
    made: made(id, { table: tableId, roster: [madeId(0), madeId(1)] }),
    key: "game-" + "g".repeat(32),
  });
  assert.deepEqual(
    store.keptTable(tableId).table.games.map((g) => g.id),
    [id],
  );

  answer = (request) => {
    if (request.path === "/tables") {
      const players = request.body.players.map((name, at) => ({ id: 5 + at, name }));
      return { status: 201, body: { ...request.body, players, games: [], token: "table-token" } };
    }
    return { status: 201, body: createdGame(request, tableId) };
  };
  navigator.onLine = true;
  flushAll(); // the game's queue may come first: it waits
  await allSent();

  assert.deepEqual(
    sent.map((r) => [r.method, r.path]),
    [
      ["POST", "/tables"],
      ["POST", `/tables/${tableId}/games`],
    ],
  );
  assert.equal(sent[1].headers.Authorization, "Bearer table-token");
  assert.deepEqual(sent[1].body, body);
  assert.equal(store.tableToken(tableId), "table-token");
  assert.equal(store.table(tableId).made, undefined);
  assert.deepEqual(Object.keys(store.outboxes()), [id]); // the table's queue is gone
});

test("a creation the service refuses stops its queue; Discard drops the game and its rounds", async () => {
  const { discard, stopped } = await import("../../scorekeeper/static/js/outbox.js");
  const id = newId();
  makeGame({ what: "game", body: { id, ...GAME }, made: made(id), key: "game-" + "t".repeat(32) });
  enqueue(id, null, { kind: "round", body: { number: 1, caller: madeId(0), hands: [] } });
  const taken = { code: "id_taken", message: "A game or table already has the id.", details: {} };
  answer = () => ({ status: 409, body: { error: taken } });
  navigator.onLine = true;
  const refused = new Promise((done) => {
    const stop = onOutboxChange((event) => event.type === "failed" && (stop(), done()));
  });
  flushAll();
  await refused;
  assert.equal(sent.length, 1); // its round is not sent
  assert.equal(stopped(id).error.code, "id_taken");
  discard(id);
  assert.equal(store.game(id), null);
  assert.deepEqual(store.outbox(id).items, []);
});

test("a rematch made offline waits until its game's own changes are answered", async () => {
  const old = { id: "old-game-id-0000000000", ruleset: "jhyap", name: "", table: null };
  store.saveGame({ ...old, players: [{ name: "Asha" }, { name: "Bikash" }] }, "old-token");
  const id = newId();
  const body = { id, starter: 1, created_at: "2026-12-04T18:00:00Z" };
  makeGame({ what: "rematch", at: old.id, body, made: made(id), key: "rematch-" + "r".repeat(32) });
  enqueue(old.id, "old-token", { kind: "seat", body: { number: 3, leave: 9 } });
  assert.deepEqual(Object.keys(store.outboxes()), [id, old.id]); // the rematch's comes first

  answer = (request) =>
    request.path.endsWith("/rematch")
      ? { status: 201, body: createdGame(request) }
      : { status: 201, body: { id: old.id, players: [] } };
  navigator.onLine = true;
  flushAll(); // the rematch waits for the leave
  await allSent();

  assert.deepEqual(
    sent.map((r) => [r.method, r.path]),
    [
      ["POST", `/games/${old.id}/seats`],
      ["POST", `/games/${old.id}/rematch`],
    ],
  );
  assert.deepEqual(sent[1].body, body); // with the starter the phone drew
  assert.equal(sent[1].headers.Authorization, "Bearer old-token");
  assert.equal(store.token(id), "game-token");
});
