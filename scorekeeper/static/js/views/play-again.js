// On the winner's screen: Play again (the same players, seats, rules and table, one tap), and for
// a game without a table, "Start a table with these players": a table made of its players, then a
// game at it as Play again would make it. A step that fails keeps what is done and what was
// typed; tapping again goes on from there with the same Idempotency-Key.

import { api, ApiError } from "../api.js";
import { h, replace } from "../dom.js";
import { gameUrl } from "../format.js";
import { t } from "../i18n.js";
import { nextGameSeats } from "../seating.js";
import { newKey, store } from "../store.js";
import { session } from "../state/game-session.js";
import { setNotice } from "../state/notice.js";
import { errorBox } from "../ui.js";

// What was started from this game: {gameId, key, busy, error, tableName, table, tableKey,
// gameKey}.
let again = null;

function state(game) {
  if (!again || again.gameId !== game.id) {
    const names = game.players.filter((p) => !p.left).map((p) => p.name);
    const tableName = (game.name || names.join(", ")).slice(0, 80);
    again = { gameId: game.id, key: null, busy: false, error: null, tableName, table: null };
  }
  return again;
}

export function playAgainBox(game) {
  const s = state(game);
  return h(
    "section",
    { class: "play-again", "aria-labelledby": "again-heading" },
    h("h2", { id: "again-heading", class: "visually-hidden" }, t("play_again")),
    h(
      "button",
      {
        type: "button",
        class: "primary big",
        "data-key": "play-again",
        "data-testid": "play-again",
        disabled: s.busy,
        onclick: () => rematch(game),
      },
      t("play_again"),
    ),
    game.table ? null : startTableForm(game, s),
    h("div", { id: "again-error" }, s.error ? errorBox(s.error, "again-error") : null),
  );
}

function showError(error) {
  again.busy = false;
  again.error = error;
  const box = document.getElementById("again-error");
  if (box) {
    replace(box, errorBox(error, "again-error"));
    box.scrollIntoView({ block: "nearest" });
  }
  for (const button of document.querySelectorAll(".play-again button")) button.disabled = false;
}

function busy() {
  again.busy = true;
  again.error = null;
  const box = document.getElementById("again-error");
  if (box) replace(box);
  for (const button of document.querySelectorAll(".play-again button")) button.disabled = true;
}

// A refusal stands (a new tap is a new request); no answer at all is sent again with its key.
function keepKeyAfter(error) {
  return !(error instanceof ApiError) || error.status === 409 || error.status >= 500;
}

async function rematch(game) {
  const s = state(game);
  if (s.busy) return;
  s.key = s.key || newKey("rematch");
  busy();
  try {
    const created = await api.rematch(game.id, store.token(game.id), s.key);
    opened(created);
  } catch (error) {
    if (!keepKeyAfter(error)) s.key = null;
    showError(error);
  }
}

function opened(created) {
  store.saveGame(created, created.token);
  again = null;
  setNotice(t("new_game_started"));
  location.hash = gameUrl(created.id);
}

function startTableForm(game, s) {
  return h(
    "form",
    {
      class: "start-table",
      novalidate: true,
      onsubmit: (event) => {
        event.preventDefault();
        startTable(game);
      },
    },
    h("p", { class: "help" }, t("start_table_help")),
    h(
      "div",
      { class: "field" },
      h("label", { for: "again-table-name" }, t("table_name")),
      h("input", {
        id: "again-table-name",
        "data-key": "again-table-name",
        type: "text",
        maxlength: "80",
        autocomplete: "off",
        value: s.tableName,
        disabled: Boolean(s.table),
        oninput: (e) => (s.tableName = e.target.value),
      }),
    ),
    h(
      "button",
      { type: "submit", class: "secondary", "data-testid": "start-table", disabled: s.busy },
      t("start_table"),
    ),
  );
}

async function startTable(game) {
  const s = state(game);
  if (s.busy) return;
  const name = s.tableName.trim();
  if (!name) {
    const box = h("div", { class: "error", role: "alert" }, h("p", {}, t("need_table_name")));
    replace(document.getElementById("again-error"), box);
    document.getElementById("again-table-name").focus();
    return;
  }
  const seats = nextGameSeats(game, session.rounds);
  busy();
  try {
    if (!s.table) {
      s.tableKey = s.tableKey || newKey("table");
      const table = await api.createTable({ name, players: seats.players }, s.tableKey);
      store.saveTable(table, table.token);
      s.table = table;
    }
    const fold = (text) => text.normalize("NFKC").toLocaleLowerCase();
    const idOf = (n) => s.table.players.find((p) => fold(p.name) === fold(n)).id;
    const ids = seats.players.map(idOf);
    const body = {
      ruleset: game.ruleset,
      players: ids,
      dealer: seats.dealer,
      options: game.options,
    };
    s.gameKey = s.gameKey || newKey("game");
    const token = store.tableToken(s.table.id);
    opened(await api.createTableGame(s.table.id, token, body, s.gameKey));
  } catch (error) {
    if (!keepKeyAfter(error)) {
      if (s.table) s.gameKey = null;
      else s.tableKey = null;
    }
    showError(error);
  }
}
