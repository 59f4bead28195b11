// Games and tables made on this phone with no network: kept here as the phone made them up
// (made-offline.js) and their creation put first in their own outbox, sent when the service is
// back (outbox.js); the page plays them meanwhile as it plays any kept game.

import { madeExport, madeTable, timeStamp } from "../made-offline.js";
import { creating, enqueue } from "../outbox.js";
import { store } from "../store.js";

/** Whether the table or game `id` waits to be created on the service (made with no network). */
export function notCreatedYet(id) {
  return Boolean(id) && creating(id);
}

/**
 * Keep a new game made with no network and queue its creation. `what`: "game", "table-game" or
 * "rematch"; `at`: the table (or the game a rematch is of); `body`: the request as the service
 * takes it, with the chosen `id`; `made`: what madeExport takes; `key`: its Idempotency-Key.
 * Returns the Game the phone shows.
 */
export function makeGame({ what, at = null, body, made, key }) {
  const exported = madeExport(made);
  const { setup: _setup, ...game } = exported.game;
  store.saveGame(game, null, { made: true });
  store.saveExport(game.id, exported, Date.now());
  if (game.table) listAtTable(game, made.roster || []);
  // At a table made offline too: it is created first. A rematch waits for everything its game
  // has waiting (a leave changes who plays the rematch).
  const after = [game.table].filter(notCreatedYet);
  const afterAll = what === "rematch" ? [at] : [];
  const players = game.players.map((player) => player.id);
  const item = { kind: "create", what, at, after, afterAll, body, key, made: { players } };
  enqueue(game.id, null, item);
  return game;
}

/** Keep a new table made with no network and queue its creation: the table the phone shows. */
export function makeTable({ body, key }) {
  const table = madeTable({
    id: body.id,
    name: body.name,
    players: body.players,
    createdAt: body.created_at || timeStamp(),
  });
  store.saveTable(table, null, true);
  store.keepTable(table, Date.now());
  enqueue(table.id, null, { kind: "create", what: "table", body, key });
  return table;
}

// The kept copy of the game's table lists it, as the service will (newest first); a name new to
// the roster is not on the copy, so the players name a game with no name of its own.
function listAtTable(game, roster) {
  const kept = store.keptTable(game.table);
  if (!kept) return;
  const listed = {
    id: game.id,
    ruleset: game.ruleset,
    name: game.name || game.players.map((player) => player.name).join(", "),
    status: "in_progress",
    players: roster,
    winners: [],
    created_at: game.created_at,
    updated_at: game.updated_at,
  };
  const games = [listed, ...kept.table.games.filter((other) => other.id !== game.id)];
  store.keepTable({ ...kept.table, games }, kept.seen);
}
