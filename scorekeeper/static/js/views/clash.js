// A round (or seat change) another phone recorded first: theirs and mine side by side, and the
// table's choice; and a change the service scored otherwise than this phone showed. Drawn in the
// outbox banner (banner.js).

import { h } from "../dom.js";
import { gameUrl, playerName } from "../format.js";
import { t } from "../i18n.js";
import { correctWithMine, discard, dismissNotice, renumber } from "../outbox.js";
import { session } from "../state/game-session.js";
import { previewRound } from "../state/provisional.js";
import { endText, roundSummary, seatChangeText, signed } from "./results.js";
import { roundLabelIn } from "../round-label.js";

// The game whose clash shows the difference "Mine is round N+1" makes, before sending it.
let askingNext = null;

// Another phone recorded this number first, and theirs differs from mine (the same round
// resolves by itself, outbox.js). Theirs and mine side by side, the cells that differ marked; the
// first (main) button keeps theirs and drops mine, so the default never records a round twice.
// "Use mine" corrects their round to mine; "Mine is a new round" first shows what the scores
// become, then sends it as the next number (not once the game is over).
export function clashItem(gameId, entry, gameName, number, redraw) {
  const next = entry.error.next || number + 1;
  const game = session.game && session.game.id === gameId ? session.game : null;
  const theirs = game && (session.base?.exported.rounds || []).find((r) => r.number === number);
  const shown = roundLabelIn(gameId, number);
  const title = t("clash_title", { number: shown, game: gameName });
  const parts = [h("h2", { id: `clash-${gameId}` }, title)];
  if (game) parts.push(clashBoth(game, theirs, entry, shown));
  else parts.push(h("p", {}, h("a", { href: gameUrl(gameId) }, t("clash_open_game"))));
  if (askingNext === gameId && game) parts.push(...mineNext(gameId, entry, game, next, redraw));
  else parts.push(choices(gameId, game, theirs, entry, shown, redraw));
  return h(
    "div",
    {
      class: "pending failed clash",
      role: "region",
      "aria-labelledby": `clash-${gameId}`,
      "data-testid": "clash",
    },
    parts,
  );
}

function choices(gameId, game, theirs, entry, number, redraw) {
  const bothRounds = theirs && !theirs.round.seat_change && entry.kind === "round";
  const button = (testid, onclick, text, primary = false) =>
    h(
      "button",
      { type: "button", class: primary ? "primary" : "secondary", "data-testid": testid, onclick },
      text,
    );
  return h(
    "div",
    { class: "row" },
    button("clash-keep-theirs", () => discard(gameId), t("clash_keep_theirs"), true),
    game && bothRounds
      ? button("clash-use-mine", () => correctWithMine(gameId), t("clash_use_mine", { n: number }))
      : null,
    game && game.status !== "finished"
      ? button(
          "clash-mine-next",
          () => {
            askingNext = gameId;
            redraw();
            document.querySelector("[data-testid=clash-send-next]")?.focus();
          },
          t("clash_mine_new"),
        )
      : null,
  );
}

// Theirs and mine: one table with a column each when both are rounds, else a line each.
function clashBoth(game, theirs, entry, number) {
  const theirTitle = t("clash_theirs", { number });
  const myTitle = t("clash_mine", { number });
  const theirRound = theirs && !theirs.round.seat_change && !theirs.round.end ? theirs.round : null;
  const myRound = entry.kind !== "seat" && entry.shown ? entry.shown : null;
  if (theirRound && myRound) return comparison(game, [theirTitle, theirRound], [myTitle, myRound]);
  return h(
    "div",
    { class: "clash-lines" },
    h("p", {}, h("strong", {}, theirTitle), ": ", theirsText(game, theirs)),
    h("p", {}, h("strong", {}, myTitle), ": ", mineText(game, entry)),
  );
}

function theirsText(game, theirs) {
  if (!theirs) return t("checking");
  if (theirs.round.seat_change) return seatChangeText(game, theirs.round);
  if (theirs.round.end) return endText(game, theirs.round);
  return roundSummary(game, theirs.round);
}

function mineText(game, entry) {
  if (entry.kind === "seat") {
    const body = entry.body;
    return body.join
      ? t("join_submit") + ": " + ((entry.newcomer && entry.newcomer.name) || "")
      : t("left_named", { name: playerName(game, body.leave) });
  }
  return entry.shown ? roundSummary(game, entry.shown) : t("clash_not_shown");
}

