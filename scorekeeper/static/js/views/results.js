// A round's results as a table, and its one-line summary: in History and in the entry's preview.
// A seat change's line, in History.

import { h } from "../dom.js";
import { playerName } from "../format.js";
import { t } from "../i18n.js";
import { cardNode } from "../ui.js";

function resultLine(game, result, round) {
  const what =
    game.ruleset === "jhyap"
      ? h(
          "span",
          { class: "hand" },
          result.cards
            ? [result.cards.map(cardNode), " ", t("hand_total", { n: result.hand })]
            : String(result.hand),
        )
      : h("span", { class: "hand" }, cardNode(result.card));
  const marks = [];
  if (game.ruleset === "jhyap" && round.caller === result.player) {
    marks.push(h("span", { class: "badge" }, t("caller")));
  }
  if (round.takers && round.takers.includes(result.player)) {
    marks.push(h("span", { class: "badge" }, t("took_it")));
  }
  if (result.halved) marks.push(h("span", { class: "badge halved" }, t("halved")));
  if (result.eliminated) marks.push(h("span", { class: "badge out" }, t("eliminated")));
  const scores = { before: result.score_before, after: result.score_after };
  return h(
    "tr",
    {},
    h("th", { scope: "row" }, playerName(game, result.player), " ", marks),
    h("td", {}, what),
    h("td", { class: "num" }, `+${result.points}`),
    h("td", { class: "num" }, t("before_after", scores)),
  );
}

export function roundSummary(game, round) {
  const name = (id) => playerName(game, id);
  if (game.ruleset === "jhyap") {
    return round.caller_succeeded
      ? t("call_succeeded", { name: name(round.caller) })
      : t("call_failed", { name: name(round.caller) });
  }
  return t("took_trick", { names: round.takers.map(name).join(", "), n: round.cards_each });
}

// "Dev joined with 120 (after Chandra)." or "Asha left."
export function seatChangeText(game, item) {
  const change = item.seat_change;
  if (change.join) {
    const join = change.join;
    return t("joined_after", {
      name: join.name,
      n: join.score,
      after: playerName(game, join.after),
    });
  }
  return t("left_named", { name: playerName(game, change.leave.player) });
}

export function resultsTable(game, round, caption) {
  return h(
    "table",
    { class: "results" },
    h("caption", { class: "visually-hidden" }, caption),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, t("col_player")),
        h("th", { scope: "col" }, game.ruleset === "jhyap" ? t("col_hand") : t("col_card")),
        h("th", { scope: "col", class: "num" }, t("col_points")),
        h("th", { scope: "col", class: "num" }, t("col_score")),
      ),
    ),
    h(
      "tbody",
      {},
      round.results.map((result) => resultLine(game, result, round)),
    ),
  );
}
