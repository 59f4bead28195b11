// Rounds are written to localStorage with their Idempotency-Key *before* the first POST,
// resent with the same key until the service answers, and only removed once it has.
// A round the service refuses stays listed until the player discards it or confirms it entered
// again (the new entry takes its place).

import { api, ApiError } from "./api.js";
import { store, newKey } from "./store.js";

const listeners = new Set();
const inFlight = new Set();
const timers = new Map();
const MAX_DELAY = 8000;

export function onOutboxChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event) {
  for (const listener of listeners) listener(event);
}

// replaces: the key of a refused round this entry was made from; that one gives way to it.
export function enqueue(gameId, token, body, replaces = null) {
  const current = store.pending(gameId);
  if (current && !(replaces && current.key === replaces && current.state === "failed"))
    throw new Error("pending");
  clearTimeout(timers.get(gameId));
  const entry = {
    key: newKey(),
    token,
    body,
    created: new Date().toISOString(),
    attempts: 0,
    state: "sending",
  };
  store.setPending(gameId, entry);
  emit({ type: "queued", gameId });
  return send(gameId);
}

function permanent(error) {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 408 || error.status === 429 || error.status >= 500) return false;
  // A 409 with Retry-After: "being recorded by another request" - retry for the stored answer.
  // Any other 409 (another phone recorded this round, the game is over) stands.
  if (error.status === 409 && error.retryAfter > 0) return false;
  return true;
}

function schedule(gameId, attempts, retryAfter) {
  clearTimeout(timers.get(gameId));
  const delay = Math.max(retryAfter * 1000, Math.min(MAX_DELAY, 500 * 2 ** Math.min(attempts, 5)));
  timers.set(
    gameId,
    setTimeout(() => send(gameId), delay),
  );
}

export async function send(gameId) {
  const entry = store.pending(gameId);
  if (!entry || inFlight.has(gameId)) return null;
  if (entry.state === "failed") return null;
  inFlight.add(gameId);
  clearTimeout(timers.get(gameId));
  try {
    const response = await api.postRound(gameId, entry.token, entry.body, entry.key);
    const current = store.pending(gameId);
    if (current && current.key === entry.key) store.setPending(gameId, null);
    emit({ type: "sent", gameId, round: response.data });
    return response.data;
  } catch (error) {
    const current = store.pending(gameId);
    if (!current || current.key !== entry.key) return null;
    current.attempts += 1;
    if (permanent(error)) {
      current.state = "failed";
      // taken: another phone recorded this round's number first (the 409 names the next one).
      const taken = error.status === 409 && Boolean(error.details && error.details.number);
      const { status, code, message, language } = error;
      current.error = { status, code, message, language, taken };
      store.setPending(gameId, current);
      emit({ type: "failed", gameId, error });
    } else {
      current.state = "waiting";
      store.setPending(gameId, current);
      emit({ type: "waiting", gameId, error });
      schedule(gameId, current.attempts, error.retryAfter || 0);
    }
    return null;
  } finally {
    inFlight.delete(gameId);
  }
}

export function retry(gameId) {
  const entry = store.pending(gameId);
  if (!entry) return;
  entry.state = "sending";
  store.setPending(gameId, entry);
  emit({ type: "queued", gameId });
  send(gameId);
}

export function discard(gameId) {
  clearTimeout(timers.get(gameId));
  store.setPending(gameId, null);
  emit({ type: "discarded", gameId });
}

export function flushAll() {
  for (const gameId of Object.keys(store.pendingAll())) {
    const entry = store.pending(gameId);
    if (entry && entry.state !== "failed") send(gameId);
  }
}

window.addEventListener("online", flushAll);
