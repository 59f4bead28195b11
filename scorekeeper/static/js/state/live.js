// The one owner of the page's live state: the game or table on screen as the service last told
// it (with its version, the ETag), the game's history as an export holds it, the stream or the
// poll that keeps them fresh (live-connection.js), what this phone's own writes answered, and
// their copy in this phone's storage (written through on every change, so that a game or a table
// opens with no network). Views never read the network or the storage for them: they subscribe,
// and draw what `game()` or `table()` hold when told of a change.
//
// What a change costs: the event (or a poll's 200), plus at most one read of the history, only
// its new items (?after=N), or all of it when an item held was corrected or undone. After its own
// write the phone uses the answer: a round is added to the history it holds and the game worked
// out from it by the rules on the phone, with no read. A phone that may write keeps every entry
// (it replays them offline), so it reads the export where a phone that only watches reads the
// history (state/live-history.js).
//
// A game or table made on this phone with no network is shown from what the phone made up of it
// until its creation is answered: nothing the service says of that id counts before (a 404, or,
// should another have taken the id, someone else's game).
//
// `deps`: base (the API's path), api, store, outbox ({settled(gameId, exported, asked),
// sending(gameId), creating(id)}), follow (live-connection.js), isNetworkError, isGone (a 404),
// now, and env (the browser, for follow).

import {
  historyRead,
  heldHistory,
  replayable,
  withEntry,
  withItems,
  withOwnRound,
  withoutSetup,
  withSetup,
} from "./live-history.js";
import { entryOf } from "./provisional.js";

const revisionOf = (game) => (game && game.history_revision) || 0;
const NOT_CREATED = new Error("made on this phone, not created on the service yet");

/** The history of a game just created: none, and its Game as the creation answered it. */
function createdExport(made, answer) {
  const { token: _token, ...game } = answer;
  return { game: withSetup(game, made && made.game), rounds: [] };
}

