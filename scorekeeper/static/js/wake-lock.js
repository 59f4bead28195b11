// The screen stays awake while this phone keeps a game in progress (Screen Wake Lock API, where
// the browser has it; elsewhere nothing happens). The browser drops the lock when the page is
// hidden, so it is asked for again when the page is shown.

let wanted = false;
let sentinel = null;
let requesting = false;

function supported() {
  return typeof navigator !== "undefined" && Boolean(navigator.wakeLock);
}

async function acquire() {
  if (!supported() || sentinel || requesting || document.visibilityState !== "visible") return;
  requesting = true;
  try {
    const lock = await navigator.wakeLock.request("screen");
    lock.addEventListener("release", () => {
      if (sentinel === lock) sentinel = null;
    });
    sentinel = lock;
    if (!wanted) release();
  } catch {
    // refused (battery saver, not allowed): the screen sleeps as usual
  } finally {
    requesting = false;
  }
}

function release() {
  const lock = sentinel;
  sentinel = null;
  if (lock) lock.release().catch(() => {});
}

// on: a game page this phone can write to is shown and the game is in progress.
export function keepScreenAwake(on) {
  wanted = on;
  if (on) acquire();
  else release();
}

document.addEventListener("visibilitychange", () => {
  if (wanted && document.visibilityState === "visible") acquire();
});

// Leaving the game's pages (home, a table, another page): the screen may sleep again.
window.addEventListener("hashchange", () => {
  if (!location.hash.startsWith("#/game/")) keepScreenAwake(false);
});
