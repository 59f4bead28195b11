// The round entry open on the page (its draft, written by views/entry.js), and a refused round
// to enter again (asked for by the outbox banner, taken by the entry when it opens).

let draft = null;
let prefill = null;

export function openDraft() {
  return draft;
}

export function setOpenDraft(value) {
  draft = value;
}

// {gameId, key}: the refused round's outbox entry.
export function askToEnterAgain(gameId, key) {
  prefill = { gameId, key };
}

// The refused round to enter again in this game, if one was asked for (asked once only).
export function takeEnterAgain(gameId) {
  const found = prefill && prefill.gameId === gameId ? prefill : null;
  prefill = null;
  return found;
}
