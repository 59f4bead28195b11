// History: the rounds and seat changes, newest first, with Edit for each round and Undo for the
// last item.

import { api, ApiError } from "../api.js";
import { h } from "../dom.js";
import { gameUrl, playerName } from "../format.js";
import { t } from "../i18n.js";
import { store } from "../store.js";
import { live, refreshGame, session } from "../state/game-session.js";
import { mustQueue, undoLast } from "../state/offline-changes.js";
import { currentRoute } from "../state/route.js";
import { announce, errorBox } from "../ui.js";
import { isEnd, isSeatChange } from "../seating.js";
import { endText, resultsTable, roundSummary, seatChangeText } from "./results.js";
import { scoreSheet } from "./score-sheet.js";
import { roundLabel } from "../round-numbers.js";

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

// How History is laid out: "cards" (a card a round, with Edit and Undo) or "sheet" (the score
// sheet, views/score-sheet.js). The phone's choice while the page is open.
let layout = "cards";

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
    layoutSwitch(redraw),
    layout === "sheet"
      ? scoreSheet(game, rounds)
      : roundCards(game, rounds, last, writable, redraw),
  );
}

// Cards or the score sheet: two buttons, the one shown pressed.
function layoutSwitch(redraw) {
  const choice = (key, label) =>
    h(
      "button",
      {
        type: "button",
        class: ["secondary", layout === key && "current"],
        "aria-pressed": String(layout === key),
        "data-key": `layout-${key}`,
        "data-testid": `history-${key}`,
        onclick: () => {
          layout = key;
          redraw();
        },
      },
      label,
    );
  return h(
    "div",
    { class: "layout-switch", role: "group", "aria-label": t("history_layout") },
    choice("cards", t("history_cards")),
    choice("sheet", t("score_sheet")),
  );
}

function roundCards(game, rounds, last, writable, redraw) {
  return h(
    "ol",
    { class: "rounds", reversed: true },
    rounds
      .slice()
      .reverse()
      .map((round) => roundItem(game, round, round === last, writable, redraw)),
  );
}

// The words of a history item that is not a round (a seat change, the end), or null.
function otherText(game, item) {
  if (isSeatChange(item)) return seatChangeText(game, item);
  if (isEnd(item)) return endText(game, item);
  return null;
}

function roundItem(game, round, isLast, writable, redraw) {
  if (otherText(game, round) !== null) return seatChangeItem(game, round, isLast, writable, redraw);
  const title = t("round_n", { n: roundLabel(session.rounds, round.number) });
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

// A join, a leave or the end by hand: one line, and Undo when it is the last item.
function seatChangeItem(game, item, isLast, writable, redraw) {
  return h(
    "li",
    { class: "round seat-change", "data-testid": `round-${item.number}` },
    h("p", { class: "seat-change-text" }, otherText(game, item)),
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
    note = t("undo_cancelled_recorded", { n: roundLabel(rounds, last.number) });
  } else note = t("undo_cancelled_changed", { n: pending.label });
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
    : t("undone", { n: target.label });
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
    const undo = () => api.undoRound(game.id, store.token(game.id), target.number);
    await live.write(undo, { kind: "undo", number: target.number });
    confirmUndo = null;
    message = null;
    announce(said);
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
  // (Undone, the history held has caught up already; offline, the next change catches up.)
  if (reload) await refreshGame();
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
          const seat = otherText(session.game, round);
          const label = roundLabel(session.rounds, number);
          confirmUndo = { number, label, seen: roundSeen(round), seat };
          message = null;
          redraw();
        },
      },
      isEnd(round)
        ? t("undo_end")
        : isSeatChange(round)
          ? t("undo_seat_change")
          : t("undo_round_n", { n: roundLabel(session.rounds, number) }),
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
        : t("undo_confirm", { n: confirmUndo.label }),
    ),
    h(
      "button",
      { type: "button", class: "secondary", onclick: () => cancelUndo(redraw) },
      t("cancel"),
    ),
  );
}
