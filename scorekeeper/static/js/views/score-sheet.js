// History as a score sheet, the way a table keeps one on paper: a row a round, a column a player
// (the points of the round over the total after it), seat changes and an end by the table as lines
// across, and the totals at the foot.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { roundLabel } from "../round-numbers.js";
import { isEnd, isSeatChange } from "../seating.js";
import { describe } from "../state/rulesets.js";
import { endText, seatChangeText, signed } from "./results.js";

// The key under the sheet, by the kind of the ruleset's summary (the mark ◆ is for its caller
// or for who took the last trick); other rulesets mark nothing.
const SHEET_KEYS = { call: "sheet_key_call", trick: "sheet_key_trick" };

// game, rounds: as the service sent them (oldest first).
export function scoreSheet(game, rounds) {
  const players = game.players;
  return h(
    "div",
    { class: "sheet-box" },
    h(
      "table",
      { class: "sheet", "data-testid": "score-sheet" },
      h("caption", { class: "visually-hidden" }, t("score_sheet")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h(
            "th",
            { scope: "col", class: "sheet-round" },
            h("abbr", { title: t("col_round") }, "#"),
          ),
          players.map((player) =>
            h("th", { scope: "col", class: "sheet-name", "data-player": player.name }, player.name),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        rounds.map((item) => {
          if (isSeatChange(item)) return lineAcross(game, seatChangeText(game, item));
          if (isEnd(item)) return lineAcross(game, endText(game, item));
          return roundRow(game, rounds, item);
        }),
      ),
      h(
        "tfoot",
        {},
        h(
          "tr",
          { "data-testid": "sheet-totals" },
          h("th", { scope: "row", class: "sheet-round" }, t("col_total")),
          players.map((player) =>
            h("td", { class: "num sheet-total", "data-player": player.name }, String(player.score)),
          ),
        ),
      ),
    ),
    h(
      "p",
      { class: "sheet-key" },
      t(SHEET_KEYS[describe(game.ruleset).summary] ?? "sheet_key_plain"),
    ),
  );
}

function roundRow(game, rounds, round) {
  const results = new Map(round.results.map((result) => [result.player, result]));
  const label = roundLabel(rounds, round.number);
  return h(
    "tr",
    { "data-testid": "sheet-round", "data-number": String(round.number) },
    h("th", { scope: "row", class: "num sheet-round" }, String(label)),
    game.players.map((player) => cell(round, results.get(player.id))),
  );
}

// A player's part in a round: the points over the total after them, with the caller (or who took
// the last trick), a halving and an elimination marked. Empty when they did not play it.
function cell(round, result) {
  if (!result)
    return h("td", { class: "num sheet-empty" }, h("span", { "aria-hidden": "true" }, "·"));
  const marks = [];
  const took = round.caller === result.player || (round.takers || []).includes(result.player);
  if (took) marks.push(mark("◆", round.takers ? t("took_it") : t("caller")));
  if (result.halved) marks.push(mark("½", t("halved")));
  if (result.eliminated) marks.push(mark("✕", t("eliminated")));
  return h(
    "td",
    { class: ["num", took && "sheet-took"] },
    h("span", { class: "sheet-points" }, signed(result.points), marks),
    h("span", { class: "sheet-after" }, String(result.score_after)),
  );
}

// A mark that shows as a sign and is read as its word.
function mark(sign, word) {
  return [
    h("span", { class: "sheet-mark", "aria-hidden": "true" }, sign),
    h("span", { class: "visually-hidden" }, ` (${word})`),
  ];
}

// An item that is not a round (a seat change, the table ending the game): a line across.
function lineAcross(game, text) {
  return h(
    "tr",
    { class: "sheet-line", "data-testid": "sheet-line" },
    h("td", { colspan: String(game.players.length + 1) }, text),
  );
}
