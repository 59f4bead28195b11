// The game the page shows, as the service last sent it: the game (with its ETag), its rounds,
// the rounds' entries (loaded for a correction) and the poll that keeps them fresh. Only this
// module writes them; the views read them through `session`.

import { api } from "../api.js";
import { store } from "../store.js";
import { currentRoute } from "./route.js";

let game = null;
let etag = null;
let rounds = null;
let entries = null;
let poll = null;
const listeners = new Set();

export const session = {
  get game() {
    return game;
  },
  get rounds() {
    return rounds;
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
    entries = null;
  },
  // The entries of the rounds, as the export has them (loaded once, until the rounds change).
  async entries() {
    if (!entries) entries = (await api.exportGame(game.id)).rounds;
    return entries;
  },
};

// Called with no arguments after a refresh brought a changed game and its rounds.
export function onGameChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// The route's game: false when the service says it is unchanged since the last load.
export async function loadGame(force = false) {
  const id = currentRoute().id;
  const response = await api.game(id, force ? null : etag);
  if (response.status === 304) return false;
  game = response.data;
  etag = response.headers.get("ETag");
  store.updateGame(game);
  return true;
}

export async function loadRounds() {
  rounds = await api.rounds(currentRoute().id);
  entries = null;
}

export async function refreshGame(force = false) {
  const route = currentRoute();
  if (!route || !route.id) return;
  try {
    const changed = await loadGame(force);
    if (!changed) return;
    await loadRounds();
    for (const listener of listeners) listener();
  } catch {
    // offline: keep showing what we have; the outbox banner says what is waiting
  }
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
