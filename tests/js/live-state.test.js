// The page's live state (static/js/state/live*.js): the poll's spread, when it gives up on the
// stream, how it follows a resource (a stream, or a poll paused while the page is hidden), what
// it reads to bring the history up to a newer Game, and what a change costs in requests.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import {
  follow,
  POLL_MS,
  pollDelay,
  streamUnavailable,
} from "../../scorekeeper/static/js/state/live-connection.js";
import {
  heldHistory,
  historyRead,
  replayable,
  withEntry,
  withItems,
  withOwnItem,
} from "../../scorekeeper/static/js/state/live-history.js";
import { createLive } from "../../scorekeeper/static/js/state/live.js";

const { fixtures } = JSON.parse(
  readFileSync(new URL("./fixtures/provisional.json", import.meta.url), "utf8"),
);

describe("the poll's spread", () => {
  test("every wait is 10 s give or take 20 %, and they differ", () => {
    assert.equal(POLL_MS, 10_000);
    assert.equal(
      pollDelay(() => 0),
      8000,
    );
    assert.equal(
      pollDelay(() => 0.5),
      10_000,
    );
    assert.equal(
      pollDelay(() => 0.999999),
      12_000,
    );
    const waits = Array.from({ length: 200 }, () => pollDelay());
    assert.ok(waits.every((wait) => wait >= 8000 && wait <= 12_000));
    assert.ok(new Set(waits).size > 50, "spread, not in step");
  });
});

describe("when the page polls instead of holding the stream", () => {
  test("a stream that never opened, or closed for good, means polling", () => {
    assert.equal(streamUnavailable(false, 0), true); // failed while connecting: no stream here
    assert.equal(streamUnavailable(false, 2), true); // a 404 or 405 for the route
    assert.equal(streamUnavailable(true, 0), false); // it was open: the browser connects again
    assert.equal(streamUnavailable(true, 2), true); // open once, then closed for good
  });
});

/** A browser for `follow`: an EventSource to drive, a document to hide, timers to run. */
function browser({ streams = true } = {}) {
  const timers = [];
  const sources = [];
  const visibility = new Set();
  const env = {
    random: () => 0.5,
    setTimeout(fn, wait) {
      const timer = { fn, wait, done: false };
      timers.push(timer);
      return timer;
    },
    clearTimeout(timer) {
      if (timer) timer.done = true;
    },
    document: {
      hidden: false,
      addEventListener: (type, fn) => type === "visibilitychange" && visibility.add(fn),
      removeEventListener: (type, fn) => visibility.delete(fn),
    },
  };
  if (streams) {
    env.EventSource = class {
      constructor(url) {
        this.url = url;
        this.readyState = 0;
        this.listeners = {};
        this.closed = false;
        sources.push(this);
      }
      addEventListener(type, fn) {
        (this.listeners[type] ||= []).push(fn);
      }
      close() {
        this.closed = true;
        this.readyState = 2;
      }
      fire(type, message = {}) {
        for (const fn of this.listeners[type] || []) fn(message);
      }
    };
  }
  return {
    env,
    sources,
    pending: () => timers.filter((timer) => !timer.done),
    async runTimers() {
      for (const timer of timers.filter((t) => !t.done)) {
        timer.done = true;
        await timer.fn();
      }
    },
    setHidden(hidden) {
      env.document.hidden = hidden;
      for (const fn of visibility) fn();
    },
  };
}

function following(phone, polls = []) {
  const heard = [];
  let deleted = 0;
  const followed = follow({
    url: "/api/v1/games/g1/events",
    event: "game",
    poll: async () => polls.push("poll"),
    onSnapshot: (data, version) => heard.push([data, version]),
    onDeleted: () => (deleted += 1),
    env: phone.env,
  });
  return { followed, heard, polls, deleted: () => deleted };
}

