// Importing an exported game on the home page: a file imported before on this phone is said so
// (open the first, or import it again), and a game of a table this phone keeps with its key can
// go back to that table; otherwise it becomes a game of its own.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { gameUrl } from "../format.js";
import { numberLocale, t } from "../i18n.js";
import { newKey, store } from "../store.js";
import { setNotice } from "../state/notice.js";
import { errorBox } from "../ui.js";

// The file last sent for import, where to, and its Idempotency-Key, until it is answered: the same
// file chosen again (no answer came, say) is imported once.
let unanswered = null;

// What an export is a copy of: the original game, as far as its last round. Two files with the same
// source are the same file, exported again or not.
export function importSource(exported) {
  const game = (exported && exported.game) || {};
  const rounds = Array.isArray(exported && exported.rounds) ? exported.rounds : [];
  const last = rounds.length ? rounds[rounds.length - 1] : null;
  return {
    game: game.id || null,
    rounds: rounds.length,
    last: (last && last.round && last.round.created_at) || game.updated_at || null,
  };
}

export function sameSource(a, b) {
  return (
    Boolean(a && b && a.game) && a.game === b.game && a.rounds === b.rounds && a.last === b.last
  );
}

// The label, the file input and the box that answers.
export function importBox() {
  return [
    h("h2", {}, t("import_title")),
    h(
      "label",
      { class: "file" },
      h("span", {}, t("import_label")),
      h("input", {
        type: "file",
        accept: "application/json,.json",
        id: "import-file",
        onchange: chosen,
      }),
    ),
    h("div", { id: "import-result" }),
  ];
}

function say(...parts) {
  replace(document.getElementById("import-result"), parts);
}

async function chosen(event) {
  const file = event.target.files[0];
  if (!file) return;
  let text;
  let exported;
  try {
    text = await file.text();
    exported = JSON.parse(text);
  } catch {
    say(h("div", { class: "error", role: "alert" }, h("p", {}, t("import_not_json"))));
    return;
  }
  const source = importSource(exported);
  const earlier = store.games().find((game) => game.imported && sameSource(game.source, source));
  if (earlier && unanswered?.text !== text) askAgain(text, exported, source, earlier);
  else whereTo(text, exported, source);
}

// This phone imported the same file before: open that game, or import it again all the same.
function askAgain(text, exported, source, earlier) {
  const title = earlier.name || earlier.players.join(", ");
  say(
    h(
      "div",
      { class: "notice", role: "status", "data-testid": "import-again" },
      h("p", {}, t("import_seen", { game: title, date: shownDate(earlier.imported) })),
      h(
        "div",
        { class: "row" },
        h(
          "a",
          { class: "button primary", href: gameUrl(earlier.id), "data-testid": "open-imported" },
          t("import_open_first"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            "data-testid": "import-anyway",
            onclick: () => whereTo(text, exported, source),
          },
          t("import_anyway"),
        ),
      ),
    ),
  );
  document.querySelector("[data-testid=open-imported]")?.focus();
}

// The game was played at a table this phone keeps with its key: back at that table, or on its
// own. Otherwise, on its own.
function whereTo(text, exported, source) {
  const tableId = exported.game && exported.game.table;
  const table = tableId && store.table(tableId);
  if (!table || !store.tableToken(tableId)) {
    send(text, source, null);
    return;
  }
  say(
    h(
      "div",
      { class: "notice", role: "status", "data-testid": "import-where" },
      h("p", {}, t("import_at_table_asked", { table: table.name })),
      h(
        "div",
        { class: "row" },
        h(
          "button",
          {
            type: "button",
            class: "primary",
            "data-testid": "import-at-table",
            onclick: () => send(text, source, table),
          },
          t("import_at_table", { table: table.name }),
        ),
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            "data-testid": "import-on-its-own",
            onclick: () => send(text, source, null),
          },
          t("import_on_its_own"),
        ),
      ),
    ),
  );
  document.querySelector("[data-testid=import-at-table]")?.focus();
}

async function send(text, source, table) {
  const where = table ? table.id : null;
  if (unanswered?.text !== text || unanswered.where !== where) {
    unanswered = { text, where, key: newKey("import") };
  }
  try {
    const game = table
      ? await api.importGameAtTable(table.id, store.tableToken(table.id), text, unanswered.key)
      : await api.importGame(text, unanswered.key);
    unanswered = null;
    store.saveGame(game, game.token, { imported: new Date().toISOString(), source });
    setNotice(table ? t("imported_at_table", { table: table.name }) : t("imported"));
    location.hash = gameUrl(game.id);
  } catch (error) {
    say(errorBox(error));
  }
}

function shownDate(when) {
  const date = new Date(when);
  if (Number.isNaN(date.getTime())) return "";
  try {
    return new Intl.DateTimeFormat(numberLocale(), { dateStyle: "medium" }).format(date);
  } catch {
    return date.toISOString().slice(0, 10);
  }
}
