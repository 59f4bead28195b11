// The outbox banner: what waits to be sent, what the service refused, and (views/clash.js) a
// round another phone recorded first and a change the service scored otherwise than shown.

import { h, replace } from "./dom.js";
import { gameUrl } from "./format.js";
import { t } from "./i18n.js";
import { discard, retry, waiting } from "./outbox.js";
import { store } from "./store.js";
import { askToEnterAgain, openDraft } from "./state/open-entry.js";
import { currentRoute, go } from "./state/route.js";
import { clashItem, noticeItem } from "./views/clash.js";
import { roundLabelIn } from "./round-label.js";

export function renderOutbox() {
  const boxes = store.outboxes();
  const items = Object.entries(boxes).map(([gameId, box]) => {
    const queue = waiting(gameId);
    const known = store.game(gameId) || store.table(gameId); // a table made offline has one too
    const gameName = (known && (known.name || known.players.join(", "))) || gameId;
    const notices = (box.notices || []).map((notice) => noticeItem(gameId, notice));
    const head = queue[0];
    if (!head) return notices;
    // A refused round being entered again stays kept here until its new entry is confirmed
    // (which replaces it) or it is discarded; the open form stands for it meanwhile.
    if (replacedByOpenEntry(gameId, head)) return notices;
    if (head.state === "taken")
      return [clashItem(gameId, head, gameName, numberOf(head), renderOutbox), ...notices];
    if (head.state === "failed") return [failedItem(gameId, head, gameName, queue), ...notices];
    if (navigator.onLine === false) return [offlineItem(queue, gameName), ...notices];
    const number = head.kind === "create" ? null : roundLabelIn(gameId, numberOf(head));
    // Queued and online: send() is on it, or starts at once.
    const creation = head.kind === "create";
    let text;
    if (head.state === "waiting") {
      const vars = { number, game: gameName, attempts: head.attempts };
      text = t(creation ? "pending_create_waiting" : "pending_waiting", vars);
    } else text = t(creation ? "pending_creating" : "pending_sending", { number, game: gameName });
    return [
      h(
        "div",
        { class: "pending", "data-testid": "pending", "data-state": head.state },
        h("p", {}, text),
        queue.length > 1 ? h("p", {}, t("pending_more", { n: queue.length - 1 })) : null,
        head.state === "waiting"
          ? h("button", { type: "button", onclick: () => retry(gameId) }, t("retry_now"))
          : null,
      ),
      ...notices,
    ];
  });
  replace(document.getElementById("outbox"), items.flat());
}

// The phone knows it is offline: nothing is being sent, so the banner says what is kept.
// A game or table made offline counts as made, not as a change: its rounds are counted.
function offlineItem(queue, gameName) {
  const made = queue.find((item) => item.kind === "create");
  const changes = queue.filter((item) => item.kind !== "create");
  const rounds = changes.filter((item) => item.kind === "round").length;
  const n = changes.length;
  let text;
  if (n === 0) text = t("pending_offline_made");
  else if (rounds === n) {
    text = t(n === 1 ? "pending_offline_round" : "pending_offline_rounds", { n });
  } else text = t(n === 1 ? "pending_offline_change" : "pending_offline_changes", { n });
  let detail = "pending_offline_game";
  if (made)
    detail = made.what === "table" ? "pending_offline_made_table" : "pending_offline_made_game";
  return h(
    "div",
    { class: "pending", "data-testid": "pending", "data-state": "offline" },
    h("p", {}, text),
    h("p", { class: "detail" }, t(detail, { game: gameName })),
  );
}

// Going offline or coming back changes what the banner can truly say.
window.addEventListener("offline", () => renderOutbox());
window.addEventListener("online", () => renderOutbox());

/** The history number an outbox item is about. */
export function numberOf(item) {
  return item.body && item.body.number !== undefined ? item.body.number : item.number;
}

// Refused for good: sending it again cannot help. An invalid entry (422) can be entered again
// when nothing waits behind it; otherwise (the game is over, say) the reason and Discard.
function failedItem(gameId, entry, gameName, queue) {
  const creation = entry.kind === "create";
  const number = creation ? null : roundLabelIn(gameId, numberOf(entry));
  const said = creation ? "pending_create_failed" : "pending_failed";
  return h(
    "div",
    { class: "pending failed", "data-testid": "pending-failed" },
    h("p", {}, t(said, { number, game: gameName })),
    entry.error
      ? h("p", { class: "detail", lang: entry.error.language || "en" }, entry.error.message)
      : null,
    queue.length > 1 ? h("p", {}, t("pending_more", { n: queue.length - 1 })) : null,
    h(
      "div",
      { class: "row" },
      canEnterAgain(entry) && queue.length === 1
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
        {
          type: "button",
          class: "danger",
          "data-testid": "discard-refused",
          onclick: () => discardFailed(gameId, creation),
        },
        t(creation ? "discard_made" : "discard_round"),
      ),
    ),
  );
}

// A game or table the service refused to create goes from this phone: its page too.
function discardFailed(gameId, creation) {
  discard(gameId);
  if (creation && currentRoute().id === gameId) go("#/");
}

export function canEnterAgain(entry) {
  return (
    entry.kind === "round" &&
    entry.state === "failed" &&
    Boolean(entry.error && entry.error.status === 422)
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
  const entry = waiting(gameId)[0];
  if (!entry || !canEnterAgain(entry)) return;
  askToEnterAgain(gameId, entry.key);
  go(gameUrl(gameId, "round"));
}
