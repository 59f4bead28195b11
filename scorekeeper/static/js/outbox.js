// Each game's outbox: the changes this phone made that the service has not answered yet, sent in
// order. Stored in localStorage (store.outbox) as {items, notices}; an item is
//   {kind: "round", body} | {kind: "correct", number, body} | {kind: "undo", number, target}
//   | {kind: "seat", body, newcomer}
//   | {kind: "create", what: "game" | "table" | "table-game" | "rematch", body, at, after, made}
// plus {key, token, created, playedAt, attempts, state, error, shown, recorded}; created is when it
// was entered, sent as played_at with a round or seat change that did not go out at once
// (playedAt: decided at the first send). An item is written with its
// Idempotency-Key before the first send and resent with it until the service answers; then it is
// "done" (recorded: what the service answered) until the history this phone keeps holds it
// (state/live.js adds the answer to it). A refusal stops the queue: "failed" (the service's reason stands), or "taken"
// (another phone recorded that number first: the table chooses, views/clash.js).
// notices: [{number, shown, answer}]: a change the service scored otherwise than the phone showed.
//
// A game or table made with no network has its creation as the first item of its own queue
// (keyed by the id the phone chose; at: the table or game it is made at or from; after: ids
// whose creation must be answered first, made offline too; afterAll: a game whose whole queue
// must be answered first, a rematch's, so that the service rematches it as the phone did;
// made.players: the player ids the phone made up, by seat). Its items have no token until the
// creation's answer gives it.

import { api, ApiError, NetworkError } from "./api.js";
import { language, t } from "./i18n.js";
import { realIds, renamedIds } from "./made-offline.js";
import { included } from "./state/provisional.js";
import { newKey, store } from "./store.js";

const listeners = new Set();
const running = new Set();
const timers = new Map();
const MAX_DELAY = 8000;
const SENT_AT_ONCE = 5000; // ms: a change sent within this of its entry is stamped on arrival

export function onOutboxChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event) {
  for (const listener of listeners) listener(event);
}

/** The game's items not yet answered (done ones left out). */
export function waiting(gameId) {
  return store.outbox(gameId).items.filter((item) => item.state !== "done");
}

/** Whether game or table `id` was made on this phone and the service has not created it yet. */
export function creating(id) {
  return waiting(id).some((item) => item.kind === "create");
}

/** The first item the queue stopped at (refused, or taken by another phone), or null. */
export function stopped(gameId) {
  return waiting(gameId).find((item) => item.state === "failed" || item.state === "taken") || null;
}

function update(gameId, change) {
  const box = store.outbox(gameId);
  change(box);
  store.setOutbox(gameId, box);
}

/** Put `item` ({kind, ...}) at the end of the game's queue and start sending. */
export function enqueue(gameId, token, item) {
  const full = {
    key: item.key || newKey(item.kind),
    token,
    created: new Date().toISOString(),
    attempts: 0,
    state: "queued",
    ...item,
  };
  update(gameId, (box) => box.items.push(full));
  emit({ type: "queued", gameId, item: full });
  send(gameId);
  return full;
}

/** Replace a refused round (by key) with its entry made again, at its place in the queue. */
export function replaceRefused(gameId, token, key, body, shown) {
  const box = store.outbox(gameId);
  const at = box.items.findIndex((item) => item.key === key && item.state === "failed");
  if (at < 0) return enqueue(gameId, token, { kind: "round", body, shown });
  const fresh = { ...box.items[at], key: newKey("round"), body, shown, attempts: 0 };
  fresh.state = "queued";
  delete fresh.error;
  box.items[at] = fresh;
  store.setOutbox(gameId, box);
  emit({ type: "queued", gameId, item: fresh });
  send(gameId);
  return fresh;
}

/** Take a never-sent item out of the queue (an undo of it, say): true if it was there. */
export function withdraw(gameId, key) {
  const box = store.outbox(gameId);
  const item = box.items.find((entry) => entry.key === key);
  if (!item || item.attempts > 0 || running.has(gameId)) return false;
  box.items = box.items.filter((entry) => entry !== item);
  store.setOutbox(gameId, box);
  emit({ type: "discarded", gameId });
  return true;
}

function permanent(error) {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 408 || error.status === 429 || error.status >= 500) return false;
  // A 409 with Retry-After: "being recorded by another request" - retry for the stored answer.
  // Any other 409 (another phone recorded this number, the game is over) stands.
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

/** The round the service has as `number` is no longer the one this phone meant to undo. */
function undoneElsewhere(number) {
  const error = new Error(t("undo_target_changed", { n: number }));
  error.status = 409;
  error.code = "conflict";
  error.language = language();
  return error;
}

