// What the service says about refused rule options, read by the new game form.

import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError } from "../../scorekeeper/static/js/api.js";
import {
  chosenOptions,
  optionErrors,
  optionProblemText,
  shownDefault,
} from "../../scorekeeper/static/js/views/new-game-options.js";

const rules = {
  options: {
    call_limit: { allowed: { type: "integer" } },
    tie_scores: { allowed: { type: "even_integers" } },
    caller_tie: { allowed: { type: "choice" } },
  },
};

function refused(status, details) {
  return new ApiError(status, { error: { message: "no", details } }, null);
}

test("a 422 names the refused options of this ruleset only", () => {
  const error = refused(422, {
    options: { call_limit: ["give a whole number from 0 to 50."], decks: ["x"], caller_tie: [7] },
  });
  assert.deepEqual(optionErrors(error, rules), {
    call_limit: "give a whole number from 0 to 50.",
    caller_tie: "",
  });
  assert.deepEqual(optionErrors(refused(409, { options: { call_limit: ["x"] } }), rules), {});
  assert.deepEqual(optionErrors(refused(422, { options: ["x"] }), rules), {});
  assert.deepEqual(optionErrors(new Error("x"), rules), {});
});

test("known problems are put in the page's words, others are not", () => {
  assert.equal(optionProblemText("give a whole number from 0 to 50."), "opt_problem_range");
  assert.equal(optionProblemText("each score must be even and from -2 to 40"), "opt_problem_even");
  assert.equal(optionProblemText("give distinct whole numbers."), "opt_problem_distinct");
  assert.equal(optionProblemText("give a list of at most 4 scores."), "opt_problem_count");
  assert.equal(optionProblemText("something else"), null);
});

test("only the options changed on the form are sent, as the service takes them", () => {
  const form = {
    touched: { call_limit: true, tie_scores: true },
    values: { call_limit: "30", tie_scores: "20, 40 ,,60", caller_tie: "tied" },
  };
  assert.deepEqual(chosenOptions(form, rules), { call_limit: 30, tie_scores: [20, 40, 60] });
  form.values.call_limit = "";
  assert.equal(chosenOptions(form, rules).call_limit, "");
});

test("Halve at's default offers only what the elimination limit allows", () => {
  const jhyap = {
    options: {
      elimination_limit: { default: 200, allowed: { type: "integer" } },
      halve_at: { default: [100, 200], allowed: { type: "even_integers" } },
      call_limit: { default: 5, allowed: { type: "integer" } },
    },
  };
  const form = (values) => ({ ruleset: "jhyap", values, touched: { elimination_limit: true } });
  assert.deepEqual(
    shownDefault({ ruleset: "jhyap", values: {}, touched: {} }, jhyap, "halve_at"),
    [100, 200],
  );
  assert.deepEqual(shownDefault(form({ elimination_limit: "100" }), jhyap, "halve_at"), [100]);
  assert.deepEqual(shownDefault(form({ elimination_limit: "99" }), jhyap, "halve_at"), []);
  // While the limit is not a whole number yet, the default stays as it is.
  assert.deepEqual(shownDefault(form({ elimination_limit: "" }), jhyap, "halve_at"), [100, 200]);
  assert.equal(shownDefault(form({ elimination_limit: "10" }), jhyap, "call_limit"), 5);
});
