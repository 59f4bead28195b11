// Words, links and names the page shows: pure helpers, no DOM and no state.

import { t } from "./i18n.js";

export const SUITS = ["S", "H", "D", "C"];
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const TT_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

// A ruleset's name in the page's words: ruleset_<name> ("score-pad": ruleset_score_pad).
export function rulesetTitle(name) {
  return t(`ruleset_${String(name).replaceAll("-", "_")}`);
}

export function cardText(code) {
  if (!code) return "";
  if (code === "JK") return t("joker");
  return code.slice(0, -1) + SUIT_SYMBOL[code.slice(-1)];
}

export function cardLabel(code) {
  if (code === "JK") return t("joker");
  return t("card_label", {
    rank: t(`rank_${code.slice(0, -1)}`),
    suit: t(`suit_${code.slice(-1)}`),
  });
}

export function gameUrl(id, tab = "") {
  return `#/game/${encodeURIComponent(id)}${tab ? "/" + tab : ""}`;
}

export function watchUrl(id) {
  return `#/watch/${encodeURIComponent(id)}`;
}

export function shareUrl(id, where = location) {
  return `${where.origin}${where.pathname}${watchUrl(id)}`;
}

// A link that gives another phone a game's key (kind "game") or a table's ("tables"). The key is
// in the fragment, which a browser never sends to a server; opening it stores the key and takes
// it out of the address bar (views/scorer.js).
export function scorerUrl(kind, id, token, where = location) {
  const path = [kind, id, token].map(encodeURIComponent).join("/");
  return `${where.origin}${where.pathname}#/scorer/${path}`;
}

// A game's name, or its players when it has none.
export function gameTitle(game) {
  return game.name || game.players.map((p) => p.name).join(", ");
}

export function playerName(game, id) {
  const player = game && game.players.find((p) => p.id === id);
  return player ? player.name : "?";
}

// Players who still play: not eliminated, and not gone home.
export function activePlayers(game) {
  return game.players.filter((p) => !p.eliminated && !p.left);
}

export function tableUrl(id, tab = "") {
  return `#/tables/${encodeURIComponent(id)}${tab ? "/" + tab : ""}`;
}

// An option's value as the page shows it: lists joined (— when empty), choices in words, an
// option that is off (null) as "none".
export function optionValueText(value) {
  if (value === null || value === undefined) return t("value_none");
  if (Array.isArray(value)) return value.join(", ") || "—";
  return typeof value === "string" ? t(`choice_${value}`) : String(value);
}
