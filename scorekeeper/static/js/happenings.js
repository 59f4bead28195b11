// What a round just did, in words for the strip after a confirm: halvings, a failed call and its
// penalty, who took the trick, eliminations, the winner or who deals next. Pure: no DOM.

// game: as GET /games/{id} answers it (for the names); round: as GET .../rounds lists it.
// Returns [{key, vars}]: the catalog's key of each phrase and its values, in the order said.
export function roundHappenings(game, round) {
  const name = (id) => {
    const player = game.players.find((p) => p.id === id);
    return player ? player.name : "?";
  };
  const said = [];
  if (round.caller !== undefined && !round.caller_succeeded) {
    const caller = round.results.find((r) => r.player === round.caller);
    said.push({
      key: "happened_call_failed",
      vars: { name: name(round.caller), n: caller ? caller.points : 0 },
    });
  }
  if (round.moon !== undefined && round.moon !== null) {
    said.push({ key: "happened_moon", vars: { name: name(round.moon) } });
  }
  said.push(...takersSaid(round, name));
  for (const result of round.results) {
    if (result.halved) {
      said.push({
        key: "happened_halved",
        vars: { name: name(result.player), n: result.score_after },
      });
    }
  }
  for (const result of round.results) {
    if (result.eliminated) said.push({ key: "happened_out", vars: { name: name(result.player) } });
  }
  const after = round.game || {};
  const winners = after.winners || [];
  if (after.status === "finished") {
    if (winners.length > 1) {
      said.push({ key: "happened_shared_win", vars: { names: winners.map(name).join(", ") } });
    } else if (winners.length === 1) {
      said.push({ key: "happened_wins", vars: { name: name(winners[0]) } });
    }
  } else if (after.next_round) {
    said.push({ key: "happened_deals", vars: { name: name(after.next_round.dealer) } });
  }
  return said;
}

// Who took the last trick: one of them, or a tie said once ("A tie for the last trick: Dev,
// Bikash, +10 each"), naming each one's points only when they differ.
function takersSaid(round, name) {
  const takers = (round.takers || []).map((id) => {
    const taker = round.results.find((r) => r.player === id);
    return { name: name(id), n: taker ? taker.points : 0 };
  });
  if (takers.length === 1) return [{ key: "happened_took", vars: takers[0] }];
  if (!takers.length) return [];
  const names = takers.map((taker) => taker.name).join(", ");
  if (takers.every((taker) => taker.n === takers[0].n)) {
    return [{ key: "happened_tie", vars: { names, n: takers[0].n } }];
  }
  const each = takers.map((taker) => `${taker.name} +${taker.n}`).join(", ");
  return [{ key: "happened_tie_each", vars: { each } }];
}
