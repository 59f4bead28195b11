// "Someone joins" and "Someone leaves" between rounds: the form, and sending it. What was typed
// stays until the service has it (an error or no connection keeps the form as it was), and the
// same change sent again keeps its Idempotency-Key, so it is made once.

import { api, ApiError, NetworkError } from "../api.js";
import { RuleError } from "../rules/index.js";
import { h, replace } from "../dom.js";
import { gameTitle, gameUrl, playerName } from "../format.js";
import { t } from "../i18n.js";
import { defaultAfter, rosterToJoin, seatChangeBody } from "../seating.js";
import { joinFields, leaveFields } from "./seat-fields.js";
import { newKey, store } from "../store.js";
import { stopped } from "../outbox.js";
import { canWrite, live, refreshGame, session } from "../state/game-session.js";
import { mustQueue, previewSeatChange, queueSeatChange } from "../state/offline-changes.js";
import { currentRoute, isSeatTab } from "../state/route.js";
import { announce, errorBox, errorText, heading, mainBox } from "../ui.js";

// The change being made: {gameId, kind: "join" | "leave", name, rosterId, after, player,
// confirming, busy, error, key, sent}.
let change = null;
// The table's roster, for a join at a table: {tableId, players} (loaded once per table).
let roster = null;

export async function renderSeatChange(kind) {
  const game = session.game;
  if (!canWrite() || game.status === "finished" || stopped(game.id)) {
    location.hash = gameUrl(game.id);
    return;
  }
  if (!change || change.gameId !== game.id || change.kind !== kind) {
    change = { gameId: game.id, kind, name: "", rosterId: null, after: defaultAfter(game) };
    change.player = null;
  }
  drawSeatChange();
  if (kind === "join" && game.table && (!roster || roster.tableId !== game.table)) {
    try {
      roster = { tableId: game.table, players: (await api.table(game.table)).data.players };
    } catch {
      return; // offline: a name can still be typed
    }
    if (isSeatTab(currentRoute())) drawSeatChange();
  }
}

// The game changed meanwhile (a poll): the form is drawn again as it was, for the game as it is.
export function seatChanged() {
  const game = session.game;
  if (game.status === "finished") location.hash = gameUrl(game.id);
  else drawSeatChange();
}

// The service's dry run of a join, shown before confirming: the newcomer's seat and starting score
// (the page keeps no scoring rules of its own). Asked a moment after the typing stops.
let previewTimer = null;
let previewSeq = 0;

function schedulePreview() {
  clearTimeout(previewTimer);
  previewSeq += 1;
  const box = document.getElementById("join-preview");
  if (box) replace(box);
  const ready = change && (change.name.trim() || change.rosterId !== null);
  if (change && change.kind === "join" && ready && !change.busy) {
    previewTimer = setTimeout(joinPreview, 300);
  }
}

async function joinPreview() {
  const game = session.game;
  const target = change;
  const seq = previewSeq;
  const body = seatChangeBody(target, game.next_round.number);
  let shown;
  try {
    const after = await joinDryRun(game, body, target);
    const player = joinedPlayer(after, target);
    const where = playerName(game, target.after);
    shown = t("join_preview", { name: player.name, n: player.score, after: where });
  } catch (error) {
    if (!(error instanceof ApiError || error instanceof RuleError)) return; // no preview
    const { line, detail, detailLang } = errorText(error);
    shown = h(
      "span",
      { class: "field-error" },
      line,
      detail ? [" ", h("span", { lang: detailLang || null }, detail)] : null,
    );
  }
  const box = document.getElementById("join-preview");
  if (seq === previewSeq && change === target && box) replace(box, shown);
}

// The service's dry run; offline (or behind changes still waiting), the rules on the phone's.
async function joinDryRun(game, body, target) {
  const onPhone = () => previewSeatChange(body, newcomerName(target));
  if (session.base && mustQueue(game.id)) return onPhone();
  try {
    return await api.seatChange(game.id, store.token(game.id), body, null, true);
  } catch (error) {
    if (error instanceof NetworkError && session.base) return onPhone();
    throw error;
  }
}

const fieldActions = { redraw: () => drawSeatChange(), changed: () => schedulePreview() };

function joinChips(game) {
  return game.table && roster && roster.tableId === game.table
    ? rosterToJoin(roster.players, game)
    : [];
}

