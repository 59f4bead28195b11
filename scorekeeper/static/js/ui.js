// Small pieces of page shared by the views: the main box, headings, cards, errors, announcements.

import { ApiError, NetworkError } from "./api.js";
import { h } from "./dom.js";
import { RuleError } from "./rules/index.js";
import { cardLabel, cardText, SUIT_SYMBOL, SUITS } from "./format.js";
import { t } from "./i18n.js";

const ERROR_KEYS = {
  401: "err_401",
  403: "err_403",
  404: "err_404",
  409: "err_409",
  413: "err_413",
  429: "err_429",
};

// Where the views draw.
export function mainBox() {
  return document.getElementById("main");
}

export function announce(text) {
  const announcer = document.getElementById("announce");
  announcer.textContent = "";
  setTimeout(() => (announcer.textContent = text), 30);
}

// Short visible text, full name for screen readers (no aria-label that differs from what is shown).
export function spoken(visible, name) {
  return [
    h("span", { "aria-hidden": "true" }, visible),
    h("span", { class: "visually-hidden" }, name),
  ];
}

export function cardNode(code) {
  const suit = code === "JK" ? "joker" : code.slice(-1);
  const attrs = { class: ["card", `suit-${suit}`], "aria-label": cardLabel(code), role: "img" };
  return h("span", attrs, cardText(code));
}

export function errorText(error) {
  if (error instanceof NetworkError) return { line: t("err_network"), detail: null };
  if (error instanceof ApiError) {
    // A correction that clashes with a later round: the service names the round and player.
    if (error.status === 409 && error.details && error.details.round !== undefined) {
      return { line: error.message, detail: null, lang: error.language };
    }
    const key = ERROR_KEYS[error.status] || (error.status === 422 ? "err_422" : "err_generic");
    return { line: t(key), detail: error.message, detailLang: error.language };
  }
  // The rules on the phone refused it (offline): their words are English, as the service's.
  if (error instanceof RuleError) {
    if (error.status === 409) return { line: error.message, detail: null, lang: "en" };
    return { line: t("err_422"), detail: error.message, detailLang: "en" };
  }
  return { line: t("err_generic"), detail: String(error && error.message) };
}

export function errorBox(error, key = "error") {
  const { line, detail, lang, detailLang } = errorText(error);
  return h(
    "div",
    { class: "error", role: "alert", "data-testid": key },
    h("p", { lang: lang || null }, line),
    detail ? h("p", { class: "detail", lang: detailLang || null }, detail) : null,
  );
}

export function heading(text) {
  return h("h1", { tabindex: "-1", id: "page-title" }, text);
}

export function focusTitle() {
  const title = document.getElementById("page-title");
  if (title) title.focus({ preventScroll: false });
}

// The card picker's rank keys: tapping one chooses the rank, then a suit key completes the card.
export function rankKeys(ranks, draft, { disabled, redraw }) {
  return ranks.map((rank) =>
    h(
      "button",
      {
        type: "button",
        class: ["pick", draft.rank === rank && "selected"],
        "aria-pressed": String(draft.rank === rank),
        "data-key": `rank-${rank}`,
        "data-testid": `rank-${rank}`,
        disabled: disabled(rank),
        onclick: () => {
          draft.rank = rank;
          redraw();
        },
      },
      spoken(rank, t(`rank_${rank}`)),
    ),
  );
}

// The card picker's suit keys, one group: each completes the chosen rank into a card.
export function suitKeys(draft, { disabled, pick }) {
  return h(
    "div",
    { class: "grid suits", role: "group", "aria-label": t("suit") },
    SUITS.map((suit) =>
      h(
        "button",
        {
          type: "button",
          class: ["pick", `suit-${suit}`],
          "data-key": `suit-${suit}`,
          "data-testid": `suit-${suit}`,
          disabled: !draft.rank || disabled(draft.rank + suit),
          onclick: () => pick(draft.rank + suit),
        },
        spoken(SUIT_SYMBOL[suit], t(`suit_${suit}`)),
      ),
    ),
  );
}
