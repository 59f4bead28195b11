// A table's standings as the page shows them: the places (equal records share one) and each
// ruleset's figures in the order a table argues about them. Pure functions, no DOM.

// Places for standings in the service's order (games won desc, games played asc, then name):
// a player with the same record as the one above shares their place ("1, 2, 2, 4").
export function places(rows) {
  const found = [];
  rows.forEach((row, index) => {
    const above = rows[index - 1];
    const same =
      above && above.games_won === row.games_won && above.games_played === row.games_played;
    found.push(same ? found[index - 1] : index + 1);
  });
  return found;
}

// The figures of each ruleset the player played: [{ruleset, figures: [{key, vars}]}]. key is the
// catalog's key for the phrase, vars its values; `value` is the figure itself (for tests and the
// screen reader's table alike).
export function rulesetFigures(row) {
  const parts = [];
  const jhyap = row.jhyap;
  if (jhyap) {
    parts.push({
      ruleset: "jhyap",
      figures: [
        { key: "fig_rounds", name: "rounds_played", vars: { n: jhyap.rounds_played } },
        {
          key: "fig_calls",
          name: "calls_won",
          vars: { won: jhyap.calls_won, n: jhyap.calls },
        },
        { key: "fig_caught", name: "caught", vars: { n: jhyap.caught } },
        { key: "fig_halvings", name: "halvings", vars: { n: jhyap.halvings } },
        { key: "fig_average", name: "average_hand", vars: { n: jhyap.average_hand } },
        { key: "fig_out", name: "eliminations", vars: { n: jhyap.eliminations } },
      ],
    });
  }
  const tt = row["twenty-two"];
  if (tt) {
    parts.push({
      ruleset: "twenty-two",
      figures: [
        { key: "fig_rounds", name: "rounds_played", vars: { n: tt.rounds_played } },
        { key: "fig_tricks", name: "tricks_taken", vars: { n: tt.tricks_taken } },
        { key: "fig_points", name: "points_taken", vars: { n: tt.points_taken } },
        { key: "fig_out", name: "eliminations", vars: { n: tt.eliminations } },
      ],
    });
  }
  return parts;
}
