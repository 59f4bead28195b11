// How the page draws each ruleset: its descriptor (the kind of its entry, the column its results
// add, its summary, how the next starter is named, its figures in standings), as the service's
// GET /api/v1/rulesets lists it. The rules on the phone carry the same descriptors (a test holds
// them equal), so the page has them at once, offline too. The views choose their widgets by these
// kinds, never by a ruleset's name.

import { RULESETS, describeRuleset } from "../rules/index.js";

// A ruleset this page does not know (a newer service's): drawn with the plainest widgets.
const PLAIN = Object.freeze({
  entry: { kind: "points" },
  results: { column: null },
  summary: null,
  starter: "starts",
  next_round: [],
  player: [],
  limit: null,
  figures: [],
});

/** The descriptor of the ruleset called `name`. */
export function describe(name) {
  if (Object.hasOwn(RULESETS, name)) return describeRuleset(name);
  return { name, title: String(name), ...PLAIN };
}

/** Every ruleset's descriptor, in the service's order. */
export function described() {
  return Object.keys(RULESETS).map(describeRuleset);
}
