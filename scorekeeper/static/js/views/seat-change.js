// "Someone joins" and "Someone leaves" between rounds: the form, and sending it. What was typed
// stays until the service has it (an error or no connection keeps the form as it was), and the
// same change sent again keeps its Idempotency-Key, so it is made once.

import { api, ApiError } from "../api.js";
import { h, replace } from "../dom.js";
import { activePlayers, gameTitle, gameUrl, playerName } from "../format.js";
import { t } from "../i18n.js";
import { defaultAfter, rosterToJoin, seatChangeBody } from "../seating.js";
import { newKey, store } from "../store.js";
import { canWrite, refreshGame, session } from "../state/game-session.js";
import { currentRoute, isSeatTab } from "../state/route.js";
import { announce, errorBox, heading, mainBox } from "../ui.js";

// The change being made: {gameId, kind: "join" | "leave", name, rosterId, after, player,
// confirming, busy, error, key, sent}.
let change = null;
// The table's roster, for a join at a table: {tableId, players} (loaded once per table).
let roster = null;

export async function renderSeatChange(kind) {
  const game = session.game;
  if (!canWrite() || game.status === "finished" || store.pending(game.id)) {
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
      join ? joinFields(game) : leaveFields(game),
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
}

function joinFields(game) {
  const here = activePlayers(game);
  const chips =
    game.table && roster && roster.tableId === game.table ? rosterToJoin(roster.players, game) : [];
  return [
    chips.length
      ? h(
          "fieldset",
          { class: "roster" },
          h("legend", {}, t("join_from_roster")),
          h(
            "div",
            { class: "chips" },
            chips.map((player) =>
              h(
                "button",
                {
                  type: "button",
                  class: ["chip", change.rosterId === player.id && "selected"],
                  "aria-pressed": String(change.rosterId === player.id),
                  "data-key": `join-chip-${player.id}`,
                  "data-testid": "join-chip",
                  onclick: () => {
                    change.rosterId = change.rosterId === player.id ? null : player.id;
                    change.name = "";
                    change.error = null;
                    drawSeatChange();
                  },
                },
                player.name,
              ),
            ),
          ),
        )
      : null,
    h(
      "div",
      { class: "field" },
      h("label", { for: "join-name" }, chips.length ? t("join_new_name") : t("join_name")),
      h("input", {
        id: "join-name",
        "data-key": "join-name",
        type: "text",
        maxlength: "40",
        autocomplete: "off",
        value: change.name,
        oninput: (e) => {
          change.name = e.target.value;
          if (change.rosterId !== null) {
            change.rosterId = null;
            for (const chip of document.querySelectorAll("[data-testid=join-chip]")) {
              chip.classList.remove("selected");
              chip.setAttribute("aria-pressed", "false");
            }
          }
        },
      }),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "join-after" }, t("sits_after")),
      h(
        "select",
        {
          id: "join-after",
          "data-key": "join-after",
          "aria-describedby": "join-after-help",
          onchange: (e) => (change.after = Number(e.target.value)),
        },
        here.map((player) =>
          h(
            "option",
            { value: String(player.id), selected: change.after === player.id },
            player.name,
          ),
        ),
      ),
      h("p", { class: "help", id: "join-after-help" }, t("sits_after_help")),
    ),
    h("p", { class: "help" }, t("join_score_rule")),
  ];
}

function leaveFields(game) {
  return [
    h(
      "fieldset",
      { class: "choices" },
      h("legend", {}, t("who_leaves")),
      activePlayers(game).map((player) =>
        h(
          "label",
          { class: ["choice", change.player === player.id && "selected"] },
          h("input", {
            type: "radio",
            name: "leaver",
            value: String(player.id),
            "data-key": `leaver-${player.id}`,
            checked: change.player === player.id,
            onchange: () => {
              change.player = player.id;
              change.confirming = false;
              change.error = null;
              drawSeatChange();
            },
          }),
          h("span", {}, player.name),
        ),
      ),
    ),
    h("p", { class: "help" }, t("leave_rule")),
  ];
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
    const after = await api.seatChange(game.id, store.token(game.id), body, change.key);
    const words =
      target.kind === "join"
        ? t("joined_with", { name: joinedName(after, target), n: joinedScore(after, target) })
        : t("left_named", { name: playerName(game, target.player) });
    announce(words);
    change = null;
    await refreshGame(true);
    location.hash = gameUrl(game.id);
  } catch (error) {
    target.busy = false;
    target.error = error;
    // The game moved on meanwhile (another phone): the form is drawn for it as it is now.
    if (error instanceof ApiError && error.status === 409) await refreshGame(true);
    if (change === target && isSeatTab(currentRoute())) {
      drawSeatChange();
      document.querySelector("#seat-error .error")?.scrollIntoView({ block: "nearest" });
    }
  }
}

function joinedPlayer(game, target) {
  const before = new Set(session.game.players.map((p) => p.id));
  return game.players.find((p) => !before.has(p.id)) || { name: target.name, score: "" };
}

function joinedName(game, target) {
  return joinedPlayer(game, target).name;
}

function joinedScore(game, target) {
  return joinedPlayer(game, target).score;
}
