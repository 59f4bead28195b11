// Table: the next round (or the winner and Play again), the players' scores, Record round, someone
// joins or leaves, the game's table, share and export.

import { api } from "../api.js";
import { h } from "../dom.js";
import { gameUrl, optionValueText, playerName, shareUrl, tableUrl } from "../format.js";
import { t } from "../i18n.js";
import { closeness } from "../closeness.js";
import { stopped } from "../outbox.js";
import { finalRanking } from "../ranking.js";
import { endsByHand, lowerIsBetter } from "../rules/index.js";
import { refreshGame, session } from "../state/game-session.js";
import { currentRoute } from "../state/route.js";
import { describe } from "../state/rulesets.js";
import { store } from "../store.js";
import { announce, cardNode, errorBox } from "../ui.js";
import { keepScreenAwake } from "../wake-lock.js";
import { playAgainBox, startTableBox } from "./play-again.js";
import { confirmedStrip } from "./round-strip.js";
import { middleLink } from "./middle.js";
import { gameScorerBox } from "./scorer.js";
import { nextRoundLabel, roundLabel } from "../round-numbers.js";

// writable: this phone may record rounds in the game; redraw draws the page again.
export function tableView(game, writable, redraw = () => {}) {
  const limit = limitOf(game);
  // A change the service refused (or another phone's round in its place) is settled first.
  const blocked = stopped(game.id);
  keepScreenAwake(writable && game.status !== "finished");
  return h(
    "section",
    { class: "table-view", "aria-labelledby": "table-heading" },
    writable ? confirmedStrip(game) : null,
    h("h2", { id: "table-heading", class: "visually-hidden" }, t("tab_table")),
    game.status === "finished" ? winnerBox(game) : nextRoundBox(game),
    writable && game.status === "finished" ? playAgainBox(game) : null,
    h(
      "ol",
      { class: "players", "data-testid": "players" },
      game.players.map((player) => playerItem(game, player)),
    ),
    limit ? h("p", { class: "limit" }, t(LIMIT_WORDS[limit.name], { n: limit.value })) : null,
    writable && game.status === "finished" && !game.table ? startTableBox(game) : null,
    provisionalNote(game),
    writable && game.status !== "finished"
      ? blocked
        ? h("p", { class: "notice" }, t("settle_refused_first"))
        : h(
            "a",
            {
              class: "button primary big",
              href: gameUrl(game.id, "round"),
              "data-testid": "record-round",
            },
            t("record_round", { n: nextRoundLabel(game) }),
          )
      : null,
    writable && game.status !== "finished" && !blocked ? seatLinks(game) : null,
    writable && game.status !== "finished" && !blocked && endsByHand(game.ruleset, game.options)
      ? endBox(game, redraw)
      : null,
    middleLink(game, currentRoute().view === "watch"),
    game.table
      ? h(
          "p",
          {},
          h("a", { href: tableUrl(game.table), "data-testid": "game-table" }, t("open_table")),
        )
      : null,
    shareBox(game),
  );
}

// The words for the option totals are counted towards (the ruleset's descriptor names it).
const LIMIT_WORDS = {
  elimination_limit: "elimination_limit_is",
  limit: "limit_is",
  target: "target_is",
};

// The option the totals are counted towards and its value, or null when the game has none.
function limitOf(game) {
  const name = describe(game.ruleset).limit;
  const value = name ? game.options[name] : null;
  return value === null || value === undefined ? null : { name, value };
}

// The table ends a game that has no end of its own (a score pad without target or rounds).
// The end is sent at once: it needs the connection, and nothing waiting before it.
let ending = { gameId: null, asked: false, error: null };

