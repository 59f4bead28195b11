// The service worker (/sw.js, written by web.py): it keeps the app shell so the page opens with
// no network. When a new version is installed and waiting, a banner offers to reload into it.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

let waiting = null; // the new version's worker, installed and waiting to take over
let reloading = false; // Reload was tapped: the page reloads once the new worker controls it

function updateBox() {
  let box = document.getElementById("update");
  if (!box) {
    box = h("div", { id: "update", class: "update", role: "status", "aria-live": "polite" });
    document.getElementById("main").before(box);
  }
  return box;
}

// The banner, in the page's language (drawn again when the language changes).
export function renderUpdate() {
  if (!("serviceWorker" in navigator)) return;
  replace(
    updateBox(),
    waiting
      ? h(
          "div",
          { class: "update-ready", "data-testid": "update-ready" },
          h("p", {}, t("update_ready")),
          h(
            "button",
            {
              type: "button",
              class: "primary",
              "data-key": "update-reload",
              "data-testid": "update-reload",
              onclick: reload,
            },
            t("update_reload"),
          ),
        )
      : null,
  );
}

function reload() {
  if (!waiting) return;
  reloading = true;
  waiting.postMessage({ type: "skip-waiting" });
}

function offer(worker) {
  waiting = worker;
  renderUpdate();
}

// A worker being installed: offered once installed, when an older one controls the page.
function watch(worker) {
  worker.addEventListener("statechange", () => {
    if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
  });
}

export async function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  renderUpdate();
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) location.reload();
  });
  let registration;
  try {
    registration = await navigator.serviceWorker.register("/sw.js", {
      scope: "/",
      updateViaCache: "none",
    });
  } catch {
    return; // no worker (a private window, plain http on another host): the page works online
  }
  if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
  if (registration.installing) watch(registration.installing);
  registration.addEventListener("updatefound", () => {
    if (registration.installing) watch(registration.installing);
  });
  // A phone left on the page for the evening looks for a new version when it comes back to it.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
}
