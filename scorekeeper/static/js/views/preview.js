// The entry's preview: the service's dry run of the round, or offline the rules on the phone's
// (or why there is none), and Confirm.

import { NetworkError } from "../api.js";
import { h, replace } from "../dom.js";
import { playerName } from "../format.js";
import { t } from "../i18n.js";
import { errorBox } from "../ui.js";
import { entryComplete } from "./entry-draft.js";
import { resultsTable, roundSummary } from "./results.js";
import { roundLabel } from "../round-numbers.js";
import { session } from "../state/game-session.js";

// actions: {retry} asks for the dry run again, {confirm} is Confirm's click handler.
export function renderPreview(draft, game, actions) {
  const box = document.getElementById("preview");
  if (!box) return;
  const parts = [h("h2", { id: "preview-heading" }, t("preview"))];
  let canConfirm = false;
  if (!entryComplete(draft)) {
    parts.push(h("p", { class: "help" }, t(`preview_hint_${draft.kind}`)));
  } else if (draft.previewing && !draft.preview) {
    parts.push(h("p", { class: "help" }, t("checking")));
  } else if (draft.preview) {
    canConfirm = true;
    parts.push(...previewResult(draft, game));
  } else if (draft.previewError) {
    canConfirm = draft.previewError instanceof NetworkError && draft.mode === "new";
    parts.push(...previewProblem(draft, actions));
  }
  parts.push(
    h(
      "button",
      {
        type: "button",
        class: "primary big",
        "data-key": "confirm",
        "data-testid": "confirm",
        disabled: !canConfirm || Boolean(draft.sending),
        onclick: actions.confirm,
      },
      draft.mode === "new"
        ? t("confirm_round", { n: roundLabel(session.rounds, draft.number) })
        : t("save_correction"),
    ),
  );
  replace(box, parts);
}

function previewResult(draft, game) {
  const round = draft.preview;
  const parts = [
    draft.offline
      ? h("p", { class: "notice", "data-testid": "offline-note" }, t("preview_on_phone"))
      : null,
    h("p", { class: "summary", "data-testid": "preview-summary" }, roundSummary(game, round)),
    resultsTable(game, round, t("preview")),
  ];
  const after = round.game;
  if (after.status === "finished") {
    const names = after.winners.map((id) => playerName(game, id)).join(", ");
    const words =
      after.winners.length > 1 ? t("shared_win", { names }) : t("winner_is", { name: names });
    parts.push(h("p", { class: "winner-title" }, words));
  } else if (round.cards_each !== undefined && after.next_round) {
    const next = after.next_round;
    const name = playerName(game, next.dealer);
    parts.push(h("p", {}, t("next_deal_preview", { name, n: next.cards_each })));
  }
  if (draft.mode === "edit") parts.push(h("p", { class: "notice" }, editNote(draft, game, round)));
  return parts;
}

// No dry run: offline (a new round can still be confirmed: it waits in the outbox), or the
// service's error.
function previewProblem(draft, actions) {
  const error = draft.previewError;
  const parts = [];
  if (error instanceof NetworkError && draft.mode === "new") {
    parts.push(h("p", { class: "notice", "data-testid": "offline-note" }, t("preview_offline")));
  } else {
    parts.push(errorBox(error, "preview-error"));
  }
  if (error instanceof NetworkError) {
    // Also tried again on its own when the browser says the connection is back.
    parts.push(
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          "data-key": "retry-preview",
          "data-testid": "retry-preview",
          disabled: Boolean(draft.previewing),
          onclick: actions.retry,
        },
        t("retry_preview"),
      ),
    );
  }
  return parts;
}

// What a correction changes: the scores after the round, and how many later rounds are scored
// again.
function editNote(draft, game, round) {
  const before = new Map(draft.original.results.map((r) => [r.player, r.score_after]));
  const changes = round.results
    .filter((r) => before.get(r.player) !== r.score_after)
    .map((r) =>
      t("score_change", {
        name: playerName(game, r.player),
        before: before.get(r.player),
        after: r.score_after,
      }),
    );
  const later = draft.later;
  return [
    changes.length ? changes.join("; ") + ". " : t("no_score_change") + " ",
    later > 0 ? t("later_rescored", { n: later }) : "",
  ].join("");
}
