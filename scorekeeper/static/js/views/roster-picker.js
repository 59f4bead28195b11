// A game at a table: its players picked from the table's roster as one-tap chips, in seating
// order, and a field for a new name (which joins the roster when the game is created).
//
// form: {roster: [{id, name}], added: [names], picked: [roster id | new name], names};
// on: {redraw, removed(seat)}. form.names follows the picked players, for the dealer's select.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { togglePick } from "../seating.js";

const fold = (name) => name.normalize("NFKC").toLocaleLowerCase();

function chips(form) {
  return [
    ...form.roster.map((player) => ({ key: player.id, name: player.name })),
    ...form.added.map((name) => ({ key: name, name })),
  ];
}

function nameOf(form, key) {
  const found = chips(form).find((chip) => chip.key === key);
  return found ? found.name : String(key);
}

export function syncNames(form) {
  form.names = form.picked.map((key) => nameOf(form, key));
}

export function rosterPicker(form, rules, on) {
  const full = form.picked.length >= rules.max_players;
  return h(
    "fieldset",
    { class: "roster" },
    h("legend", {}, t("tap_in_order")),
    h(
      "div",
      { class: "chips" },
      chips(form).map((chip) => {
        const seat = form.picked.indexOf(chip.key);
        return h(
          "button",
          {
            type: "button",
            class: ["chip", seat >= 0 && "selected"],
            "aria-pressed": String(seat >= 0),
            "data-key": `chip-${chip.key}`,
            "data-testid": "roster-chip",
            disabled: seat < 0 && full,
            onclick: () => {
              form.picked = togglePick(form.picked, chip.key);
              syncNames(form);
              if (seat >= 0) on.removed(seat);
              on.redraw();
            },
          },
          seat >= 0
            ? h("span", { class: "seat-no", "aria-hidden": "true" }, String(seat + 1))
            : null,
          chip.name,
        );
      }),
    ),
    h(
      "p",
      { class: "help", "data-testid": "seating", "aria-live": "polite" },
      form.names.length
        ? t("seating_is", { names: form.names.join(" → ") })
        : t("players_range", { min: rules.min_players, max: rules.max_players }),
    ),
    newNameField(form, full, on),
  );
}

function newNameField(form, full, on) {
  const add = () => {
    const input = document.getElementById("new-name");
    const name = input.value.trim();
    if (!name) return;
    const same = chips(form).find((chip) => fold(chip.name) === fold(name));
    if (same) {
      if (!form.picked.includes(same.key) && !full) form.picked = [...form.picked, same.key];
    } else {
      form.added.push(name);
      if (!full) form.picked = [...form.picked, name];
    }
    form.typedName = "";
    syncNames(form);
    on.redraw();
    document.getElementById("new-name").focus();
  };
  return h(
    "div",
    { class: "field" },
    h("label", { for: "new-name" }, t("new_name_label")),
    h(
      "div",
      { class: "row add-name" },
      h("input", {
        id: "new-name",
        "data-key": "new-name",
        type: "text",
        maxlength: "40",
        autocomplete: "off",
        value: form.typedName || "",
        oninput: (e) => (form.typedName = e.target.value),
        onkeydown: (e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            add();
          }
        },
      }),
      h(
        "button",
        { type: "button", class: "secondary", "data-key": "add-name", onclick: add },
        t("add_name"),
      ),
    ),
  );
}

// The players as POST /tables/{id}/games takes them: roster ids, or new names.
export function pickedPlayers(form) {
  return form.picked.slice();
}
