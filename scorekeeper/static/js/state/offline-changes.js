// Changes the table makes while the outbox is not empty or the phone is offline: they join the
// outbox, after what already waits, and the game shows them at once (provisionally).

import { enqueue, waiting, withdraw } from "../outbox.js";
import { RuleError } from "../rules/index.js";
import { store } from "../store.js";
import { session } from "./game-session.js";
import { provisionalGame } from "./provisional.js";

const folded = (name) => name.normalize("NFKC").toLowerCase();

/** Whether a change must wait in the outbox (something waits already, or the phone is offline). */
export function mustQueue(gameId) {
  return waiting(gameId).length > 0 || navigator.onLine === false;
}

/**
 * Undo the game's last history item (round or seat change), as the game shows it now. One this
 * phone queued and never sent is taken out of the outbox (with corrections of it); any other is
 * undone by a queued DELETE aimed at that very item. Returns the number undone, or null.
 */
export function undoLast(gameId) {
  const rounds = session.rounds || [];
  const last = rounds[rounds.length - 1];
  if (!last || !session.game || session.game.id !== gameId) return null;
  const key = session.made.get(last.number) || null;
  if (key && withdraw(gameId, key)) {
    for (const item of waiting(gameId)) {
      if (item.kind === "correct" && item.number === last.number) withdraw(gameId, item.key);
    }
    return last.number;
  }
  const made = key && store.outbox(gameId).items.find((item) => item.key === key);
  const recorded = made && made.recorded && made.recorded.created_at;
  const target = key ? recorded || null : last.created_at || null;
  enqueue(gameId, store.token(gameId), {
    kind: "undo",
    number: last.number,
    target,
    targetKey: key,
  });
  return last.number;
}

/** The outbox item a join or a leave makes (a newcomer gets a provisional id). */
function seatItem(game, body, key, name) {
  const item = { kind: "seat", key, body };
  if (body.join) {
    // A provisional id, below every id the game has: the service's answer gives the real one.
    const id = Math.min(0, ...game.players.map((p) => p.id)) - 1;
    item.newcomer = { id, name, rosterId: body.join.player ?? null };
    const seated = game.players.filter((p) => !p.left);
    const clash = seated.find((p) => folded(p.name) === folded(name));
    if (clash) {
      const said = `${clash.name} is already in this game, so ${name} cannot join it again.`;
      throw new RuleError(said, { join: ["Already in this game."] });
    }
  }
  return item;
}

/**
 * A join's or a leave's dry run on the phone: the Game after it, as the service's dry run
 * answers it; a RuleError when the rules refuse it (as the service would).
 */
export function previewSeatChange(body, name = null) {
  const base = session.base;
  const item = seatItem(session.game, body, "seat-preview", name);
  const tried = provisionalGame(base.exported, [...base.items, { ...item, created: null }]);
  const refused = tried.refused.find((entry) => entry.key === item.key);
  if (refused) throw refused.error;
  return tried.game;
}

/** Queue a join or a leave (`body` as the service takes it, with its key): the Game after it. */
export function queueSeatChange(gameId, body, key, name = null) {
  const item = seatItem(session.game, body, key, name);
  if (session.base) previewSeatChange(body, name); // refused here as the service would
  enqueue(gameId, store.token(gameId), item);
  return session.game;
}
