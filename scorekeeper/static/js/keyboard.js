// Escape cancels what is open, never anything that loses an entry or changes the game: a pending
// "Yes, undo round N", a "tap again to remove", a card being changed, then the round entry itself
// (a new round's draft is kept on this phone; a correction only when nothing was changed yet).

import { currentRoute } from "./state/route.js";
import { escapeGame } from "./views/game.js";
import { escapeHome } from "./views/home.js";

export function onEscape(event) {
  if (event.key !== "Escape" || event.defaultPrevented || event.isComposing) return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target instanceof Element && event.target.closest("input, select, textarea")) return;
  const current = currentRoute();
  if (!current) return;
  const handled = current.view === "home" ? escapeHome() : escapeGame(current);
  if (handled) event.preventDefault();
}
