// A round being entered (a draft): what it holds, when it is complete, and the entry it sends.
// Pure functions, no DOM and no storage.
//
// Jhyap: {kind: "jhyap", mode, number, ids, caller, hands: {id: {total} | {cards}}, current,
// cardMode, rank}. Twenty Two: {kind: "tt", mode, number, ids, plays: [{player, card}], current,
// rank, changing}. mode is "new" (the next round) or "edit" (a correction of round `number`).

export function draftKey(gameId) {
  return `scorekeeper.draft.${gameId}`;
}

export function newDraft(ruleset, participants, number, mode, starter) {
  const ids = participants.map((p) => p.id);
  if (ruleset === "jhyap") {
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
  if (draft.kind === "jhyap") {
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

export function entryComplete(draft) {
  if (draft.kind === "jhyap") {
    return draft.caller !== null && draft.ids.every((id) => handReady(draft.hands[id]));
  }
  return draft.plays.length === draft.ids.length;
}

// The round's entry as the service takes it (a new round also says its number).
export function entryBody(draft) {
  let body;
  if (draft.kind === "jhyap") {
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
