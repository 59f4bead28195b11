// A round being entered (a draft): what it holds, when it is complete, and the entry it sends.
// Pure functions, no DOM and no storage. A draft's kind follows the kind of its ruleset's entry
// (the ruleset's descriptor, state/rulesets.js):
//
// caller_and_totals: {kind: "jhyap", mode, number, ids, caller, hands: {id: {total} | {cards}},
// current, cardMode, rank}. one_card_each: {kind: "tt", mode, number, ids, plays: [{player,
// card}], current, rank, changing}. hearts_and_queen: {kind: "hearts", mode, number, ids, hearts:
// {id: count}, queen, current}. points: {kind: "points", mode, number, ids, points: {id: n},
// current, negative}. mode is "new" (the next round) or "edit" (a correction of round `number`).
// (The first two kinds keep the names drafts kept on phones already have.)

import { describe } from "../state/rulesets.js";

const DRAFT_KINDS = {
  caller_and_totals: "jhyap",
  one_card_each: "tt",
  hearts_and_queen: "hearts",
  points: "points",
};

export function draftKey(gameId) {
  return `scorekeeper.draft.${gameId}`;
}

export function newDraft(ruleset, participants, number, mode, starter) {
  const ids = participants.map((p) => p.id);
  const kind = DRAFT_KINDS[describe(ruleset).entry.kind] || "points";
  if (kind === "hearts") {
    return { kind, mode, number, ids, hearts: {}, queen: null, current: ids[0] ?? null };
  }
  if (kind === "points") {
    return { kind, mode, number, ids, points: {}, current: ids[0] ?? null, negative: false };
  }
  if (kind === "jhyap") {
    return {
      kind: "jhyap",
      mode,
      number,
      ids,
      caller: null,
      hands: {},
      current: null,
      cardMode: false,
      rank: null,
    };
  }
  const current = ids.includes(starter) ? starter : ids[0];
  return { kind: "tt", mode, number, ids, plays: [], current, rank: null };
}

// What is kept of a new round's draft on this phone: a card being changed is not (the entry
// opens again with its picker closed), nor the preview.
export function keptDraft(draft) {
  const { preview, previewError, changing, complete, ...keep } = draft;
  return keep;
}

// Fill a draft with a round's entry (as sent to the service), for the players the draft has.
export function fillDraft(draft, entry) {
  if (draft.kind === "points") {
    for (const hand of entry.hands || []) {
      if (draft.ids.includes(hand.player)) draft.points[hand.player] = hand.points;
    }
  } else if (draft.kind === "hearts") {
    const hands = (entry.hands || []).filter((hand) => draft.ids.includes(hand.player));
    // Takes entered as points (by another client): the queen to the first highest take.
    const byPoints = hands.some((hand) => hand.points !== undefined);
    const top = Math.max(...hands.map((hand) => hand.points ?? 0));
    const queen = byPoints
      ? hands.find((hand) => hand.points === top && top >= QUEEN_POINTS)
      : null;
    for (const hand of hands) {
      draft.hearts[hand.player] = byPoints
        ? hand.points - (hand === queen ? QUEEN_POINTS : 0)
        : hand.hearts;
    }
    const taker = byPoints ? queen && queen.player : entry.queen;
    if (draft.ids.includes(taker)) draft.queen = taker;
  } else if (draft.kind === "jhyap") {
    draft.caller = draft.ids.includes(entry.caller) ? entry.caller : null;
    for (const hand of entry.hands || []) {
      if (!draft.ids.includes(hand.player)) continue;
      draft.hands[hand.player] = hand.cards ? { cards: hand.cards.slice() } : { total: hand.total };
    }
  } else {
    draft.plays = (entry.last_trick || [])
      .filter((play) => draft.ids.includes(play.player))
      .map((play) => ({ player: play.player, card: play.card }));
  }
  draft.current = null;
}

export function handReady(hand) {
  return Boolean(hand) && (Number.isInteger(hand.total) || (hand.cards && hand.cards.length > 0));
}

const HEARTS = 13;
const QUEEN_POINTS = 13;

// The hearts entered so far in a Hearts draft.
export function heartsEntered(draft) {
  return draft.ids.reduce((sum, id) => sum + (draft.hearts[id] || 0), 0);
}

export function entryComplete(draft) {
  if (draft.kind === "hearts") {
    const counted = draft.ids.every((id) => Number.isInteger(draft.hearts[id]));
    return counted && heartsEntered(draft) === HEARTS && draft.ids.includes(draft.queen);
  }
  if (draft.kind === "points") return draft.ids.every((id) => Number.isInteger(draft.points[id]));
  if (draft.kind === "jhyap") {
    return draft.caller !== null && draft.ids.every((id) => handReady(draft.hands[id]));
  }
  return draft.plays.length === draft.ids.length;
}

// The round's entry as the service takes it (a new round also says its number).
export function entryBody(draft) {
  let body;
  if (draft.kind === "hearts") {
    body = {
      hands: draft.ids.map((id) => ({ player: id, hearts: draft.hearts[id] })),
      queen: draft.queen,
    };
  } else if (draft.kind === "points") {
    body = { hands: draft.ids.map((id) => ({ player: id, points: draft.points[id] })) };
  } else if (draft.kind === "jhyap") {
    body = {
      caller: draft.caller,
      hands: draft.ids.map((id) => {
        const hand = draft.hands[id];
        return hand.cards && hand.cards.length
          ? { player: id, cards: hand.cards }
          : { player: id, total: hand.total };
      }),
    };
  } else {
    body = { last_trick: draft.plays.map((play) => ({ player: play.player, card: play.card })) };
  }
  return draft.mode === "new" ? { number: draft.number, ...body } : body;
}

// The next player after `after` (null: from the first) whose hand is not entered yet, or null.
export function nextEmptyHand(draft, after) {
  const start = after === null ? 0 : draft.ids.indexOf(after) + 1;
  for (let i = 0; i < draft.ids.length; i++) {
    const id = draft.ids[(start + i) % draft.ids.length];
    if (!handReady(draft.hands[id])) return id;
  }
  return null;
}
