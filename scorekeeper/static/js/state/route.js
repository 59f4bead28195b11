// The route the page shows. Only the router sets it; everyone else reads it.

let current = null;
let handler = null;

// "#/game/<id>/history" and the like, as {view, id, tab, number}.
export function parseRoute(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "new") return { view: "new" };
  if (parts[0] === "game" && parts[1]) {
    if (parts[2] === "edit" && parts[3]) {
      return { view: "game", id: parts[1], tab: "edit", number: Number(parts[3]) };
    }
    return { view: "game", id: parts[1], tab: parts[2] || "table" };
  }
  if (parts[0] === "watch" && parts[1]) {
    return { view: "watch", id: parts[1], tab: parts[2] || "table" };
  }
  return { view: "home" };
}

export function currentRoute() {
  return current;
}

// The router: it sets the route it shows, and handles a request to show it again.
export function setRoute(route) {
  current = route;
}

export function onShowAgain(fn) {
  handler = fn;
}

// Go to a place: shown again when the page is already there (no hashchange then).
export function go(hash) {
  if (location.hash === hash) handler();
  else location.hash = hash;
}

export function isEntryTab(route) {
  return Boolean(route) && (route.tab === "round" || route.tab === "edit");
}
