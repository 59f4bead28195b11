// New game: the ruleset, a name, the players in seat order (at a table: tapped from its roster),
// the first dealer (and starter), the rule options; Start creates it on the service, or with no
// network makes it on the phone, to be created when the service is back (state/made.js).

import { api, NetworkError } from "../api.js";
import { h, replace } from "../dom.js";
import { gameUrl, rulesetTitle } from "../format.js";
import { t } from "../i18n.js";
import { newId, randomSeat, timeStamp } from "../made-offline.js";
import { newKey, store } from "../store.js";
import { makeGame, notCreatedYet } from "../state/made.js";
import { setNotice } from "../state/notice.js";
import { errorBox, heading, mainBox } from "../ui.js";
import { nameList } from "./name-list.js";
import { chosenOptions, formErrorBox, optionErrors, optionInput } from "./new-game-options.js";
import { pickedPlayers, rosterPicker, syncNames } from "./roster-picker.js";

// The service's rulesets (asked for once).
let rulesets = null;

// tableId: a game at that table (its roster as chips), or none: a loose game.
export async function renderNew(tableId = null) {
  if (!rulesets) rulesets = await api.rulesets();
  const table = tableId ? await readTable(tableId) : null;
  // dealer/starter: a seat index or null (at random); they follow their person when seats shift.
  // optionErrors: what the service said about each option it refused ({name: problem}).
  const form = {
    ruleset: rulesets[0].name, // the first the service lists
    name: "",
    names: ["", "", ""],
    dealer: null,
    starter: null,
    touched: {},
    values: {},
    error: null,
    optionErrors: {},
    optionsOpen: false,
    busy: false,
    table,
    roster: table ? table.players : [],
    added: [],
    picked: [],
    key: null,
    sent: null,
  };
  if (table) form.names = [];
  draw(form);
}

// The table as the service has it; with no network (or made offline, not created yet), the
// copy this phone keeps.
async function readTable(id) {
  const kept = store.keptTable(id);
  if (kept && notCreatedYet(id)) return kept.table;
  try {
    return (await api.table(id)).data;
  } catch (error) {
    if (kept && error instanceof NetworkError) return kept.table;
    throw error;
  }
}

function rulesOf(form) {
  return rulesets.find((r) => r.name === form.ruleset);
}

function draw(form) {
  const rules = rulesOf(form);
  replace(
    mainBox(),
    heading(t("new_game")),
    form.table ? h("p", { class: "subtitle" }, t("at_table", { name: form.table.name })) : null,
    h(
      "form",
      { id: "new-game-form", novalidate: true, onsubmit: (event) => submit(event, form) },
      rulesetChoices(form),
      h(
        "div",
        { class: "field" },
        h("label", { for: "game-name" }, t("game_name")),
        h("input", {
          id: "game-name",
          "data-key": "game-name",
          type: "text",
          maxlength: "100",
          autocomplete: "off",
          value: form.name,
          oninput: (e) => (form.name = e.target.value),
        }),
      ),
      seats(form, rules),
      seatSelect(form, "dealer", "first_dealer"),
      rules.chooses_starter ? seatSelect(form, "starter", "first_starter") : null,
      h(
        "details",
        {
          class: "options",
          open: form.optionsOpen,
          ontoggle: (e) => (form.optionsOpen = e.target.open),
        },
        h("summary", {}, t("rule_options")),
        Object.keys(rules.options).map((name) => optionInput(form, rules, name)),
      ),
      h("div", { id: "form-error" }, form.error ? formErrorBox(form) : null),
      h(
        "button",
        { type: "submit", class: "primary big", "data-testid": "start-game", disabled: form.busy },
        t("start_game"),
      ),
    ),
  );
}

function rulesetChoices(form) {
  return h(
    "fieldset",
    { class: "choices" },
    h("legend", {}, t("choose_game")),
    rulesets.map((r) =>
      h(
        "label",
        { class: ["choice", form.ruleset === r.name && "selected"] },
        h("input", {
          type: "radio",
          name: "ruleset",
          value: r.name,
          "data-key": `ruleset-${r.name}`,
          checked: form.ruleset === r.name,
          onchange: () => {
            form.ruleset = r.name;
            form.values = {};
            form.touched = {};
            form.optionErrors = {};
            form.error = null;
            if (form.table) {
              form.picked = form.picked.slice(0, r.max_players);
              syncNames(form);
            } else {
              while (form.names.length > r.max_players) form.names.pop();
              while (form.names.length < r.min_players) form.names.push("");
            }
            seatsCut(form);
            draw(form);
          },
        }),
        h("span", {}, rulesetTitle(r.name)),
        h(
          "span",
          { class: "help" },
          t("players_range", { min: r.min_players, max: r.max_players }),
        ),
      ),
    ),
  );
}

// The players in seat order: typed one per seat, or at a table tapped from its roster.
function seats(form, rules) {
  const on = {
    redraw: () => draw(form),
    removed: (seat) => seatRemoved(form, seat),
    typed: (seat, value) => {
      for (const id of ["dealer", "starter"]) {
        const select = document.getElementById(id);
        if (select)
          select.options[seat + 1].textContent = value.trim() || t("seat_n", { n: seat + 1 });
      }
    },
  };
  if (form.table) return rosterPicker(form, rules, on);
  const list = {
    names: form.names,
    min: rules.min_players,
    max: rules.max_players,
    legend: t("players_in_order"),
    prefix: "player",
  };
  return nameList(list, on);
}

