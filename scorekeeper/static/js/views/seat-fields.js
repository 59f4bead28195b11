// The fields of "Someone joins" (a roster chip or a new name, and the seat) and "Someone leaves"
// (who). They write what is chosen into `change` (see seat-change.js) and call on.redraw() to draw
// the form again, on.changed() after a join's entry changed.

import { h } from "../dom.js";
import { activePlayers } from "../format.js";
import { t } from "../i18n.js";

// chips: roster players who may join (at a table), or none.
export function joinFields(game, change, chips, on) {
  const here = activePlayers(game);
  return [
    chips.length
      ? h(
          "fieldset",
          { class: "roster" },
          h("legend", {}, t("join_from_roster")),
          h(
            "div",
            { class: "chips" },
            chips.map((player) =>
              h(
                "button",
                {
                  type: "button",
                  class: ["chip", change.rosterId === player.id && "selected"],
                  "aria-pressed": String(change.rosterId === player.id),
                  "data-key": `join-chip-${player.id}`,
                  "data-testid": "join-chip",
                  onclick: () => {
                    change.rosterId = change.rosterId === player.id ? null : player.id;
                    change.name = "";
                    change.error = null;
                    on.redraw();
                    on.changed();
                  },
                },
                player.name,
              ),
            ),
          ),
        )
      : null,
    h(
      "div",
      { class: "field" },
      h("label", { for: "join-name" }, chips.length ? t("join_new_name") : t("join_name")),
      h("input", {
        id: "join-name",
        "data-key": "join-name",
        type: "text",
        maxlength: "40",
        autocomplete: "off",
        value: change.name,
        oninput: (e) => {
          change.name = e.target.value;
          if (change.rosterId !== null) {
            change.rosterId = null;
            for (const chip of document.querySelectorAll("[data-testid=join-chip]")) {
              chip.classList.remove("selected");
              chip.setAttribute("aria-pressed", "false");
            }
          }
          on.changed();
        },
      }),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "join-after" }, t("sits_after")),
      h(
        "select",
        {
          id: "join-after",
          "data-key": "join-after",
          "aria-describedby": "join-after-help",
          onchange: (e) => {
            change.after = Number(e.target.value);
            on.changed();
          },
        },
        here.map((player) =>
          h(
            "option",
            { value: String(player.id), selected: change.after === player.id },
            player.name,
          ),
        ),
      ),
      h("p", { class: "help", id: "join-after-help" }, t("sits_after_help")),
    ),
    h("p", { class: "help" }, t("join_score_rule")),
    h("p", { id: "join-preview", class: "summary", "aria-live": "polite" }),
  ];
}

export function leaveFields(game, change, on) {
  return [
    h(
      "fieldset",
      { class: "choices" },
      h("legend", {}, t("who_leaves")),
      activePlayers(game).map((player) =>
        h(
          "label",
          { class: ["choice", change.player === player.id && "selected"] },
          h("input", {
            type: "radio",
            name: "leaver",
            value: String(player.id),
            "data-key": `leaver-${player.id}`,
            checked: change.player === player.id,
            onchange: () => {
              change.player = player.id;
              change.confirming = false;
              change.error = null;
              on.redraw();
            },
          }),
          h("span", {}, player.name),
        ),
      ),
    ),
    h("p", { class: "help" }, t("leave_rule")),
  ];
}
