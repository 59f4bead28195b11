// A round's results as a table, and its one-line summary: in History and in the entry's preview.
// A seat change's line, and the end of a game by hand, in History. What a ruleset's results show
// comes from its descriptor (state/rulesets.js): the column its results add, its summary's kind.

import { h } from "../dom.js";
import { playerName } from "../format.js";
import { t } from "../i18n.js";
import { describe } from "../state/rulesets.js";
import { cardNode } from "../ui.js";

// The column a ruleset's results add, by its kind: [heading key, cell of a result].
const COLUMNS = {
  hand: [
    "col_hand",
    (result) =>
      result.cards
        ? [result.cards.map(cardNode), " ", t("hand_total", { n: result.hand })]
        : String(result.hand),
  ],
  card: ["col_card", (result) => cardNode(result.card)],
  taken: ["col_taken", (result) => String(result.taken)],
};

// A round's one-line summary, by its kind.
const SUMMARIES = {
  call: (game, round) =>
    t(round.caller_succeeded ? "call_succeeded" : "call_failed", {
      name: playerName(game, round.caller),
    }),
  trick: (game, round) =>
    t("took_trick", {
      names: round.takers.map((id) => playerName(game, id)).join(", "),
      n: round.cards_each,
    }),
  moon: (game, round) =>
    round.moon === null || round.moon === undefined
      ? t(`hand_passed_${round.pass}`)
      : t("shot_the_moon", { name: playerName(game, round.moon) }),
};

function column(game) {
  return COLUMNS[describe(game.ruleset).results.column] || null;
}

/** Points as the page writes them: +5, +0, and a score pad's −5 with a minus sign. */
export function signed(points) {
  return points < 0 ? `−${-points}` : `+${points}`;
}

function resultLine(game, result, round) {
  const own = column(game);
  const marks = [];
  if (round.caller === result.player) marks.push(h("span", { class: "badge" }, t("caller")));
  if (round.takers && round.takers.includes(result.player)) {
    marks.push(h("span", { class: "badge" }, t("took_it")));
  }
  if (round.moon === result.player) marks.push(h("span", { class: "badge" }, t("moon")));
  if (result.halved) marks.push(h("span", { class: "badge halved" }, t("halved")));
  if (result.eliminated) marks.push(h("span", { class: "badge out" }, t("eliminated")));
  const scores = { before: result.score_before, after: result.score_after };
  return h(
    "tr",
    {},
    h("th", { scope: "row" }, playerName(game, result.player), " ", marks),
    own ? h("td", {}, h("span", { class: "hand" }, own[1](result))) : null,
    h("td", { class: "num" }, signed(result.points)),
    h("td", { class: "num" }, t("before_after", scores)),
  );
}

export function roundSummary(game, round) {
  const summary = SUMMARIES[describe(game.ruleset).summary];
  if (summary) return summary(game, round);
  const next = round.game && round.game.next_round;
  return next ? t("next_deals_plain", { name: playerName(game, next.dealer) }) : "";
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

// "The table ended the game: Asha wins."
export function endText(game, item) {
  const names = item.game.winners.map((id) => playerName(game, id)).join(", ");
  return item.game.winners.length > 1
    ? t("ended_shared", { names })
    : t("ended_winner", { name: names });
}

export function resultsTable(game, round, caption) {
  const own = column(game);
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
        own ? h("th", { scope: "col" }, t(own[0])) : null,
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