// The latest time the service stamped on the game's history, as this phone last heard (ms).
function lastStamped(gameId) {
  const kept = store.exported(gameId);
  const history = (kept && kept.export && kept.export.rounds) || [];
  const times = history.map((entry) => entry.round.created_at);
  for (const item of store.outbox(gameId).items) {
    if (item.recorded && item.recorded.created_at) times.push(item.recorded.created_at);
  }
  return Math.max(0, ...times.map(Date.parse).filter((time) => !Number.isNaN(time)));
}

// A round's or seat change's body with played_at, when it was entered, if it did not go out at
// once, and was entered after everything the service has stamped (a change sent before it went
// late, or this phone's clock is slow: stamped on arrival instead). Decided at its first send and
// kept: every resend with its key is the same request.
function sentBody(gameId, item) {
  if (item.playedAt === undefined) {
    // An item sent before without it (a page from before played_at) is sent the same again.
    const entered = Date.parse(item.created);
    const waited = item.attempts === 0 && Date.now() - entered > SENT_AT_ONCE;
    item.playedAt = waited && entered >= lastStamped(gameId) ? item.created : null;
    update(gameId, (box) => {
      const own = box.items.find((entry) => entry.key === item.key);
      if (own) own.playedAt = item.playedAt;
    });
  }
  return item.playedAt ? { ...item.body, played_at: item.playedAt } : item.body;
}

// The token an item is sent with: its own, or (made with no network) the one its game has now.
function tokenOf(gameId, item) {
  return item.token || store.token(gameId);
}

function create(item) {
  const { what, at, body, key } = item;
  if (what === "table") return api.createTable(body, key);
  if (what === "game") return api.createGame(body, key);
  if (what === "table-game") return api.createTableGame(at, store.tableToken(at), body, key);
  return api.rematch(at, store.token(at), key, body);
}

// Send one item; the service's answer (data), or "gone" for an undo already done.
async function deliver(gameId, item) {
  item = { ...item, token: tokenOf(gameId, item) };
  if (item.kind === "create") return create(item);
  if (item.kind === "round") {
    return (await api.postRound(gameId, item.token, sentBody(gameId, item), item.key)).data;
  }
  if (item.kind === "correct") return api.correctRound(gameId, item.token, item.number, item.body);
  if (item.kind === "seat") {
    return api.seatChange(gameId, item.token, sentBody(gameId, item), item.key);
  }
  // An undo carries no key: a resend after a lost answer must find the round gone (404), and
  // must not undo another round that took its number meanwhile (another phone).
  try {
    if (item.target) {
      const round = await api.round(gameId, item.number);
      if (round.created_at !== item.target) throw undoneElsewhere(item.number);
    }
    await api.undoRound(gameId, item.token, item.number);
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return "gone";
    throw error;
  }
}

// A game or table made with no network is created: this phone keeps it with its token, and the
// items queued behind its creation name the service's player ids.
function created(item, answer, later) {
  const { token, ...made } = answer;
  if (item.what === "table") {
    store.saveTable(made, token);
    store.keepTable(made, Date.now());
    return;
  }
  store.saveGame(made, token);
  const ids = realIds(item.made.players, answer.players);
  for (const other of later) {
    if (other.body) other.body = renamedIds(other.body, ids);
    if (other.shown) other.shown = renamedIds(other.shown, ids); // as the phone showed it
    if (other.newcomer && ids.has(other.newcomer.after)) {
      other.newcomer.after = ids.get(other.newcomer.after);
    }
  }
}

// What the service's answer to `item` means for the rest of the queue: a newcomer's real id, the
// round an undo is aimed at, a score the table was shown otherwise.
function settle(box, item, answer) {
  const later = box.items.slice(box.items.indexOf(item) + 1);
  if (item.kind === "create") {
    created(item, answer, later);
    // A table's queue holds nothing else, and no export of it settles it: it goes now.
    if (item.what === "table") box.items = box.items.filter((other) => other !== item);
  }
  if (item.kind === "seat" && item.newcomer && answer && answer.players) {
    const name = item.newcomer.name.normalize("NFC");
    const seated = answer.players.filter((p) => p.name.normalize("NFC") === name && !p.left);
    const real = Math.max(...seated.map((p) => p.id));
    const ids = new Map([[item.newcomer.id, real]]);
    for (const other of later) {
      if (other.body) other.body = renamedIds(other.body, ids);
      if (other.kind === "seat" && other.newcomer && other.newcomer.after === item.newcomer.id) {
        other.newcomer.after = real;
      }
    }
  }
  if (item.kind === "round" && answer && answer.created_at) {
    for (const other of later) {
      if (other.kind === "undo" && other.targetKey === item.key) other.target = answer.created_at;
    }
  }
  if ((item.kind === "round" || item.kind === "correct") && item.shown && answer) {
    if (!sameRound(item.shown, answer)) {
      box.notices.push({ number: answer.number, shown: item.shown, answer });
    }
  }
}

