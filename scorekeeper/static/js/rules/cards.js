// Playing-card codes: parsing, canonical form and point values (rules/cards.py).

import { RuleError } from "./errors.js";
import { shown } from "./words.js";

export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const SUITS = ["S", "H", "D", "C"];
export const JOKER = "JK";
export const CARD_CODE_HINT = "write the rank then the suit, like 10H, QS or JK for a joker";

const SUIT_ALIASES = new Map(
  Object.entries({ S: "S", H: "H", D: "D", C: "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C" }),
);
const RANK_ALIASES = new Map([...RANKS.map((rank) => [rank, rank]), ["T", "10"]]);
const JOKER_ALIASES = new Set(["JK", "X", "JOKER"]);
// What Python's str.strip() takes off: Unicode white space and the ASCII separators.
const SPACE = "[\\s\\x1c-\\x1f\\x85]";
const EDGE_SPACE = new RegExp(`^${SPACE}+|${SPACE}+$`, "gu");

/** One card: a rank and a suit, or a joker (rank and suit both null), with its canonical code. */
function card(rank, suit) {
  return Object.freeze({ rank, suit, code: rank === null ? JOKER : rank + suit });
}

/** Whether `c` is a joker. */
export function isJoker(c) {
  return c.rank === null;
}

/** Position of the rank from 2 (0) up to ace (12). */
export function rankOrder(c) {
  if (c.rank === null) throw new Error("a joker has no rank order");
  return RANKS.indexOf(c.rank);
}

/** Points of a ranked card: pips at face value, J/Q/K 10, an ace `ace`. */
export function faceValue(c, ace) {
  if (c.rank === "A") return ace;
  if (c.rank === "J" || c.rank === "Q" || c.rank === "K") return 10;
  return Number(c.rank);
}

/** Parse a card code such as `10h`, `TS`, `Q♠` or `JK`; throw a RuleError if it names no card. */
export function parseCard(code) {
  if (typeof code !== "string") throw notACard(code);
  const text = code.replace(EDGE_SPACE, "").toUpperCase();
  if (JOKER_ALIASES.has(text)) return card(null, null);
  const chars = Array.from(text); // code points, as Python indexes a string
  if (chars.length >= 2) {
    const rank = RANK_ALIASES.get(chars.slice(0, -1).join(""));
    const suit = SUIT_ALIASES.get(chars[chars.length - 1]);
    if (rank !== undefined && suit !== undefined) return card(rank, suit);
  }
  throw notACard(code);
}

/** The error for a code that names no card. */
function notACard(code) {
  return new RuleError(`${shown(code)} is not a card; ${CARD_CODE_HINT}.`);
}
