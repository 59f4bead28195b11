// Running totals per player as an SVG line chart, with the elimination line and halvings marked.

import { h, s } from "./dom.js";
import { describe } from "./state/rulesets.js";

const W = 360;
const H = 240;
const PAD = { left: 36, right: 12, top: 12, bottom: 28 };
const COLOURS = 7; // the series colours c0..c6 in app.css, each clear of the grid's grey

function niceStep(max) {
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  for (const step of [1, 2, 5, 10]) if (step * power >= raw) return step * power;
  return 10 * power;
}

// Each history item's place on the x axis, counted in rounds (seat changes take no number): a
// round at the rounds up to it, a seat change at the rounds before it.
function roundAxis(rounds) {
  const at = new Map();
  let played = 0;
  for (const item of rounds) {
    if (!item.seat_change) played += 1;
    at.set(item.number, played);
  }
  return { at, played };
}

// rounds: the game's history; a player who joined starts where they joined, with their score
// then (drawn as a dot until their first round draws the line from it).
export function chart(game, rounds, t) {
  // The line totals are counted towards (an elimination limit, a target), if the game has one.
  const limitName = describe(game.ruleset).limit;
  const limit = limitName ? (game.options[limitName] ?? null) : null;
  const axis = roundAxis(rounds);
  const joins = new Map();
  for (const item of rounds) {
    const join = item.seat_change && item.seat_change.join;
    if (join) joins.set(join.player, { x: axis.at.get(item.number), y: join.score, joined: true });
  }
  const series = new Map(game.players.map((p) => [p.id, [joins.get(p.id) || { x: 0, y: 0 }]]));
  const halvings = [];
  const outs = [];
  let top = limit ?? 0;
  let bottom = 0;
  for (const round of rounds) {
    const at = axis.at.get(round.number);
    for (const result of round.results || []) {
      series.get(result.player).push({ x: at, y: result.score_after });
      top = Math.max(top, result.score_after, result.score_before + result.points);
      bottom = Math.min(bottom, result.score_after, result.score_before + result.points);
      if (result.halved)
        halvings.push({
          player: result.player,
          x: at,
          y: result.score_after,
          from: result.score_before + result.points,
        });
      if (result.eliminated) outs.push({ player: result.player, x: at, y: result.score_after });
    }
  }
  const xMax = Math.max(1, axis.played);
  const yMax = Math.max(1, top) * 1.08;
  const yMin = bottom * 1.08;
  const x = (value) => PAD.left + (value / xMax) * (W - PAD.left - PAD.right);
  const y = (value) =>
    H - PAD.bottom - ((value - yMin) / (yMax - yMin)) * (H - PAD.top - PAD.bottom);
  // By the order players sat down (their ids), so that a join never changes anyone's colour.
  const arrived = game.players.map((p) => p.id).sort((a, b) => a - b);
  const colour = new Map(arrived.map((id, index) => [id, `c${index % COLOURS}`]));
  const name = new Map(game.players.map((p) => [p.id, p.name]));

  const step = niceStep(yMax);
  const grid = [];
  for (let value = Math.ceil(yMin / step) * step; value <= yMax; value += step) {
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
      .filter((p, index) => index > 0 || p.joined)
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
    s(
      "desc",
      { id: "chart-desc" },
      limit === null ? `${description}.` : `${t("chart_limit", { n: limit })}. ${description}.`,
    ),
    grid,
    limit === null
      ? null
      : [
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
        ],
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
    limit === null
      ? null
      : h("li", {}, h("span", { class: "swatch limit", "aria-hidden": "true" }), t("legend_limit")),
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
