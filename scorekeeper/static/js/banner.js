// The outbox banner: what waits to be sent, what the service refused, a round another phone
// recorded first (the clash: theirs and mine side by side), and a change the service scored
// otherwise than this phone showed.

import { h, replace } from "./dom.js";
import { gameUrl, playerName } from "./format.js";
import { t } from "./i18n.js";
import { discard, dismissNotice, renumber, retry, waiting } from "./outbox.js";
import { store } from "./store.js";
import { session } from "./state/game-session.js";
import { askToEnterAgain, openDraft } from "./state/open-entry.js";
import { previewRound } from "./state/provisional.js";
import { currentRoute, go } from "./state/route.js";
import { resultsTable, seatChangeText } from "./views/results.js";

// The game whose clash shows the difference "Mine is round N+1" makes, before sending it.
let askingNext = null;

export function renderOutbox() {
  const boxes = store.outboxes();
  const items = Object.entries(boxes).map(([gameId, box]) => {
    const queue = waiting(gameId);
    const known = store.game(gameId);
    const gameName = (known && (known.name || known.players.join(", "))) || gameId;
    const notices = (box.notices || []).map((notice) => noticeItem(gameId, notice));
    const head = queue[0];
    if (!head) return notices;
    // A refused round being entered again stays kept here until its new entry is confirmed
    // (which replaces it) or it is discarded; the open form stands for it meanwhile.
    if (replacedByOpenEntry(gameId, head)) return notices;
    if (head.state === "taken") return [clashItem(gameId, head, gameName), ...notices];
    if (head.state === "failed") return [failedItem(gameId, head, gameName, queue), ...notices];
    const number = numberOf(head);
    const text =
      head.state === "waiting"
        ? t("pending_waiting", { number, game: gameName, attempts: head.attempts })
        : t("pending_sending", { number, game: gameName });
    return [
      h(
        "div",
        { class: "pending", "data-testid": "pending" },
        h("p", {}, text),
        queue.length > 1 ? h("p", {}, t("pending_more", { n: queue.length - 1 })) : null,
        head.state === "waiting"
          ? h("button", { type: "button", onclick: () => retry(gameId) }, t("retry_now"))
          : null,
      ),
      ...notices,
    ];
  });
  replace(document.getElementById("outbox"), items.flat());
}

/** The history number an outbox item is about. */
export function numberOf(item) {
  return item.body && item.body.number !== undefined ? item.body.number : item.number;
}

// Refused for good: sending it again cannot help. An invalid entry (422) can be entered again
// when nothing waits behind it; otherwise (the game is over, say) the reason and Discard.
function failedItem(gameId, entry, gameName, queue) {
  const number = numberOf(entry);
  return h(
    "div",
    { class: "pending failed", "data-testid": "pending-failed" },
    h("p", {}, t("pending_failed", { number, game: gameName })),
    entry.error
      ? h("p", { class: "detail", lang: entry.error.language || "en" }, entry.error.message)
      : null,
    queue.length > 1 ? h("p", {}, t("pending_more", { n: queue.length - 1 })) : null,
    h(
      "div",
      { class: "row" },
      canEnterAgain(entry) && queue.length === 1
        ? h(
            "button",
            {
              type: "button",
              class: "primary",
              "data-testid": "edit-refused",
              onclick: () => editRefused(gameId),
            },
            t("edit_refused"),
          )
        : null,
      h(
        "button",
        { type: "button", class: "danger", onclick: () => discard(gameId) },
        t("discard_round"),
      ),
    ),
  );
}

export function canEnterAgain(entry) {
  return (
    entry.kind === "round" &&
    entry.state === "failed" &&
    Boolean(entry.error && entry.error.status === 422)
  );
}

