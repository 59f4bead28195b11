// Twenty Two's round entry: the last trick, card by card in the order played; a played card can
// be changed in place.

import { h } from "../dom.js";
import { cardLabel, playerName, SUITS, TT_RANKS } from "../format.js";
import { t } from "../i18n.js";
import { cardNode, rankKeys, suitKeys } from "../ui.js";

// Cards that cannot be picked: kept in a score pile, or already played in this trick (except the
// play at index `changing`, whose card is being changed).
function unavailableCards(draft, game, changing = null) {
  const used = new Set();
  for (const player of game.players) for (const card of player.pile || []) used.add(card);
  if (draft.mode === "edit") {
    // Piles now include cards kept in this and later rounds; only the trick itself is checked here.
    used.clear();
  }
  draft.plays.forEach((play, index) => {
    if (index !== changing) used.add(play.card);
  });
  return used;
}

// The play whose card is being changed (an index into draft.plays), or null.
function changingPlay(draft) {
  const index = draft.changing;
  if (Number.isInteger(index) && index >= 0 && index < draft.plays.length) return index;
  draft.changing = null;
  return null;
}

// Stop changing a played card (Escape, "Keep", the same play tapped again): nothing changes.
// actions: {changed, save, redraw}, see entry.js. True when a card was being changed.
export function stopChanging(draft, actions) {
  const index = changingPlay(draft);
  if (index === null) return false;
  draft.changing = null;
  draft.rank = null;
  actions.save();
  actions.redraw();
  document.querySelector(`[data-key="play-${index}"]`)?.focus();
  return true;
}

export function twentyTwoEntry(draft, game, actions) {
  const players = draft.ids.map((id) => game.players.find((p) => p.id === id));
  const played = new Set(draft.plays.map((p) => p.player));
  const remaining = players.filter((p) => !played.has(p.id));
  if (draft.current !== null && played.has(draft.current)) draft.current = null;
  if (draft.current === null && remaining.length) draft.current = remaining[0].id;
  const changing = changingPlay(draft);
  const entry = { draft, game, actions, players, played, remaining, changing };
  return h(
    "div",
    { class: "entry" },
    h("p", { class: "help" }, t("tt_instructions")),
    h(
      "ol",
      { class: "trick", "aria-label": t("final_trick"), "data-testid": "trick" },
      draft.plays.map((play, index) => h("li", {}, playButton(entry, play, index))),
    ),
    draft.plays.length ? h("p", { class: "help" }, t("tt_change_hint")) : null,
    draft.plays.length
      ? h(
          "button",
          {
            type: "button",
            class: "secondary",
            "data-key": "remove-play",
            onclick: () => {
              const last = draft.plays.pop();
              if (changing === draft.plays.length) draft.changing = null;
              draft.current = last.player;
              draft.rank = null;
              actions.changed();
            },
          },
          t("remove_last_play"),
        )
      : null,
    changing !== null || remaining.length
      ? h(
          "div",
          { class: "pad-box", id: "pad" },
          changing !== null ? keepButton(entry) : whoPlayed(entry),
          cardPicker(entry),
        )
      : null,
  );
}

// Tapping a play opens the picker for that player; the new card takes its place.
function playButton({ draft, game, actions, changing }, play, index) {
  return h(
    "button",
    {
      type: "button",
      class: ["play", "secondary", changing === index && "selected"],
      "aria-pressed": String(changing === index),
      "data-key": `play-${index}`,
      "data-testid": "trick-play",
      onclick: () => {
        if (changing === index) {
          stopChanging(draft, actions);
          return;
        }
        draft.changing = index;
        draft.rank = null;
        actions.save();
        actions.redraw();
      },
    },
    h("span", { class: "order" }, `${index + 1}.`),
    " ",
    h("span", { class: "play-name" }, playerName(game, play.player)),
    " ",
    cardNode(play.card),
    " ",
    h("span", { class: "play-change" }, t("change_card")),
  );
}

function keepButton({ draft, actions, changing }) {
  return h(
    "div",
    { class: "row" },
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        "data-key": "keep-card",
        "data-testid": "keep-card",
        onclick: () => stopChanging(draft, actions),
      },
      t("keep_card", { card: cardLabel(draft.plays[changing].card) }),
    ),
  );
}

function whoPlayed({ draft, actions, remaining }) {
  return h(
    "fieldset",
    {},
    h("legend", {}, t("who_played_next")),
    h(
      "div",
      { class: "grid players-grid" },
      remaining.map((player) =>
        h(
          "button",
          {
            type: "button",
            class: ["pick", draft.current === player.id && "selected"],
            "aria-pressed": String(draft.current === player.id),
            "data-key": `player-${player.id}`,
            "data-testid": "trick-player",
            onclick: () => {
              draft.current = player.id;
              actions.save();
              actions.redraw();
            },
          },
          h("span", { class: "pick-name" }, player.name),
        ),
      ),
    ),
  );
}

// The next player clockwise after `afterId` who is in this round and has not played yet.
function nextClockwise({ draft, game, played }, afterId) {
  const seats = game.players.map((p) => p.id);
  const start = seats.indexOf(afterId);
  for (let i = 1; i <= seats.length; i++) {
    const id = seats[(start + i) % seats.length];
    if (draft.ids.includes(id) && !played.has(id) && id !== afterId) return id;
  }
  return null;
}

// A suit was tapped after a rank: the card is played, or takes the place of the one changed.
function pickCard(entry, card) {
  const { draft, actions, played, changing } = entry;
  draft.rank = null;
  if (changing !== null) {
    // In place: the order of play stays as it was.
    draft.plays[changing] = { player: draft.plays[changing].player, card };
    draft.changing = null;
    actions.changed();
    document.querySelector(`[data-key="play-${changing}"]`)?.focus();
    return;
  }
  const player = draft.current;
  draft.plays.push({ player, card });
  played.add(player);
  draft.current = nextClockwise(entry, player);
  actions.changed();
}

function cardPicker(entry) {
  const { draft, actions, players, changing } = entry;
  const who = changing !== null ? draft.plays[changing].player : draft.current;
  const current = players.find((p) => p.id === who);
  const used = unavailableCards(draft, entry.game, changing);
  return h(
    "fieldset",
    {},
    h(
      "legend",
      {},
      changing !== null
        ? t("change_card_of", { name: current.name })
        : t("card_of", { name: current.name }),
    ),
    h(
      "div",
      { class: "grid ranks", role: "group", "aria-label": t("rank") },
      rankKeys(TT_RANKS, draft, {
        disabled: (rank) => SUITS.every((suit) => used.has(rank + suit)),
        redraw: actions.redraw,
      }),
    ),
    suitKeys(draft, { disabled: (code) => used.has(code), pick: (code) => pickCard(entry, code) }),
  );
}