describe("following a game", () => {
  test("the stream's events are the snapshots; nothing is polled while it is open", async () => {
    const phone = browser();
    const { followed, heard, polls } = following(phone);
    const [source] = phone.sources;
    assert.equal(source.url, "/api/v1/games/g1/events");
    source.fire("open");
    source.fire("game", { data: '{"id":"g1","rounds_played":3}', lastEventId: "17" });
    assert.deepEqual(heard, [[{ id: "g1", rounds_played: 3 }, '"17"']]);
    source.readyState = 0;
    source.fire("error"); // the connection dropped: the browser connects again by itself
    assert.equal(followed.polling, false);
    assert.equal(source.closed, false);
    assert.deepEqual(phone.pending(), []);
    await phone.runTimers();
    assert.deepEqual(polls, []);
    followed.close();
    assert.equal(source.closed, true);
  });

  test("a stream that fails before it opens gives way to a poll every 10 s ± 20 %", async () => {
    const phone = browser();
    const { followed, polls } = following(phone);
    const [source] = phone.sources;
    source.readyState = 2; // the route answered 404 or 405
    source.fire("error");
    assert.equal(source.closed, true);
    assert.equal(followed.polling, true);
    assert.deepEqual(
      phone.pending().map((timer) => timer.wait),
      [10_000],
    );
    assert.deepEqual(polls, []); // the page has just loaded what it shows: the first poll waits
    await phone.runTimers();
    await phone.runTimers();
    assert.deepEqual(polls, ["poll", "poll"]);
    followed.close();
    assert.deepEqual(phone.pending(), []);
  });

  test("a stream that was open and closed for good is polled at once", async () => {
    const phone = browser();
    const { followed, polls } = following(phone);
    const [source] = phone.sources;
    source.fire("open");
    source.readyState = 2;
    source.fire("error");
    assert.equal(followed.polling, true);
    await Promise.resolve();
    assert.deepEqual(polls, ["poll"]);
  });

  test("without EventSource the page polls", async () => {
    const phone = browser({ streams: false });
    const { followed, polls } = following(phone);
    assert.equal(followed.polling, true);
    await phone.runTimers();
    assert.deepEqual(polls, ["poll"]);
  });

  test("no poll while the page is hidden; one at once when it is shown again", async () => {
    const phone = browser({ streams: false });
    const { polls } = following(phone);
    phone.setHidden(true);
    assert.deepEqual(phone.pending(), []);
    await phone.runTimers();
    assert.deepEqual(polls, []);
    phone.setHidden(false);
    await Promise.resolve();
    assert.deepEqual(polls, ["poll"]);
    assert.equal(phone.pending().length, 1); // and the next one after it
  });

  test("a deleted game ends the stream", () => {
    const phone = browser();
    const { heard, deleted } = following(phone);
    const [source] = phone.sources;
    source.fire("open");
    source.fire("deleted", { data: "{}" });
    assert.equal(deleted(), 1);
    assert.equal(source.closed, true);
    assert.deepEqual(heard, []);
  });
});

// A game's history as the tests hold it: items 1..n, each round's game standing `status`.
function round(number, status = "in_progress") {
  return { number, results: [], game: { status, next_round: null, winners: [] } };
}
function game(last, { revision = 0, finished = false } = {}) {
  return {
    id: "g1",
    history_revision: revision,
    status: finished ? "finished" : "in_progress",
    next_round: finished ? null : { number: last + 1, dealer: 1, starter: 2 },
  };
}
function held(count, options = {}) {
  const rounds = Array.from({ length: count }, (_, at) => round(at + 1));
  return heldHistory(game(count, options), rounds);
}

describe("what to read when a newer Game arrives", () => {
  test("nothing, the new items, or all of it", () => {
    assert.deepEqual(historyRead(game(3), null), { all: true });
    assert.equal(historyRead(game(3), held(3)), null); // a rename, say
    assert.deepEqual(historyRead(game(5), held(3)), { after: 3 });
    assert.deepEqual(historyRead(game(3, { revision: 1 }), held(3)), { all: true });
    assert.deepEqual(historyRead(game(2), held(3)), { all: true }); // an undo (revision too)
  });

  test("a finished game: the item that ended it, once", () => {
    assert.deepEqual(historyRead(game(4, { finished: true }), held(3)), { after: 3 });
    const ended = held(3);
    ended.rounds[2].round = round(3, "finished");
    assert.equal(historyRead(game(3, { finished: true }), ended), null);
  });
});

