// Who sits where: seat changes between rounds, a rematch's seats, and players picked from a
// table's roster in seating order. Pure functions, no DOM and no storage.

// The game's history item is a seat change ({seat_change: {join} | {leave}}), not a round.
export function isSeatChange(item) {
  return Boolean(item && item.seat_change);
}

// The game's history item is the end of the game by hand ({end: true}), not a round.
export function isEnd(item) {
  return Boolean(item && item.end);
}

// The rounds of a history (seat changes and the end by hand left out).
export function roundsOnly(items) {
  return (items || []).filter((item) => !isSeatChange(item) && !isEnd(item));
}

// A newcomer's default seat, as the id of the player they sit after: at the dealer's right (just
// before the next round's dealer, clockwise). Everyone already seated keeps their neighbour to the
// left, so the next round's dealer, starter and the deal after it stay where the table expects
// them, and the newcomer is dealt to last and deals last in the rotation.
export function defaultAfter(game) {
  const seated = game.players.filter((p) => !p.eliminated && !p.left);
  const dealer = game.next_round && game.next_round.dealer;
  const index = seated.findIndex((p) => p.id === dealer);
  if (index < 0) return seated.length ? seated[seated.length - 1].id : null;
  return seated[(index - 1 + seated.length) % seated.length].id;
}

// Roster players who may join this game: those not at it, and those who left it.
export function rosterToJoin(roster, game) {
  const away = new Set(game.players.filter((p) => p.left).map((p) => p.roster_id));
  const here = new Set(game.players.filter((p) => !p.left).map((p) => p.roster_id));
  return roster.filter((r) => away.has(r.id) || !here.has(r.id));
}

// A join or a leave as the service takes it: {join: {player | name, after}} or {leave: id}.
export function seatChangeBody(change, number) {
  let body;
  if (change.kind === "leave") body = { leave: change.player };
  else if (change.rosterId !== null && change.rosterId !== undefined) {
    body = { join: { player: change.rosterId, after: change.after } };
  } else body = { join: { name: change.name.trim(), after: change.after } };
  if (number !== undefined) body.number = number;
  return body;
}

// Tap a chip: picked in seating order, a second tap takes it back out (the rest move up).
export function togglePick(picked, key) {
  return picked.includes(key) ? picked.filter((item) => item !== key) : [...picked, key];
}

// A rematch made by hand (a loose game moving to a new table): the players who did not leave, in
// their seats, and round 1's dealer as the service picks it for a rematch: the seat after the
// previous game's first dealer, clockwise. Returns {players: [names], dealer: index}.
export function nextGameSeats(game, history) {
  const firstRound = roundsOnly(history)[0];
  const firstDealer = firstRound ? firstRound.dealer : game.next_round && game.next_round.dealer;
  const staying = game.players.filter((p) => !p.left);
  const names = staying.map((p) => p.name);
  const at = game.players.findIndex((p) => p.id === firstDealer);
  let dealer = 0;
  if (at >= 0) {
    for (let step = 1; step <= game.players.length; step++) {
      const next = game.players[(at + step) % game.players.length];
      if (!next.left) {
        dealer = staying.indexOf(next);
        break;
      }
    }
  }
  return { players: names, dealer };
}
