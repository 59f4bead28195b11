// History: the rounds and seat changes, newest first, with Edit for each round and Undo for the
// last item.

import { api, ApiError } from "../api.js";
import { h } from "../dom.js";
import { gameUrl, playerName } from "../format.js";
import { t } from "../i18n.js";
import { store } from "../store.js";
import { refreshGame, session } from "../state/game-session.js";
import { mustQueue, undoLast } from "../state/offline-changes.js";
import { currentRoute } from "../state/route.js";
import { announce, errorBox } from "../ui.js";
import { isSeatChange } from "../seating.js";
import { resultsTable, roundSummary, seatChangeText } from "./results.js";

// The round a pending "Yes, undo round N" was opened for ({number, seen}: seen is the round as
// the service showed it then, see roundSeen), or null.
let confirmUndo = null;
// One message below the undo control (an undo that failed or was cancelled), or null.
let message = null;
let undoing = false;

// Another page (or this one again) is shown: a pending undo and its message go.
export function resetHistory() {
  confirmUndo = null;
  message = null;
}

// game, rounds: as the service sent them; writable: this phone may change rounds; redraw: draws
// the game page again.
export function historyView(game, rounds, writable, redraw) {
  const last = lastRound(rounds);
  if (!last) {
    return h(
      "section",
      { class: "history" },
      historyMessage(),
      h("p", { class: "empty" }, t("no_rounds")),
    );
  }
  return h(
    "section",
    { class: "history", "aria-labelledby": "history-heading" },
    h("h2", { id: "history-heading", class: "visually-hidden" }, t("tab_history")),
    h(
      "ol",
      { class: "rounds", reversed: true },
      rounds
        .slice()
        .reverse()
        .map((round) => roundItem(game, round, round === last, writable, redraw)),
    ),
  );
}

function roundItem(game, round, isLast, writable, redraw) {
  if (isSeatChange(round)) return seatChangeItem(game, round, isLast, writable, redraw);
  const title = t("round_n", { n: round.number });
  return h(
    "li",
    { class: "round", "data-testid": `round-${round.number}` },
    h("h3", {}, title),
    h(
      "p",
      { class: "meta" },
      t("dealt_by", { name: playerName(game, round.dealer) }),
      " · ",
      roundSummary(game, round),
    ),
    resultsTable(game, round, title),
    writable
      ? h(
          "div",
          { class: "row" },
          h(
            "a",
            {
              class: "button secondary",
              href: gameUrl(game.id, `edit/${round.number}`),
              "data-testid": `edit-${round.number}`,
            },
            t("edit"),
            h("span", { class: "visually-hidden" }, ` (${title})`),
          ),
          isLast ? undoButton(round, redraw) : null,
        )
      : null,
    isLast ? historyMessage() : null,
  );
}

// A join or a leave: one line, and Undo when it is the last item.
function seatChangeItem(game, item, isLast, writable, redraw) {
  return h(
    "li",
    { class: "round seat-change", "data-testid": `round-${item.number}` },
    h("p", { class: "seat-change-text" }, seatChangeText(game, item)),
    writable && isLast ? h("div", { class: "row" }, undoButton(item, redraw)) : null,
    isLast ? historyMessage() : null,
  );
}

// What happened to the last undo (failed, or cancelled because the rounds changed), shown
// right below the undo control; one at a time.
function historyMessage() {
  if (!message) return null;
  if (message.error) {
    return h("div", { id: "history-message" }, errorBox(message.error, "undo-error"));
  }
  return h(
    "p",
    { id: "history-message", class: "notice", role: "status", "data-testid": "undo-note" },
    message.note,
  );
}

function showHistoryMessage() {
  const box = document.getElementById("history-message");
  if (box) box.scrollIntoView({ block: "nearest" });
}

function lastRound(rounds) {
  const list = rounds || [];
  return list.length ? list[list.length - 1] : null;
}

// The round as the service shows it, to tell whether it is still the same: a correction (here or
// by another phone, or one of an earlier round that scores it again) keeps its number and
// created_at but changes what it says, so all of it is compared.
function roundSeen(round) {
  return JSON.stringify(round);
}

// A pending "Yes, undo round N" belongs to that round: when the rounds change under it (another
// phone recorded, undid, replaced or corrected a round) it is cancelled, never moved to another
// round.
export function checkUndo(rounds) {
  const pending = confirmUndo;
  if (!pending || undoing) return;
  const last = lastRound(rounds);
  if (last && last.number === pending.number && roundSeen(last) === pending.seen) return;
  confirmUndo = null;
  let note;
  if (pending.seat) note = t("undo_cancelled_seat", { what: pending.seat });
  else if (last && last.number > pending.number) {
    note = t("undo_cancelled_recorded", { n: last.number });
  } else note = t("undo_cancelled_changed", { n: pending.number });
  message = { note };
  announce(note);
}

async function undoConfirmed(event, redraw) {
  const target = confirmUndo;
  if (!target || undoing) return;
  undoing = true;
  event.currentTarget.disabled = true;
  const game = session.game;
  let reload = false;
  const said = target.seat
    ? t("undone_seat", { what: target.seat })
    : t("undone", { n: target.number });
  if (mustQueue(game.id)) {
    // Offline, or behind changes still waiting: it waits in the outbox after them.
    undoLast(game.id);
    confirmUndo = null;
    message = null;
    undoing = false;
    announce(said);
    redraw();
    return;
  }
  try {
    await api.undoRound(game.id, store.token(game.id), target.number);
    confirmUndo = null;
    message = null;
    announce(said);
    reload = true;
  } catch (error) {
    message = { error };
    if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
      // Not the last round any more: show the rounds as they are now.
      confirmUndo = null;
      reload = true;
    }
  } finally {
    undoing = false;
  }
  // Offline: the next poll catches up.
  if (reload) await refreshGame(true);
  const route = currentRoute();
  if (route.view === "game" && route.tab === "history") {
    redraw();
    showHistoryMessage();
  }
}

// Cancel, or Escape: the prompt closes, the round stays, and the focus goes back to Undo.
function cancelUndo(redraw) {
  confirmUndo = null;
  message = null;
  redraw();
  document.querySelector("[data-testid=undo]")?.focus();
}

// Escape on History: a pending "Yes, undo round N" is cancelled. True when there was one.
export function escapeHistory(redraw) {
  if (!confirmUndo || undoing) return false;
  cancelUndo(redraw);
  return true;
}

function undoButton(round, redraw) {
  const number = round.number;
  if (!confirmUndo) {
    return h(
      "button",
      {
        type: "button",
        class: "secondary",
        "data-key": "undo",
        "data-testid": "undo",
        onclick: () => {
          const seat = isSeatChange(round) ? seatChangeText(session.game, round) : null;
          confirmUndo = { number, seen: roundSeen(round), seat };
          message = null;
          redraw();
        },
      },
      isSeatChange(round) ? t("undo_seat_change") : t("undo_round_n", { n: number }),
    );
  }
  return h(
    "span",
    { class: "row" },
    h(
      "button",
      {
        type: "button",
        class: "danger",
        "data-key": "undo",
        "data-testid": "undo-confirm",
        disabled: undoing,
        onclick: (event) => undoConfirmed(event, redraw),
      },
      confirmUndo.seat
        ? t("undo_seat_confirm", { what: confirmUndo.seat })
        : t("undo_confirm", { n: confirmUndo.number }),
    ),
    h(
      "button",
      { type: "button", class: "secondary", onclick: () => cancelUndo(redraw) },
      t("cancel"),
    ),
  );
}
