// Round entry, new and edit: opens the form with its draft, asks the service for a dry run after
// each change (offline, the rules on the phone), and hands a new round to the outbox. A correction
// is sent at once when the outbox is empty and the phone online; otherwise it is queued too.

import { api, NetworkError } from "../api.js";
import { h, replace } from "../dom.js";
import { activePlayers, gameUrl } from "../format.js";
import { t } from "../i18n.js";
import { enqueue, replaceRefused, stopped, waiting } from "../outbox.js";
import { store } from "../store.js";
import { canEnterAgain, renderOutbox } from "../banner.js";
import { previewCorrection, previewRound } from "../state/provisional.js";
import { canWrite, live, refreshGame, session } from "../state/game-session.js";
import { openDraft, setOpenDraft, takeEnterAgain } from "../state/open-entry.js";
import { currentRoute } from "../state/route.js";
import { roundsOnly } from "../seating.js";
import { announce, heading, mainBox } from "../ui.js";
import {
  draftKey,
  entryBody,
  entryComplete,
  fillDraft,
  keptDraft,
  newDraft,
  nextEmptyHand,
} from "./entry-draft.js";
import { heartsEntry } from "./hearts-entry.js";
import { jhyapEntry } from "./jhyap-entry.js";
import { pointsEntry } from "./points-entry.js";
import { renderPreview } from "./preview.js";
import { stopChanging, twentyTwoEntry } from "./twenty-two-entry.js";
import { roundLabel } from "../round-numbers.js";

// Which dry run is the latest: an answer to an older one is dropped.
let previewSeq = 0;

// What the entry's parts may do: `changed` after a change to the entry, `typed` after a change
// typed into a field (the form stays as it is, only the preview follows), `save` keeps the draft
// on this phone, `redraw` draws the entry again.
const actions = { changed, typed, save: saveDraft, redraw: renderEntry };

// Each kind of entry's widget (entry-draft.js names the kinds).
const WIDGETS = {
  jhyap: jhyapEntry,
  tt: twentyTwoEntry,
  hearts: heartsEntry,
  points: pointsEntry,
};

function saveDraft() {
  const draft = openDraft();
  if (!draft || draft.mode !== "new") return;
  sessionStorage.setItem(draftKey(session.game.id), JSON.stringify(keptDraft(draft)));
}

function clearDraft() {
  sessionStorage.removeItem(draftKey(session.game.id));
}

function storedDraft(gameId) {
  try {
    return JSON.parse(sessionStorage.getItem(draftKey(gameId)));
  } catch {
    return null;
  }
}

// The entry is left (another page is shown): its draft is kept on this phone only.
export function closeEntry() {
  setOpenDraft(null);
}

export function entryOpen() {
  return openDraft() !== null;
}

export async function startEntry() {
  const gameId = session.game.id;
  const prefill = takeEnterAgain(gameId);
  // A refused round goes to the game's next round as it is now, not as this phone last saw it
  // (offline: the form works from what this phone has).
  if (prefill) await refreshGame();
  // Another tap may have moved on while the game was loading: draw only on this game's round tab.
  const current = currentRoute();
  if (!current || current.view !== "game" || current.tab !== "round" || current.id !== gameId) {
    return;
  }
  const game = session.game;
  let draft = storedDraft(game.id);
  // The refused round this entry stands for: the one "Edit this round" was tapped for, or the
  // one a kept draft was started from (the form opened again after Escape or a reload).
  const pending = stopped(game.id);
  const key = prefill ? prefill.key : draft && draft.replaces;
  const refused = pending && key && pending.key === key && canEnterAgain(pending) ? pending : null;
  if (!canWrite() || game.status === "finished" || (pending && !refused)) {
    location.hash = gameUrl(game.id);
    return;
  }
  // A refused round entered again takes its own number back (nothing waits behind it).
  const number = refused ? refused.body.number : game.next_round.number;
  const ids = activePlayers(game).map((p) => p.id);
  const keep =
    draft &&
    draft.number === number &&
    draft.ids.join() === ids.join() &&
    (draft.replaces || null) === (refused ? refused.key : null);
  if (!keep) {
    const starter = game.next_round.starter;
    draft = newDraft(game.ruleset, activePlayers(game), number, "new", starter);
    if (refused) {
      fillDraft(draft, refused.body);
      if (draft.kind === "jhyap") draft.current = nextEmptyHand(draft, null);
      draft.replaces = refused.key;
    }
  }
  setOpenDraft(draft);
  draft.complete = entryComplete(draft);
  saveDraft();
  renderOutbox();
  renderEntry();
  if (draft.complete) requestPreview();
}