function endBox(game, redraw) {
  const state = ending.gameId === game.id ? ending : { asked: false, error: null };
  const offline = navigator.onLine === false || stopped(game.id) !== null;
  const end = async () => {
    ending = { gameId: game.id, asked: true, error: null };
    try {
      await api.endGame(game.id, store.token(game.id));
      ending = { gameId: null, asked: false, error: null };
      announce(t("game_ended"));
    } catch (error) {
      ending = { gameId: game.id, asked: false, error };
    }
    if (!(await refreshGame(true))) redraw();
  };
  return h(
    "div",
    { class: "end-box" },
    state.asked
      ? h(
          "span",
          { class: "row" },
          h(
            "button",
            { type: "button", class: "danger", "data-testid": "end-confirm", onclick: end },
            t("end_game_confirm"),
          ),
          h(
            "button",
            {
              type: "button",
              class: "secondary",
              onclick: () => {
                ending = { gameId: null, asked: false, error: null };
                redraw();
              },
            },
            t("cancel"),
          ),
        )
      : h(
          "button",
          {
            type: "button",
            class: "secondary",
            "data-testid": "end-game",
            disabled: offline,
            onclick: () => {
              ending = { gameId: game.id, asked: true, error: null };
              redraw();
            },
          },
          t("end_game"),
        ),
    offline ? h("p", { class: "help" }, t("end_game_online")) : null,
    state.error ? errorBox(state.error, "end-error") : null,
  );
}

// The scores shown include changes the service has not answered yet: how many.
function provisionalNote(game) {
  const count = session.game === game ? session.provisional : 0;
  if (!count) return null;
  return h(
    "p",
    { class: "notice provisional", role: "status", "data-testid": "provisional" },
    t("provisional_note", { n: count }),
  );
}

// Between rounds: someone arrives late, someone goes home.
function seatLinks(game) {
  return h(
    "div",
    { class: "row seat-links" },
    h(
      "a",
      { class: "button secondary", href: gameUrl(game.id, "join"), "data-testid": "someone-joins" },
      t("someone_joins"),
    ),
    h(
      "a",
      {
        class: "button secondary",
        href: gameUrl(game.id, "leave"),
        "data-testid": "someone-leaves",
      },
      t("someone_leaves"),
    ),
  );
}

function winnerBox(game) {
  const winners = game.winners.map((id) => playerName(game, id));
  return h(
    "div",
    { class: "winner", role: "status", "data-testid": "winner" },
    h(
      "p",
      { class: "winner-title" },
      winners.length > 1
        ? t("shared_win", { names: winners.join(", ") })
        : t("winner_is", { name: winners[0] }),
    ),
    h("p", {}, t("game_over_after", { n: game.rounds_played })),
    rankingTable(game),
  );
}

// The final ranking (rules.md, "Final ranking"): place, player, score and how they finished.
function rankingTable(game) {
  return h(
    "table",
    { class: "ranking", "data-testid": "ranking" },
    h("caption", {}, t("final_ranking")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col", class: "num" }, t("col_place")),
        h("th", { scope: "col" }, t("col_player")),
        h("th", { scope: "col", class: "num" }, t("col_score")),
      ),
    ),
    h(
      "tbody",
      {},
      finalRanking(game).map(({ player, place }) =>
        h(
          "tr",
          { "data-testid": "ranked", "data-player": player.name, "data-place": String(place) },
          h("td", { class: "num place" }, String(place)),
          h(
            "th",
            { scope: "row" },
            player.name,
            h("span", { class: "how" }, " ", finishedHow(game, player)),
          ),
          h("td", { class: "num" }, String(player.score)),
        ),
      ),
    ),
  );
}

function finishedHow(game, player) {
  if (game.winners.includes(player.id)) return t("winner");
  if (player.left) return t("left_game");
  if (player.eliminated) return t("out_in_round", { n: outIn(player) });
  return "";
}

// The round a player went out in, as people count rounds.
function outIn(player) {
  return roundLabel(session.rounds, player.eliminated_in_round);
}

// A sentence such as "{name} deals." with the name in large type, read at arm's length.
function bigName(key, name) {
  const [before, after] = t(key, { name: "\u0000" }).split("\u0000");
  return h("p", { class: "role-line" }, before, h("span", { class: "big-name" }, name), after);
}

// What a ruleset says of the coming round beside its dealer and starter, by field.
const NEXT_ROUND_FIELDS = {
  cards_each: (next) =>
    h(
      "p",
      { class: "cards-each", "data-testid": "cards-each" },
      t("cards_each", { n: next.cards_each }),
    ),
  pass: (next) => h("p", { class: "pass", "data-testid": "pass" }, t(`pass_${next.pass}`)),
};