describe("merging the new items into the history held", () => {
  test("they follow on, without their entries, and the game is the newer one", () => {
    const before = held(2);
    const merged = withItems(before, [round(3), round(4)], game(4));
    assert.deepEqual(
      merged.rounds.map((item) => [item.number, item.entry]),
      [
        [1, null],
        [2, null],
        [3, null],
        [4, null],
      ],
    );
    assert.equal(merged.game.next_round.number, 5);
    assert.equal(before.rounds.length, 2, "nothing given is changed");
  });

  test("a gap means reading it all; items newer than the Game wait for the next", () => {
    assert.equal(withItems(held(2), [round(4)], game(4)), null);
    const merged = withItems(held(2), [round(3), round(4)], game(3));
    assert.deepEqual(
      merged.rounds.map((item) => item.number),
      [1, 2, 3],
    );
  });

  test("this phone's own item goes on the end with its entry; only if it follows on", () => {
    const mine = withOwnItem(held(2), { caller: 1, hands: [] }, round(3));
    assert.deepEqual(mine.rounds[2].entry, { caller: 1, hands: [] });
    assert.equal(withOwnItem(held(2), {}, round(4)), null);
    const filled = withEntry(held(2), 2, { leave: 5 });
    assert.deepEqual(filled.rounds[1].entry, { leave: 5 });
  });

  test("a history replays on the phone when it has its setup and every entry", () => {
    const exported = fixtures[0].export;
    assert.equal(replayable(exported), true);
    assert.equal(replayable(held(2)), false); // read with ?after: no entries, no setup
    assert.equal(replayable({ ...exported, rounds: [...exported.rounds, round(3)] }), false);
  });
});

/** The service as a phone sees it, counting requests: a game that another phone plays on. */
function service(exported) {
  const state = { exported, version: 1 };
  const requests = [];
  const served = () => without(state.exported.game, "setup");
  const headers = () => ({ get: (name) => (name === "ETag" ? `"${state.version}"` : null) });
  const api = {
    async game(id, etag) {
      requests.push(etag ? `GET game ${etag}` : "GET game");
      if (etag === `"${state.version}"`) return { status: 304, data: null, headers: headers() };
      return { status: 200, data: served(), headers: headers() };
    },
    async rounds(id, after = null) {
      requests.push(after === null ? "GET rounds" : `GET rounds?after=${after}`);
      return state.exported.rounds.filter((i) => i.number > (after || 0)).map((i) => i.round);
    },
    async exportGame() {
      requests.push("GET export");
      return structuredClone(state.exported);
    },
    async table() {
      throw new Error("no tables here");
    },
  };
  return { state, requests, api, served };
}

function phone(exported, { token = null, sending = () => false } = {}) {
  const server = service(exported);
  const kept = new Map();
  const settledWith = [];
  let followed = null;
  const changes = [];
  const live = createLive({
    base: "/api/v1",
    api: server.api,
    store: {
      exported: (id) => kept.get(id) || null,
      saveExport: (id, data, asked) => kept.set(id, { export: data, asked }),
      updateGame: () => {},
      saveGame: () => {},
      game: () => null,
      table: () => null,
      token: () => token,
      writable: () => Boolean(token),
      updateTable: () => {},
    },
    outbox: { settled: (...args) => settledWith.push(args), sending, creating: () => false },
    follow: (options) => {
      followed = options;
      return { close() {}, polling: false };
    },
    isNetworkError: () => false,
    isGone: () => false,
  });
  live.subscribe((change) => changes.push(change.kind));
  return { live, server, kept, settledWith, changes, followed: () => followed };
}

/** `exported` as it stood before its last `count` items. */
function before(exported, count) {
  const rounds = exported.rounds.slice(0, exported.rounds.length - count);
  const last = rounds.length ? rounds[rounds.length - 1].round.game : null;
  const next = last ? last.next_round : exported.game.next_round;
  return { ...exported, game: { ...exported.game, next_round: next }, rounds };
}

/** `value` without the keys named. */
function without(value, ...keys) {
  const copy = { ...value };
  for (const key of keys) delete copy[key];
  return copy;
}

