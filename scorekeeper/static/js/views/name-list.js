// A list of names typed one per seat, in seating order: Remove (above the minimum), Add (below the
// maximum). Used by the new game form (its seats) and the new table form (its roster).
//
// list: {names, min, max, legend, prefix}; on: {redraw, removed(seat), typed(seat, value)}.

import { h } from "../dom.js";
import { t } from "../i18n.js";

export function nameList(list, on) {
  return h(
    "fieldset",
    {},
    h("legend", {}, list.legend),
    h(
      "ol",
      { class: "names" },
      list.names.map((name, seat) => nameItem(list, on, name, seat)),
    ),
    list.names.length < list.max
      ? h(
          "button",
          {
            type: "button",
            class: "secondary",
            "data-key": `${list.prefix}-add`,
            onclick: () => {
              list.names.push("");
              on.redraw();
              document.getElementById(`${list.prefix}-${list.names.length - 1}`).focus();
            },
          },
          t("add_player"),
        )
      : null,
  );
}

function nameItem(list, on, name, seat) {
  const seatName = t("seat_n", { n: seat + 1 });
  const id = `${list.prefix}-${seat}`;
  return h(
    "li",
    {},
    h("label", { for: id, class: "visually-hidden" }, seatName),
    h("input", {
      id,
      "data-key": id,
      type: "text",
      maxlength: "40",
      autocomplete: "off",
      placeholder: seatName,
      value: name,
      oninput: (e) => {
        list.names[seat] = e.target.value;
        if (on.typed) on.typed(seat, e.target.value);
      },
    }),
    list.names.length > list.min
      ? h(
          "button",
          {
            type: "button",
            class: "icon secondary",
            "data-key": `${list.prefix}-remove-${seat}`,
            "aria-label": t("remove_seat", { n: seat + 1 }),
            onclick: () => {
              list.names.splice(seat, 1);
              if (on.removed) on.removed(seat);
              on.redraw();
            },
          },
          "✕",
        )
      : null,
  );
}
