// Home: the games on this phone (open, forget), a new game, and importing an exported one.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { gameUrl, rulesetTitle } from "../format.js";
import { language, t } from "../i18n.js";
import { store } from "../store.js";
import { setNotice } from "../state/notice.js";
import { errorBox, heading, mainBox } from "../ui.js";

// The game whose "Forget" waits for a second tap, or null.
let confirmForget = null;

export function renderHome() {
  const games = store.games();
  const list = games.length
    ? h("ul", { class: "games" }, games.map(gameItem))
    : h("p", { class: "empty" }, t("no_games"));
  replace(
    mainBox(),
    heading(t("app_name")),
    h("p", { class: "lead" }, t("tagline")),
    h(
      "a",
      { class: "button primary big", href: "#/new", "data-testid": "new-game" },
      t("new_game"),
    ),
    h("h2", {}, t("games_on_phone")),
    list,
    h("h2", {}, t("import_title")),
    h(
      "label",
      { class: "file" },
      h("span", {}, t("import_label")),
      h("input", {
        type: "file",
        accept: "application/json,.json",
        id: "import-file",
        onchange: importFile,
      }),
    ),
    h("div", { id: "import-result" }),
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
    confirmForget === game.id
      ? h(
          "button",
          {
            type: "button",
            class: "danger",
            "data-key": `forget-${game.id}`,
            onclick: () => {
              store.forgetGame(game.id);
              confirmForget = null;
              renderHome();
            },
          },
          t("forget_confirm"),
        )
      : h(
          "button",
          {
            type: "button",
            class: "secondary",
            "data-key": `forget-${game.id}`,
            "aria-label": t("forget_game_named", { game: name }),
            onclick: () => {
              confirmForget = game.id;
              renderHome();
            },
          },
          t("forget_game"),
        ),
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
      shown = new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(date);
    } catch {
      shown = date.toLocaleDateString();
    }
  }
  return h(
    "span",
    { class: "game-imported", "data-testid": "imported" },
    h("span", { class: "badge imported" }, t("imported_badge")),
    shown ? [" ", h("time", { datetime: when }, t("imported_on", { date: shown }))] : null,
  );
}

async function importFile(event) {
  const file = event.target.files[0];
  const box = document.getElementById("import-result");
  if (!file) return;
  try {
    const text = await file.text();
    try {
      JSON.parse(text);
    } catch {
      const message = h("p", {}, t("import_not_json"));
      replace(box, h("div", { class: "error", role: "alert" }, message));
      return;
    }
    const game = await api.importGame(text);
    store.saveGame(game, game.token, { imported: new Date().toISOString() });
    setNotice(t("imported"));
    location.hash = gameUrl(game.id);
  } catch (error) {
    replace(box, errorBox(error));
  }
}
