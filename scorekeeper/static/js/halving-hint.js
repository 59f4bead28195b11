// The Jhyap entry's halving hint: which typed hands would bring a player's total exactly onto a
// halving score (rules.md, Jhyap rule 5). Pure: no DOM. The scoring itself is the rules port's.

import { parseCard } from "./rules/cards.js";
import { cardValue, Jhyap } from "./rules/jhyap.js";

// A typed hand's total, or null when it is not entered yet (or a card code is not a card).
function handTotal(hand) {
  if (!hand) return null;
  if (Number.isInteger(hand.total)) return hand.total;
  if (!hand.cards || !hand.cards.length) return null;
  try {
    return hand.cards.reduce((sum, code) => sum + cardValue(parseCard(code)), 0);
  } catch {
    return null;
  }
}

// What each player's round would add, by id: a non-caller their hand; the caller 0, or the
// penalty plus their hand when the call fails, known only once every hand is typed.
function roundPoints(game, draft) {
  const totals = new Map();
  for (const id of draft.ids) {
    const total = handTotal(draft.hands[id]);
    if (total !== null) totals.set(id, total);
  }
  const points = new Map(totals);
  const caller = draft.caller;
  if (caller === null || !totals.has(caller)) return points;
  if (totals.size < draft.ids.length) {
    points.delete(caller);
    return points;
  }
  const rules = Jhyap.restore(game.players, game.options);
  const bySeat = new Map([...totals].map(([id, total]) => [rules.seatOf(id), total]));
  const caught = rules.catchers(bySeat, rules.seatOf(caller)).length > 0;
  points.set(caller, caught ? game.options.caller_penalty + totals.get(caller) : 0);
  return points;
}

// game: as GET /games/{id} answers it; draft: a new Jhyap round's draft (views/entry-draft.js).
// Returns a Map from player id to {lands, halved}: the total the round would bring them to, a
// halving score, and what halving leaves of it.
export function halvingHints(game, draft) {
  const hints = new Map();
  const halveAt = game.options.halve_at || [];
  for (const [id, points] of roundPoints(game, draft)) {
    const player = game.players.find((p) => p.id === id);
    const lands = player.score + points;
    if (halveAt.includes(lands)) hints.set(id, { lands, halved: Math.floor(lands / 2) });
  }
  return hints;
}
