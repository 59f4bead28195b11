// A game's page (playing or watching): loads the game, polls it, and shows its tabs (table,
// history, chart) or the round entry.

import { renderOutbox } from "../banner.js";
import { h, replace } from "../dom.js";
import { gameTitle, gameUrl, rulesetTitle, watchUrl } from "../format.js";
import { t } from "../i18n.js";
import { store } from "../store.js";
import { canWrite, loadGame, loadRounds, session, startPolling } from "../state/game-session.js";
import { takeNotice } from "../state/notice.js";
import { currentRoute, isEntryTab, isSeatTab } from "../state/route.js";
import { heading, mainBox } from "../ui.js";
import { chartView } from "./chart-view.js";
import { escapeEntry, startEdit, startEntry } from "./entry.js";
import { checkUndo, escapeHistory, historyView } from "./history.js";
import { renderSeatChange, seatChanged } from "./seat-change.js";
import { tableView } from "./table.js";

// fresh: load the game and its rounds (again), and poll from then on.
// (The route is read again after loading: another tap may have moved on meanwhile.)
export async function renderGameRoute(fresh) {
  if (fresh || !session.game) {
    replace(mainBox(), h("p", { class: "loading" }, t("loading")));
    await loadGame(true);
    await loadRounds();
    const view = currentRoute().view;
    const game = session.game;
    if (view === "game" && store.game(game.id)) store.updateGame(game);
    // A game at one of this phone's tables: kept with the table's key (another phone started it).
    else if (view === "game" && game.table && store.table(game.table)) store.saveGame(game, null);
    startPolling(view === "watch" ? 2000 : 5000);
    renderOutbox(); // a clash shows theirs and mine once the game is here
  }
  const route = currentRoute();
  if (route.tab === "round") return startEntry();
  if (route.tab === "edit") return startEdit(route.number);
  if (isSeatTab(route)) return renderSeatChange(route.tab);
  renderGame();
}

// The game changed on the service (a poll, a round sent): the tabs show it, an entry goes on.
export function gameChanged() {
  const route = currentRoute();
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
    parts.push(tableView(game, canWrite()));
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
  if (route.view !== "game") return false;
  if (route.tab === "history") return escapeHistory(renderGame);
  if (isEntryTab(route)) return escapeEntry();
  if (isSeatTab(route)) {
    location.hash = gameUrl(route.id);
    return true;
  }
  return false;
}
