// A game made with no network (static/js/made-offline.js): the id the phone chooses, the export
// it plays from, and the service's player ids put in place of the ones it made up.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  madeExport,
  madeId,
  madeTable,
  newId,
  randomSeat,
  realIds,
  renamedIds,
  timeStamp,
} from "../../scorekeeper/static/js/made-offline.js";
import { provisionalGame } from "../../scorekeeper/static/js/state/provisional.js";

const URL_SAFE = /^[A-Za-z0-9_-]{22}$/;

describe("the id a phone chooses", () => {
  test("is 22 URL-safe characters of 16 random bytes, no padding", () => {
    for (let i = 0; i < 200; i++) assert.match(newId(), URL_SAFE);
    assert.notEqual(newId(), newId());
  });

  test("writes the bytes as URL-safe base64", () => {
    const all = (value) => (bytes) => bytes.fill(value);
    assert.equal(newId(all(0)), "AAAAAAAAAAAAAAAAAAAAAA");
    assert.equal(newId(all(0xff)), "_____________________w");
    assert.equal(newId(all(0xfb)), "-_v7-_v7-_v7-_v7-_v7-w");
    const counting = (bytes) => bytes.map((_, at) => at);
    assert.equal(newId(counting), Buffer.from([...Array(16).keys()]).toString("base64url"));
  });
});

describe("a seat drawn at random", () => {
  test("is one of the seats, and a draw past the last whole cycle is drawn again", () => {
    const draws = [2 ** 32 - 1, 7]; // 2**32 - 1 is past the last multiple of 3: drawn again
    const fill = (values) => values.fill(draws.shift());
    assert.equal(randomSeat(3, fill), 1);
    assert.deepEqual(draws, []);
    for (let i = 0; i < 100; i++) {
      const seat = randomSeat(5);
      assert.ok(Number.isInteger(seat) && seat >= 0 && seat < 5);
    }
  });
});

describe("the export a new game is played from", () => {
  const made = {
    id: "q7RkZ2x0Tb6hJpWm9aLc1A",
    ruleset: "jhyap",
    name: "Friday",
    table: null,
    players: ["Asha", "Bikash", "Chandra"],
    dealer: 1,
    starter: 2,
    options: { elimination_limit: 50, halve_at: [] },
    createdAt: "2026-12-04T18:00:00Z",
  };

  test("is the Game before round 1, with the seats, dealer and starter chosen", () => {
    const { game, rounds } = madeExport(made);
    assert.deepEqual(rounds, []);
    assert.equal(game.id, made.id);
    assert.equal(game.name, "Friday");
    assert.equal(game.status, "in_progress");
    assert.equal(game.created_at, made.createdAt);
    assert.deepEqual(
      game.players.map((p) => [p.id, p.name, p.seat, p.score]),
      [
        [madeId(0), "Asha", 0, 0],
        [madeId(1), "Bikash", 1, 0],
        [madeId(2), "Chandra", 2, 0],
      ],
    );
    assert.deepEqual(game.next_round, { number: 1, dealer: madeId(1), starter: madeId(2) });
    assert.deepEqual(game.setup, { dealer: 1, starter: 2 });
    assert.equal(game.options.elimination_limit, 50);
  });

  test("of a ruleset whose rules name the starter: the dealer's left starts", () => {
    const { game } = madeExport({ ...made, ruleset: "twenty-two", options: {}, starter: 0 });
    assert.equal(game.next_round.dealer, madeId(1));
    assert.equal(game.next_round.starter, madeId(2));
  });

  test("scores rounds on the phone, and the same rounds with the service's ids score the same", () => {
    const exported = madeExport(made);
    const [a, b, c] = exported.game.players.map((p) => p.id);
    const rounds = [
      {
        caller: c,
        hands: [
          { player: a, total: 20 },
          { player: b, total: 30 },
          { player: c, total: 2 },
        ],
      },
      {
        caller: a,
        hands: [
          { player: a, total: 1 },
          { player: b, total: 5 },
          { player: c, total: 9 },
        ],
      },
    ].map((body, at) => ({ kind: "round", key: `r${at}`, body: { ...body, number: at + 1 } }));
    const onPhone = provisionalGame(exported, rounds);
    assert.deepEqual(onPhone.refused, []);
    assert.equal(onPhone.game.rounds_played, 2);

    // The service created it with its own ids, in the same seats.
    const served = [{ id: 41 }, { id: 42 }, { id: 43 }];
    const ids = realIds([a, b, c], served);
    assert.deepEqual(
      [...ids],
      [
        [a, 41],
        [b, 42],
        [c, 43],
      ],
    );
    const renamed = rounds.map((item) => ({ ...item, body: renamedIds(item.body, ids) }));
    assert.deepEqual(renamed[0].body.hands[2], { player: 43, total: 2 });
    assert.equal(renamed[1].body.caller, 41);
    assert.equal(renamed[1].body.number, 2); // numbers and totals are not ids
    const players = exported.game.players.map((p, seat) => ({ ...p, id: served[seat].id }));
    const real = { game: { ...exported.game, players }, rounds: [] };
    const onService = provisionalGame(real, renamed);
    assert.deepEqual(
      onService.game.players.map((p) => p.score),
      onPhone.game.players.map((p) => p.score),
    );
    assert.deepEqual(onService.game.next_round.number, 3);
  });

  test("rewrites only the ids it is given, anywhere in a body", () => {
    const ids = new Map([[madeId(0), 7]]);
    const body = { join: { name: "Dev", after: madeId(0) }, list: [madeId(0), 3], n: madeId(1) };
    assert.deepEqual(renamedIds(body, ids), {
      join: { name: "Dev", after: 7 },
      list: [7, 3],
      n: madeId(1),
    });
    assert.deepEqual(body.join.after, madeId(0)); // nothing given is changed
  });
});

describe("a table made with no network", () => {
  test("is the table as GET answers it: its roster, no games yet", () => {
    const table = madeTable({
      id: "AAAAAAAAAAAAAAAAAAAAAA",
      name: "Friday crew",
      players: ["Asha", "Bikash"],
      createdAt: timeStamp(Date.UTC(2026, 11, 4, 18, 0, 0, 250)),
    });
    assert.deepEqual(table, {
      id: "AAAAAAAAAAAAAAAAAAAAAA",
      name: "Friday crew",
      players: [
        { id: madeId(0), name: "Asha" },
        { id: madeId(1), name: "Bikash" },
      ],
      games: [],
      standings: [],
      created_at: "2026-12-04T18:00:00Z",
      updated_at: "2026-12-04T18:00:00Z",
    });
  });
});
