// Scorekeeper's phone page. Talks only to the public API (/api/v1). Online, every result shown
// before confirming comes from the service's dry run; offline, from the rules on the phone
// (rules/), and the game shows this phone's outbox applied, as provisional, until it is sent.
//
// This module starts the page: the language, the router, the outbox banner and the listeners
// that tie them together: the views draw what the live state (state/live.js) holds when it tells
// them it changed. The views are in views/, what they share in state/.

import { renderOutbox } from "./banner.js";
import { pickLanguage, setLanguage, t } from "./i18n.js";
import { registerWorker, renderUpdate } from "./install.js";
import { onEscape } from "./keyboard.js";
import { flushAll, onOutboxChange } from "./outbox.js";
import { route, routeWhenOnline } from "./router.js";
import { live } from "./state/game-session.js";
import { store } from "./store.js";
import { announce } from "./ui.js";
import { entryOpen, previewWhenOnline, renderEntry } from "./views/entry.js";
import { gameChanged } from "./views/game.js";
import { tableChanged } from "./views/table-page.js";
import { roundLabelIn } from "./round-label.js";

onOutboxChange((event) => {
  renderOutbox();
  const sentRound = event.type === "sent" && event.item.kind === "round";
  if (sentRound) announce(t("round_saved", { n: roundLabelIn(event.gameId, event.answer.number) }));
});

// The live state (state/live.js) changed: the page on screen draws it again. A game or table
// deleted meanwhile: the route shows that it is gone.
live.subscribe((change) => {
  if (change.kind === "game") {
    gameChanged();
    renderOutbox(); // a clash shows theirs beside mine once their round is here
  } else if (change.kind === "table") {
    tableChanged();
  } else if (change.kind === "deleted") {
    route();
  }
});

window.addEventListener("online", routeWhenOnline);
window.addEventListener("online", previewWhenOnline);
document.addEventListener("keydown", onEscape);

async function start() {
  store.moveOldOutbox();
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