function nextRoundBox(game) {
  const next = game.next_round;
  const described = describe(game.ruleset);
  return h(
    "div",
    { class: "next-round", "data-testid": "next-round" },
    h("p", { class: "round-number" }, t("round_n", { n: nextRoundLabel(game) })),
    bigName("next_deals", playerName(game, next.dealer)),
    described.starter && next.starter !== null
      ? bigName(`next_${described.starter}`, playerName(game, next.starter))
      : null,
    described.next_round
      .filter((field) => NEXT_ROUND_FIELDS[field] && next[field] !== undefined)
      .map((field) => NEXT_ROUND_FIELDS[field](next)),
  );
}

// Who deals and who starts (or leads) the next round.
function roles(game, player) {
  const next = game.next_round;
  if (!next) return [];
  const found = [];
  if (player.id === next.dealer) found.push(h("span", { class: "badge deal" }, t("deals")));
  const starter = describe(game.ruleset).starter;
  if (starter && player.id === next.starter) {
    found.push(h("span", { class: "badge start" }, t(starter)));
  }
  return found;
}

// An active player's distance to the limit, coloured by how close it is (closeness.js).
function distance(game, player, won) {
  if (player.left) return h("span", { class: "distance" }, t("left_game"));
  if (player.eliminated) {
    return h("span", { class: "distance" }, t("out_in_round", { n: outIn(player) }));
  }
  if (won) return h("span", { class: "distance" }, t("winner"));
  const limit = limitOf(game);
  if (!limit) return null;
  // Near the limit is danger only where a lower total is better.
  const lower = lowerIsBetter(game.ruleset, game.options);
  const level = lower ? closeness(limit.value, player.score) : null;
  return h(
    "span",
    { class: ["distance", level && `near-${level}`], "data-closeness": level || "far" },
    t("to_limit", { n: limit.value - player.score }),
  );
}

function playerItem(game, player) {
  const won = game.winners.includes(player.id);
  return h(
    "li",
    {
      class: ["player", player.eliminated && "out", player.left && "left", won && "won"],
      "data-testid": "player",
      "data-player": player.name,
    },
    h(
      "div",
      { class: "who" },
      h("span", { class: "name" }, player.name),
      h("span", { class: "roles" }, roles(game, player)),
    ),
    h(
      "div",
      { class: "numbers" },
      h("span", { class: "score" }, String(player.score)),
      h("span", { class: "visually-hidden" }, t("col_points")),
      distance(game, player, won),
    ),
    describe(game.ruleset).player.includes("pile") && player.pile && player.pile.length
      ? h(
          "div",
          { class: "pile", role: "group", "aria-label": t("score_pile") },
          player.pile.map(cardNode),
        )
      : null,
  );
}

function shareBox(game) {
  const link = shareUrl(game.id);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      announce(t("copied"));
    } catch {
      document.getElementById("share-link").select();
    }
  };
  return h(
    "section",
    { class: "share", "aria-labelledby": "share-heading" },
    h("h2", { id: "share-heading" }, t("share_export")),
    h("label", { for: "share-link" }, t("share_link")),
    h("input", {
      id: "share-link",
      type: "text",
      readonly: true,
      value: link,
      "data-testid": "share-link",
    }),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", class: "secondary", onclick: copy }, t("copy_link")),
      h(
        "a",
        {
          class: "button secondary",
          href: api.exportUrl(game.id),
          download: `scorekeeper-${game.id}.json`,
          "data-testid": "export",
        },
        t("export_json"),
      ),
    ),
    gameScorerBox(game),
    h(
      "details",
      { class: "rules" },
      h("summary", {}, t("rule_options")),
      h(
        "dl",
        {},
        Object.entries(game.options).map(([name, value]) => [
          h("dt", {}, t(`opt_${name}`)),
          h("dd", {}, optionValueText(value)),
        ]),
      ),
    ),
  );
}