// Another phone recorded this number first. Theirs and mine side by side; the first (main)
// button keeps theirs and drops mine, so the default never records a round twice. "Mine is
// round N+1" first shows what the scores become, then sends it as that number.
function clashItem(gameId, entry, gameName) {
  const number = numberOf(entry);
  const next = entry.error.next || number + 1;
  const game = session.game && session.game.id === gameId ? session.game : null;
  const theirs = game && (session.base?.exported.rounds || []).find((r) => r.number === number);
  const parts = [h("h2", { id: `clash-${gameId}` }, t("clash_title", { number, game: gameName }))];
  if (game) {
    parts.push(
      h(
        "div",
        { class: "side-by-side" },
        h(
          "section",
          { "aria-label": t("clash_theirs", { number }) },
          h("h3", {}, t("clash_theirs", { number })),
          theirsPart(game, theirs, number),
        ),
        h(
          "section",
          { "aria-label": t("clash_mine", { number }) },
          h("h3", {}, t("clash_mine", { number })),
          minePart(game, entry, number),
        ),
      ),
    );
  } else {
    parts.push(h("p", {}, h("a", { href: gameUrl(gameId) }, t("clash_open_game"))));
  }
  if (askingNext === gameId && game) parts.push(...mineNext(gameId, entry, game, next));
  else {
    parts.push(
      h(
        "div",
        { class: "row" },
        h(
          "button",
          {
            type: "button",
            class: "primary",
            "data-testid": "clash-keep-theirs",
            onclick: () => discard(gameId),
          },
          t("clash_keep_theirs"),
        ),
        game
          ? h(
              "button",
              {
                type: "button",
                class: "secondary",
                "data-testid": "clash-mine-next",
                onclick: () => {
                  askingNext = gameId;
                  renderOutbox();
                  document.querySelector("[data-testid=clash-send-next]")?.focus();
                },
              },
              t("clash_mine_next", { n: next }),
            )
          : null,
      ),
    );
  }
  return h(
    "div",
    {
      class: "pending failed clash",
      role: "region",
      "aria-labelledby": `clash-${gameId}`,
      "data-testid": "clash",
    },
    parts,
  );
}

function theirsPart(game, theirs, number) {
  if (!theirs) return h("p", {}, t("checking"));
  if (theirs.round.seat_change) return h("p", {}, seatChangeText(game, theirs.round));
  return resultsTable(game, theirs.round, t("clash_theirs", { number }));
}

function minePart(game, entry, number) {
  if (entry.kind === "seat") {
    const body = entry.body;
    const what = body.join
      ? t("join_submit") + ": " + ((entry.newcomer && entry.newcomer.name) || "")
      : t("left_named", { name: playerName(game, body.leave) });
    return h("p", {}, what);
  }
  if (!entry.shown) return h("p", {}, t("clash_not_shown"));
  return resultsTable(game, entry.shown, t("clash_mine", { number }));
}

// The difference mine makes as round N+1 (on top of theirs), and the way to send it.
function mineNext(gameId, entry, game, next) {
  const base = session.base;
  let lines = [];
  if (entry.kind === "seat") return [nextButtons(gameId, next)];
  try {
    const done = base.items.filter((item) => item.state === "done");
    const round = previewRound(base.exported, done, { ...entry.body, number: next });
    lines = round.results.map((r) =>
      t("score_change", {
        name: playerName(game, r.player),
        before: r.score_before,
        after: r.score_after,
      }),
    );
  } catch (error) {
    lines = [String(error.message)];
  }
  return [
    h(
      "p",
      { "data-testid": "clash-difference" },
      t("clash_difference", { n: next }),
      " ",
      lines.join("; "),
    ),
    nextButtons(gameId, next),
  ];
}

function nextButtons(gameId, next) {
  return h(
    "div",
    { class: "row" },
    h(
      "button",
      {
        type: "button",
        class: "primary",
        "data-testid": "clash-send-next",
        onclick: () => {
          askingNext = null;
          renumber(gameId);
        },
      },
      t("clash_send_next", { n: next }),
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        onclick: () => {
          askingNext = null;
          renderOutbox();
        },
      },
      t("cancel"),
    ),
  );
}

// The service scored a change otherwise than this phone showed (another phone changed an earlier
// round meanwhile, say): both, and OK. The service's stands.
function noticeItem(gameId, notice) {
  const game = session.game && session.game.id === gameId ? session.game : null;
  const number = notice.number;
  return h(
    "div",
    { class: "pending differs", "data-testid": "differs" },
    h("p", {}, t("differs_title", { n: number })),
    game
      ? h(
          "div",
          { class: "side-by-side" },
          h(
            "section",
            {},
            h("h3", {}, t("differs_shown")),
            resultsTable(game, notice.shown, t("differs_shown")),
          ),
          h(
            "section",
            {},
            h("h3", {}, t("differs_recorded")),
            resultsTable(game, notice.answer, t("differs_recorded")),
          ),
        )
      : null,
    h(
      "button",
      { type: "button", class: "primary", onclick: () => dismissNotice(gameId, number) },
      t("differs_ok"),
    ),
  );
}

function replacedByOpenEntry(gameId, entry) {
  const current = currentRoute();
  const draft = openDraft();
  return Boolean(
    current &&
    current.view === "game" &&
    current.tab === "round" &&
    current.id === gameId &&
    draft &&
    draft.replaces === entry.key,
  );
}

// Open the round entry form with a refused round's entry. It stays in the outbox until the new
// entry is confirmed (replacing it) or it is discarded: closing the page meanwhile loses nothing.
function editRefused(gameId) {
  const entry = waiting(gameId)[0];
  if (!entry || !canEnterAgain(entry)) return;
  askToEnterAgain(gameId, entry.key);
  go(gameUrl(gameId, "round"));
}