export async function startEdit(number) {
  const game = session.game;
  if (!canWrite()) {
    location.hash = gameUrl(game.id, "history");
    return;
  }
  const entries = await session.entries();
  const current = currentRoute();
  if (current.tab !== "edit" || current.id !== game.id || current.number !== number) return;
  const item = entries.find((r) => r.number === number);
  const round = session.rounds.find((r) => r.number === number);
  if (!item || !item.entry || !round) {
    location.hash = gameUrl(game.id, "history");
    return;
  }
  const participants = round.results.map((r) => game.players.find((p) => p.id === r.player));
  const draft = newDraft(game.ruleset, participants, number, "edit", round.starter);
  draft.original = round;
  // Rounds after this one, scored again by a correction (seat changes share the numbering).
  draft.later = roundsOnly(session.rounds).filter((r) => r.number > number).length;
  fillDraft(draft, item.entry);
  setOpenDraft(draft);
  // Escape leaves a correction only while nothing was changed (an edit draft is not kept).
  draft.unchanged = JSON.stringify(entryBody(draft));
  draft.complete = true;
  renderEntry();
  requestPreview();
}

function changed() {
  const draft = openDraft();
  // Only the tap that completes the entry brings Confirm on screen (once the preview is back);
  // a change to an entry that was already complete (a total typed again, a Twenty Two card
  // changed in place) leaves the page where it is.
  const completed = !draft.complete;
  draft.complete = entryComplete(draft);
  draft.preview = null;
  draft.previewError = null;
  saveDraft();
  renderEntry();
  if (draft.complete) requestPreview({ reveal: completed });
}

function typed() {
  const draft = openDraft();
  draft.complete = entryComplete(draft);
  draft.preview = null;
  draft.previewError = null;
  saveDraft();
  if (draft.complete) requestPreview();
  else showPreview();
}

// reveal: scroll the Confirm button into view when it can be tapped (after a tap that completed
// the entry), without moving focus: the preview is announced from its live region.
async function requestPreview({ reveal = false } = {}) {
  const draft = openDraft();
  const seq = ++previewSeq;
  draft.previewing = true;
  showPreview();
  try {
    const gameId = session.game.id;
    const token = store.token(gameId);
    const result = await dryRun(gameId, token, draft);
    if (seq !== previewSeq || openDraft() !== draft) return;
    draft.preview = result;
    draft.previewError = null;
    draft.offline = Boolean(result.offline);
  } catch (error) {
    if (seq !== previewSeq || openDraft() !== draft) return;
    draft.preview = null;
    draft.previewError = error;
  }
  draft.previewing = false;
  showPreview();
  const button = document.querySelector("[data-testid=confirm]");
  if (reveal && button && !button.disabled) button.scrollIntoView({ block: "nearest" });
}

// The service's dry run; while changes wait in the outbox (the service does not have them yet) or
// there is no connection, the rules on the phone score it on the provisional game instead.
async function dryRun(gameId, token, draft) {
  const body = entryBody(draft);
  const base = session.base;
  const onPhone = () => {
    const result =
      draft.mode === "new"
        ? previewRound(base.exported, base.items, body)
        : previewCorrection(base.exported, base.items, draft.number, body);
    return { ...result, offline: true };
  };
  if (base && (waiting(gameId).length || navigator.onLine === false)) return onPhone();
  try {
    return draft.mode === "new"
      ? await api.previewRound(gameId, token, body)
      : await api.previewCorrection(gameId, token, draft.number, body);
  } catch (error) {
    if (error instanceof NetworkError && base) return onPhone();
    throw error;
  }
}