/** What the service recorded for `item`, to find it in a later export (provisional.included). */
function recordedAs(item, answer) {
  if (item.kind === "create") return { id: answer.id };
  if (item.kind === "round") return { number: answer.number, created_at: answer.created_at };
  if (item.kind === "seat") return { number: item.body.number };
  if (item.kind === "correct") return answer;
  return { gone: answer === "gone" };
}

/** Whether two Round bodies score the same (when they were recorded aside). */
export function sameRound(a, b) {
  const plain = ({ created_at: _c, dry_run: _d, rescored: _r, ...rest }) => JSON.stringify(rest);
  return plain(a) === plain(b);
}

/** Send the game's queue in order, until it is empty, refused, or the connection fails. */
export async function send(gameId) {
  // The browser knows it is offline: nothing is sent (so a change not yet sent can be withdrawn).
  if (running.has(gameId) || navigator.onLine === false) return;
  running.add(gameId);
  clearTimeout(timers.get(gameId));
  try {
    for (;;) {
      const item = waiting(gameId)[0];
      if (!item || item.state === "failed" || item.state === "taken") return;
      if (item.kind === "create" && waitsForAnother(item)) return;
      if (!(await sendOne(gameId, item))) return;
      // A creation answered, or a queue emptied: what waited for it may go.
      if (item.kind === "create" || waiting(gameId).length === 0) flushAll();
    }
  } finally {
    running.delete(gameId);
  }
}

// Made at a table made offline too (or a rematch of a game whose changes wait): that goes first.
function waitsForAnother(item) {
  const busy = (id) => waiting(id).length > 0;
  return (item.after || []).some(creating) || (item.afterAll || []).some(busy);
}

// One item sent: true when the service answered it (the next may go).
async function sendOne(gameId, item) {
  update(gameId, (box) => {
    const own = box.items.find((entry) => entry.key === item.key);
    if (own) own.state = "sending";
  });
  let answer;
  try {
    answer = await deliver(gameId, item);
  } catch (error) {
    answer = await takenBySameRound(gameId, item, error);
    if (!answer) {
      refused(gameId, item, error);
      return false;
    }
  }
  update(gameId, (box) => {
    const own = box.items.find((entry) => entry.key === item.key);
    if (!own) return;
    own.state = "done";
    own.answered = Date.now();
    own.recorded = recordedAs(own, answer);
    settle(box, own, answer);
  });
  emit({ type: "sent", gameId, item, answer });
  return true;
}

// Another phone recorded this number first with the very round this phone meant (two scorers who
// agree): it is recorded, theirs stands for it, and the queue goes on. Their round, or null.
async function takenBySameRound(gameId, item, error) {
  const taken = error instanceof ApiError && error.status === 409 && error.details?.number;
  if (item.kind !== "round" || !item.shown || !taken) return null;
  try {
    const theirs = await api.round(gameId, item.body.number);
    return sameRound(item.shown, theirs) ? theirs : null;
  } catch {
    return null;
  }
}

function refused(gameId, item, error) {
  let state = "waiting";
  update(gameId, (box) => {
    const own = box.items.find((entry) => entry.key === item.key);
    if (!own) return;
    own.attempts += 1;
    if (own.playedAt && error instanceof ApiError && error.details && error.details.played_at) {
      // The service refuses the phone's time (its clock is far off): sent again without it.
      own.playedAt = null;
      own.state = "waiting";
    } else if (own.kind === "create" && error instanceof ApiError && error.details?.created_at) {
      // Made more than a day ago, or the phone's clock is far off: created as of its arrival.
      // A new key, as the body changes; the id it chose still makes it once.
      delete own.body.created_at;
      own.key = newKey(own.what);
      own.state = "waiting";
    } else if (permanent(error)) {
      // taken: another phone recorded this number first (the 409 names the next one).
      const taken =
        error.status === 409 && Boolean(error.details && error.details.number) && !own.number;
      own.state = taken ? "taken" : "failed";
      const { status, code, message } = error;
      own.error = { status, code, message, language: error.language || "en", taken };
      if (taken) own.error.next = expectedNumber(error);
    } else {
      own.state = "waiting";
    }
    state = own.state;
  });
  if (state === "waiting") {
    const own = waiting(gameId).find((entry) => entry.key === item.key);
    schedule(gameId, own ? own.attempts : 1, (error && error.retryAfter) || 0);
  }
  emit({
    type: state === "waiting" ? "waiting" : "failed",
    gameId,
    error,
    network: isNetwork(error),
  });
}