describe("what a change costs", () => {
  const fixture = fixtures.find((f) => f.name === "jhyap correction of a round every phone saw");
  const full = fixture.export;

  test("a watcher: the event, then only the new items", async () => {
    const watcher = phone(before(full, 1));
    await watcher.live.showGame("g1");
    assert.deepEqual(watcher.server.requests, ["GET game", "GET rounds"]);
    assert.equal(watcher.followed().url, "/api/v1/games/g1/events");

    watcher.server.state.exported = full;
    watcher.server.state.version = 2;
    watcher.server.requests.length = 0;
    await watcher.followed().onSnapshot(watcher.server.served(), '"2"');

    assert.deepEqual(watcher.server.requests, [`GET rounds?after=${full.rounds.length - 1}`]);
    const shown = watcher.live.game();
    assert.deepEqual(
      shown.held.rounds.map((item) => item.round),
      full.rounds.map((item) => item.round),
    );
    assert.equal(shown.game.next_round.number, full.game.next_round.number);
    assert.deepEqual(watcher.changes, ["game"]);

    // The same version again (a reconnect): nothing is read.
    await watcher.followed().onSnapshot(watcher.server.served(), '"2"');
    assert.deepEqual(watcher.server.requests, [`GET rounds?after=${full.rounds.length - 1}`]);
  });

  test("a watcher polling: a 304 costs nothing more, a correction the whole history", async () => {
    const watcher = phone(full);
    await watcher.live.showGame("g1");
    watcher.server.requests.length = 0;
    await watcher.followed().poll();
    assert.deepEqual(watcher.server.requests, ['GET game "1"']);

    const corrected = structuredClone(full);
    corrected.game.history_revision = 1;
    watcher.server.state.exported = corrected;
    watcher.server.state.version = 2;
    watcher.server.requests.length = 0;
    await watcher.followed().poll();
    assert.deepEqual(watcher.server.requests, ['GET game "1"', "GET rounds"]);
    assert.equal(watcher.live.game().game.history_revision, 1);
  });

  test("the scorer's own round: no read, the game worked out on the phone", async () => {
    const scorer = phone(before(full, 1), { token: "t" });
    await scorer.live.showGame("g1");
    assert.deepEqual(scorer.server.requests, ["GET game", "GET export"]);
    scorer.server.requests.length = 0;
    const last = full.rounds[full.rounds.length - 1];

    scorer.live.outboxChanged({
      type: "sent",
      gameId: "g1",
      item: { kind: "round", key: "k", body: { number: last.number, ...last.entry } },
      answer: last.round,
    });
    await Promise.resolve();

    assert.deepEqual(scorer.server.requests, []);
    const shown = scorer.live.game();
    assert.deepEqual(shown.held.rounds, full.rounds);
    const expected = without(full.game, "setup", "created_at", "updated_at");
    assert.deepEqual(without(shown.game, "created_at", "updated_at"), expected);
    assert.deepEqual(scorer.kept.get("g1").export.rounds, full.rounds); // written through
    assert.equal(scorer.settledWith.at(-1)[1].rounds.length, full.rounds.length);

    // Its own round's event, after the answer: already held.
    scorer.server.state.exported = full;
    scorer.server.state.version = 2;
    await scorer.followed().onSnapshot(scorer.server.served(), '"2"');
    assert.deepEqual(scorer.server.requests, []);
  });

  test("its own round scored otherwise than the phone works out: the export is read", async () => {
    const scorer = phone(before(full, 1), { token: "t" });
    await scorer.live.showGame("g1");
    scorer.server.requests.length = 0;
    const last = structuredClone(full.rounds[full.rounds.length - 1]);
    last.round.results[0].score_after += 20; // an earlier round was corrected on another phone
    await scorer.live.outboxChanged({
      type: "sent",
      gameId: "g1",
      item: { kind: "round", key: "k", body: { number: last.number, ...last.entry } },
      answer: last.round,
    });
    assert.deepEqual(scorer.server.requests, ["GET export"]);
  });

  test("an event heard while this phone's round is on its way waits for the answer", async () => {
    let sending = true;
    const scorer = phone(before(full, 1), { token: "t", sending: () => sending });
    await scorer.live.showGame("g1");
    scorer.server.requests.length = 0;
    scorer.server.state.exported = full;
    scorer.server.state.version = 2;
    await scorer.followed().onSnapshot(scorer.server.served(), '"2"');
    assert.deepEqual(scorer.server.requests, []);

    sending = false;
    const last = full.rounds[full.rounds.length - 1];
    await scorer.live.outboxChanged({
      type: "sent",
      gameId: "g1",
      item: { kind: "round", key: "k", body: { number: last.number, ...last.entry } },
      answer: last.round,
    });
    assert.deepEqual(scorer.server.requests, []);
    assert.equal(scorer.live.game().game.next_round.number, full.game.next_round.number);
  });

  test("a scorer sees another phone's round with its entry (the export)", async () => {
    const scorer = phone(before(full, 1), { token: "t" });
    await scorer.live.showGame("g1");
    scorer.server.requests.length = 0;
    scorer.server.state.exported = full;
    scorer.server.state.version = 2;
    await scorer.followed().onSnapshot(scorer.server.served(), '"2"');
    assert.deepEqual(scorer.server.requests, ["GET export"]);
    assert.equal(replayable(scorer.live.game().held), true);
  });

  test("this phone's correction: the whole history once, however it hears of it", async () => {
    const scorer = phone(full, { token: "t" });
    await scorer.live.showGame("g1");
    scorer.server.requests.length = 0;
    const corrected = structuredClone(full);
    corrected.game.history_revision = 1;
    let answer = null;
    await scorer.live.write(
      async () => {
        scorer.server.state.exported = corrected;
        scorer.server.state.version = 2;
        // its event arrives before the answer
        await scorer.followed().onSnapshot(scorer.server.served(), '"2"');
        answer = corrected.rounds[0].round;
        return answer;
      },
      { kind: "correct", number: 1, body: {} },
    );
    assert.deepEqual(scorer.server.requests, ["GET export"]);
    assert.equal(scorer.live.game().game.history_revision, 1);
  });
});

