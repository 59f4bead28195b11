// A new table: its name and its players (the roster, in any order; each game picks its seats).
// Create makes it on the service and opens its page; with no network, it is made on the phone and
// created on the service when it is back (state/made.js).

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { tableUrl } from "../format.js";
import { t } from "../i18n.js";
import { newId, timeStamp } from "../made-offline.js";
import { newKey, store } from "../store.js";
import { makeTable } from "../state/made.js";
import { errorBox, heading, mainBox } from "../ui.js";
import { nameList } from "./name-list.js";

const MAX_ROSTER = 50;

export function renderNewTable() {
  // key/sent: the Idempotency-Key of the last request and what it sent (the same table sent again
  // after no answer came keeps its key, so it is created once).
  const form = {
    name: "",
    names: ["", "", "", ""],
    error: null,
    busy: false,
    key: null,
    sent: null,
  };
  draw(form);
}

function draw(form) {
  const list = {
    names: form.names,
    min: 0,
    max: MAX_ROSTER,
    legend: t("table_players"),
    prefix: "roster",
  };
  replace(
    mainBox(),
    heading(t("new_table")),
    h("p", { class: "lead" }, t("new_table_lead")),
    h(
      "form",
      { id: "new-table-form", novalidate: true, onsubmit: (event) => submit(event, form) },
      h(
        "div",
        { class: "field" },
        h("label", { for: "table-name" }, t("table_name")),
        h("input", {
          id: "table-name",
          "data-key": "table-name",
          type: "text",
          maxlength: "80",
          autocomplete: "off",
          required: true,
          value: form.name,
          oninput: (e) => (form.name = e.target.value),
        }),
      ),
      nameList(list, { redraw: () => draw(form) }),
      h("div", { id: "form-error" }, form.error ? errorBox(form.error) : null),
      h(
        "button",
        {
          type: "submit",
          class: "primary big",
          "data-testid": "create-table",
          disabled: form.busy,
        },
        t("create_table"),
      ),
    ),
  );
}

async function submit(event, form) {
  event.preventDefault();
  const name = form.name.trim();
  if (!name) {
    const box = h("div", { class: "error", role: "alert" }, h("p", {}, t("need_table_name")));
    replace(document.getElementById("form-error"), box);
    document.getElementById("table-name").focus();
    return;
  }
  const body = { name, players: form.names.map((n) => n.trim()).filter(Boolean) };
  const sent = JSON.stringify(body);
  if (form.sent !== sent) {
    form.key = newKey("table");
    form.sent = sent;
  }
  form.busy = true;
  document.querySelector("[data-testid=create-table]").disabled = true;
  try {
    let table;
    if (navigator.onLine === false) {
      // With no network the phone chooses its id: it is created when the service is back.
      // Its own key: one sent online before went with another body.
      const made = { id: newId(), ...body, created_at: timeStamp() };
      table = makeTable({ body: made, key: newKey("table") });
    } else {
      table = await api.createTable(body, form.key);
      store.saveTable(table, table.token);
    }
    location.hash = tableUrl(table.id);
  } catch (error) {
    // Nothing typed is lost: the form stays as it is, to send again.
    form.busy = false;
    form.error = error;
    draw(form);
    document.querySelector("#form-error .error")?.scrollIntoView({ block: "nearest" });
  }
}
