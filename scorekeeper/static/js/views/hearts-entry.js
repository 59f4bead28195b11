// The entry of a hand of hearts and the queen (a ruleset whose entry kind is hearts_and_queen):
// each player's hearts from a pad of 0 to 13, and a tap for who took the queen of spades. The
// pad never goes past the hearts still to place, and the line under it counts them as they go in:
// the hand is complete when all 13 are placed and the queen has a taker.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { spoken } from "../ui.js";
import { heartsEntered } from "./entry-draft.js";

const HEARTS = 13;

// actions: {changed, save, redraw}, see entry.js.
export function heartsEntry(draft, game, actions) {
  const players = draft.ids.map((id) => game.players.find((p) => p.id === id));
  const current = players.find((p) => p.id === draft.current) || null;
  return h(
    "div",
    { class: "entry" },
    h(
      "fieldset",
      { class: "hands" },
      h("legend", {}, t("hearts_taken")),
      h(
        "div",
        { class: "grid hands-grid" },
        players.map((player) => heartsSlot(draft, player, actions)),
      ),
    ),
    current ? heartsPad(draft, current, actions) : null,
    h(
      "p",
      { class: "hearts-count", "aria-live": "polite", "data-testid": "hearts-count" },
      count(draft),
    ),
    h(
      "fieldset",
      { class: "callers" },
      h("legend", {}, t("who_took_queen")),
      h(
        "div",
        { class: "grid players-grid" },
        players.map((player) => queenButton(draft, player, actions)),
      ),
    ),
  );
}

// "11 of 13 hearts placed: 2 to go." (or all placed).
function count(draft) {
  const placed = heartsEntered(draft);
  if (placed === HEARTS) return t("hearts_all_placed");
  return t("hearts_placed", { n: placed, left: HEARTS - placed });
}

function heartsSlot(draft, player, actions) {
  const value = draft.hearts[player.id];
  const queen = draft.queen === player.id;
  return h(
    "button",
    {
      type: "button",
      class: [
        "hand-slot",
        draft.current === player.id && "current",
        Number.isInteger(value) && "done",
      ],
      "aria-pressed": String(draft.current === player.id),
      "data-key": `hand-${player.id}`,
      "data-testid": "hand-slot",
      onclick: () => {
        draft.current = player.id;
        actions.save();
        actions.redraw();
      },
    },
    h("span", { class: "slot-name" }, player.name),
    h(
      "span",
      { class: "slot-value" },
      Number.isInteger(value) ? String(value) : spoken("—", t("not_entered")),
      queen ? [" ", spoken("Q♠", t("queen_of_spades"))] : null,
    ),
  );
}

// 0 up to the hearts not placed with someone else; a tap moves on to the next player to enter.
function heartsPad(draft, player, actions) {
  const others = heartsEntered(draft) - (draft.hearts[player.id] || 0);
  const keys = [];
  for (let n = 0; n <= HEARTS; n++) {
    keys.push(
      h(
        "button",
        {
          type: "button",
          class: ["num-key", draft.hearts[player.id] === n && "selected"],
          "data-key": `pad-${n}`,
          "data-testid": `pad-${n}`,
          disabled: others + n > HEARTS,
          onclick: () => {
            draft.hearts[player.id] = n;
            draft.current = nextToEnter(draft, player.id);
            actions.changed();
          },
        },
        String(n),
      ),
    );
  }
  return h(
    "fieldset",
    { class: "pad-box", id: "pad" },
    h("legend", {}, t("hearts_of", { name: player.name })),
    h("div", { class: "pad", role: "group", "aria-label": t("number_pad") }, keys),
  );
}

// The next player after `after` whose hearts are not entered; once all are, none.
function nextToEnter(draft, after) {
  const start = draft.ids.indexOf(after) + 1;
  for (let i = 0; i < draft.ids.length; i++) {
    const id = draft.ids[(start + i) % draft.ids.length];
    if (!Number.isInteger(draft.hearts[id])) return id;
  }
  return null;
}

function queenButton(draft, player, actions) {
  const chosen = draft.queen === player.id;
  return h(
    "button",
    {
      type: "button",
      class: ["pick", chosen && "selected"],
      "aria-pressed": String(chosen),
      "data-key": `queen-${player.id}`,
      "data-testid": "queen",
      onclick: () => {
        draft.queen = player.id;
        actions.changed();
      },
    },
    h("span", { class: "pick-name" }, player.name),
  );
}