// Two scorings of one round side by side, a column each (so both fit on a phone): every player's
// points and score after it, with the caller, a halving and an elimination marked; a cell that
// differs from the other column is marked too.
function comparison(game, [leftTitle, left], [rightTitle, right]) {
  const ids = new Set([...left.results, ...right.results].map((r) => r.player));
  const seen = (round, id) => {
    const result = round.results.find((r) => r.player === id);
    if (!result) return null;
    const { points, score_after: after, halved, eliminated } = result;
    return JSON.stringify([
      points,
      after,
      Boolean(halved),
      Boolean(eliminated),
      round.caller === id,
    ]);
  };
  const cell = (round, id, differs) => {
    const result = round.results.find((r) => r.player === id);
    const mark = differs
      ? [
          h("span", { class: "differs-mark", "aria-hidden": "true" }, "≠ "),
          h("span", { class: "visually-hidden" }, t("clash_cell_differs"), " "),
        ]
      : null;
    const attrs = { class: ["num", differs && "differs"], "data-differs": differs ? "yes" : null };
    if (!result) return h("td", attrs, mark, "–");
    const marks = [];
    if (round.caller === id) marks.push(h("span", { class: "badge" }, t("caller")));
    if (result.halved) marks.push(h("span", { class: "badge halved" }, t("halved")));
    if (result.eliminated) marks.push(h("span", { class: "badge out" }, t("eliminated")));
    const figures = h(
      "span",
      { class: "figures" },
      `${signed(result.points)} → ${result.score_after}`,
    );
    return h(
      "td",
      attrs,
      mark,
      figures,
      marks.flatMap((badge) => [" ", badge]),
    );
  };
  return h(
    "table",
    { class: "results compare", "data-testid": "side-by-side" },
    h("caption", { class: "visually-hidden" }, `${leftTitle} · ${rightTitle}`),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, t("col_player")),
        h("th", { scope: "col", class: "num" }, leftTitle),
        h("th", { scope: "col", class: "num" }, rightTitle),
      ),
    ),
    h(
      "tbody",
      {},
      game.players
        .filter((player) => ids.has(player.id))
        .map((player) => {
          const differs = seen(left, player.id) !== seen(right, player.id);
          return h(
            "tr",
            { "data-player": player.name },
            h("th", { scope: "row" }, player.name),
            cell(left, player.id, differs),
            cell(right, player.id, differs),
          );
        }),
    ),
  );
}

// The difference mine makes as round N+1 (on top of theirs), and the way to send it.
function mineNext(gameId, entry, game, next, redraw) {
  const base = session.base;
  let lines = [];
  if (entry.kind === "seat") return [nextButtons(gameId, next, redraw)];
  try {
    const done = base.items.filter((item) => item.state === "done");
    const round = previewRound(base.exported, done, { ...entry.body, number: next });
    lines = round.results.map((r) =>
      t("score_change", {
        name: playerName(game, r.player),
        before: r.score_before,
        after: r.score_after,
      }),
    );
  } catch (error) {
    lines = [String(error.message)];
  }
  return [
    h(
      "p",
      { "data-testid": "clash-difference" },
      t("clash_difference", { n: next }),
      " ",
      lines.join("; "),
    ),
    nextButtons(gameId, next, redraw),
  ];
}

function nextButtons(gameId, next, redraw) {
  return h(
    "div",
    { class: "row" },
    h(
      "button",
      {
        type: "button",
        class: "primary",
        "data-testid": "clash-send-next",
        onclick: () => {
          askingNext = null;
          renumber(gameId);
        },
      },
      t("clash_send_next", { n: next }),
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        onclick: () => {
          askingNext = null;
          redraw();
        },
      },
      t("cancel"),
    ),
  );
}

// The service scored a change otherwise than this phone showed (another phone changed an earlier
// round meanwhile, say): both, and OK. The service's stands.
export function noticeItem(gameId, notice) {
  const game = session.game && session.game.id === gameId ? session.game : null;
  const number = notice.number;
  return h(
    "div",
    { class: "pending differs", "data-testid": "differs" },
    h("p", {}, t("differs_title", { n: roundLabelIn(gameId, number) })),
    game
      ? comparison(game, [t("differs_shown"), notice.shown], [t("differs_recorded"), notice.answer])
      : null,
    h(
      "button",
      { type: "button", class: "primary", onclick: () => dismissNotice(gameId, number) },
      t("differs_ok"),
    ),
  );
}
