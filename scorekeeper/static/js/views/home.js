// Home: the tables on this phone, then its games not at a table (open, forget), a new table or
// game, and importing an exported game (import-file.js).

import { h, replace } from "../dom.js";
import { gameUrl, rulesetTitle, tableUrl } from "../format.js";
import { numberLocale, t } from "../i18n.js";
import { store } from "../store.js";
import { heading, mainBox } from "../ui.js";
import { importBox } from "./import-file.js";

// The game or table whose "Forget" waits for a second tap ("game:<id>" or "table:<id>"), or null.
let confirmForget = null;

export function renderHome() {
  const tables = store.tables();
  // A game at a table is listed on the table's page.
  const games = store.games().filter((game) => !game.table || !store.table(game.table));
  const list = games.length
    ? h("ul", { class: "games" }, games.map(gameItem))
    : h("p", { class: "empty" }, t("no_games"));
  replace(
    mainBox(),
    heading(t("app_name")),
    h("p", { class: "lead" }, t("tagline")),
    h(
      "div",
      { class: "row starts" },
      h("a", { class: "button primary", href: "#/new", "data-testid": "new-game" }, t("new_game")),
      h(
        "a",
        { class: "button secondary", href: "#/new-table", "data-testid": "new-table" },
        t("new_table"),
      ),
    ),
    tables.length
      ? [
          h("h2", { id: "tables-heading" }, t("tables_on_phone")),
          h(
            "ul",
            { class: "games", "aria-labelledby": "tables-heading", "data-testid": "tables" },
            tables.map(tableItem),
          ),
        ]
      : null,
    h("h2", {}, tables.length ? t("loose_games_on_phone") : t("games_on_phone")),
    list,
    importBox(),
  );
}

function gameItem(game) {
  const name = game.name || game.players.join(", ");
  const status = game.status === "finished" ? t("status_finished") : t("status_in_progress");
  return h(
    "li",
    { class: "game-item" },
    h(
      "a",
      { class: "game-link", href: gameUrl(game.id), "data-key": `open-${game.id}` },
      h("span", { class: "game-name" }, name),
      h("span", { class: "game-meta" }, `${rulesetTitle(game.ruleset)} · ${status}`),
      game.imported ? importedMark(game.imported) : null,
    ),
    forgetButton(`game:${game.id}`, name, () => store.forgetGame(game.id)),
  );
}

function tableItem(table) {
  return h(
    "li",
    { class: "game-item" },
    h(
      "a",
      {
        class: "game-link",
        href: tableUrl(table.id),
        "data-key": `open-table-${table.id}`,
        "data-testid": "table-link",
      },
      h("span", { class: "game-name" }, table.name),
      h("span", { class: "game-meta" }, table.players.join(", ")),
    ),
    forgetButton(`table:${table.id}`, table.name, () => store.forgetTable(table.id)),
  );
}

// Remove from this phone (the service keeps it): a second tap confirms.
function forgetButton(key, name, forget) {
  if (confirmForget === key) {
    return h(
      "button",
      {
        type: "button",
        class: "danger",
        "data-key": `forget-${key}`,
        onclick: () => {
          forget();
          confirmForget = null;
          renderHome();
        },
      },
      t("forget_confirm"),
    );
  }
  return h(
    "button",
    {
      type: "button",
      class: "secondary",
      "data-key": `forget-${key}`,
      "aria-label": t("forget_game_named", { game: name }),
      onclick: () => {
        confirmForget = key;
        renderHome();
      },
    },
    t("forget_game"),
  );
}

// Escape: a "tap again to forget" closes, the focus back on its button. True when there was one.
export function escapeHome() {
  if (confirmForget === null) return false;
  const id = confirmForget;
  confirmForget = null;
  renderHome();
  document.querySelector(`[data-key="forget-${CSS.escape(id)}"]`)?.focus();
  return true;
}

// An imported game shows the same name as its original: it is marked in words, with the day
// this phone imported it.
function importedMark(when) {
  const date = new Date(when);
  let shown = null;
  if (!Number.isNaN(date.getTime())) {
    try {
      shown = new Intl.DateTimeFormat(numberLocale(), { dateStyle: "medium" }).format(date);
    } catch {
      shown = date.toISOString().slice(0, 10);
    }
  }
  return h(
    "span",
    { class: "game-imported", "data-testid": "imported" },
    h("span", { class: "badge imported" }, t("imported_badge")),
    shown ? [" ", h("time", { datetime: when }, t("imported_on", { date: shown }))] : null,
  );
}
