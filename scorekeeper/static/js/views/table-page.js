// A table's page: who is on top (the standings as a league table), the table's games (newest
// first) and a new game with its roster. Followed while shown, as a game is (state/live.js).
// Offline, this phone's kept copy of it, saying so; its games that this phone keeps open from it,
// and a new game is made on the phone (state/made.js).

import { h, replace } from "../dom.js";
import { gameUrl, rulesetTitle, tableUrl } from "../format.js";
import { numberLocale, t } from "../i18n.js";
import { places, rulesetFigures } from "../standings.js";
import { store } from "../store.js";
import { live } from "../state/game-session.js";
import { takeNotice } from "../state/notice.js";
import { currentRoute } from "../state/route.js";
import { heading, mainBox } from "../ui.js";
import { tableScorerBox } from "./scorer.js";

// Load the route's table (an error is the router's to show), draw it, and follow it.
export async function renderTableRoute() {
  const id = currentRoute().id;
  const shown = live.table();
  if (!shown || shown.id !== id) replace(mainBox(), h("p", { class: "loading" }, t("loading")));
  await live.showTable(id);
  tableChanged();
}

// The table changed on the service: drawn again, if it is on screen.
export function tableChanged() {
  const route = currentRoute();
  const table = live.table();
  if (route.view === "table" && table && route.id === table.id) drawTable(table, live.tableSeen());
}

// `seen`: when the service last answered the table, if this is the copy this phone kept, else null.
function drawTable(table, seen) {
  const writable = store.tableWritable(table.id);
  const notice = takeNotice();
  const kept = seen !== null;
  replace(
    mainBox(),
    heading(table.name),
    h(
      "p",
      { class: "subtitle" },
      table.players.length
        ? t("roster_is", { names: table.players.map((p) => p.name).join(", ") })
        : t("no_roster"),
    ),
    notice ? h("p", { class: "notice", role: "status" }, notice) : null,
    kept
      ? h(
          "p",
          { class: "notice", role: "status", "data-testid": "table-kept" },
          t("table_kept", { when: dateTime(seen) }),
        )
      : null,
    writable
      ? h(
          "a",
          {
            class: "button primary big",
            href: tableUrl(table.id, "new"),
            "data-testid": "table-new-game",
          },
          t("new_game"),
        )
      : null,
    writable ? null : h("p", { class: "watching" }, t("table_read_only")),
    h("h2", { id: "standings-heading" }, t("standings")),
    standingsTable(table.standings),
    h("h2", { id: "table-games-heading" }, t("table_games")),
    table.games.length
      ? h(
          "ul",
          { class: "games", "aria-labelledby": "table-games-heading" },
          table.games.map((game) => gameItem(table, game, kept)),
        )
      : h("p", { class: "empty" }, t("no_games_at_table")),
    tableScorerBox(table),
  );
}

function standingsTable(rows) {
  if (!rows.length) return h("p", { class: "empty" }, t("no_standings"));
  const rank = places(rows);
  const number = new Intl.NumberFormat(numberLocale(), {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return [
    h(
      "table",
      { class: "standings", "aria-labelledby": "standings-heading", "data-testid": "standings" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col", class: "num" }, h("abbr", { title: t("col_place") }, "#")),
          h("th", { scope: "col" }, t("col_player")),
          h("th", { scope: "col", class: "num" }, t("col_won")),
          h("th", { scope: "col", class: "num" }, t("col_average_place")),
          h("th", { scope: "col", class: "num" }, t("col_played")),
        ),
      ),
      h(
        "tbody",
        {},
        rows.map((row, index) =>
          h(
            "tr",
            { "data-testid": "standing", "data-player": row.name },
            h("td", { class: "num place" }, String(rank[index])),
            h("th", { scope: "row" }, h("span", { class: "name" }, row.name), figures(row)),
            h("td", { class: "num", "data-figure": "games_won" }, String(row.games_won)),
            h(
              "td",
              { class: "num", "data-figure": "average_place" },
              row.average_place === null ? "–" : number.format(row.average_place),
            ),
            h("td", { class: "num", "data-figure": "games_played" }, String(row.games_played)),
          ),
        ),
      ),
    ),
    h("p", { class: "standings-order" }, t("standings_order")),
  ];
}

// Each ruleset's figures, one short line each under the name.
function figures(row) {
  const number = new Intl.NumberFormat(numberLocale(), { maximumFractionDigits: 2 });
  return rulesetFigures(row).map((part) =>
    h(
      "span",
      { class: "figures", "data-ruleset": part.ruleset },
      h("span", { class: "figures-title" }, rulesetTitle(part.ruleset)),
      part.figures.map((figure) => [" ", figureItem(figure, part.ruleset, number)]),
    ),
  );
}

// One figure, its words kept together; its value in data attributes as the service gave it.
function figureItem(figure, ruleset, number) {
  const vars = Object.fromEntries(
    Object.entries(figure.vars).map(([key, value]) => [key, number.format(value)]),
  );
  return h(
    "span",
    {
      class: "figure",
      "data-figure": `${ruleset}.${figure.name}`,
      "data-value": String(figure.vars.n),
      "data-won": figure.vars.won === undefined ? null : String(figure.vars.won),
    },
    t(figure.key, vars),
  );
}

// A game of the table; on the kept copy, one this phone keeps no copy of is not a link.
function gameItem(table, game, kept) {
  const names = new Map(table.players.map((p) => [p.id, p.name]));
  const winners = game.winners.map((id) => names.get(id) || "?").join(", ");
  const status =
    game.status === "finished"
      ? winners
        ? t("won_by", { names: winners })
        : t("status_finished")
      : t("status_in_progress");
  const title = game.name || game.players.map((id) => names.get(id) || "?").join(", ");
  const parts = [
    h("span", { class: "game-name" }, title),
    h(
      "span",
      { class: "game-meta" },
      `${rulesetTitle(game.ruleset)} · ${status} · ${dateTime(game.created_at)}`,
    ),
  ];
  if (kept && !store.exported(game.id)) {
    return h(
      "li",
      { class: "game-item" },
      h(
        "div",
        { class: "game-card", "data-testid": "table-game-away", "data-status": game.status },
        parts,
        h("span", { class: "not-kept" }, t("not_on_phone")),
      ),
    );
  }
  return h(
    "li",
    { class: "game-item" },
    h(
      "a",
      {
        class: "game-link",
        href: gameUrl(game.id),
        "data-testid": "table-game",
        "data-status": game.status,
      },
      parts,
    ),
  );
}

function dateTime(when) {
  const date = new Date(when);
  if (Number.isNaN(date.getTime())) return "";
  try {
    return new Intl.DateTimeFormat(numberLocale(), {
      dateStyle: "short",
      timeStyle: "short",
    }).format(date);
  } catch {
    return date.toISOString().slice(0, 16).replace("T", " ");
  }
}