function drawSeatChange() {
  const game = session.game;
  const join = change.kind === "join";
  replace(
    mainBox(),
    heading(join ? t("someone_joins") : t("someone_leaves")),
    h("p", { class: "subtitle" }, gameTitle(game)),
    h(
      "form",
      { id: "seat-form", novalidate: true, onsubmit: submit },
      join
        ? joinFields(game, change, joinChips(game), fieldActions)
        : leaveFields(game, change, fieldActions),
      h("div", { id: "seat-error" }, change.error ? errorBox(change.error, "seat-error") : null),
      join || !change.confirming ? submitButton(game) : confirmButtons(game),
    ),
    // While a leave is being confirmed, its own Cancel is the one.
    change.confirming
      ? null
      : h(
          "div",
          { class: "row" },
          h(
            "a",
            { class: "button secondary", href: gameUrl(game.id), "data-testid": "cancel-seat" },
            t("cancel"),
          ),
        ),
  );
  if (join) schedulePreview();
}

function submitButton(game) {
  const join = change.kind === "join";
  const ready = join
    ? Boolean(change.name.trim()) || change.rosterId !== null
    : change.player !== null;
  return h(
    "button",
    {
      type: "submit",
      class: "primary big",
      "data-key": "seat-submit",
      "data-testid": "seat-submit",
      disabled: change.busy || (!join && !ready),
    },
    join
      ? t("join_submit")
      : change.player !== null
        ? t("leave_named", { name: playerName(game, change.player) })
        : t("leave_submit"),
  );
}

// A leave is asked twice: the player's score freezes and they cannot come back as they were.
function confirmButtons(game) {
  return h(
    "div",
    { class: "row" },
    h(
      "button",
      {
        type: "submit",
        class: "danger",
        "data-key": "seat-submit",
        "data-testid": "leave-confirm",
        disabled: change.busy,
      },
      t("leave_confirm", { name: playerName(game, change.player) }),
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        onclick: () => {
          change.confirming = false;
          drawSeatChange();
        },
      },
      t("cancel"),
    ),
  );
}

async function submit(event) {
  event.preventDefault();
  const game = session.game;
  if (change.busy) return;
  if (change.kind === "join" && !change.name.trim() && change.rosterId === null) {
    change.error = null;
    const box = h("div", { class: "error", role: "alert" }, h("p", {}, t("join_need_name")));
    replace(document.getElementById("seat-error"), box);
    document.getElementById("join-name").focus();
    return;
  }
  if (change.kind === "leave" && !change.confirming) {
    change.confirming = true;
    drawSeatChange();
    document.querySelector("[data-testid=leave-confirm]")?.focus();
    return;
  }
  const body = seatChangeBody(change, game.next_round.number);
  const sent = JSON.stringify(body);
  if (change.sent !== sent) {
    change.key = newKey("seat");
    change.sent = sent;
  }
  change.busy = true;
  change.error = null;
  drawSeatChange();
  const target = change;
  try {
    const after = mustQueue(game.id)
      ? queueSeatChange(game.id, body, change.key, newcomerName(target))
      : await live.write(() => api.seatChange(game.id, store.token(game.id), body, change.key), {
          kind: "seat",
          body,
        });
    const words =
      target.kind === "join"
        ? t("joined_with", {
            name: joinedName(after, target, game),
            n: joinedScore(after, target, game),
          })
        : t("left_named", { name: playerName(game, target.player) });
    announce(words);
    change = null;
    location.hash = gameUrl(game.id);
  } catch (error) {
    target.busy = false;
    target.error = error;
    // The game moved on meanwhile (another phone): the form is drawn for it as it is now.
    if (error instanceof ApiError && error.status === 409) await refreshGame();
    if (change === target && isSeatTab(currentRoute())) {
      drawSeatChange();
      document.querySelector("#seat-error .error")?.scrollIntoView({ block: "nearest" });
    }
  }
}

// The name a join seats: typed, or the roster player's.
function newcomerName(target) {
  if (target.kind !== "join") return null;
  if (target.rosterId === null || target.rosterId === undefined) return target.name.trim();
  const found = roster && roster.players.find((p) => p.id === target.rosterId);
  return found ? found.name : target.name.trim();
}

// The newcomer in the game as the service answered: a new seat, or a roster player who had left
// and is back.
function joinedPlayer(game, target, was = session.game) {
  const before = new Set(was.players.map((p) => p.id));
  const back = (p) => target.rosterId !== null && p.roster_id === target.rosterId && !p.left;
  return (
    game.players.find((p) => !before.has(p.id)) ||
    game.players.find(back) || { name: target.name, score: "" }
  );
}

function joinedName(game, target, was) {
  return joinedPlayer(game, target, was).name;
}

function joinedScore(game, target, was) {
  return joinedPlayer(game, target, was).score;
}
