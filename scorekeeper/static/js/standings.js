// A table's standings as the page shows them: the places (equal records share one) and each
// ruleset's figures in the order a table argues about them. Pure functions, no DOM.

import { described } from "./state/rulesets.js";

// Places for standings in the service's order (games won desc, average place asc, games played
// desc, then name): a player with the same record as the one above shares their place
// ("1, 2, 2, 4").
export function places(rows) {
  const found = [];
  rows.forEach((row, index) => {
    const above = rows[index - 1];
    const same =
      above &&
      above.games_won === row.games_won &&
      above.average_place === row.average_place &&
      above.games_played === row.games_played;
    found.push(same ? found[index - 1] : index + 1);
  });
  return found;
}

// The figures of each ruleset the player played: [{ruleset, figures: [{key, name, vars}]}], in
// the order of `rulesets` (each with its descriptor; by default every ruleset the page knows). key is the
// catalog's key for the phrase, vars its values (n, and for a figure that is part of another,
// won and n); `name` is the figure's own.
export function rulesetFigures(row, rulesets = described()) {
  const parts = [];
  for (const ruleset of rulesets) {
    const figures = row[ruleset.name];
    if (!figures) continue;
    parts.push({
      ruleset: ruleset.name,
      figures: ruleset.figures.map((figure) => ({
        key: figure.words,
        name: figure.name,
        vars: figure.of
          ? { won: figures[figure.name], n: figures[figure.of] }
          : { n: figures[figure.name] },
      })),
    });
  }
  return parts;
}