function showPreview() {
  renderPreview(openDraft(), session.game, {
    retry: () => requestPreview({ reveal: true }),
    confirm: confirmEntry,
  });
}

export function renderEntry() {
  const draft = openDraft();
  const game = session.game;
  const title =
    draft.mode === "new"
      ? t("record_round", { n: roundLabel(session.rounds, draft.number) })
      : t("edit_round_n", { n: roundLabel(session.rounds, draft.number) });
  const back = gameUrl(game.id, draft.mode === "new" ? "" : "history");
  replace(
    mainBox(),
    heading(title),
    // A game with no name is its players: the entry shows them all below.
    game.name ? h("p", { class: "subtitle" }, game.name) : null,
    WIDGETS[draft.kind](draft, game, actions),
    h("section", {
      id: "preview",
      class: "preview",
      "aria-live": "polite",
      "aria-labelledby": "preview-heading",
    }),
    h(
      "div",
      { class: "row" },
      h("a", { class: "button secondary", href: back, "data-testid": "cancel-entry" }, t("cancel")),
    ),
  );
  showPreview();
}

async function confirmEntry(event) {
  const draft = openDraft();
  // A second tap (double tap) lands after the round was handed over: nothing more to do.
  if (!draft || draft.sending) return;
  draft.sending = true;
  if (event && event.currentTarget) event.currentTarget.disabled = true;
  const game = session.game;
  const token = store.token(game.id);
  if (draft.mode === "new") {
    const body = entryBody(draft);
    clearDraft();
    setOpenDraft(null);
    const shown = draft.preview ? withoutDryRun(draft.preview) : null;
    if (draft.replaces) replaceRefused(game.id, token, draft.replaces, body, shown);
    else enqueue(game.id, token, { kind: "round", body, shown });
    renderOutbox();
    location.hash = gameUrl(game.id);
    return;
  }
  const body = entryBody(draft);
  const shown = draft.preview ? withoutDryRun(draft.preview) : null;
  const queue = () =>
    enqueue(game.id, token, { kind: "correct", number: draft.number, body, shown });
  const item = { kind: "correct", number: draft.number, body };
  try {
    if (waiting(game.id).length || navigator.onLine === false) queue();
    else await live.write(() => api.correctRound(game.id, token, draft.number, body), item);
  } catch (error) {
    if (error instanceof NetworkError) {
      queue(); // a PUT sent again does the same: safe to resend
    } else {
      draft.sending = false;
      if (openDraft() !== draft) return;
      draft.preview = null;
      draft.previewError = error;
      showPreview();
      return;
    }
  }
  announce(t("corrected", { n: roundLabel(session.rounds, draft.number) }));
  if (openDraft() === draft) setOpenDraft(null);
  location.hash = gameUrl(game.id, "history");
}

// A dry run as the round it stands for: what the table was shown.
function withoutDryRun(preview) {
  const { dry_run: _dry, rescored: _rescored, offline: _offline, ...round } = preview;
  return round;
}

// The connection is back: a preview that failed for want of one is asked for again.
export function previewWhenOnline() {
  const draft = openDraft();
  if (
    draft &&
    draft.previewError instanceof NetworkError &&
    !draft.sending &&
    entryComplete(draft)
  ) {
    requestPreview();
  }
}

// Escape on the entry: a card being changed closes; then a new round's entry closes (its draft
// is kept), a correction only while nothing was changed. True when Escape is the entry's.
export function escapeEntry() {
  const draft = openDraft();
  if (!draft || draft.sending) return false;
  if (draft.kind === "tt" && stopChanging(draft, actions)) return true;
  const game = session.game;
  if (draft.mode === "new") {
    saveDraft();
    location.hash = gameUrl(game.id);
  } else if (entryComplete(draft) && JSON.stringify(entryBody(draft)) === draft.unchanged) {
    // (An incomplete correction, a hand emptied say, was changed: it stays open.)
    location.hash = gameUrl(game.id, "history");
  }
  return true;
}
