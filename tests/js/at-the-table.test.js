// At the table: the round strip's words, the final ranking, closeness to the limit and the
// halving hint (pure, no DOM).

import assert from "node:assert/strict";
import { test } from "node:test";

import { closeness } from "../../scorekeeper/static/js/closeness.js";
import { halvingHints } from "../../scorekeeper/static/js/halving-hint.js";
import { roundHappenings } from "../../scorekeeper/static/js/happenings.js";
import { finalRanking } from "../../scorekeeper/static/js/ranking.js";

const JHYAP_OPTIONS = {
  call_limit: 5,
  caller_penalty: 30,
  caller_tie: "caller_wins",
  elimination_limit: 200,
  halve_at: [100, 200],
  decks: 1,
  next_starter: "lowest_hand",
};

function player(id, name, score, extra = {}) {
  return {
    id,
    name,
    seat: id - 1,
    score,
    eliminated: false,
    eliminated_in_round: null,
    left: false,
    ...extra,
  };
}

function jhyapGame(scores, extra = {}) {
  const names = ["Asha", "Bikash", "Chandra", "Dipa", "Eli"];
  return {
    ruleset: "jhyap",
    options: JHYAP_OPTIONS,
    status: "in_progress",
    winners: [],
    players: scores.map((score, i) => player(i + 1, names[i], score)),
    ...extra,
  };
}

function result(id, points, before, after, extra = {}) {
  return {
    player: id,
    points,
    score_before: before,
    score_after: after,
    halved: false,
    eliminated: false,
    ...extra,
  };
}

test("a Jhyap round: a halving, an elimination and the next dealer, in that order", () => {
  const game = jhyapGame([10, 90, 195]);
  const round = {
    number: 3,
    caller: 1,
    caller_succeeded: true,
    results: [
      result(1, 0, 10, 10),
      result(2, 10, 90, 50, { halved: true }),
      result(3, 20, 195, 215, { eliminated: true }),
    ],
    game: { status: "in_progress", next_round: { number: 4, dealer: 1, starter: 1 }, winners: [] },
  };
  assert.deepEqual(roundHappenings(game, round), [
    { key: "happened_halved", vars: { name: "Bikash", n: 50 } },
    { key: "happened_out", vars: { name: "Chandra" } },
    { key: "happened_deals", vars: { name: "Asha" } },
  ]);
});

test("a failed call says the caller's points; a round that ends the game names the winner", () => {
  const game = jhyapGame([150, 195]);
  const round = {
    number: 7,
    caller: 2,
    caller_succeeded: false,
    results: [result(1, 1, 150, 151), result(2, 34, 195, 229, { eliminated: true })],
    game: { status: "finished", next_round: null, winners: [1] },
  };
  assert.deepEqual(roundHappenings(game, round), [
    { key: "happened_call_failed", vars: { name: "Bikash", n: 34 } },
    { key: "happened_out", vars: { name: "Bikash" } },
    { key: "happened_wins", vars: { name: "Asha" } },
  ]);
  round.game.winners = [1, 2];
  assert.deepEqual(roundHappenings(game, round).at(-1), {
    key: "happened_shared_win",
    vars: { names: "Asha, Bikash" },
  });
});

test("a Twenty Two tie for the last trick is said once", () => {
  const game = { ...jhyapGame([0, 0, 0]), ruleset: "twenty-two" };
  const round = {
    number: 1,
    takers: [2, 3],
    cards_each: 7,
    results: [result(1, 0, 0, 0), result(2, 10, 0, 10), result(3, 10, 0, 10)],
    game: { status: "in_progress", next_round: { number: 2, dealer: 3, starter: 1 }, winners: [] },
  };
  assert.deepEqual(roundHappenings(game, round), [
    { key: "happened_tie", vars: { names: "Bikash, Chandra", n: 10 } },
    { key: "happened_deals", vars: { name: "Chandra" } },
  ]);
  // Everyone in the trick scores (tie_scores "all"): each one's points, once.
  const all = {
    ...round,
    takers: [1, 2, 3],
    results: [result(1, 4, 0, 4), result(2, 10, 0, 10), result(3, 10, 0, 10)],
  };
  assert.deepEqual(roundHappenings(game, all)[0], {
    key: "happened_tie_each",
    vars: { each: "Asha +4, Bikash +10, Chandra +10" },
  });
  // One taker: their name and points.
  const one = { ...round, takers: [2], results: [result(2, 10, 0, 10)] };
  assert.deepEqual(roundHappenings(game, one)[0], {
    key: "happened_took",
    vars: { name: "Bikash", n: 10 },
  });
});

