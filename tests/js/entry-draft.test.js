// The round entry's draft: complete or not, the entry it sends, the next hand to enter.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  draftKey,
  entryBody,
  entryComplete,
  fillDraft,
  handReady,
  keptDraft,
  newDraft,
  nextEmptyHand,
} from "../../scorekeeper/static/js/views/entry-draft.js";

const players = [{ id: "a" }, { id: "b" }, { id: "c" }];

test("a Jhyap draft is complete with a caller and every hand", () => {
  const draft = newDraft("jhyap", players, 4, "new", null);
  assert.equal(draft.kind, "jhyap");
  assert.equal(entryComplete(draft), false);
  draft.caller = "b";
  draft.hands = { a: { total: 0 }, b: { cards: ["AS", "JK"] } };
  assert.equal(entryComplete(draft), false);
  assert.equal(nextEmptyHand(draft, null), "c");
  draft.hands.c = { total: 12 };
  assert.equal(entryComplete(draft), true);
  assert.equal(nextEmptyHand(draft, "a"), null);
  assert.deepEqual(entryBody(draft), {
    number: 4,
    caller: "b",
    hands: [
      { player: "a", total: 0 },
      { player: "b", cards: ["AS", "JK"] },
      { player: "c", total: 12 },
    ],
  });
});

test("hands: a whole total or at least one card", () => {
  assert.equal(handReady(undefined), false);
  assert.equal(handReady({ total: 0 }), true);
  assert.equal(Boolean(handReady({ total: 1.5 })), false);
  assert.equal(Boolean(handReady({ cards: [] })), false);
});

test("the next empty hand goes round the table from the one after", () => {
  const draft = newDraft("jhyap", players, 1, "new", null);
  draft.hands = { b: { total: 3 } };
  assert.equal(nextEmptyHand(draft, "a"), "c");
  assert.equal(nextEmptyHand(draft, "c"), "a");
});

test("a Twenty Two draft starts with the starter and is complete when all have played", () => {
  const draft = newDraft("twenty-two", players, 2, "edit", "c");
  assert.equal(draft.kind, "tt");
  assert.equal(draft.current, "c");
  assert.equal(newDraft("twenty-two", players, 2, "new", "gone").current, "a");
  fillDraft(draft, {
    last_trick: [
      { player: "c", card: "5H" },
      { player: "x", card: "6H" },
      { player: "a", card: "KH" },
    ],
  });
  assert.equal(draft.current, null);
  assert.equal(entryComplete(draft), false);
  draft.plays.push({ player: "b", card: "2C" });
  assert.equal(entryComplete(draft), true);
  // A correction does not say its number: the service has it in the URL.
  assert.deepEqual(entryBody(draft), {
    last_trick: [
      { player: "c", card: "5H" },
      { player: "a", card: "KH" },
      { player: "b", card: "2C" },
    ],
  });
});

test("filling a Jhyap draft keeps only its players, copying cards", () => {
  const draft = newDraft("jhyap", players.slice(0, 2), 3, "new", null);
  const cards = ["2S"];
  fillDraft(draft, {
    caller: "c",
    hands: [
      { player: "a", cards },
      { player: "b", total: 7 },
      { player: "c", total: 1 },
    ],
  });
  assert.equal(draft.caller, null);
  assert.deepEqual(draft.hands, { a: { cards: ["2S"] }, b: { total: 7 } });
  assert.notEqual(draft.hands.a.cards, cards);
});

test("what is kept of a draft leaves out the preview and a card being changed", () => {
  const draft = {
    kind: "tt",
    number: 1,
    preview: {},
    previewError: null,
    changing: 0,
    complete: true,
  };
  assert.deepEqual(keptDraft(draft), { kind: "tt", number: 1 });
  assert.equal(draftKey("g1"), "scorekeeper.draft.g1");
});