// The first dealer or starter: a seat, or at random. `role` is "dealer" or "starter".
function seatSelect(form, role, labelKey) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: role }, t(labelKey)),
    h(
      "select",
      {
        id: role,
        "data-key": role,
        onchange: (e) => (form[role] = e.target.value === "" ? null : Number(e.target.value)),
      },
      h("option", { value: "", selected: form[role] === null }, t("pick_random")),
      form.names.map((name, seat) =>
        h(
          "option",
          { value: String(seat), selected: form[role] === seat },
          name.trim() || t("seat_n", { n: seat + 1 }),
        ),
      ),
    ),
  );
}

// Seats from `seat` on moved up by one: the chosen dealer and starter move with their person.
function seatRemoved(form, seat) {
  for (const role of ["dealer", "starter"]) {
    if (form[role] === seat) form[role] = null;
    else if (form[role] !== null && form[role] > seat) form[role] -= 1;
  }
}

function seatsCut(form) {
  for (const role of ["dealer", "starter"]) {
    if (form[role] !== null && form[role] >= form.names.length) form[role] = null;
  }
}

// The same entry sent again (no answer came, say) keeps its Idempotency-Key, so the game is
// created once; a changed one gets a new key.
function keyFor(form, body) {
  const sent = JSON.stringify(body);
  if (form.sent !== sent) {
    form.key = newKey("game");
    form.sent = sent;
  }
}

// With no network the phone chooses the id, draws the dealer and starter left to chance (the
// service would) and stamps when it was made: the game is played on the phone until it is created.
function offlineBody(body, chooses) {
  const count = body.players.length;
  const made = { id: newId(), ...body, dealer: body.dealer ?? randomSeat(count) };
  if (chooses) made.starter = body.starter ?? randomSeat(count);
  return { ...made, created_at: timeStamp() };
}

async function createGame(form, body) {
  if (!form.table) return api.createGame(body, form.key);
  const token = store.tableToken(form.table.id);
  return api.createTableGame(form.table.id, token, body, form.key);
}

// Made with no network: kept on the phone, created on the service when it is back.
function madeHere(form, rules, body) {
  const table = form.table;
  const names = form.names.map((n) => n.trim()).filter(Boolean);
  const roster = table ? body.players.map((p) => (typeof p === "number" ? p : null)) : [];
  // A table made offline has no roster ids yet: its players are sent by name.
  const sent = table && notCreatedYet(table.id) ? { ...body, players: names } : body;
  return makeGame({
    what: table ? "table-game" : "game",
    at: table ? table.id : null,
    body: sent,
    key: newKey("game"), // its own: a key sent online before went with another body
    made: {
      id: body.id,
      ruleset: rules.name,
      name: body.name,
      table: table ? table.id : null,
      players: names,
      dealer: body.dealer,
      starter: body.starter ?? null,
      options: body.options || {},
      createdAt: body.created_at || timeStamp(),
      roster,
    },
  });
}

function localError(form, message) {
  form.error = null;
  const box = h("div", { class: "error", role: "alert" }, h("p", {}, message));
  replace(document.getElementById("form-error"), box);
}

// The seat (among the names given) of the person chosen as dealer or starter, or undefined.
function chosenSeat(form, role, names) {
  if (form[role] === null || form[role] >= form.names.length) return undefined;
  const typed = form.names[form[role]].trim();
  const seat = typed ? names.indexOf(typed) : -1;
  return seat >= 0 ? seat : undefined;
}

async function submit(event, form) {
  event.preventDefault();
  const rules = rulesOf(form);
  const names = form.names.map((n) => n.trim()).filter(Boolean);
  if (names.length < rules.min_players) {
    return localError(form, t("need_players", { min: rules.min_players }));
  }
  const body = { ruleset: rules.name, players: form.table ? pickedPlayers(form) : names };
  const name = form.name.trim();
  if (name) body.name = name;
  const dealer = chosenSeat(form, "dealer", names);
  if (dealer !== undefined) body.dealer = dealer;
  const starter = rules.chooses_starter ? chosenSeat(form, "starter", names) : undefined;
  if (starter !== undefined) body.starter = starter;
  const options = chosenOptions(form, rules);
  if (Object.keys(options).length) body.options = options;
  form.busy = true;
  // At a table made offline too: it is made on the phone, and created after the table.
  const offline = navigator.onLine === false || (form.table && notCreatedYet(form.table.id));
  try {
    let game;
    if (offline) game = madeHere(form, rules, offlineBody(body, rules.chooses_starter));
    else {
      keyFor(form, body);
      game = await createGame(form, body);
      store.saveGame(game, game.token);
    }
    const nameOf = (id) => game.players.find((p) => p.id === id).name;
    const random = [];
    if (dealer === undefined) {
      random.push(t("random_dealer", { name: nameOf(game.next_round.dealer) }));
    }
    if (rules.chooses_starter && starter === undefined) {
      random.push(t("random_starter", { name: nameOf(game.next_round.starter) }));
    }
    setNotice(random.join(" ") || null);
    location.hash = gameUrl(game.id);
  } catch (error) {
    form.busy = false;
    form.error = error;
    form.optionErrors = optionErrors(error, rules);
    const refused = Object.keys(form.optionErrors);
    if (refused.length) {
      // Shown by each refused option, under its own label; the first one gets the focus.
      form.optionsOpen = true;
      draw(form);
      document.getElementById(`opt-${refused[0]}`).focus();
      return;
    }
    replace(document.getElementById("form-error"), errorBox(error));
    document.querySelector("#form-error .error")?.focus?.();
  }
}
