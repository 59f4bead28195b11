// A game's page (playing or watching): shows its tabs (table, history, chart) or the round entry,
// drawn from the live state (state/live.js), which loads the game and follows it.

import { api } from "../api.js";
import { renderOutbox } from "../banner.js";
import { h, replace } from "../dom.js";
import { gameTitle, gameUrl, rulesetTitle, watchUrl } from "../format.js";
import { t } from "../i18n.js";
import { store } from "../store.js";
import { canWrite, live, session } from "../state/game-session.js";
import { takeNotice } from "../state/notice.js";
import { currentRoute, isEntryTab, isSeatTab } from "../state/route.js";
import { heading, mainBox } from "../ui.js";
import { chartView } from "./chart-view.js";
import { escapeEntry, startEdit, startEntry } from "./entry.js";
import { checkUndo, escapeHistory, historyView } from "./history.js";
import { middleView } from "./middle.js";
import { renderSeatChange, seatChanged } from "./seat-change.js";
import { tableView } from "./table.js";

// The route's game, loaded and followed unless it is already (a failed load is loaded again).
// (The route is read again after loading: another tap may have moved on meanwhile.)
export async function renderGameRoute() {
  const id = currentRoute().id;
  if (!live.showing(id)) {
    replace(mainBox(), h("p", { class: "loading" }, t("loading")));
    // A game at one of this phone's tables is kept with the table's key (another phone started
    // it), unless it is only watched.
    await live.showGame(id, { keep: currentRoute().view === "game" });
    if (currentRoute().view === "game" && session.game && store.game(session.game.id)) {
      keepItsTable(session.game);
    }
    renderOutbox(); // a clash shows theirs and mine once the game is here
  }
  const route = currentRoute();
  if (route.id !== id || !session.game) return;
  if (route.tab === "round") return startEntry();
  if (route.tab === "edit") return startEdit(route.number);
  if (isSeatTab(route)) return renderSeatChange(route.tab);
  renderGame();
}

// A game this phone keeps (with its own key, say from a scorer link) at a table it does not: the
// table is kept too, without a key (read only), so that the home page files the game under it.
function keepItsTable(game) {
  if (!game.table || store.table(game.table)) return;
  api.table(game.table).then(
    (answer) => {
      if (!store.table(game.table)) store.saveTable(answer.data, null);
    },
    () => {}, // offline: the next time the game is opened
  );
}

// The game changed (on the service, or in this phone's outbox): the tabs show it, an entry goes on.
export function gameChanged() {
  const route = currentRoute();
  const shown = (route.view === "game" || route.view === "watch") && session.game;
  if (!shown || session.game.id !== route.id) return;
  if (isSeatTab(route)) seatChanged();
  else if (!isEntryTab(route)) renderGame();
}

function tabs(game, route) {
  const base = route.view === "watch" ? watchUrl(game.id) : gameUrl(game.id);
  const items = [
    ["table", t("tab_table"), base],
    ["history", t("tab_history"), `${base}/history`],
    ["chart", t("tab_chart"), `${base}/chart`],
  ];
  return h(
    "nav",
    { class: "tabs", "aria-label": t("game_sections") },
    items.map(([key, label, href]) =>
      h(
        "a",
        {
          href,
          class: ["tab", route.tab === key && "current"],
          "aria-current": route.tab === key ? "page" : null,
          "data-key": `tab-${key}`,
        },
        label,
      ),
    ),
  );
}

export function renderGame() {
  const game = session.game;
  const route = currentRoute();
  checkUndo(session.rounds);
  if (route.tab === "middle") {
    replace(mainBox(), middleView(game, route.view === "watch", renderGame));
    return;
  }
  const parts = [
    heading(gameTitle(game)),
    h("p", { class: "subtitle" }, rulesetTitle(game.ruleset), atTable(game)),
  ];
  if (route.view === "watch") parts.push(h("p", { class: "watching" }, t("watching")));
  else if (!canWrite()) parts.push(h("p", { class: "watching" }, t("read_only")));
  const notice = takeNotice();
  if (notice) parts.push(h("p", { class: "notice", role: "status" }, notice));
  parts.push(tabs(game, route));
  if (route.tab === "history") {
    parts.push(historyView(game, session.rounds, canWrite(), renderGame));
  } else if (route.tab === "chart") {
    parts.push(chartView(game, session.rounds));
  } else {
    parts.push(tableView(game, canWrite(), renderGame));
  }
  replace(mainBox(), parts);
}

// " · Friday crew" for a game at one of this phone's tables.
function atTable(game) {
  const table = game.table && store.table(game.table);
  return table ? ` · ${table.name}` : null;
}

// Escape on a game page: a pending undo on History, or the round entry. True when handled.
export function escapeGame(route) {
  if (route.tab === "middle") {
    location.hash = route.view === "watch" ? watchUrl(route.id) : gameUrl(route.id);
    return true;
  }
  if (route.view !== "game") return false;
  if (route.tab === "history") return escapeHistory(renderGame);
  if (isEntryTab(route)) return escapeEntry();
  if (isSeatTab(route)) {
    location.hash = gameUrl(route.id);
    return true;
  }
  return false;
}
