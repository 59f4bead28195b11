// Round numbers as people count them. The API numbers rounds and seat changes in one sequence
// (history items are addressed by it); the page shows numbers that count rounds only, so that
// after six rounds, a join and a leave the next round is round 7 (docs/phone.md). Pure: no DOM,
// no storage.

import { isSeatChange } from "./seating.js";

/** The number people call the round at history number `number`: the rounds before it in
 * `history` (the game's history items, seat changes among them), plus one. */
export function roundLabel(history, number) {
  return (history || []).filter((item) => !isSeatChange(item) && item.number < number).length + 1;
}

/** The next round's number as people count it: the rounds played, plus one. */
export function nextRoundLabel(game) {
  return game.rounds_played + 1;
}
