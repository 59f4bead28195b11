// How the page hears that the game or table on screen changed: a stream of Server-Sent Events
// (GET .../events) while it is on screen, or, where streams are not available (the stream fails
// before it ever opens: a 404 or 405 for the route, a server or proxy that does not stream), a
// poll every 10 s, spread by ±20 % so that a hall of phones does not ask in step, and paused while
// the page is hidden. `env` holds what the browser gives (EventSource, document, timers): the
// tests give their own.

export const POLL_MS = 10_000;
export const POLL_SPREAD = 0.2;
const CLOSED = 2; // EventSource.CLOSED: it will not connect again by itself

/** The wait before the next poll: POLL_MS ± POLL_SPREAD, from `random` (a number in [0, 1)). */
export function pollDelay(random = Math.random) {
  return Math.round(POLL_MS * (1 + POLL_SPREAD * (2 * random() - 1)));
}

/**
 * Whether a stream's error means polling from now on: it never opened (its answer was not a
 * stream), or it closed for good after it had (the browser tries again by itself otherwise).
 */
export function streamUnavailable(opened, readyState) {
  return !opened || readyState === CLOSED;
}

/**
 * Follow one resource until `close()`: `onSnapshot(data, version)` with each state the stream
 * sends (`event` names its events; version: the ETag's value, quoted); `onDeleted()` when it is
 * gone. When polling, `poll()` asks the service itself (with the version it holds) and settles
 * when done. Returns {close(), polling (whether it polls)}.
 */
export function follow({ url, event, poll, onSnapshot, onDeleted, env = globalThis }) {
  const doc = env.document || null;
  const random = env.random || Math.random;
  let source = null;
  let timer = null;
  let asking = false;
  let polling = false;
  let closed = false;

  const hidden = () => Boolean(doc && doc.hidden);

  function schedule() {
    env.clearTimeout(timer);
    timer = null;
    if (closed || !polling || hidden()) return; // hidden: visibilitychange asks again
    timer = env.setTimeout(ask, pollDelay(random));
  }

  async function ask() {
    timer = null;
    if (closed || asking || hidden()) return;
    asking = true;
    try {
      await poll();
    } catch {
      // offline, say: the next poll tries again
    } finally {
      asking = false;
    }
    schedule();
  }

  function onVisibility() {
    if (closed || !polling) return;
    if (hidden()) {
      env.clearTimeout(timer);
      timer = null;
    } else if (!timer && !asking) {
      ask(); // back on screen: what changed meanwhile, at once
    }
  }

  function startPolling(now) {
    if (source) source.close();
    source = null;
    if (polling || closed) return;
    polling = true;
    if (doc) doc.addEventListener("visibilitychange", onVisibility);
    if (now) ask();
    else schedule();
  }

  if (typeof env.EventSource !== "function") {
    startPolling(false);
  } else {
    let opened = false;
    source = new env.EventSource(url);
    source.addEventListener("open", () => {
      opened = true;
    });
    source.addEventListener(event, (message) => {
      onSnapshot(JSON.parse(message.data), `"${message.lastEventId}"`);
    });
    source.addEventListener("deleted", () => {
      close();
      onDeleted();
    });
    source.addEventListener("error", () => {
      if (closed || !source || !streamUnavailable(opened, source.readyState)) return;
      // A stream that was open may have missed a change while it closed: ask at once.
      startPolling(opened);
    });
  }

  function close() {
    closed = true;
    env.clearTimeout(timer);
    timer = null;
    if (source) source.close();
    source = null;
    if (doc && polling) doc.removeEventListener("visibilitychange", onVisibility);
  }

  return {
    close,
    get polling() {
      return polling;
    },
  };
}
