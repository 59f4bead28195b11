// Scorekeeper's phone page. Talks only to the public API (/api/v1). Online, every result shown
// before confirming comes from the service's dry run; offline, from the rules on the phone
// (rules/), and the game shows this phone's outbox applied, as provisional, until it is sent.
//
// This module starts the page: the language, the router, the outbox banner and the listeners
// that tie them together. The views are in views/, what they share in state/.

import { renderOutbox } from "./banner.js";
import { pickLanguage, setLanguage, t } from "./i18n.js";
import { registerWorker, renderUpdate } from "./install.js";
import { onEscape } from "./keyboard.js";
import { flushAll, onOutboxChange } from "./outbox.js";
import { route, routeWhenOnline } from "./router.js";
import { onGameChange, outboxChanged, refreshGame, session } from "./state/game-session.js";
import { store } from "./store.js";
import { announce } from "./ui.js";
import { entryOpen, previewWhenOnline, renderEntry } from "./views/entry.js";
import { gameChanged } from "./views/game.js";

onOutboxChange(async (event) => {
  renderOutbox();
  const sentRound = event.type === "sent" && event.item.kind === "round";
  if (sentRound) announce(t("round_saved", { n: event.answer.number }));
  const game = session.game;
  // An answer is followed by the export the outbox asks for (settled): the page is drawn then,
  // once, with the service's game (or the provisional one while more waits).
  if (!game || event.gameId !== game.id || event.type === "sent") return;
  const fromService =
    event.type === "settled" ||
    event.type === "discarded" ||
    (event.type === "failed" && !event.network); // refused: theirs is shown beside mine
  const redrawn = fromService && (await refreshGame(true));
  if (!redrawn) outboxChanged();
  renderOutbox();
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
