// The page's pure helpers (no DOM): run with `npm test` (node --test).
// Translations are not loaded here, so t() gives back its key.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  activePlayers,
  cardText,
  gameTitle,
  gameUrl,
  optionValueText,
  playerName,
  scorerUrl,
  shareUrl,
} from "../../scorekeeper/static/js/format.js";
import { isEntryTab, parseRoute } from "../../scorekeeper/static/js/state/route.js";

const game = {
  name: "",
  players: [
    { id: "p1", name: "Asha", eliminated: false },
    { id: "p2", name: "Bikash", eliminated: true },
    { id: "p3", name: "Chandra", eliminated: false },
  ],
};

test("cards show their rank and suit symbol; the joker by name", () => {
  assert.equal(cardText("10H"), "10♥");
  assert.equal(cardText("AS"), "A♠");
  assert.equal(cardText("JK"), "joker");
  assert.equal(cardText(null), "");
});

test("game links encode the id", () => {
  assert.equal(gameUrl("a b"), "#/game/a%20b");
  assert.equal(gameUrl("g1", "history"), "#/game/g1/history");
  const where = { origin: "https://x.example", pathname: "/" };
  assert.equal(shareUrl("g1", where), "https://x.example/#/watch/g1");
});

test("names: the game's name or its players; unknown players as ?", () => {
  assert.equal(gameTitle(game), "Asha, Bikash, Chandra");
  assert.equal(gameTitle({ ...game, name: "Friday" }), "Friday");
  assert.equal(playerName(game, "p3"), "Chandra");
  assert.equal(playerName(game, "nobody"), "?");
  assert.equal(playerName(null, "p1"), "?");
  assert.deepEqual(
    activePlayers(game).map((p) => p.id),
    ["p1", "p3"],
  );
});

test("option values: lists joined, empty lists as a dash, choices by key", () => {
  assert.equal(optionValueText([50, 100]), "50, 100");
  assert.equal(optionValueText([]), "—");
  assert.equal(optionValueText("tied"), "choice_tied");
  assert.equal(optionValueText(101), "101");
});

test("routes from the hash", () => {
  assert.deepEqual(parseRoute(""), { view: "home" });
  assert.deepEqual(parseRoute("#/new"), { view: "new" });
  assert.deepEqual(parseRoute("#/game/g%201"), { view: "game", id: "g 1", tab: "table" });
  assert.deepEqual(parseRoute("#/game/g1/round"), { view: "game", id: "g1", tab: "round" });
  assert.deepEqual(parseRoute("#/game/g1/edit/3"), {
    view: "game",
    id: "g1",
    tab: "edit",
    number: 3,
  });
  assert.deepEqual(parseRoute("#/watch/g1/chart"), { view: "watch", id: "g1", tab: "chart" });
  assert.deepEqual(parseRoute("#/game"), { view: "home" });
  assert.equal(isEntryTab(parseRoute("#/game/g1/edit/2")), true);
  assert.equal(isEntryTab(parseRoute("#/game/g1/history")), false);
  assert.equal(isEntryTab(null), false);
});

test("a scorer link carries the key in the fragment, and reads back as a scorer route", () => {
  const where = { origin: "https://scores.example.org", pathname: "/" };
  const link = scorerUrl("game", "g1", "to/ken", where);
  assert.equal(link, "https://scores.example.org/#/scorer/game/g1/to%2Fken");
  assert.deepEqual(parseRoute(link.slice(link.indexOf("#"))), {
    view: "scorer",
    kind: "game",
    id: "g1",
    token: "to/ken",
  });
  assert.deepEqual(parseRoute("#/scorer/tables/t1/abc"), {
    view: "scorer",
    kind: "tables",
    id: "t1",
    token: "abc",
  });
  // Incomplete or of an unknown kind: the home page, never a game without its key.
  assert.deepEqual(parseRoute("#/scorer/game/g1"), { view: "home" });
  assert.deepEqual(parseRoute("#/scorer/watch/g1/abc"), { view: "home" });
});
