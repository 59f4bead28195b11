// The outbox banner: rounds waiting to be sent, and rounds the service refused.

import { h, replace } from "./dom.js";
import { gameUrl } from "./format.js";
import { t } from "./i18n.js";
import { discard, retry } from "./outbox.js";
import { store } from "./store.js";
import { askToEnterAgain, openDraft } from "./state/open-entry.js";
import { currentRoute, go } from "./state/route.js";

export function renderOutbox() {
  const pending = store.pendingAll();
  const items = Object.entries(pending).map(([gameId, entry]) => {
    // A refused round being entered again stays kept here until its new entry is confirmed
    // (which replaces it) or it is discarded; the open form stands for it meanwhile.
    if (replacedByOpenEntry(gameId, entry)) return null;
    const known = store.game(gameId);
    const gameName = (known && (known.name || known.players.join(", "))) || gameId;
    if (entry.state === "failed") return failedItem(gameId, entry, gameName);
    const number = entry.body.number;
    const text =
      entry.state === "waiting"
        ? t("pending_waiting", { number, game: gameName, attempts: entry.attempts })
        : t("pending_sending", { number, game: gameName });
    return h(
      "div",
      { class: "pending", "data-testid": "pending" },
      h("p", {}, text),
      entry.state === "waiting"
        ? h("button", { type: "button", onclick: () => retry(gameId) }, t("retry_now"))
        : null,
    );
  });
  replace(document.getElementById("outbox"), items);
}

// Refused for good: sending it again cannot help. Another phone recorded that round (409) or it
// was an invalid entry typed offline (422): it can be entered again as the next round.
// Otherwise (the game is over, say) only the service's reason and Discard.
function failedItem(gameId, entry, gameName) {
  const number = entry.body.number;
  const taken = Boolean(entry.error && entry.error.taken);
  return h(
    "div",
    { class: "pending failed", "data-testid": "pending-failed" },
    h(
      "p",
      {},
      taken
        ? t("pending_taken", { number, game: gameName })
        : t("pending_failed", { number, game: gameName }),
    ),
    entry.error
      ? h("p", { class: "detail", lang: entry.error.language || "en" }, entry.error.message)
      : null,
    h(
      "div",
      { class: "row" },
      canEnterAgain(entry)
        ? h(
            "button",
            {
              type: "button",
              class: "primary",
              "data-testid": "edit-refused",
              onclick: () => editRefused(gameId),
            },
            t("edit_refused"),
          )
        : null,
      h(
        "button",
        { type: "button", class: "danger", onclick: () => discard(gameId) },
        t("discard_round"),
      ),
    ),
  );
}

export function canEnterAgain(entry) {
  return (
    entry.state === "failed" &&
    Boolean(entry.error && (entry.error.taken || entry.error.status === 422))
  );
}

function replacedByOpenEntry(gameId, entry) {
  const current = currentRoute();
  const draft = openDraft();
  return Boolean(
    current &&
    current.view === "game" &&
    current.tab === "round" &&
    current.id === gameId &&
    draft &&
    draft.replaces === entry.key,
  );
}

// Open the round entry form with a refused round's entry. It stays in the outbox until the new
// entry is confirmed (replacing it) or it is discarded: closing the page meanwhile loses nothing.
function editRefused(gameId) {
  const entry = store.pending(gameId);
  if (!entry || !canEnterAgain(entry)) return;
  askToEnterAgain(gameId, entry.key);
  go(gameUrl(gameId, "round"));
}
