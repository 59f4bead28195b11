// The new game form's rule options: their inputs, what the service said about refused ones, and
// the options to send.

import { ApiError } from "../api.js";
import { h, replace } from "../dom.js";
import { optionValueText } from "../format.js";
import { t } from "../i18n.js";
import { RULESETS } from "../rules/index.js";
import { errorBox } from "../ui.js";

// The service's problems with an option, in the page's words where it knows them.
const OPTION_PROBLEMS = [
  [
    /^give a whole number from (-?\d+) to (-?\d+)\.?$/,
    (m) => t("opt_problem_range", { min: m[1], max: m[2] }),
  ],
  [
    /^each score must be even and from (-?\d+) to (-?\d+)\.?$/,
    (m) => t("opt_problem_even", { min: m[1], max: m[2] }),
  ],
  [/^give distinct whole numbers\.?$/, () => t("opt_problem_distinct")],
  [/^give a list of at most (\d+) scores\.?$/, (m) => t("opt_problem_count", { n: m[1] })],
];

// The option whose value caps `name`'s (halve_at: elimination_limit), from the rules on the phone.
function capOf(ruleset, name) {
  const spec = RULESETS[ruleset]?.optionSpecs.find((option) => option.name === name);
  return spec ? spec.cappedBy : null;
}

// An option's default as the service would apply it with the form as it stands: a default list
// keeps only the values its capping option (as typed, else by default) allows.
export function shownDefault(form, rules, name) {
  const value = rules.options[name].default;
  const cap = capOf(form.ruleset, name);
  if (!cap || !Array.isArray(value) || !(cap in rules.options)) return value;
  const typed = String(form.values[cap] ?? "").trim();
  const limit = form.touched[cap] ? typed && Number(typed) : rules.options[cap].default;
  if (!Number.isInteger(limit)) return value;
  return value.filter((item) => item <= limit);
}

function helpText(form, rules, name) {
  const value = optionValueText(shownDefault(form, rules, name));
  return [t(`opt_${name}_help`), " ", t("default_is", { value })];
}

// One option's label, input, problem (if refused) and help. `form` holds the typed values;
// `rules` is the ruleset as GET /rulesets lists it.
export function optionInput(form, rules, name) {
  const spec = rules.options[name];
  const id = `opt-${name}`;
  const value = name in form.values ? form.values[name] : shownDefault(form, rules, name);
  const problem = form.optionErrors[name];
  const attrs = {
    id,
    "data-key": id,
    "aria-describedby": problem ? `${id}-error ${id}-help` : `${id}-help`,
    "aria-invalid": problem ? "true" : null,
  };
  let input;
  if (spec.allowed.type === "choice") {
    input = h(
      "select",
      { ...attrs, onchange: (e) => setOption(form, rules, name, e.target.value) },
      spec.allowed.choices.map((choice) =>
        h("option", { value: choice, selected: value === choice }, t(`choice_${choice}`)),
      ),
    );
  } else {
    const numbers = spec.allowed.type === "even_integers";
    input = h("input", {
      ...attrs,
      type: numbers ? "text" : "number",
      inputmode: "numeric",
      min: numbers ? null : spec.allowed.minimum,
      max: numbers ? null : spec.allowed.maximum,
      // A list, a number as typed, or nothing for an option that is off.
      value: numbers && Array.isArray(value) ? value.join(", ") : (value ?? ""),
      oninput: (e) => setOption(form, rules, name, e.target.value),
    });
  }
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, t(`opt_${name}`)),
    input,
    problem
      ? h(
          "p",
          { class: "field-error", id: `${id}-error`, "data-testid": `${id}-error` },
          optionProblem(name, problem),
        )
      : null,
    h("p", { class: "help", id: `${id}-help` }, helpText(form, rules, name)),
  );
}

function setOption(form, rules, name, value) {
  form.values[name] = value;
  form.touched[name] = true;
  if (name in form.optionErrors) clearOptionError(form, name);
  // An option it caps (the elimination limit caps Halve at) and that was left as it came: it
  // offers only what the new value allows.
  for (const other of Object.keys(rules.options)) {
    if (capOf(form.ruleset, other) !== name || form.touched[other]) continue;
    const shown = shownDefault(form, rules, other);
    const input = document.getElementById(`opt-${other}`);
    if (input) input.value = Array.isArray(shown) ? shown.join(", ") : shown;
    const help = document.getElementById(`opt-${other}-help`);
    if (help) replace(help, helpText(form, rules, other));
  }
}

// The value was changed after the service refused it: its message goes (the rest stay).
function clearOptionError(form, name) {
  delete form.optionErrors[name];
  const id = `opt-${name}`;
  const input = document.getElementById(id);
  if (input) {
    input.removeAttribute("aria-invalid");
    input.setAttribute("aria-describedby", `${id}-help`);
  }
  document.getElementById(`${id}-error`)?.remove();
  if (!Object.keys(form.optionErrors).length) form.error = null;
  // The box at the top names only the options still refused (none: it goes).
  replace(document.getElementById("form-error"), form.error ? formErrorBox(form) : null);
}

// The service's error, or for refused options a pointer to them by the page's own labels.
export function formErrorBox(form) {
  const names = Object.keys(form.optionErrors);
  if (!names.length) return errorBox(form.error);
  const labels = names.map((name) => t(`opt_${name}`)).join(", ");
  return h(
    "div",
    { class: "error", role: "alert", "data-testid": "error" },
    h("p", {}, t("err_options", { names: labels })),
  );
}

// The options changed on the form, as the service takes them.
export function chosenOptions(form, rules) {
  const options = {};
  for (const [key, spec] of Object.entries(rules.options)) {
    if (!form.touched[key]) continue;
    const raw = form.values[key];
    if (spec.allowed.type === "choice") options[key] = raw;
    else if (spec.allowed.type === "even_integers") {
      options[key] = String(raw)
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number);
    } else if (raw === "" && spec.allowed.optional) options[key] = null;
    else options[key] = raw === "" ? raw : Number(raw);
  }
  return options;
}

// The options a 422 from POST /games refused, by name: details are keyed by field path,
// {"options": {"call_limit": ["give a whole number from 0 to 50."]}}. Only the ruleset's own.
export function optionErrors(error, rules) {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const options = error.details && error.details.options;
  if (!options || typeof options !== "object" || Array.isArray(options)) return {};
  const found = {};
  for (const [name, problems] of Object.entries(options)) {
    if (!(name in rules.options)) continue;
    const problem = Array.isArray(problems) ? problems[0] : problems;
    found[name] = typeof problem === "string" ? problem : "";
  }
  return found;
}

// The service's problem in the page's words, or null when the page does not know it.
export function optionProblemText(problem) {
  let text = null;
  for (const [pattern, words] of OPTION_PROBLEMS) {
    const match = pattern.exec(problem);
    if (match) text = words(match);
  }
  return text;
}

// "Call limit: give a whole number from 0 to 50.", with the option's label as the form shows it.
function optionProblem(name, problem) {
  const text = optionProblemText(problem);
  const label = h("span", { class: "field-error-label" }, t(`opt_${name}`));
  if (text === null && !problem) return label;
  return [label, ": ", text !== null ? h("span", {}, text) : h("span", { lang: "en" }, problem)];
}
