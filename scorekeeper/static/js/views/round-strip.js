// The strip after this phone confirmed a round: what the round just did ("Bikash halved to 50 ·
// Chandra is out · Asha deals") and a one-tap Undo. It shows at once, from the provisional round
// while the round waits in the outbox, and goes at the next step elsewhere (another tab, the next
// round's entry) or when the game moves on.

import { api, ApiError } from "../api.js";
import { h } from "../dom.js";
import { gameUrl } from "../format.js";
import { roundHappenings } from "../happenings.js";
import { t } from "../i18n.js";
import { onOutboxChange, stopped } from "../outbox.js";
import { live, refreshGame, session } from "../state/game-session.js";
import { mustQueue, undoLast } from "../state/offline-changes.js";
import { store } from "../store.js";
import { announce, errorBox } from "../ui.js";
import { roundLabel } from "../round-numbers.js";

// {gameId, number, refused} of the round this phone confirmed last, while the strip is up; or
// null. refused: its Undo was refused because something came after it (the strip then says so).
let confirmed = null;

onOutboxChange((event) => {
  if (event.type === "queued" && event.item && event.item.kind === "round") {
    confirmed = { gameId: event.gameId, number: event.item.body.number, refused: false };
  } else if (event.type === "discarded" && confirmed && confirmed.gameId === event.gameId) {
    confirmed = null; // the round was dropped (Keep theirs): what is last now is not this phone's
  }
});

window.addEventListener("hashchange", () => {
  if (confirmed && location.hash !== gameUrl(confirmed.gameId)) confirmed = null;
});

// The game's last item, as this phone shows it (the provisional one while it waits), when it is
// round `number`; else null.
function lastRound(number) {
  const rounds = session.rounds || [];
  const last = rounds[rounds.length - 1];
  return last && last.number === number && !last.seat_change && !last.end ? last : null;
}

// The round is still the game's last item, as this phone last heard it.
function stillLast(round) {
  const last = lastRound(round.number);
  return Boolean(last) && last.created_at === round.created_at;
}

// The strip for the game's table, or null when this phone did not just confirm its last round.
export function confirmedStrip(game) {
  if (!confirmed || confirmed.gameId !== game.id) return null;
  // The service refused it, or another phone's round took its number: the banner asks first.
  if (stopped(game.id)) return null;
  if (confirmed.refused) return notLast(confirmed.number);
  const round = lastRound(confirmed.number);
  if (!round) return null;
  return roundStrip(game, round, (strip) => undoConfirmed(game, round, strip));
}

function notLast(number) {
  return h(
    "p",
    { class: "error", role: "alert", "data-testid": "strip-undo-error" },
    t("strip_not_last", { n: roundLabel(session.rounds, number) }),
  );
}

// Undo of the round the strip is for: refused on this phone when another item came after it, and
// by the service when it is not the last there (the game is then loaded again). Offline, or while
// changes wait to be sent, it goes through the outbox as History's undo does (a round never sent
// is simply taken back).
async function undoConfirmed(game, round, strip) {
  const refused = () => {
    if (confirmed && confirmed.number === round.number) confirmed.refused = true;
    strip.replaceWith(notLast(round.number));
  };
  if (!stillLast(round)) {
    refused();
    return;
  }
  if (mustQueue(game.id)) {
    confirmed = null;
    undoLast(game.id);
    announce(t("undone", { n: roundLabel(session.rounds, round.number) }));
    return;
  }
  try {
    const undo = () => api.undoRound(game.id, store.token(game.id), round.number);
    await live.write(undo, { kind: "undo", number: round.number });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
      refused();
      await refreshGame();
      return;
    }
    // Offline, say: the round stays, and Undo can be tapped again.
    strip.querySelector("[data-testid=strip-undo]").disabled = false;
    strip.querySelector(".strip-error")?.remove();
    strip.append(h("div", { class: "strip-error" }, errorBox(error, "strip-undo-error")));
    return;
  }
  confirmed = null;
  announce(t("undone", { n: roundLabel(session.rounds, round.number) }));
}

// round: as GET .../rounds lists it; onUndo(strip): the strip's Undo was tapped.
export function roundStrip(game, round, onUndo) {
  const said = roundHappenings(game, round).map(({ key, vars }) => t(key, vars));
  const strip = h(
    "section",
    { class: "round-strip", "aria-labelledby": "strip-heading", "data-testid": "round-strip" },
    h(
      "h2",
      { id: "strip-heading", class: "visually-hidden" },
      t("strip_heading", { n: roundLabel(session.rounds, round.number) }),
    ),
    h("p", { class: "strip-text", role: "status", "data-testid": "strip-text" }, said.join(" · ")),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        "data-key": "strip-undo",
        "data-testid": "strip-undo",
        onclick: (event) => {
          event.currentTarget.disabled = true;
          onUndo(strip);
        },
      },
      t("strip_undo"),
      h(
        "span",
        { class: "visually-hidden" },
        ` (${t("round_n", { n: roundLabel(session.rounds, round.number) })})`,
      ),
    ),
  );
  return strip;
}
