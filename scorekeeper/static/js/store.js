// What this phone keeps: its tables and games (with their tokens), rounds waiting to be sent, the
// language.

const GAMES = "scorekeeper.games.v1";
const TABLES = "scorekeeper.tables.v1";
const PENDING = "scorekeeper.pending.v1";
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
  // extra: what this phone adds to the entry, e.g. {imported: ISO time} for an imported game.
  saveGame(game, token, extra = {}) {
    const games = this.games().filter((item) => item.id !== game.id);
    const old = this.game(game.id);
    const imported = extra.imported || (old && old.imported) || null;
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
  tables() {
    return read(TABLES, []);
  },
  table(id) {
    return this.tables().find((table) => table.id === id) || null;
  },
  saveTable(table, token) {
    const old = this.table(table.id);
    const tables = this.tables().filter((item) => item.id !== table.id);
    tables.unshift({
      id: table.id,
      token: token || (old && old.token) || null,
      name: table.name,
      players: table.players.map((player) => player.name),
      updated: table.updated_at,
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
  },
  tableToken(id) {
    const table = this.table(id);
    return (table && table.token) || null;
  },
  pendingAll() {
    return read(PENDING, {});
  },
  pending(gameId) {
    return this.pendingAll()[gameId] || null;
  },
  setPending(gameId, entry) {
    const all = this.pendingAll();
    if (entry) all[gameId] = entry;
    else delete all[gameId];
    write(PENDING, all);
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
