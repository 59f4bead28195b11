// The route the page shows. Only the router sets it; everyone else reads it.

let current = null;
let handler = null;

// "#/game/<id>/history" and the like, as {view, id, tab, number}. A table: {view: "table", id}, and
// its new game {view: "new", table: id}; a new table {view: "new-table"}; a scorer link
// {view: "scorer", kind: "game" or "tables", id, token}.
export function parseRoute(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "new") return { view: "new" };
  if (parts[0] === "new-table") return { view: "new-table" };
  if (parts[0] === "tables" && parts[1]) {
    if (parts[2] === "new") return { view: "new", table: parts[1] };
    return { view: "table", id: parts[1] };
  }
  if (parts[0] === "game" && parts[1]) {
    if (parts[2] === "edit" && parts[3]) {
      return { view: "game", id: parts[1], tab: "edit", number: Number(parts[3]) };
    }
    return { view: "game", id: parts[1], tab: parts[2] || "table" };
  }
  // A scorer link (format.js scorerUrl): the router stores its key and shows the game or table.
  if (parts[0] === "scorer" && (parts[1] === "game" || parts[1] === "tables") && parts[3]) {
    return { view: "scorer", kind: parts[1], id: parts[2], token: parts[3] };
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

// "Someone joins" and "Someone leaves": forms of their own on a game's page.
export function isSeatTab(route) {
  return Boolean(route) && route.view === "game" && (route.tab === "join" || route.tab === "leave");
}
