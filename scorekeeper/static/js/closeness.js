// How close an active player is to elimination, for the colour of their "N to the limit":
// "danger" at or under a tenth of the limit, "warn" at or under a quarter, else null. The words
// are always shown too: the colour is never the only signal. Pure: no DOM.

export function closeness(limit, score) {
  const distance = limit - score;
  if (distance <= limit / 10) return "danger";
  if (distance <= limit / 4) return "warn";
  return null;
}
