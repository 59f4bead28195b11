// The router: shows the page the location's hash names (home, a new game or table, a table, a
// game), and a way to try again when it could not be loaded.

import { h, replace } from "./dom.js";
import { gameTitle, gameUrl, watchUrl } from "./format.js";
import { t } from "./i18n.js";
import { renderOutbox } from "./banner.js";
import { live, session } from "./state/game-session.js";
import { store } from "./store.js";
import { currentRoute, isEntryTab, onShowAgain, parseRoute, setRoute } from "./state/route.js";
import { errorBox, focusTitle, heading, mainBox } from "./ui.js";
import { closeEntry } from "./views/entry.js";
import { renderGameRoute } from "./views/game.js";
import { resetHistory } from "./views/history.js";
import { renderHome } from "./views/home.js";
import { renderNew } from "./views/new-game.js";
import { renderNewTable } from "./views/new-table.js";
import { takeScorerLink } from "./views/scorer.js";
import { renderTableRoute } from "./views/table-page.js";
import { roundLabelIn } from "./round-label.js";

// The last route could not be loaded (offline, say): it is tried again when the connection is back.
let routeFailed = false;

onShowAgain(() => route());

export async function route() {
  if (parseRoute(location.hash).view === "scorer") return routeScorer();
  const previous = currentRoute();
  const next = parseRoute(location.hash);
  setRoute(next);
  const games = (r) => r.view === "game" || r.view === "watch";
  const sameGame = previous && next.id && previous.id === next.id && games(previous) && games(next);
  const sameTable = previous && next.view === "table" && previous.view === "table";
  if (!sameGame && !(sameTable && previous.id === next.id)) live.close();
  resetHistory();
  // Tried again (Retry, or the connection is back) after this view failed to load.
  const retried = routeFailed;
  routeFailed = false;
  if (!isEntryTab(next)) {
    closeEntry();
    renderOutbox(); // a refused round hidden while its new entry was open shows again
  }
  try {
    if (next.view === "home") renderHome();
    else if (next.view === "new") await renderNew(next.table || null);
    else if (next.view === "new-table") renderNewTable();
    else if (next.view === "table") await renderTableRoute();
    // (The same game whose last load stopped half way, the game came and its rounds did not, is
    // loaded again.)
    else await renderGameRoute();
  } catch (error) {
    routeError(error);
  }
  if (!sameGame || previous.tab !== next.tab || retried) focusTitle();
}

// A scorer link: its key kept and the link replaced by the game's (or table's) route, then shown.
async function routeScorer() {
  const next = parseRoute(location.hash);
  setRoute(next);
  live.close();
  replace(mainBox(), h("p", { class: "loading" }, t("loading")));
  try {
    await takeScorerLink(next);
  } catch (error) {
    routeError(error);
    focusTitle();
    return;
  }
  await route();
}

// The connection is back: a view that could not be loaded is tried again, and a table shown from
// this phone's kept copy is read again.
export function routeWhenOnline() {
  if (routeFailed || live.tableSeen() !== null) route();
}

// A view that could not be loaded (offline, say): try again (also when the connection is back),
// or go back to the game when this phone already shows it.
function routeError(error) {
  const current = currentRoute();
  routeFailed = true;
  const game = session.game;
  const known = current.id && game && game.id === current.id;
  let title = t("app_name");
  if (current.tab === "edit")
    title = t("edit_round_n", { n: roundLabelIn(current.id, current.number) });
  else if (known) title = gameTitle(game);
  else if (current.view === "table") title = (store.table(current.id) || {}).name || title;
  let back = null;
  if (known && current.tab !== "table") {
    const href =
      current.view === "watch"
        ? watchUrl(current.id)
        : gameUrl(current.id, current.tab === "edit" ? "history" : "");
    back = h(
      "a",
      { class: "button secondary", href, "data-testid": "back-to-game" },
      t("back_to_game"),
    );
  }
  replace(
    mainBox(),
    heading(title),
    errorBox(error),
    h(
      "div",
      { class: "row" },
      h(
        "button",
        {
          type: "button",
          class: "primary",
          "data-key": "retry-route",
          "data-testid": "retry-route",
          onclick: () => route(),
        },
        t("try_again_load"),
      ),
      back,
    ),
    h("p", {}, h("a", { href: "#/" }, t("back_home"))),
  );
}
