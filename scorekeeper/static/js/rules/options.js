// A ruleset's options: their specs, defaults and the checks of a new game's options (rules/base.py).

import { InvalidOptions } from "./errors.js";
import { countOf, isInteger, listed, pyRepr } from "./words.js";

/**
 * One option of a ruleset: its default and the values it allows.
 * `kind` is "integer", "choice" or "even_integers"; `cappedBy` names the option whose value is
 * this one's maximum; `defaultFor(players)` gives the default when it depends on the table size;
 * `optional` allows null (the option is off).
 */
export function optionSpec(name, defaultValue, kind, more = {}) {
  return Object.freeze({
    name,
    default: defaultValue,
    kind,
    minimum: more.minimum ?? null,
    maximum: more.maximum ?? null,
    choices: more.choices ?? [],
    maxItems: more.maxItems ?? null,
    cappedBy: more.cappedBy ?? null,
    defaultFor: more.defaultFor ?? null,
    optional: more.optional ?? false,
  });
}

/** The default of `spec` for a table of `playerCount` players (a fresh copy of a list). */
function defaultValue(spec, playerCount) {
  const value = spec.defaultFor ? spec.defaultFor(playerCount) : spec.default;
  return Array.isArray(value) ? [...value] : value;
}

/** The largest value `spec` allows: its own, or the value of the option capping it. */
export function optionMaximum(spec, options) {
  if (spec.cappedBy === null) return spec.maximum;
  const cap = options[spec.cappedBy];
  return isInteger(cap) ? cap : 0;
}

/** Check the given options of `rules` (unless told not to) and fill in the defaults. */
export function resolveOptions(rules, given, check = true) {
  const Rules = rules.constructor;
  const specs = Rules.optionSpecs;
  const names = specs.map((spec) => spec.name);
  const unknown = Object.keys(given).filter((name) => !names.includes(name));
  unknown.sort();
  if (unknown.length && check) {
    const words = listed(unknown.map(pyRepr));
    throw new InvalidOptions(
      `${Rules.title} has no ${unknown.length === 1 ? "option" : "options"} ${words}.`,
      { options: Object.fromEntries(unknown.map((name) => [name, ["Unknown option."]])) },
    );
  }
  const resolved = {};
  for (const spec of specs) resolved[spec.name] = defaultValue(spec, rules.players.length);
  for (const [name, value] of Object.entries(given)) resolved[name] = value;
  for (const spec of specs) {
    const maximum = rules.optionMaximum(spec, resolved);
    if (!Object.hasOwn(given, spec.name) && spec.kind === "even_integers" && isInteger(maximum)) {
      // A default list drops what a lowered limit puts out of range.
      resolved[spec.name] = resolved[spec.name].filter((value) => value <= maximum);
    }
  }
  const problems = [];
  for (const spec of check ? specs : []) {
    const problem = optionProblem(rules, spec, resolved[spec.name], resolved);
    if (problem) problems.push([spec.name, problem]);
  }
  if (problems.length) {
    const details = Object.fromEntries(problems.map(([name, [, detail]]) => [name, [detail]]));
    throw new InvalidOptions(problems[0][1][0], { options: details });
  }
  for (const spec of specs) {
    if (spec.kind === "even_integers" && Array.isArray(resolved[spec.name])) {
      resolved[spec.name] = [...resolved[spec.name]].sort((a, b) => a - b);
    }
  }
  return resolved;
}

/** Why `value` is not allowed for `spec`: [a sentence, the field's problem], or null. */
function optionProblem(rules, spec, value, options) {
  const { name, minimum } = spec;
  const maximum = rules.optionMaximum(spec, options);
  if (spec.optional && value === null) return null;
  if (spec.kind === "choice") {
    if (spec.choices.includes(value)) return null;
    const choices = listed(spec.choices, "or");
    return [`The option ${name} must be ${choices}.`, `choose ${choices}.`];
  }
  if (spec.kind === "integer") {
    if (isInteger(value) && minimum <= value && value <= maximum) return null;
    if (spec.optional) {
      return [
        `The option ${name} must be a whole number from ${minimum} to ${maximum}, or null for none.`,
        `give a whole number from ${minimum} to ${maximum}, or null.`,
      ];
    }
    return [
      `The option ${name} must be a whole number from ${minimum} to ${maximum}.`,
      `give a whole number from ${minimum} to ${maximum}.`,
    ];
  }
  if (spec.kind === "even_integers") {
    if (!Array.isArray(value) || value.length > spec.maxItems) {
      const atMost = countOf(spec.maxItems, "score");
      return [
        `The option ${name} must be a list of at most ${atMost}.`,
        `give a list of at most ${atMost}.`,
      ];
    }
    if (new Set(value.filter(isInteger)).size !== value.length) {
      return [
        `The option ${name} must list whole numbers, each only once.`,
        "give distinct whole numbers.",
      ];
    }
    if (!value.some((v) => v % 2 || !(minimum <= v && v <= maximum))) return null;
    return evenScoresProblem(spec, minimum, maximum);
  }
  throw new Error(`unknown option kind ${spec.kind}`);
}

/** The problem of an even score out of range, for the few even scores allowed. */
function evenScoresProblem(spec, minimum, maximum) {
  const evens = [];
  for (let v = minimum; v <= maximum && evens.length < 2; v += 1) if (v % 2 === 0) evens.push(v);
  if (!evens.length) {
    const because = spec.cappedBy ? ` when ${spec.cappedBy} is ${maximum}` : "";
    return [`The option ${spec.name} must be an empty list${because}.`, "give an empty list."];
  }
  if (evens.length === 1) {
    return [
      `The only score the option ${spec.name} may list is ${evens[0]}.`,
      `the only score allowed is ${evens[0]}.`,
    ];
  }
  return [
    `Each score in the option ${spec.name} must be an even number from ${minimum} to ${maximum}.`,
    `each score must be even and from ${minimum} to ${maximum}.`,
  ];
}
