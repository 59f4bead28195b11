// A game or table made on this phone with no network (docs/api.md, "Made with no network"): the
// id the phone chooses, the copy it plays from until the service has it, and the service's player
// ids put in place of the ones the phone made up. Pure: no DOM, no network, no storage.

import { getRuleset, startGame } from "./rules/index.js";
import { gameBody } from "./state/provisional.js";

// Made-up player and roster ids: far below any id the service gives, any newcomer's provisional
// id (outbox.js), and any score or total an entry holds, so renaming them touches nothing else.
// Ascending by seat, as the service's are (state/provisional.js seats founders by id).
const MADE_BASE = -(2 ** 30);

/** 22 URL-safe base64 characters of 16 random bytes, no padding, as the service takes `id`. */
export function newId(fill = (bytes) => crypto.getRandomValues(bytes)) {
  const bytes = fill(new Uint8Array(16));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** `now` (ms) as the service writes times: RFC 3339 in UTC, to the second. */
export function timeStamp(now = Date.now()) {
  return new Date(now).toISOString().replace(/\.\d+Z$/, "Z");
}

/** A random whole number from 0 to `count` - 1 (a seat drawn as the service draws it). */
export function randomSeat(count, fill = (values) => crypto.getRandomValues(values)) {
  const limit = Math.floor(2 ** 32 / count) * count; // no bias towards the low seats
  for (;;) {
    const [value] = fill(new Uint32Array(1));
    if (value < limit) return value % count;
  }
}

/** The made-up id of the player in `seat`. */
export function madeId(seat) {
  return MADE_BASE + seat;
}

/**
 * The export this phone plays a new game from until the service has it: its Game (as GET
 * answers it, with its setup) and no rounds. `made`: {id, ruleset, name, table, players (names,
 * in seats), dealer, starter (seats; starter null where the rules name it), options, createdAt,
 * roster (a roster id a seat, or null)}.
 */
export function madeExport(made) {
  const players = made.players.map((name, seat) => ({ id: madeId(seat), name }));
  const chooses = getRuleset(made.ruleset).choosesStarter;
  const rules = startGame(
    made.ruleset,
    players,
    made.options || {},
    made.dealer,
    chooses ? made.starter : null,
  );
  const roster = new Map(players.map((p, seat) => [p.id, (made.roster || [])[seat] ?? null]));
  const base = {
    id: made.id,
    ruleset: made.ruleset,
    name: made.name || "",
    table: made.table || null,
    created_at: made.createdAt,
    updated_at: made.createdAt,
  };
  const game = gameBody(base, rules, roster, 0);
  const setup = { dealer: made.dealer, starter: rules.state.starter };
  return { game: { ...game, setup }, rounds: [] };
}

/** The table this phone shows until the service has it, as GET /tables/{id} answers it. */
export function madeTable({ id, name, players, createdAt }) {
  return {
    id,
    name,
    players: players.map((playerName, at) => ({ id: madeId(at), name: playerName })),
    games: [],
    standings: [],
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** `value` with every id that `ids` (a Map) names written as the id it maps to. */
export function renamedIds(value, ids) {
  if (Array.isArray(value)) return value.map((item) => renamedIds(item, ids));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, renamedIds(item, ids)]),
    );
  }
  return ids.has(value) ? ids.get(value) : value;
}

/** The service's id for each player id this phone made up, by seat: Map(made -> real). */
export function realIds(madePlayers, answered) {
  return new Map(madePlayers.map((id, seat) => [id, answered[seat].id]));
}
