// A round's number as people count it (round-numbers.js), in a game's history as this phone has
// it: the game shown, else the game's last kept export.

import { roundLabel } from "./round-numbers.js";
import { session } from "./state/game-session.js";
import { store } from "./store.js";

/** roundLabel in game `gameId`'s history as this phone has it: the game shown (provisional
 * rounds too), else its last kept export; a number as is when neither is known. */
export function roundLabelIn(gameId, number) {
  if (session.game && session.game.id === gameId && session.rounds) {
    return roundLabel(session.rounds, number);
  }
  const kept = store.exported(gameId);
  if (!kept) return number;
  const history = kept.export.rounds.map((item) => ({ ...item.round, number: item.number }));
  return roundLabel(history, number);
}
