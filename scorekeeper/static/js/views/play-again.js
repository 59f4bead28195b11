// On the winner's screen: Play again (the same players, seats, rules and table, one tap), and for
// a game without a table, "Start a table with these players": a table made of its players, then a
// game at it as Play again would make it. A step that fails keeps what is done and what was
// typed; tapping again goes on from there with the same Idempotency-Key. With no network, Play
// again makes the rematch on the phone (state/made.js): the phone chooses its id and draws its
// starter (where the table chooses one), and it is created when the service is back.

import { api, ApiError } from "../api.js";
import { h, replace } from "../dom.js";
import { gameUrl } from "../format.js";
import { t } from "../i18n.js";
import { newId, randomSeat, timeStamp } from "../made-offline.js";
import { getRuleset } from "../rules/index.js";
import { nextGameSeats } from "../seating.js";
import { newKey, store } from "../store.js";
import { session } from "../state/game-session.js";
import { makeGame, makeTable, notCreatedYet } from "../state/made.js";
import { setNotice } from "../state/notice.js";
import { errorBox } from "../ui.js";

// What was started from this game: {gameId, busy, error: {where, error}, key (the rematch's),
// tableName, table (once created), tableKey, gameKey}.
let again = null;

function state(game) {
  if (!again || again.gameId !== game.id) {
    const names = game.players.filter((p) => !p.left).map((p) => p.name);
    const tableName = (game.name || names.join(", ")).slice(0, 80);
    again = { gameId: game.id, busy: false, error: null, tableName, table: null };
  }
  return again;
}

function errorFor(s, where) {
  return s.error && s.error.where === where ? errorBox(s.error.error, "again-error") : null;
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
    h("div", { id: "again-error-rematch" }, errorFor(s, "rematch")),
  );
}

// Below the scores of a game without a table.
export function startTableBox(game) {
  const s = state(game);
  return h(
    "section",
    { class: "play-again start-table", "aria-labelledby": "start-table-heading" },
    h("h2", { id: "start-table-heading" }, t("start_table_title")),
    h(
      "form",
      {
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
      h("div", { id: "again-error-table" }, errorFor(s, "table")),
      h(
        "button",
        { type: "submit", class: "secondary", "data-testid": "start-table", disabled: s.busy },
        t("start_table"),
      ),
    ),
  );
}

function setBusy(busy) {
  again.busy = busy;
  for (const button of document.querySelectorAll(".play-again button")) button.disabled = busy;
}

// The error shows by the button that was tapped; what was typed stays.
function showError(where, error) {
  setBusy(false);
  again.error = { where, error };
  for (const other of ["rematch", "table"]) {
    const box = document.getElementById(`again-error-${other}`);
    if (box) replace(box, other === where ? errorBox(error, "again-error") : null);
  }
  // The table is made already: its name stays as it was made.
  if (again.table) document.getElementById("again-table-name")?.setAttribute("disabled", "");
  document.getElementById(`again-error-${where}`)?.scrollIntoView({ block: "nearest" });
}

// A refusal stands (a new tap is a new request); no answer at all is sent again with its key.
function keepKeyAfter(error) {
  return !(error instanceof ApiError) || error.status === 409 || error.status >= 500;
}

// token: the new game's; null for one made on the phone (kept already, state/made.js).
function opened(created, token = created.token) {
  if (token) store.saveGame(created, token);
  again = null;
  setNotice(t("new_game_started"));
  location.hash = gameUrl(created.id);
}

// A rematch made with no network: the id this phone chose and, where the table chooses one, the
// starter drawn, as the service would.
function offlineBody(game) {
  const body = { id: newId(), created_at: timeStamp() };
  const seats = game.players.filter((p) => !p.left).length;
  if (getRuleset(game.ruleset).choosesStarter) body.starter = randomSeat(seats);
  return body;
}

// The rematch made on the phone, as the service makes it (tables.rematch).
function rematchHere(game, body) {
  const staying = game.players.filter((p) => !p.left);
  const seats = nextGameSeats(game, session.rounds);
  return makeGame({
    what: "rematch",
    at: game.id,
    body,
    key: newKey("rematch"), // its own: a key sent online before went with another body
    made: {
      id: body.id,
      ruleset: game.ruleset,
      name: game.name,
      table: game.table,
      players: seats.players,
      dealer: seats.dealer,
      starter: body.starter ?? null,
      options: game.options,
      createdAt: body.created_at,
      roster: staying.map((p) => p.roster_id ?? null),
    },
  });
}

async function rematch(game) {
  const s = state(game);
  if (s.busy) return;
  s.key = s.key || newKey("rematch");
  setBusy(true);
  try {
    // Of a game (or at a table) made offline too: made here, and created after it.
    if (navigator.onLine === false || notCreatedYet(game.id) || notCreatedYet(game.table)) {
      opened(rematchHere(game, offlineBody(game)), null);
    } else opened(await api.rematch(game.id, store.token(game.id), s.key));
  } catch (error) {
    if (!keepKeyAfter(error)) s.key = null;
    showError("rematch", error);
  }
}

// "Start a table" with no network: the table made on the phone (unless the service has it
// already), then its game, made there too and created after it.
function tableHere(game, s, name, seats) {
  if (!s.table) {
    const body = { id: newId(), name, players: seats.players, created_at: timeStamp() };
    s.table = makeTable({ body, key: newKey("table") });
  }
  const fold = (text) => text.normalize("NFKC").toLocaleLowerCase();
  const rosterOf = (n) => s.table.players.find((p) => fold(p.name) === fold(n)).id;
  const body = {
    id: newId(),
    ruleset: game.ruleset,
    players: seats.players, // by name: a table made here has no roster ids yet
    dealer: seats.dealer,
    options: game.options,
    created_at: timeStamp(),
  };
  if (getRuleset(game.ruleset).choosesStarter) body.starter = randomSeat(seats.players.length);
  return makeGame({
    what: "table-game",
    at: s.table.id,
    body,
    key: newKey("game"),
    made: {
      ...body,
      table: s.table.id,
      starter: body.starter ?? null,
      createdAt: body.created_at,
      roster: seats.players.map(rosterOf),
    },
  });
}

async function startTable(game) {
  const s = state(game);
  if (s.busy) return;
  const name = s.tableName.trim();
  if (!name) {
    const box = h("div", { class: "error", role: "alert" }, h("p", {}, t("need_table_name")));
    replace(document.getElementById("again-error-table"), box);
    document.getElementById("again-table-name").focus();
    return;
  }
  const seats = nextGameSeats(game, session.rounds);
  setBusy(true);
  if (navigator.onLine === false) {
    opened(tableHere(game, s, name, seats), null);
    return;
  }
  try {
    if (!s.table) {
      s.tableKey = s.tableKey || newKey("table");
      const table = await api.createTable({ name, players: seats.players }, s.tableKey);
      store.saveTable(table, table.token);
      s.table = table;
    }
    const fold = (text) => text.normalize("NFKC").toLocaleLowerCase();
    const idOf = (n) => s.table.players.find((p) => fold(p.name) === fold(n)).id;
    const body = {
      ruleset: game.ruleset,
      players: seats.players.map(idOf),
      dealer: seats.dealer,
      options: game.options,
    };
    s.gameKey = s.gameKey || newKey("game");
    opened(await api.createTableGame(s.table.id, store.tableToken(s.table.id), body, s.gameKey));
  } catch (error) {
    if (!keepKeyAfter(error)) {
      if (s.table) s.gameKey = null;
      else s.tableKey = null;
    }
    showError("table", error);
  }
}
