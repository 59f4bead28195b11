// The phone lying flat in the middle of the table: each player's name and total along the edge of
// the screen they sit beyond, turned to face them (app.css), the next dealer (and starter) marked,
// so everyone reads the score without picking the phone up. The seats go clockwise, as the table
// sits (seats-around.js); Turn moves every label one place on, for however the phone was put down.

import { h } from "../dom.js";
import { gameTitle, gameUrl, watchUrl } from "../format.js";
import { t } from "../i18n.js";
import { nextRoundLabel } from "../round-numbers.js";
import { seatEdges } from "../seats-around.js";
import { describe } from "../state/rulesets.js";
import { keepScreenAwake } from "../wake-lock.js";

// How many seats the bottom edge has moved on from the first player's (Turn), per game.
const turns = new Map();

// The link to this view, on the game's table tab (or the watch view's).
export function middleLink(game, watching) {
  const base = watching ? watchUrl(game.id) : gameUrl(game.id);
  return h(
    "a",
    { class: "button secondary middle-link", href: `${base}/middle`, "data-testid": "open-middle" },
    t("middle_open"),
  );
}

// game: as the service (or the provisional game) has it; watching: the watch view's link back.
export function middleView(game, watching, redraw) {
  keepScreenAwake(!watching && game.status !== "finished");
  const seated = game.players.filter((player) => !player.left).sort((a, b) => a.seat - b.seat);
  const turn = turns.get(game.id) || 0;
  const next = game.next_round;
  const back = watching ? watchUrl(game.id) : gameUrl(game.id);
  const edges = seatEdges(seated.length, turn);
  const edge = (name) =>
    h(
      "div",
      { class: `middle-edge ${name}` },
      edges[name].map((seat) => seatLabel(game, seated[seat], name)),
    );
  return h(
    "section",
    {
      class: "middle",
      "aria-labelledby": "page-title",
      "data-testid": "middle",
      "data-turn": String(turn),
    },
    h("h1", { id: "page-title", tabindex: "-1", class: "visually-hidden" }, gameTitle(game)),
    // Clockwise round the table from the bottom edge: the order a screen reader reads them in.
    edge("bottom"),
    edge("left"),
    edge("top"),
    edge("right"),
    h(
      "div",
      { class: "middle-centre" },
      h(
        "p",
        { class: "middle-round" },
        next
          ? t("round_n", { n: nextRoundLabel(game) })
          : t("game_over_after", { n: game.rounds_played }),
      ),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          "data-key": "middle-turn",
          "data-testid": "middle-turn",
          onclick: () => {
            turns.set(game.id, (turn + 1) % seated.length);
            redraw();
          },
        },
        t("middle_turn"),
      ),
      h(
        "a",
        { class: "button secondary", href: back, "data-testid": "middle-back" },
        t("back_to_game"),
      ),
    ),
  );
}

// A player's label, turned (app.css) to face `edge`, the one they sit beyond.
function seatLabel(game, player, edge) {
  const next = game.next_round;
  const deals = Boolean(next) && next.dealer === player.id;
  const starts = Boolean(next) && next.starter === player.id;
  const roles = [];
  if (deals) roles.push(h("span", { class: "badge deal" }, t("deals")));
  if (starts) {
    roles.push(h("span", { class: "badge start" }, t(describe(game.ruleset).starter ?? "starts")));
  }
  if (player.eliminated) roles.push(h("span", { class: "badge out" }, t("eliminated")));
  if (game.winners.includes(player.id)) roles.push(h("span", { class: "badge" }, t("winner")));
  return h(
    "div",
    {
      class: ["middle-seat", deals && "dealer", player.eliminated && "out"],
      "data-testid": "middle-seat",
      "data-player": player.name,
      "data-seat": String(player.seat),
      "data-edge": edge,
      "data-dealer": deals ? "yes" : null,
    },
    h("span", { class: "middle-name" }, player.name),
    h(
      "span",
      { class: "middle-line" },
      h("span", { class: "middle-score" }, String(player.score)),
      roles.length ? h("span", { class: "middle-roles" }, roles) : null,
    ),
  );
}
