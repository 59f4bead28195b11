// A finished game's final ranking (rules.md, "Final ranking"): the winners first, then the
// players knocked out (a later round is better, then a lower total), then those who left (a lower
// total first). Equal standing shares a place ("1, 2, 2, 4"). Pure: no DOM.

import { lowerIsBetter } from "./rules/index.js";

// The group a player ranks in, and what orders the group (lower sorts first): a total counts as
// it is where a lower total is better, else turned round.
function standing(game, player) {
  const score = lowerIsBetter(game.ruleset, game.options) ? player.score : -player.score;
  if (game.winners.includes(player.id)) return [0, 0, 0];
  if (player.left) return [3, 0, score];
  if (player.eliminated) return [2, -(player.eliminated_in_round || 0), score];
  return [1, 0, score];
}

function compare(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

// game: as GET /games/{id} answers it. Returns [{player, place}] best first; players of equal
// standing keep their seat order.
export function finalRanking(game) {
  const rows = game.players
    .map((player, seat) => ({ player, seat, key: standing(game, player) }))
    .sort((a, b) => compare(a.key, b.key) || a.seat - b.seat);
  const places = [];
  rows.forEach((row, index) => {
    const above = rows[index - 1];
    places.push(above && compare(above.key, row.key) === 0 ? places[index - 1] : index + 1);
  });
  return rows.map((row, index) => ({ player: row.player, place: places[index] }));
}