const OFFLINE = new Error("no network");

/** A phone that shows table t1: the service answers each read with the next of `answers` (a
 * table, or an error thrown); `kept`, the copy this phone kept of it, if any. */
function tablePhone(answers, kept = null) {
  const requests = [];
  const copies = new Map(kept ? [["t1", kept]] : []);
  const changes = [];
  let followed = null;
  const clock = { now: 9000 };
  const live = createLive({
    base: "/api/v1",
    api: {
      async table(id, etag) {
        requests.push(etag ? `GET table ${etag}` : "GET table");
        const answer = answers.shift();
        if (answer instanceof Error) throw answer;
        const headers = { get: (name) => (name === "ETag" ? `"${answer.version}"` : null) };
        return { status: 200, data: answer, headers };
      },
    },
    store: {
      keptTable: (id) => copies.get(id) || null,
      keepTable: (table, seen) => copies.set(table.id, { table, seen }),
      updateTable: () => {},
    },
    outbox: { settled: () => {}, sending: () => false, creating: () => false },
    follow: (options) => {
      followed = options;
      return { close() {}, polling: true };
    },
    isNetworkError: (error) => error === OFFLINE,
    isGone: () => false,
    now: () => clock.now,
  });
  live.subscribe((change) => changes.push(change.kind));
  return { live, requests, copies, changes, clock, followed: () => followed };
}

describe("a table this phone keeps", () => {
  const old = { id: "t1", name: "Friday crew", version: 1, games: [{ id: "g1" }] };
  const fresh = { ...old, version: 2, games: [{ id: "g2" }, { id: "g1" }] };

  test("each read of the table is kept, with when it was read", async () => {
    const phone = tablePhone([old, fresh]);
    await phone.live.showTable("t1");
    assert.deepEqual(phone.copies.get("t1"), { table: old, seen: 9000 });
    assert.equal(phone.live.tableSeen(), null); // the service's answer, not a kept copy
    phone.clock.now = 12_000;
    await phone.followed().poll();
    assert.deepEqual(phone.requests, ["GET table", 'GET table "1"']);
    assert.deepEqual(phone.copies.get("t1"), { table: fresh, seen: 12_000 });
    assert.deepEqual(phone.live.table(), fresh);
  });

  test("offline: the kept copy, followed, until a read succeeds and replaces it", async () => {
    const phone = tablePhone([OFFLINE, OFFLINE, fresh], { table: old, seen: 500 });
    await phone.live.showTable("t1");
    assert.deepEqual(phone.live.table(), old);
    assert.equal(phone.live.tableSeen(), 500);
    assert.equal(phone.live.showing("t1"), true);
    assert.equal(phone.followed().url, "/api/v1/tables/t1/events");

    await phone.followed().poll(); // still offline: the copy stays, the follow asks again later
    assert.deepEqual(phone.live.table(), old);
    assert.deepEqual(phone.copies.get("t1"), { table: old, seen: 500 });
    assert.deepEqual(phone.changes, []);

    await phone.followed().poll();
    assert.deepEqual(phone.requests, ["GET table", "GET table", "GET table"]); // no version held
    assert.deepEqual(phone.live.table(), fresh);
    assert.equal(phone.live.tableSeen(), null);
    assert.deepEqual(phone.copies.get("t1"), { table: fresh, seen: 9000 });
    assert.deepEqual(phone.changes, ["table"]);
  });

  test("offline with no kept copy, or any other error: the error is the router's", async () => {
    await assert.rejects(tablePhone([OFFLINE]).live.showTable("t1"), OFFLINE);
    const refused = new Error("404");
    const phone = tablePhone([refused], { table: old, seen: 500 });
    await assert.rejects(phone.live.showTable("t1"), refused);
    assert.equal(phone.live.table(), null);
  });
});
