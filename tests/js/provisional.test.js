// The provisional game (static/js/state/provisional.js) against the service: each fixture in
// tests/js/fixtures/provisional.json (written by `python -m tests.offline.generate`) is a game's
// export, the changes one phone queued offline, and what the service answered once it had them.
// Replayed on the phone, the queue must give the same Game and history (times aside).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import {
  previewCorrection,
  previewRound,
  provisionalGame,
} from "../../scorekeeper/static/js/state/provisional.js";

const { fixtures } = JSON.parse(
  readFileSync(new URL("./fixtures/provisional.json", import.meta.url), "utf8"),
);

/** `value` without the times the service stamps (the phone cannot know them). */
function untimed(value) {
  return JSON.parse(JSON.stringify(value), (key, item) =>
    key === "created_at" || key === "updated_at" ? undefined : item,
  );
}

function sameJson(actual, expected, where) {
  assert.equal(JSON.stringify(untimed(actual)), JSON.stringify(untimed(expected)), where);
}

test("there are fixtures, with rounds, corrections, undos and seat changes queued", () => {
  const kinds = new Set(fixtures.flatMap((f) => f.queue.map((item) => item.kind)));
  assert.deepEqual([...kinds].sort(), ["correct", "round", "seat", "undo"]);
  assert.ok(fixtures.some((f) => f.game.status === "finished"));
  assert.ok(fixtures.some((f) => f.game.ruleset === "twenty-two"));
});

describe("the queue replayed on the export is what the service answers", () => {
  for (const fixture of fixtures) {
    test(fixture.name, () => {
      const before = JSON.stringify(fixture);
      const shown = provisionalGame(fixture.export, fixture.queue);
      assert.deepEqual(shown.refused, []);
      sameJson(shown.game, fixture.game, "game");
      sameJson(shown.rounds, fixture.rounds, "history");
      assert.equal(JSON.stringify(fixture), before, "nothing given is changed");
    });
  }
});

test("with nothing queued, the export replayed is the service's game", () => {
  for (const fixture of fixtures) {
    const shown = provisionalGame(fixture.export, []);
    const game = { ...fixture.export.game };
    delete game.setup;
    sameJson(shown.game, game, fixture.name);
    sameJson(
      shown.rounds,
      fixture.export.rounds.map((item) => item.round),
      fixture.name,
    );
  }
});

test("a queued round's preview is the round the service then recorded", () => {
  for (const fixture of fixtures) {
    fixture.queue.forEach((item, at) => {
      if (item.kind !== "round") return;
      const preview = previewRound(fixture.export, fixture.queue.slice(0, at), item.body);
      const later = provisionalGame(fixture.export, fixture.queue.slice(0, at + 1));
      const recorded = later.rounds[later.rounds.length - 1];
      sameJson(preview, { ...recorded, dry_run: true }, `${fixture.name}, item ${at}`);
    });
  }
});

test("a correction's preview says what it rescores and the game after it", () => {
  const fixture = fixtures.find((f) => f.name === "jhyap five rounds and a correction");
  const at = fixture.queue.findIndex((item) => item.kind === "correct");
  const correction = fixture.queue[at];
  const preview = previewCorrection(
    fixture.export,
    fixture.queue.slice(0, at),
    correction.number,
    correction.body,
  );
  assert.equal(preview.number, correction.number);
  assert.equal(preview.rescored.rounds, 4); // rounds 4 to 7
  sameJson(preview.rescored.game, fixture.game, "game after");
});

test("an entry the rules refuse is left out and named, the rest still applies", () => {
  const fixture = fixtures.find((f) => f.name === "jhyap undo and a round again");
  const broken = { kind: "round", key: "bad", body: { number: 3, caller: 99, hands: [] } };
  const shown = provisionalGame(fixture.export, [broken, ...fixture.queue]);
  assert.deepEqual(
    shown.refused.map((r) => r.key),
    ["bad"],
  );
  sameJson(shown.game, fixture.game, "game");
});
