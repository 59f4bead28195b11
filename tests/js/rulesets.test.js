// The rulesets as the page draws them: the JavaScript rules describe each ruleset (its limits and
// descriptor) as GET /api/v1/rulesets lists it (tests/js/rulesets.json, written by
// `python -m tests.conformance.generate`).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { RULESETS, describeRuleset } from "../../scorekeeper/static/js/rules/index.js";

const { rulesets } = JSON.parse(readFileSync(new URL("./rulesets.json", import.meta.url), "utf8"));

test("the page knows every ruleset the service lists, in its order", () => {
  assert.deepEqual(
    Object.keys(RULESETS),
    rulesets.map((ruleset) => ruleset.name),
  );
});

for (const listed of rulesets) {
  test(`${listed.name} is described as the service describes it`, () => {
    assert.equal(JSON.stringify(describeRuleset(listed.name)), JSON.stringify(listed));
  });
}