export function createLive(deps) {
  const { api, store, outbox, follow, now = Date.now } = deps;
  const listeners = new Set();
  let shown = null; // the game or table on screen: {kind, id, ...} (see showGame, showTable)

  const current = (target) => shown === target;
  const shownGame = (id) =>
    shown && shown.kind === "game" && (id === undefined || shown.id === id) ? shown : null;

  function notify(target, kind = target.kind) {
    if (!current(target) || !target.ready) return;
    for (const listener of listeners) listener({ kind, id: target.id });
  }

  function close() {
    if (shown && shown.connection) shown.connection.close();
    shown = null;
  }

  function watch(target, path, event, poll, onSnapshot) {
    target.connection = follow({
      url: `${deps.base}/${path}/${encodeURIComponent(target.id)}/events`,
      event,
      poll: () => poll(target),
      onSnapshot: (data, version) => onSnapshot(target, data, version),
      onDeleted: () => gone(target),
      env: deps.env,
    });
  }

  function gone(target) {
    if (!current(target)) return;
    notify(target, "deleted");
    close();
  }

  // Games

  /**
   * Show game `id`: its Game and history, then follow it. `keep`: a game this phone plays at one
   * of its tables is kept with the table's key. Offline, what this phone kept of it, if it has.
   * Shown already: nothing is read again (once it has loaded).
   */
  async function showGame(id, { keep = false } = {}) {
    const same = shownGame(id);
    if (same && same.ready) return;
    close();
    const target = {
      kind: "game",
      id,
      writer: false, // may write: keeps every entry
      game: null, // the newest Game heard of (the history is brought up to it)
      etag: null,
      held: null, // the history held, as an export: {game (the Game shown), rounds}
      kept: null, // the Game the history held was last kept for
      asked: 0, // when the history held was read (ms)
      pending: null, // a Game heard of while a write of this phone's was on its way
      want: 0, // a history revision this phone's own change makes (a correction, an undo)
      readAll: false,
      ownSeat: null, // {number, entry}: a seat change of this phone's, to be read back
      writes: 0,
      syncing: null,
      again: false,
      ready: false,
      connection: null,
    };
    shown = target;
    let response;
    try {
      if (outbox.creating(id)) throw NOT_CREATED;
      response = await api.game(id, null);
    } catch (error) {
      const kept = store.exported(id);
      if (!unreachable(error) || !kept) throw error;
      if (!current(target)) return;
      target.game = withoutSetup(kept.export.game);
      target.held = kept.export;
      target.asked = kept.asked;
      target.writer = store.writable(id);
      return start(target);
    }
    if (!current(target)) return;
    const game = response.data;
    if (keep && !store.game(id) && game.table && store.table(game.table))
      store.saveGame(game, null);
    target.writer = store.writable(id);
    target.game = game;
    target.etag = response.headers.get("ETag");
    await catchUp(target);
    if (current(target)) start(target);
  }

  // No answer, or (made offline, not created yet) none that counts: the phone's copy is shown.
  function unreachable(error) {
    return error === NOT_CREATED || deps.isNetworkError(error);
  }

  function start(target) {
    target.ready = true;
    watch(target, "games", "game", pollGame, heard);
  }

  async function pollGame(target) {
    if (outbox.creating(target.id)) return;
    let response;
    try {
      response = await api.game(target.id, target.etag);
    } catch (error) {
      if (deps.isGone(error)) gone(target);
      return;
    }
    if (response.status === 304 || !current(target)) return;
    await heard(target, response.data, response.headers.get("ETag"));
  }

  /** A newer Game (an event, a poll): the history is brought up to it. */
  function heard(target, game, version) {
    if (!current(target) || (version && version === target.etag)) return undefined;
    if (outbox.creating(target.id)) return undefined;
    target.pending = { game, version };
    return sync(target);
  }

  /** Bring what is held up to the newest Game heard of, one pass at a time. */
  function sync(target) {
    if (target.syncing) {
      target.again = true;
      return target.syncing;
    }
    target.syncing = passes(target).finally(() => {
      target.syncing = null;
    });
    return target.syncing;
  }

  async function passes(target) {
    do {
      target.again = false;
      // A write of this phone's is on its way: its answer comes first, then what was heard.
      if (target.writes > 0 || outbox.sending(target.id) || outbox.creating(target.id)) return;
      if (target.pending) {
        target.game = target.pending.game;
        target.etag = target.pending.version || target.etag;
        target.pending = null;
      }
      try {
        await catchUp(target);
      } catch {
        return; // offline, say: the next event or poll tries again
      }
    } while (target.again && current(target));
  }

  /** Read what the history held lacks for the newest Game, and keep it (the game with it). */
  async function catchUp(target) {
    const held = target.held;
    const wanted = target.readAll || target.want > revisionOf(held && held.game);
    const need = wanted ? { all: true } : historyRead(target.game, held);
    if (!need) {
      if (target.kept !== target.game) {
        keep(target, { ...held, game: withSetup(target.game, held.game) }, target.asked);
      }
      return;
    }
    // Only this phone's own seat change is new: read it back; its entry is the body it sent.
    const own = target.ownSeat;
    if (need.after !== undefined && (!target.writer || own)) {
      const asked = now();
      const items = await api.rounds(target.id, need.after);
      if (!current(target)) return;
      let merged = withItems(held, items, target.game);
      if (merged && own) merged = withEntry(merged, own.number, own.entry);
      target.ownSeat = null;
      if (merged && (!target.writer || replayable(merged))) {
        keep(target, merged, asked);
        return;
      }
    }
    await readAll(target);
  }

  async function readAll(target) {
    const asked = now();
    let held;
    if (target.writer) {
      held = await api.exportGame(target.id);
      if (!current(target)) return;
      target.game = withoutSetup(held.game); // as new as the export, at least
    } else {
      const rounds = await api.rounds(target.id);
      if (!current(target)) return;
      const last = target.game.next_round ? target.game.next_round.number - 1 : Infinity;
      held = heldHistory(
        target.game,
        rounds.filter((round) => round.number <= last),
      );
    }
    target.readAll = false;
    target.want = 0;
    target.ownSeat = null;
    keep(target, held, asked);
  }

  /** Keep `held` as the game shown, here and on the phone, and tell who listens. */
  function keep(target, held, asked) {
    target.held = held;
    target.asked = asked;
    target.kept = target.game;
    store.saveExport(target.id, held, asked);
    outbox.settled(target.id, held, asked);
    store.updateGame(withoutSetup(held.game));
    notify(target);
  }

  /** A change of this phone's was answered: what it tells of the game. */
  function answered(target, item, answer) {
    if (item.kind === "create") {
      const held = createdExport(target.held, answer);
      target.game = withoutSetup(held.game);
      return keep(target, held, target.asked);
    }
    if (item.kind === "round") return ownRound(target, item, answer);
    if (item.kind === "seat") {
      target.game = answer; // the Game after it; its item is read back
      target.ownSeat = { number: item.body.number, entry: item.body };
      return undefined;
    }
    // A correction or an undo changed items held: the whole history again, once.
    target.want = Math.max(target.want, revisionOf(target.held && target.held.game) + 1);
    return undefined;
  }

  function ownRound(target, item, answer) {
    const held = target.held;
    const same = (r) => r.number === answer.number && r.round.created_at === answer.created_at;
    if (held && held.rounds.some(same)) {
      keep(target, withEntry(held, answer.number, entryOf(item.body)), target.asked);
      return;
    }
    const next = withOwnRound(held, item, answer);
    if (!next) {
      target.readAll = true; // another item came between, or changed under it: read it all
      return;
    }
    target.game = withoutSetup(next.game);
    // `asked` stays: other answers the history does not hold yet stay applied on top of it.
    keep(target, next, target.asked);
  }

  /** A round answered for a game not on screen: added to what this phone keeps of it (else it
   * stays in the outbox, applied on top, until the game is read again). */
  function answeredElsewhere(gameId, item, answer) {
    const kept = store.exported(gameId);
    if (item.kind === "create" && kept) {
      const held = createdExport(kept.export, answer);
      store.saveExport(gameId, held, kept.asked);
      outbox.settled(gameId, held, kept.asked);
      return;
    }
    const next = item.kind === "round" && kept && withOwnRound(kept.export, item, answer);
    if (!next) return;
    store.saveExport(gameId, next, kept.asked);
    outbox.settled(gameId, next, kept.asked);
    store.updateGame(withoutSetup(next.game));
  }

  /** The outbox changed ({type, gameId, item, answer, network}, outbox.js). */
  function outboxChanged(event) {
    const target = shownGame(event.gameId);
    if (event.type === "sent") {
      if (!target) return answeredElsewhere(event.gameId, event.item, event.answer);
      answered(target, event.item, event.answer);
    } else if (target && event.type === "failed" && !event.network) {
      return refresh(); // refused: the game as the service has it now (another phone's round)
    }
    if (!target) return undefined;
    if (event.type !== "sent") notify(target); // what waits is shown on top of the game
    return sync(target);
  }

  /**
   * A change a view sends itself (`send` resolves with the answer); `item` says what it is, as
   * an outbox item would ({kind, body}). What was heard meanwhile waits for the answer; it
   * resolves once the game held has caught up with it.
   */
  async function write(send, item) {
    const target = shownGame();
    if (target) target.writes += 1;
    try {
      const answer = await send();
      if (target && current(target)) answered(target, item, answer);
      return answer;
    } finally {
      if (target) target.writes -= 1;
      if (target && current(target)) await sync(target);
    }
  }

  /** The game and its whole history read again (a write was refused: it moved on meanwhile). */
  async function refresh() {
    const target = shownGame();
    if (!target || !target.ready || outbox.creating(target.id)) return;
    try {
      const response = await api.game(target.id, null);
      if (!current(target)) return;
      target.pending = { game: response.data, version: response.headers.get("ETag") };
      target.readAll = true;
    } catch {
      return; // offline: the next event or poll catches up
    }
    await sync(target);
  }

  /** Every entry of the history (to correct a round): the export read if some are not held. */
  async function entries() {
    const target = shownGame();
    if (!target || replayable(target.held) || !target.ready) return;
    target.writer = true;
    target.readAll = true;
    await sync(target);
  }

  // Tables

  /**
   * Show table `id`: read it, then follow it. Offline, the copy this phone kept of it, if it has
   * one, until a read succeeds (the follow's first poll, say).
   */
  async function showTable(id) {
    close();
    const target = {
      kind: "table",
      id,
      table: null,
      etag: null,
      seen: null, // shown from this phone's copy: when the service last answered it (ms)
      ready: false,
      connection: null,
    };
    shown = target;
    let response;
    try {
      if (outbox.creating(id)) throw NOT_CREATED;
      response = await api.table(id, null);
    } catch (error) {
      const kept = store.keptTable(id);
      if (!unreachable(error) || !kept) throw error;
      if (!current(target)) return;
      target.table = kept.table;
      target.seen = kept.seen;
    }
    if (!current(target)) return;
    if (response) tableHeard(target, response.data, response.headers.get("ETag"));
    target.ready = true;
    watch(target, "tables", "table", pollTable, tableHeard);
  }

  async function pollTable(target) {
    if (outbox.creating(target.id)) return;
    let response;
    try {
      response = await api.table(target.id, target.etag);
    } catch (error) {
      if (deps.isGone(error)) gone(target);
      return;
    }
    if (response.status !== 304) tableHeard(target, response.data, response.headers.get("ETag"));
  }

  function tableHeard(target, table, version) {
    if (!current(target) || (version && version === target.etag)) return;
    if (outbox.creating(target.id)) return;
    target.table = table;
    target.etag = version;
    target.seen = null;
    store.updateTable(table);
    store.keepTable(table, now());
    notify(target);
  }

  return {
    showGame,
    showTable,
    close,
    write,
    refresh,
    entries,
    outboxChanged,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The game on screen: {game, held, asked} (held: its history, as an export), or null. */
    game() {
      const target = shownGame();
      if (!target || !target.held) return null;
      return { game: withoutSetup(target.held.game), held: target.held, asked: target.asked };
    },
    /** The table on screen, or null. */
    table() {
      return shown && shown.kind === "table" ? shown.table : null;
    },
    /** When the service last answered the table on screen, if it is this phone's kept copy
     * (no read has succeeded since it was shown), else null. */
    tableSeen() {
      return shown && shown.kind === "table" ? shown.seen : null;
    },
    /** Whether game or table `id` is on screen and followed. */
    showing(id) {
      return Boolean(shown && shown.id === id && shown.ready);
    },
    /** How the game or table on screen is followed: "stream", "polling" or null. */
    mode() {
      if (!shown || !shown.connection) return null;
      return shown.connection.polling ? "polling" : "stream";
    },
  };
}
