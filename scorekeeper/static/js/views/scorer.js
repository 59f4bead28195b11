// "Add a scorer": a link and its QR code that give another phone a game's key (or its table's),
// shown only after a tap; and what a phone does when it opens such a link.

import { api } from "../api.js";
import { h } from "../dom.js";
import { gameUrl, scorerUrl, tableUrl } from "../format.js";
import { t } from "../i18n.js";
import { qrSvg } from "../qr.js";
import { setNotice } from "../state/notice.js";
import { currentRoute } from "../state/route.js";
import { store } from "../store.js";
import { announce } from "../ui.js";

// Whose scorer link is open ("game:<id>", "tables:<id>"): it stays open while the page is redrawn.
let shown = null;

// On a game's page that may record: the game's own key, or, for a game another phone started at
// this phone's table, the table's.
export function gameScorerBox(game) {
  if (currentRoute().view !== "game") return null;
  const own = store.game(game.id);
  if (own && own.token) return scorerBox("game", game.id, own.token);
  const tableToken = game.table && store.tableToken(game.table);
  return tableToken ? scorerBox("tables", game.table, tableToken) : null;
}

export function tableScorerBox(table) {
  const token = store.tableToken(table.id);
  return token ? scorerBox("tables", table.id, token) : null;
}

function scorerBox(kind, id, token) {
  const key = `${kind}:${id}`;
  const open = shown === key;
  const toggle = () => {
    shown = open ? null : key;
    const again = scorerBox(kind, id, token);
    box.replaceWith(again);
    again.querySelector("[data-key=scorer-toggle]").focus();
  };
  const box = h(
    "div",
    { class: "scorer" },
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        "aria-expanded": open ? "true" : "false",
        "aria-controls": open ? "scorer-link-box" : null,
        "data-key": "scorer-toggle",
        "data-testid": "add-scorer",
        onclick: toggle,
      },
      open ? t("hide_scorer") : t("add_scorer"),
    ),
    open ? linkBox(kind, scorerUrl(kind, id, token)) : null,
  );
  return box;
}

function linkBox(kind, link) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      announce(t("copied"));
    } catch {
      document.getElementById("scorer-link").select();
    }
  };
  return h(
    "div",
    { id: "scorer-link-box", class: "scorer-link" },
    h(
      "p",
      { class: "notice" },
      t(kind === "game" ? "scorer_game_warning" : "scorer_table_warning"),
    ),
    h("label", { for: "scorer-link" }, t("scorer_link")),
    h("input", {
      id: "scorer-link",
      type: "text",
      readonly: true,
      value: link,
      "data-testid": "scorer-link",
    }),
    h("button", { type: "button", class: "secondary", onclick: copy }, t("copy_link")),
    qrSvg(link, t("scorer_qr")),
  );
}

// A scorer link opened on this phone (route: {kind, id, token}): keep the key with the game or
// table, then take it out of the address bar and the history. A failure (offline, no such game)
// is the router's to show; the link stays, so that Try again can use it.
export async function takeScorerLink(route) {
  if (route.kind === "tables") {
    store.saveTable((await api.table(route.id)).data, route.token);
    setNotice(t("scorer_table_added"));
  } else {
    store.saveGame((await api.game(route.id)).data, route.token);
    setNotice(t("scorer_game_added"));
  }
  const target = route.kind === "tables" ? tableUrl(route.id) : gameUrl(route.id);
  history.replaceState(history.state, "", `${location.pathname}${location.search}${target}`);
}
