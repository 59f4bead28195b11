// What this phone keeps: its tables and games (with their tokens), each game's outbox (the
// changes waiting to be sent, in order) and its last export (the provisional game starts from it),
// each table's copy as last read (its page opens from it with no network), the language.

const GAMES = "scorekeeper.games.v1";
const TABLES = "scorekeeper.tables.v1";
const PENDING = "scorekeeper.pending.v1"; // one round a game: moved to the outbox at start
const OUTBOX = "scorekeeper.outbox.v2";
const EXPORTS = "scorekeeper.exports.v1";
const KEPT_TABLES = "scorekeeper.kept-tables.v1";
const LANG = "scorekeeper.lang";

function read(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  localStorage.setItem(key, JSON.stringify(value));
}

export const store = {
  games() {
    return read(GAMES, []);
  },
  game(id) {
    return this.games().find((game) => game.id === id) || null;
  },
  // extra: what this phone adds to the entry, e.g. {imported: ISO time, source} for an imported
  // game (views/import-file.js), {made: true} for one made with no network (no token until the
  // service creates it; saved again then, without it).
  saveGame(game, token, extra = {}) {
    const games = this.games().filter((item) => item.id !== game.id);
    const old = this.game(game.id);
    const imported = extra.imported || (old && old.imported) || null;
    const source = extra.source || (old && old.source) || null; // what an import is a copy of
    games.unshift({
      id: game.id,
      token: token || (old && old.token) || null,
      ruleset: game.ruleset,
      name: game.name,
      players: game.players.map((player) => player.name),
      status: game.status,
      updated: game.updated_at,
      table: game.table || null,
      ...(imported ? { imported } : {}),
      ...(source ? { source } : {}),
      ...(extra.made ? { made: true } : {}),
    });
    write(GAMES, games);
  },
  updateGame(game) {
    const games = this.games();
    const item = games.find((entry) => entry.id === game.id);
    if (!item) return;
    item.name = game.name;
    item.players = game.players.map((player) => player.name);
    item.status = game.status;
    item.updated = game.updated_at;
    write(GAMES, games);
  },
  forgetGame(id) {
    write(
      GAMES,
      this.games().filter((game) => game.id !== id),
    );
  },
  // A game's own token, or its table's (which also writes to every game at the table).
  token(id) {
    const game = this.game(id);
    if (!game) return null;
    return game.token || (game.table && this.tableToken(game.table)) || null;
  },
  // This phone may score the game: it has its token, or made it with no network.
  writable(id) {
    const game = this.game(id);
    return Boolean(this.token(id) || (game && (game.made || this.tableWritable(game.table))));
  },
  tables() {
    return read(TABLES, []);
  },
  table(id) {
    return this.tables().find((table) => table.id === id) || null;
  },
  // made: a table made with no network (no token until the service creates it).
  saveTable(table, token, made = false) {
    const old = this.table(table.id);
    const tables = this.tables().filter((item) => item.id !== table.id);
    tables.unshift({
      id: table.id,
      token: token || (old && old.token) || null,
      name: table.name,
      players: table.players.map((player) => player.name),
      updated: table.updated_at,
      ...(made ? { made: true } : {}),
    });
    write(TABLES, tables);
  },
  updateTable(table) {
    const tables = this.tables();
    const item = tables.find((entry) => entry.id === table.id);
    if (!item) return;
    item.name = table.name;
    item.players = table.players.map((player) => player.name);
    item.updated = table.updated_at;
    write(TABLES, tables);
  },
  forgetTable(id) {
    write(
      TABLES,
      this.tables().filter((table) => table.id !== id),
    );
    const kept = read(KEPT_TABLES, {});
    delete kept[id];
    write(KEPT_TABLES, kept);
  },
  // The table as the service last answered it, and when (ms): {table, seen}, or null.
  keptTable(id) {
    return read(KEPT_TABLES, {})[id] || null;
  },
  /** Keep `table` as read at `seen` (ms), for a table this phone keeps (others are not). */
  keepTable(table, seen) {
    if (!this.table(table.id)) return;
    const kept = read(KEPT_TABLES, {});
    kept[table.id] = { table, seen };
    write(KEPT_TABLES, kept);
  },
  // This phone may start games at the table: it has its token, or made it with no network.
  tableWritable(id) {
    const table = id ? this.table(id) : null;
    return Boolean(table && (table.token || table.made));
  },
  tableToken(id) {
    const table = this.table(id);
    return (table && table.token) || null;
  },
  // Every game's outbox: {gameId: {items: [...], notices: [...]}} (outbox.js says what they hold).
  outboxes() {
    return read(OUTBOX, {});
  },
  /** Once, as the page starts: rounds kept before the outbox was a queue go first in their game's. */
  moveOldOutbox() {
    const old = read(PENDING, null);
    if (!old) return;
    const all = this.outboxes();
    for (const [gameId, entry] of Object.entries(old)) {
      const box = all[gameId] || { items: [], notices: [] };
      const item = { kind: "round", ...entry };
      // Another phone had recorded its number: now the table chooses (theirs or mine).
      if (entry.state === "failed" && entry.error && entry.error.taken) item.state = "taken";
      box.items.unshift(item);
      all[gameId] = box;
    }
    write(OUTBOX, all);
    localStorage.removeItem(PENDING);
  },
  outbox(gameId) {
    const box = this.outboxes()[gameId];
    return { items: [], notices: [], ...box };
  },
  setOutbox(gameId, box) {
    const all = this.outboxes();
    if (box.items.length || box.notices.length) all[gameId] = box;
    else delete all[gameId];
    write(OUTBOX, all);
  },
  // The game's last export, and when it was asked for ({export, asked}: asked in ms).
  exported(gameId) {
    return read(EXPORTS, {})[gameId] || null;
  },
  // Kept for this game, for the games this phone keeps that are still being played (so that any
  // of them opens with no network), and for games with something waiting; others' are dropped.
  saveExport(gameId, exported, asked) {
    const all = read(EXPORTS, {});
    const waiting = this.outboxes();
    const playing = new Set(
      this.games()
        .filter((game) => game.status !== "finished")
        .map((game) => game.id),
    );
    for (const id of Object.keys(all)) {
      if (id !== gameId && !waiting[id] && !playing.has(id)) delete all[id];
    }
    all[gameId] = { export: exported, asked };
    write(EXPORTS, all);
  },
  lang() {
    return localStorage.getItem(LANG);
  },
  setLang(lang) {
    localStorage.setItem(LANG, lang);
  },
};

// An Idempotency-Key: 128 random bits as hex (crypto.getRandomValues works on plain http too).
// prefix: what the key is for ("round", "seat", "game", "table").
export function newKey(prefix = "round") {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return prefix + "-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
