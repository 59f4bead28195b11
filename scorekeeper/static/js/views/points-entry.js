// The entry of a round of points (a ruleset whose entry kind is points): a plain numeric field for
// each player, with a sign key for negative points (a phone's number keyboard has none).

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { describe } from "../state/rulesets.js";

// actions: {changed, typed, save, redraw}, see entry.js (typed: a field changed as it is typed,
// the form itself stays as it is).
export function pointsEntry(draft, game, actions) {
  const players = draft.ids.map((id) => game.players.find((p) => p.id === id));
  const { minimum = -10000, maximum = 10000 } = describe(game.ruleset).entry;
  return h(
    "fieldset",
    { class: "entry points-entry" },
    h("legend", {}, t("points_this_round")),
    players.map((player) => pointsField(draft, player, minimum, maximum, actions)),
  );
}

function pointsField(draft, player, minimum, maximum, actions) {
  const id = `points-${player.id}`;
  const value = draft.points[player.id];
  const typed = draft.typed && draft.typed[player.id];
  const set = (input) => {
    const text = input.value.trim().replace("−", "-");
    const number = /^-?\d+$/.test(text) ? Number(text) : null;
    const fits = number !== null && number >= minimum && number <= maximum;
    draft.typed = { ...draft.typed, [player.id]: input.value };
    if (fits) draft.points[player.id] = number;
    else delete draft.points[player.id];
    input.setAttribute("aria-invalid", String(!fits && text !== ""));
    actions.typed();
  };
  return h(
    "div",
    { class: "field points-field" },
    h("label", { for: id }, player.name),
    h(
      "div",
      { class: "row" },
      h("input", {
        id,
        type: "text",
        inputmode: "numeric",
        autocomplete: "off",
        "data-key": id,
        "data-testid": "points",
        value: typed ?? (Number.isInteger(value) ? String(value) : ""),
        "aria-invalid": typed && !Number.isInteger(value) ? "true" : null,
        oninput: (event) => set(event.target),
      }),
      h(
        "button",
        {
          type: "button",
          class: "secondary sign",
          "data-key": `sign-${player.id}`,
          "data-testid": "sign",
          "aria-label": t("points_negative", { name: player.name }),
          onclick: () => {
            const points = draft.points[player.id];
            if (!Number.isInteger(points)) return;
            draft.points[player.id] = -points;
            if (draft.typed) delete draft.typed[player.id];
            actions.changed();
          },
        },
        "±",
      ),
    ),
  );
}
