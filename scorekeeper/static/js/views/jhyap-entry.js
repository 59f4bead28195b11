// Jhyap's round entry: who called, then each player's hand as a total (number pad) or as cards.

import { h } from "../dom.js";
import { RANKS } from "../format.js";
import { halvingHints } from "../halving-hint.js";
import { t } from "../i18n.js";
import { cardNode, rankKeys, spoken, suitKeys } from "../ui.js";
import { handReady, nextEmptyHand } from "./entry-draft.js";

const PAD_MAX = 50;

// actions: {changed, save, redraw}, see entry.js.
export function jhyapEntry(draft, game, actions) {
  const players = draft.ids.map((id) => game.players.find((p) => p.id === id));
  const current = draft.current;
  const currentPlayer = players.find((p) => p.id === current);
  const hand = (current !== null && draft.hands[current]) || {};
  // A correction is scored from the totals before it, which the game no longer shows.
  const hints = draft.mode === "new" ? halvingHints(game, draft) : new Map();
  if (longNames(players)) {
    return h(
      "div",
      { class: "entry" },
      playerRows(draft, players, hints, actions),
      current !== null ? pad(draft, game, currentPlayer, hand, actions) : null,
    );
  }
  return h(
    "div",
    { class: "entry" },
    h(
      "fieldset",
      { class: "callers" },
      h("legend", {}, t("who_called")),
      h(
        "div",
        { class: "grid players-grid" },
        players.map((player) => callerButton(draft, player, actions)),
      ),
    ),
    h(
      "fieldset",
      { class: "hands" },
      h("legend", {}, t("hand_totals")),
      h(
        "div",
        { class: "grid hands-grid" },
        players.map((player) => handSlot(draft, player, hints.get(player.id), actions)),
      ),
    ),
    current !== null ? pad(draft, game, currentPlayer, hand, actions) : null,
  );
}

// Names too long for a grid of buttons a few letters wide: a word of more than seven letters, or
// more than fourteen letters in all, would be cut or split inside a word there.
function longNames(players) {
  return players.some(
    (player) => player.name.length > 14 || player.name.split(/\s+/).some((word) => word.length > 7),
  );
}

// Long names: a row a player, the name (on two lines at most) as the button that says they
// called, and their hand beside it. The same buttons, the same taps.
function playerRows(draft, players, hints, actions) {
  return h(
    "fieldset",
    { class: "player-rows" },
    h("legend", {}, t("who_called_then_hands")),
    h(
      "ul",
      { class: "entry-rows" },
      players.map((player) =>
        h(
          "li",
          { class: "entry-row" },
          callerButton(draft, player, actions),
          handSlot(draft, player, hints.get(player.id), actions, true),
        ),
      ),
    ),
  );
}

function callerButton(draft, player, actions) {
  return h(
    "button",
    {
      type: "button",
      class: ["pick", draft.caller === player.id && "selected"],
      "aria-pressed": String(draft.caller === player.id),
      "data-key": `caller-${player.id}`,
      "data-testid": "caller",
      onclick: () => {
        draft.caller = player.id;
        if (draft.current === null || handReady(draft.hands[draft.current])) {
          draft.current = nextEmptyHand(draft, null);
        }
        actions.changed();
      },
    },
    h("span", { class: "pick-name" }, player.name),
  );
}

// hint: {lands, halved} when the typed hand brings the player onto a halving score; beside: the
// player's name is on the button beside it (long names), so here it is only read out.
function handSlot(draft, player, hint, actions, beside = false) {
  const value = draft.hands[player.id];
  const cards = value && value.cards && value.cards.length ? value.cards : null;
  let shown;
  if (!value) shown = spoken("—", t("not_entered"));
  else if (cards) shown = cards.map(cardNode);
  else shown = String(value.total);
  return h(
    "button",
    {
      type: "button",
      class: ["hand-slot", draft.current === player.id && "current", handReady(value) && "done"],
      "aria-pressed": String(draft.current === player.id),
      "data-key": `hand-${player.id}`,
      "data-testid": "hand-slot",
      onclick: () => {
        draft.current = player.id;
        draft.rank = null;
        actions.save();
        actions.redraw();
      },
    },
    beside
      ? h("span", { class: "visually-hidden" }, t("total_of", { name: player.name }), " ")
      : h("span", { class: "slot-name" }, player.name),
    h("span", { class: "slot-value" }, shown),
    hint
      ? h(
          "span",
          { class: "slot-hint", "data-testid": "halving-hint" },
          t("halving_hint", { n: hint.lands, half: hint.halved }),
        )
      : null,
  );
}