test("the final ranking: winners, then the later eliminated, lower totals, those who left last", () => {
  const game = jhyapGame([40, 210, 205, 90, 220], { status: "finished", winners: [1] });
  game.players[1].eliminated = true;
  game.players[1].eliminated_in_round = 9;
  game.players[2].eliminated = true;
  game.players[2].eliminated_in_round = 9;
  game.players[3].left = true;
  game.players[4].eliminated = true;
  game.players[4].eliminated_in_round = 12;
  const ranking = finalRanking(game).map((row) => [row.place, row.player.name]);
  assert.deepEqual(ranking, [
    [1, "Asha"],
    [2, "Eli"],
    [3, "Chandra"],
    [4, "Bikash"],
    [5, "Dipa"],
  ]);
});

test("equal standing shares a place, and a shared win is place 1 for each winner", () => {
  const game = jhyapGame([150, 150, 210, 210], { status: "finished", winners: [1, 2] });
  for (const seat of [2, 3]) {
    game.players[seat].eliminated = true;
    game.players[seat].eliminated_in_round = 5;
  }
  assert.deepEqual(
    finalRanking(game).map((row) => [row.place, row.player.name]),
    [
      [1, "Asha"],
      [1, "Bikash"],
      [3, "Chandra"],
      [3, "Dipa"],
    ],
  );
});

test("closeness: danger at or under a tenth of the limit, warn at or under a quarter", () => {
  assert.equal(closeness(200, 149), null);
  assert.equal(closeness(200, 150), "warn");
  assert.equal(closeness(200, 179), "warn");
  assert.equal(closeness(200, 180), "danger");
  assert.equal(closeness(22, 16), null);
  assert.equal(closeness(22, 17), "warn");
  assert.equal(closeness(22, 19), "warn");
  assert.equal(closeness(22, 20), "danger");
});

function draft(caller, hands) {
  return { kind: "jhyap", mode: "new", ids: [1, 2, 3], caller, hands, current: null };
}

test("halving hint: a non-caller's hand that lands exactly on a halving score", () => {
  const game = jhyapGame([10, 90, 185]);
  const hints = halvingHints(game, draft(null, { 2: { total: 10 }, 3: { total: 14 } }));
  assert.deepEqual([...hints], [[2, { lands: 100, halved: 50 }]]);
  // Cards count as their Jhyap value: K + 5 = 15 brings 185 to 200.
  const cards = halvingHints(game, draft(null, { 3: { cards: ["KH", "5S"] } }));
  assert.deepEqual([...cards], [[3, { lands: 200, halved: 100 }]]);
  assert.equal(
    halvingHints(
      { ...game, options: { ...JHYAP_OPTIONS, halve_at: [] } },
      draft(null, { 2: { total: 10 } }),
    ).size,
    0,
  );
});

test("halving hint: the caller's total is known only once every hand is typed", () => {
  const game = jhyapGame([100, 66, 0]);
  // Asha called with 3: until every hand is in, whether the call fails is not known.
  assert.equal(halvingHints(game, draft(1, { 1: { total: 3 }, 2: { total: 4 } })).has(1), false);
  // The call stands: Asha scores 0 and 100 is halved again (rules.md, Jhyap decisions).
  const won = halvingHints(game, draft(1, { 1: { total: 3 }, 2: { total: 4 }, 3: { total: 9 } }));
  assert.deepEqual(won.get(1), { lands: 100, halved: 50 });
  // Bikash calls with 4 and Asha's 3 catches him: 66 + 30 + 4 = 100.
  const failed = halvingHints(
    game,
    draft(2, { 1: { total: 3 }, 2: { total: 4 }, 3: { total: 9 } }),
  );
  assert.deepEqual(failed.get(2), { lands: 100, halved: 50 });
  assert.equal(failed.has(1), false); // 100 + 3
});
