// Running totals per player as an SVG line chart, with the elimination line and halvings marked.

import { h, s } from "./dom.js";

const W = 360;
const H = 240;
const PAD = { left: 36, right: 12, top: 12, bottom: 28 };

function niceStep(max) {
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  for (const step of [1, 2, 5, 10]) if (step * power >= raw) return step * power;
  return 10 * power;
}

// rounds: the game's history; a player who joined starts where they joined, with their score then.
export function chart(game, rounds, t) {
  const limit = game.options.elimination_limit;
  const joins = new Map();
  for (const item of rounds) {
    const join = item.seat_change && item.seat_change.join;
    if (join) joins.set(join.player, { x: item.number, y: join.score });
  }
  const series = new Map(game.players.map((p) => [p.id, [joins.get(p.id) || { x: 0, y: 0 }]]));
  const halvings = [];
  const outs = [];
  let top = limit;
  for (const round of rounds) {
    for (const result of round.results || []) {
      series.get(result.player).push({ x: round.number, y: result.score_after });
      top = Math.max(top, result.score_after, result.score_before + result.points);
      if (result.halved)
        halvings.push({
          player: result.player,
          x: round.number,
          y: result.score_after,
          from: result.score_before + result.points,
        });
      if (result.eliminated)
        outs.push({ player: result.player, x: round.number, y: result.score_after });
    }
  }
  const xMax = Math.max(1, ...rounds.map((round) => round.number));
  const yMax = top * 1.08;
  const x = (value) => PAD.left + (value / xMax) * (W - PAD.left - PAD.right);
  const y = (value) => H - PAD.bottom - (value / yMax) * (H - PAD.top - PAD.bottom);
  const colour = new Map(game.players.map((p, index) => [p.id, `c${index % 6}`]));
  const name = new Map(game.players.map((p) => [p.id, p.name]));

  const step = niceStep(yMax);
  const grid = [];
  for (let value = 0; value <= yMax; value += step) {
    grid.push(
      s("line", {
        class: "grid-line",
        x1: PAD.left,
        x2: W - PAD.right,
        y1: y(value),
        y2: y(value),
      }),
    );
    grid.push(
      s(
        "text",
        { class: "axis", x: PAD.left - 4, y: y(value) + 4, "text-anchor": "end" },
        String(value),
      ),
    );
  }
  const xStep = Math.max(1, Math.ceil(xMax / 8));
  for (let value = 0; value <= xMax; value += xStep) {
    grid.push(
      s(
        "text",
        { class: "axis", x: x(value), y: H - PAD.bottom + 16, "text-anchor": "middle" },
        String(value),
      ),
    );
  }

  const lines = [...series.entries()].map(([id, points]) =>
    s("polyline", {
      class: `series ${colour.get(id)}`,
      points: points.map((p) => `${x(p.x)},${y(p.y)}`).join(" "),
    }),
  );
  const dots = [...series.entries()].flatMap(([id, points]) =>
    points
      .slice(1)
      .map((p) => s("circle", { class: `dot ${colour.get(id)}`, cx: x(p.x), cy: y(p.y), r: 2.5 })),
  );
  const halvingMarks = halvings.map((mark) =>
    s(
      "g",
      { class: `halving ${colour.get(mark.player)}` },
      s("line", { x1: x(mark.x), x2: x(mark.x), y1: y(mark.from), y2: y(mark.y) }),
      s("circle", { cx: x(mark.x), cy: y(mark.y), r: 5 }),
      s(
        "title",
        {},
        t("chart_halved", { name: name.get(mark.player), n: mark.x, from: mark.from, to: mark.y }),
      ),
    ),
  );
  const outMarks = outs.map((mark) =>
    s(
      "g",
      { class: `out-mark ${colour.get(mark.player)}` },
      s("text", { x: x(mark.x), y: y(mark.y) - 6, "text-anchor": "middle" }, "✕"),
      s("title", {}, t("chart_out", { name: name.get(mark.player), n: mark.x })),
    ),
  );
  const description = [...series.entries()]
    .map(([id, points]) => `${name.get(id)}: ${points.map((p) => p.y).join(", ")}`)
    .join(". ");

  const svg = s(
    "svg",
    {
      viewBox: `0 0 ${W} ${H}`,
      role: "img",
      "aria-labelledby": "chart-title chart-desc",
      class: "chart-svg",
      "data-testid": "chart",
    },
    s("title", { id: "chart-title" }, t("chart_title")),
    s("desc", { id: "chart-desc" }, `${t("chart_limit", { n: limit })}. ${description}.`),
    grid,
    s("line", {
      class: "limit-line",
      x1: PAD.left,
      x2: W - PAD.right,
      y1: y(limit),
      y2: y(limit),
      "data-testid": "limit-line",
    }),
    s(
      "text",
      { class: "limit-label", x: PAD.left + 4, y: y(limit) - 4, "text-anchor": "start" },
      t("chart_limit", { n: limit }),
    ),
    lines,
    dots,
    halvingMarks,
    outMarks,
  );
  const legend = h(
    "ul",
    { class: "legend" },
    game.players.map((p) =>
      h(
        "li",
        {},
        h("span", { class: `swatch ${colour.get(p.id)}`, "aria-hidden": "true" }),
        p.name,
      ),
    ),
    h("li", {}, h("span", { class: "swatch limit", "aria-hidden": "true" }), t("legend_limit")),
    halvings.length
      ? h(
          "li",
          {},
          h("span", { class: "swatch halving", "aria-hidden": "true" }),
          t("legend_halved", { n: halvings.length }),
        )
      : null,
  );
  return h("figure", { class: "chart-figure" }, svg, h("figcaption", {}, legend));
}
