// Scorekeeper's phone page. Talks only to the public API (/api/v1); no scoring rules live here:
// every result shown before confirming comes from the service's dry run.
//
// This module starts the page: the language, the router, the outbox banner and the listeners
// that tie them together. The views are in views/, what they share in state/.

import { renderOutbox } from "./banner.js";
import { pickLanguage, setLanguage, t } from "./i18n.js";
import { registerWorker, renderUpdate } from "./install.js";
import { onEscape } from "./keyboard.js";
import { flushAll, onOutboxChange } from "./outbox.js";
import { route, routeWhenOnline } from "./router.js";
import { onGameChange, refreshGame, session } from "./state/game-session.js";
import { store } from "./store.js";
import { announce } from "./ui.js";
import { entryOpen, previewWhenOnline, renderEntry } from "./views/entry.js";
import { gameChanged } from "./views/game.js";

onOutboxChange(async (event) => {
  renderOutbox();
  if (event.type === "sent") announce(t("round_saved", { number: event.round.number }));
  const game = session.game;
  const settled = event.type === "sent" || event.type === "discarded";
  if (game && event.gameId === game.id && settled) await refreshGame(true);
});

onGameChange(gameChanged);
window.addEventListener("online", routeWhenOnline);
window.addEventListener("online", previewWhenOnline);
document.addEventListener("keydown", onEscape);

async function start() {
  const select = document.getElementById("lang-select");
  const lang = pickLanguage();
  await setLanguage(lang);
  select.value = lang;
  select.addEventListener("change", async () => {
    store.setLang(select.value);
    await setLanguage(select.value);
    renderOutbox();
    renderUpdate();
    if (entryOpen()) {
      renderEntry();
    } else {
      await route();
    }
    select.focus();
  });
  window.addEventListener("hashchange", route);
  renderOutbox();
  flushAll();
  await route();
  document.body.classList.add("ready");
  registerWorker();
}

start();
