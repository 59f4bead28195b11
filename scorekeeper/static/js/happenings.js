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
  if (game.ruleset === "jhyap" && round.caller !== undefined && !round.caller_succeeded) {
    const caller = round.results.find((r) => r.player === round.caller);
    said.push({
      key: "happened_call_failed",
      vars: { name: name(round.caller), n: caller ? caller.points : 0 },
    });
  }
  for (const id of round.takers || []) {
    const taker = round.results.find((r) => r.player === id);
    said.push({ key: "happened_took", vars: { name: name(id), n: taker ? taker.points : 0 } });
  }
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
