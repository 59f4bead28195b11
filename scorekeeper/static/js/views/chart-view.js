// Chart: the running totals (drawn by ../chart.js), or a line saying there are no rounds yet.

import { chart } from "../chart.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

export function chartView(game, rounds) {
  return h(
    "section",
    { class: "chart", "aria-labelledby": "chart-heading" },
    h("h2", { id: "chart-heading", class: "visually-hidden" }, t("tab_chart")),
    rounds && rounds.length ? chart(game, rounds, t) : h("p", { class: "empty" }, t("no_rounds")),
  );
}
