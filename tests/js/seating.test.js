// Who sits where: seat changes, a rematch's seats and roster chips (pure, no DOM).

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  defaultAfter,
  isSeatChange,
  nextGameSeats,
  rosterToJoin,
  roundsOnly,
  seatChangeBody,
  togglePick,
} from "../../scorekeeper/static/js/seating.js";
import { parseRoute, isSeatTab } from "../../scorekeeper/static/js/state/route.js";

const player = (id, name, extra = {}) => ({
  id,
  name,
  eliminated: false,
  left: false,
  roster_id: null,
  ...extra,
});

const game = {
  players: [player(10, "Asha"), player(11, "Bikash"), player(12, "Chandra"), player(13, "Dev")],
  next_round: { number: 4, dealer: 12, starter: 10 },
};

const join = {
  number: 3,
  seat_change: { join: { player: 14, name: "Esha", after: 11, score: 40 } },
};
const round = (number, dealer) => ({ number, dealer, results: [] });

test("a newcomer sits at the dealer's right by default", () => {
  assert.equal(defaultAfter(game), 11);
  assert.equal(defaultAfter({ ...game, next_round: { dealer: 10 } }), 13);
});

test("players who are out or left are skipped for the default seat", () => {
  const players = [player(10, "Asha"), player(11, "Bikash", { left: true }), player(12, "Chandra")];
  assert.equal(defaultAfter({ players, next_round: { dealer: 12 } }), 10);
});

test("seat changes are told apart from rounds", () => {
  assert.equal(isSeatChange(join), true);
  assert.equal(isSeatChange(round(1, 10)), false);
  assert.deepEqual(
    roundsOnly([round(1, 10), round(2, 11), join, round(4, 12)]).map((r) => r.number),
    [1, 2, 4],
  );
});

test("a join or a leave as the service takes it", () => {
  assert.deepEqual(seatChangeBody({ kind: "join", name: " Esha ", rosterId: null, after: 11 }, 5), {
    join: { name: "Esha", after: 11 },
    number: 5,
  });
  assert.deepEqual(seatChangeBody({ kind: "join", name: "", rosterId: 7, after: 13 }), {
    join: { player: 7, after: 13 },
  });
  assert.deepEqual(seatChangeBody({ kind: "leave", player: 12 }, 6), { leave: 12, number: 6 });
});

test("roster players may join unless they are seated and still playing", () => {
  const roster = [
    { id: 1, name: "Asha" },
    { id: 2, name: "Bikash" },
    { id: 3, name: "Chandra" },
  ];
  const seated = {
    players: [
      player(10, "Asha", { roster_id: 1 }),
      player(11, "Bikash", { roster_id: 2, left: true }),
    ],
  };
  assert.deepEqual(
    rosterToJoin(roster, seated).map((r) => r.name),
    ["Bikash", "Chandra"],
  );
});

test("chips are picked in tapping order, and a second tap takes one out", () => {
  let picked = [];
  picked = togglePick(picked, 3);
  picked = togglePick(picked, 1);
  picked = togglePick(picked, "Esha");
  assert.deepEqual(picked, [3, 1, "Esha"]);
  assert.deepEqual(togglePick(picked, 1), [3, "Esha"]);
});

test("a game moved to a table keeps who stayed, and the deal moves one seat on", () => {
  const moved = {
    players: [player(10, "Asha"), player(11, "Bikash", { left: true }), player(12, "Chandra")],
    next_round: null,
  };
  // The first round was dealt by Asha; Bikash left, so Chandra deals first.
  assert.deepEqual(nextGameSeats(moved, [join, round(1, 10)]), {
    players: ["Asha", "Chandra"],
    dealer: 1,
  });
  // Dealt first by the last seat: the deal goes round to the first.
  assert.deepEqual(nextGameSeats(moved, [round(1, 12)]).dealer, 0);
  // No round yet: the dealer-to-be counts as the first dealer.
  const fresh = { players: game.players, next_round: { dealer: 13 } };
  assert.equal(nextGameSeats(fresh, []).dealer, 0);
});

test("routes: a table, a new game at it, a new table, someone joins", () => {
  assert.deepEqual(parseRoute("#/tables/t1"), { view: "table", id: "t1" });
  assert.deepEqual(parseRoute("#/tables/t1/new"), { view: "new", table: "t1" });
  assert.deepEqual(parseRoute("#/new-table"), { view: "new-table" });
  assert.equal(isSeatTab(parseRoute("#/game/g1/join")), true);
  assert.equal(isSeatTab(parseRoute("#/game/g1/leave")), true);
  assert.equal(isSeatTab(parseRoute("#/game/g1/history")), false);
  assert.equal(isSeatTab(parseRoute("#/watch/g1/join")), false);
});