function isNetwork(error) {
  return error instanceof NetworkError || !(error instanceof ApiError);
}

/** The number the service expects next, as its 409 names it ("The next round is 4."). */
function expectedNumber(error) {
  const said = [].concat(error.details.number || []).join(" ");
  const found = said.match(/\d+/);
  return found ? Number(found[0]) : null;
}

/** Send the stopped head again (a network wait cut short, or a failure to try again). */
export function retry(gameId) {
  update(gameId, (box) => {
    const head = box.items.find((item) => item.state !== "done");
    if (head && head.state !== "taken") head.state = "queued";
  });
  emit({ type: "queued", gameId });
  send(gameId);
}

/**
 * Drop the head of the queue (a refused change, or "Keep theirs": this phone's round N goes, the
 * other phone's stays). A correction or undo queued for that same number went with it: it was
 * meant for this phone's round, not theirs.
 */
export function discard(gameId) {
  clearTimeout(timers.get(gameId));
  update(gameId, (box) => {
    const head = box.items.find((item) => item.state !== "done");
    if (!head) return;
    if (head.kind === "create") {
      // What the service refused to create goes from this phone, with what was queued for it.
      box.items = [];
      if (head.what === "table") store.forgetTable(gameId);
      else store.forgetGame(gameId);
      return;
    }
    const number = head.body ? head.body.number : null;
    const aimed = (item) =>
      (item.kind === "correct" || item.kind === "undo") && item.number === number;
    box.items = box.items.filter((item) => item !== head && !(number && aimed(item)));
  });
  emit({ type: "discarded", gameId });
  send(gameId);
}

/**
 * "Mine is round N+1": the head taken by another phone is sent again as the number the service
 * expects; everything queued after it moves up as many numbers. A new key: the refused request
 * recorded nothing, and the body changes.
 */
export function renumber(gameId) {
  update(gameId, (box) => {
    const head = box.items.find((item) => item.state !== "done");
    if (!head || head.state !== "taken") return;
    const from = head.body.number;
    const shift = (head.error.next || from + 1) - from;
    for (const item of box.items.slice(box.items.indexOf(head))) {
      if (item.body && item.body.number !== undefined) {
        item.body = { ...item.body, number: item.body.number + shift };
      }
      if (item.number !== undefined && item.number >= from) item.number += shift;
    }
    head.key = newKey(head.kind);
    head.state = "queued";
    head.attempts = 0;
    delete head.error;
    delete head.shown; // scored anew on top of their round: what the difference showed
  });
  emit({ type: "queued", gameId });
  send(gameId);
}

/**
 * "Use mine": the head taken by another phone is sent as a correction of that number instead,
 * so their round becomes mine; what was queued after it keeps its numbers.
 */
export function correctWithMine(gameId) {
  update(gameId, (box) => {
    const head = box.items.find((item) => item.state !== "done");
    if (!head || head.state !== "taken" || head.kind !== "round") return;
    const { number, ...body } = head.body;
    Object.assign(head, { kind: "correct", number, body, key: newKey("correct") });
    head.state = "queued";
    head.attempts = 0;
    delete head.error;
  });
  emit({ type: "queued", gameId });
  send(gameId);
}

/** The table has seen that the service scored a change otherwise: the notice goes. */
export function dismissNotice(gameId, number) {
  update(gameId, (box) => {
    box.notices = box.notices.filter((notice) => notice.number !== number);
  });
  emit({ type: "dismissed", gameId });
}

/**
 * Done items that `exported` holds leave the queue: those answered before it was asked for (at
 * `asked`, ms), and those it is seen to hold (an answer that came while it was on its way).
 */
export function settled(gameId, exported, asked) {
  const box = store.outbox(gameId);
  const held = (item) => item.answered < asked || included(exported, item);
  const kept = box.items.filter((item) => !(item.state === "done" && held(item)));
  if (kept.length === box.items.length) return;
  box.items = kept;
  store.setOutbox(gameId, box);
}

export function flushAll() {
  for (const gameId of Object.keys(store.outboxes())) send(gameId);
}

window.addEventListener("online", flushAll);