// The pad for the current player: a total, or the cards one by one.
function pad(draft, game, player, hand, actions) {
  const modeButton = (cards) => {
    const chosen = Boolean(draft.cardMode) === cards;
    return h(
      "button",
      {
        type: "button",
        class: ["secondary", chosen && "selected"],
        "aria-pressed": String(chosen),
        "data-key": cards ? "mode-cards" : "mode-total",
        "data-testid": cards ? "mode-cards" : "mode-total",
        onclick: () => {
          draft.cardMode = cards;
          actions.save();
          actions.redraw();
        },
      },
      cards ? t("mode_cards") : t("mode_total"),
    );
  };
  return h(
    "fieldset",
    { class: "pad-box", id: "pad" },
    h(
      "legend",
      {},
      draft.cardMode
        ? t("tap_cards_of", { name: player.name })
        : t("total_of", { name: player.name }),
    ),
    h("div", { class: "row toggle" }, modeButton(false), modeButton(true)),
    draft.cardMode ? cardPad(draft, hand, actions) : numberPad(draft, game, actions),
  );
}

// The caller's own pad goes only up to the call limit: a higher hand cannot call.
function numberPad(draft, game, actions) {
  const current = draft.current;
  const value = draft.hands[current] && draft.hands[current].total;
  const top = current === draft.caller ? Math.min(game.options.call_limit, PAD_MAX) : PAD_MAX;
  const buttons = [];
  for (let n = 0; n <= top; n++) {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: ["num-key", value === n && "selected"],
          "data-key": `pad-${n}`,
          "data-testid": `pad-${n}`,
          onclick: () => {
            draft.hands[current] = { total: n };
            draft.current = nextEmptyHand(draft, current);
            actions.changed();
          },
        },
        String(n),
      ),
    );
  }
  return h("div", { class: "pad", role: "group", "aria-label": t("number_pad") }, buttons);
}

function cardPad(draft, hand, actions) {
  const current = draft.current;
  const cards = (hand && hand.cards) || [];
  const add = (code) => {
    draft.hands[current] = { cards: [...cards, code] };
    draft.rank = null;
    actions.changed();
  };
  const full = cards.length >= 5;
  return h(
    "div",
    { class: "cards-pad" },
    h(
      "p",
      { class: "chosen", "aria-live": "polite" },
      cards.length ? cards.map(cardNode) : t("no_cards_yet"),
    ),
    h(
      "div",
      { class: "grid ranks", role: "group", "aria-label": t("rank") },
      ...rankKeys(RANKS, draft, { disabled: () => full, redraw: actions.redraw }),
      h(
        "button",
        {
          type: "button",
          class: "pick",
          "data-key": "rank-JK",
          "data-testid": "joker",
          disabled: full,
          onclick: () => add("JK"),
        },
        t("joker"),
      ),
    ),
    suitKeys(draft, { disabled: () => false, pick: add }),
    h(
      "div",
      { class: "row" },
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          "data-key": "remove-card",
          disabled: !cards.length,
          onclick: () => {
            draft.hands[current] = cards.length > 1 ? { cards: cards.slice(0, -1) } : null;
            actions.changed();
          },
        },
        t("remove_last_card"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          "data-key": "cards-done",
          "data-testid": "cards-done",
          disabled: !cards.length,
          onclick: () => {
            // The pad stays on cards for the next player: a table that counts cards counts them
            // all.
            draft.current = nextEmptyHand(draft, current);
            actions.save();
            actions.redraw();
          },
        },
        t("next_player"),
      ),
    ),
  );
}
