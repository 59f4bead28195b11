// The game the page shows: as the service last sent it (the game with its ETag, its rounds and
// its export), with this phone's outbox applied on top while anything waits there (the
// provisional game, state/provisional.js). Once the outbox is empty the service's game is shown.
// Only this module writes them; the views read them through `session`.

import { api, NetworkError } from "../api.js";
import { settled, waiting } from "../outbox.js";
import { store } from "../store.js";
import { provisionalGame, unsettled } from "./provisional.js";
import { currentRoute } from "./route.js";

let game = null;
let etag = null;
let rounds = null;
let exported = null;
let offlineLoad = false; // loaded offline from the export this phone kept
let gameAsked = 0; // when the game shown was asked for (ms)
let poll = null;
let shown = { memo: null, view: null };
const listeners = new Set();

// What the page shows: {game, rounds, entries, provisional: count not yet sent (0: the service's)}.
// The service's game is the newer of the last GET and the last export (the outbox fetches one
// after each answer); the outbox's items not in that export are applied on top of it.
function view() {
  if (!game) return { game: null, rounds, entries: null, provisional: 0 };
  const kept = store.exported(game.id);
  const fresh = Boolean(kept && kept.asked >= gameAsked);
  const base = fresh ? kept.export : exported;
  const asked = fresh ? kept.asked : 0;
  // A round another phone took first is left out until the table chooses: the game shows what
  // the main button, Keep theirs, would leave.
  const items = base
    ? unsettled(base, store.outbox(game.id).items, asked).filter((item) => item.state !== "taken")
    : [];
  const memo = JSON.stringify([fresh && kept.asked, gameAsked, items]);
  if (shown.memo === memo) return shown.view;
  let result = fresh ? fromExport(kept.export) : served();
  if (items.length) {
    try {
      result = { ...provisionalGame(base, items), provisional: waiting(game.id).length };
    } catch {
      // an export the rules on the phone cannot replay: the service's game
    }
  }
  shown = { memo, view: result };
  return result;
}

function served() {
  return { game, rounds, entries: exported && exported.rounds, provisional: 0 };
}

function fromExport(data) {
  const { setup: _setup, ...body } = data.game;
  return {
    game: body,
    rounds: data.rounds.map((item) => item.round),
    entries: data.rounds,
    provisional: 0,
  };
}

export const session = {
  get game() {
    return view().game;
  },
  get rounds() {
    return view().rounds;
  },
  // History numbers made by queued changes: their outbox keys.
  get made() {
    return view().made || new Map();
  },
  // How many changes the game shown has that the service has not answered yet (0: none).
  get provisional() {
    return view().provisional;
  },
  // The provisional game's parts the previews need: the export and the queue on top of it.
  get base() {
    if (!game) return null;
    const kept = store.exported(game.id);
    const fresh = kept && kept.asked >= gameAsked;
    const base = fresh ? kept.export : exported;
    const items = base ? unsettled(base, store.outbox(game.id).items, fresh ? kept.asked : 0) : [];
    return base ? { exported: base, items } : null;
  },
  get polling() {
    return poll !== null;
  },
  // Another game is shown: forget this one.
  reset() {
    stopPolling();
    game = null;
    etag = null;
    rounds = null;
    exported = null;
    offlineLoad = false;
    gameAsked = 0;
    shown = { memo: null, view: null };
  },
  // The entries of the rounds, as the export has them (provisional ones too).
  async entries() {
    if (!exported) await loadRounds();
    return view().entries;
  },
};

// Called with no arguments after a refresh brought a changed game and its rounds.
export function onGameChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// The route's game: false when the service says it is unchanged since the last load. Offline,
// the game as this phone last kept its export, if it has.
export async function loadGame(force = false) {
  const id = currentRoute().id;
  let response;
  const asked = Date.now();
  try {
    response = await api.game(id, force ? null : etag);
  } catch (error) {
    const kept = store.exported(id);
    if (!(error instanceof NetworkError) || !kept || (game && game.id === id)) throw error;
    useExport(kept.export);
    return true;
  }
  if (response.status === 304) return false;
  game = response.data;
  gameAsked = asked;
  offlineLoad = false;
  etag = response.headers.get("ETag");
  store.updateGame(game);
  return true;
}

function useExport(data) {
  const { setup: _setup, ...served } = data.game;
  game = served;
  offlineLoad = true;
  exported = data;
  rounds = data.rounds.map((item) => item.round);
}

export async function loadRounds() {
  const id = currentRoute().id;
  if (offlineLoad) return; // kept offline: the export's rounds
  const asked = Date.now();
  const [list, data] = await Promise.all([api.rounds(id), api.exportGame(id)]);
  rounds = list;
  exported = data;
  store.saveExport(id, data, asked);
  settled(id, data, asked);
}

// True when the game was drawn again (it changed).
export async function refreshGame(force = false) {
  const route = currentRoute();
  if (!route || !route.id) return false;
  try {
    const changed = await loadGame(force);
    if (!changed) return false;
    await loadRounds();
    for (const listener of listeners) listener();
    return true;
  } catch {
    // offline: keep showing what we have; the outbox banner says what is waiting
    return false;
  }
}

// The outbox changed: the game shown is drawn again with it (no request), if a game is shown.
export function outboxChanged() {
  const route = currentRoute();
  const shownHere = route && (route.view === "game" || route.view === "watch");
  if (!game || !shownHere || route.id !== game.id) return;
  for (const listener of listeners) listener();
}

export function startPolling(every) {
  stopPolling();
  poll = setInterval(() => refreshGame(false), every);
}

export function stopPolling() {
  if (poll) clearInterval(poll);
  poll = null;
}

// This phone may record and change rounds: it has the game's token and is not just watching.
export function canWrite() {
  return currentRoute().view === "game" && Boolean(store.token(game.id));
}
