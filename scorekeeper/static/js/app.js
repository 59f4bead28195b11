// Scorekeeper's phone page. Talks only to the public API (/api/v1); no scoring rules live here:
// every result shown before confirming comes from the service's dry run.

import { api, ApiError, NetworkError } from "./api.js";
import { h, replace } from "./dom.js";
import { LANGUAGES, language, pickLanguage, setLanguage, t } from "./i18n.js";
import { discard, enqueue, flushAll, onOutboxChange, retry } from "./outbox.js";
import { store } from "./store.js";
import { chart } from "./chart.js";

const main = document.getElementById("main");
const outboxBox = document.getElementById("outbox");
const announcer = document.getElementById("announce");

const SUITS = ["S", "H", "D", "C"];
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const TT_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const PAD_MAX = 50;

const app = {
  rulesets: null,
  route: null,
  game: null,
  etag: null,
  rounds: null,
  entries: null,
  draft: null,
  notice: null,
  poll: null,
  // The round a pending "Yes, undo round N" was opened for ({number, seen}: seen is the round
  // as the service showed it then, see roundSeen), or null.
  confirmUndo: null,
  // One message below the undo control in History (an undo that failed or was cancelled), or null.
  historyMessage: null,
  // A refused round to enter again: {gameId, key} of its outbox entry; startEntry fills the form.
  prefill: null,
  confirmForget: null,
  previewSeq: 0,
  undoing: false,
  routeFailed: false,
};

// ---------- helpers ----------

function announce(text) {
  announcer.textContent = "";
  setTimeout(() => (announcer.textContent = text), 30);
}

function rulesetTitle(name) {
  return name === "jhyap" ? t("ruleset_jhyap") : t("ruleset_twenty_two");
}

function playerName(id) {
  const player = app.game && app.game.players.find((p) => p.id === id);
  return player ? player.name : "?";
}

function cardText(code) {
  if (!code) return "";
  if (code === "JK") return t("joker");
  return code.slice(0, -1) + SUIT_SYMBOL[code.slice(-1)];
}

function cardLabel(code) {
  if (code === "JK") return t("joker");
  return t("card_label", { rank: t(`rank_${code.slice(0, -1)}`), suit: t(`suit_${code.slice(-1)}`) });
}

// Short visible text, full name for screen readers (no aria-label that differs from what is shown).
function spoken(visible, name) {
  return [h("span", { "aria-hidden": "true" }, visible), h("span", { class: "visually-hidden" }, name)];
}

function cardNode(code) {
  const suit = code === "JK" ? "joker" : code.slice(-1);
  return h("span", { class: ["card", `suit-${suit}`], "aria-label": cardLabel(code), role: "img" }, cardText(code));
}

function errorText(error) {
  if (error instanceof NetworkError) return { line: t("err_network"), detail: null };
  if (error instanceof ApiError) {
    // A correction that clashes with a later round: the service names the round and player.
    if (error.status === 409 && error.details && error.details.round !== undefined) {
      return { line: error.message, detail: null, lang: "en" };
    }
    const key = { 401: "err_401", 403: "err_403", 404: "err_404", 409: "err_409", 413: "err_413", 429: "err_429" }[error.status];
    return { line: t(key || (error.status === 422 ? "err_422" : "err_generic")), detail: error.message };
  }
  return { line: t("err_generic"), detail: String(error && error.message) };
}

function errorBox(error, key = "error") {
  const { line, detail, lang } = errorText(error);
  return h(
    "div",
    { class: "error", role: "alert", "data-testid": key },
    h("p", { lang: lang || null }, line),
    detail ? h("p", { class: "detail", lang: "en" }, detail) : null,
  );
}

function gameUrl(id, tab = "") {
  return `#/game/${encodeURIComponent(id)}${tab ? "/" + tab : ""}`;
}

function shareUrl(id) {
  return `${location.origin}${location.pathname}#/watch/${encodeURIComponent(id)}`;
}

function heading(text) {
  return h("h1", { tabindex: "-1", id: "page-title" }, text);
}

function focusTitle() {
  const title = document.getElementById("page-title");
  if (title) title.focus({ preventScroll: false });
}

function activePlayers(game = app.game) {
  return game.players.filter((p) => !p.eliminated);
}

// ---------- router ----------

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "new") return { view: "new" };
  if (parts[0] === "game" && parts[1]) {
    if (parts[2] === "edit" && parts[3]) return { view: "game", id: parts[1], tab: "edit", number: Number(parts[3]) };
    return { view: "game", id: parts[1], tab: parts[2] || "table" };
  }
  if (parts[0] === "watch" && parts[1]) return { view: "watch", id: parts[1], tab: parts[2] || "table" };
  return { view: "home" };
}

async function route() {
  const previous = app.route;
  app.route = parseRoute();
  const sameGame = previous && app.route.id && previous.id === app.route.id;
  if (!sameGame) {
    stopPolling();
    app.game = null;
    app.etag = null;
    app.rounds = null;
    app.entries = null;
  }
  app.confirmUndo = null;
  app.historyMessage = null;
  // Tried again (Retry, or the connection is back) after this view failed to load.
  const retried = app.routeFailed;
  app.routeFailed = false;
  if (app.route.tab !== "round" && app.route.tab !== "edit") {
    app.draft = null;
    renderOutbox(); // a refused round hidden while its new entry was open shows again
  }
  try {
    if (app.route.view === "home") renderHome();
    else if (app.route.view === "new") await renderNew();
    // The same game, but its last load stopped half way (the game came, its rounds did not):
    // load it all again, and poll from then on.
    else await renderGameRoute(!sameGame || !app.rounds || !app.poll);
  } catch (error) {
    routeError(error);
  }
  if (!sameGame || previous.tab !== app.route.tab || retried) focusTitle();
}

// A view that could not be loaded (offline, say): try again (also when the connection is back),
// or go back to the game when this phone already shows it.
function routeError(error) {
  const current = app.route;
  app.routeFailed = true;
  const known = current.id && app.game && app.game.id === current.id;
  const title = current.tab === "edit" ? t("edit_round_n", { n: current.number }) : known ? gameTitle() : t("app_name");
  const back =
    known && current.tab !== "table"
      ? h(
          "a",
          { class: "button secondary", href: current.view === "watch" ? `#/watch/${encodeURIComponent(current.id)}` : gameUrl(current.id, current.tab === "edit" ? "history" : ""), "data-testid": "back-to-game" },
          t("back_to_game"),
        )
      : null;
  replace(
    main,
    heading(title),
    errorBox(error),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", class: "primary", "data-key": "retry-route", "data-testid": "retry-route", onclick: () => route() }, t("try_again_load")),
      back,
    ),
    h("p", {}, h("a", { href: "#/" }, t("back_home"))),
  );
}

window.addEventListener("online", () => {
  if (app.routeFailed) route();
});

// ---------- outbox banner ----------

function renderOutbox() {
  const pending = store.pendingAll();
  const items = Object.entries(pending).map(([gameId, entry]) => {
    // A refused round being entered again stays kept here until its new entry is confirmed
    // (which replaces it) or it is discarded; the open form stands for it meanwhile.
    if (replacedByOpenEntry(gameId, entry)) return null;
    const known = store.game(gameId);
    const gameName = (known && (known.name || known.players.join(", "))) || gameId;
    const number = entry.body.number;
    if (entry.state === "failed") {
      // Refused for good: sending it again cannot help. Another phone recorded that round (409)
      // or it was an invalid entry typed offline (422): it can be entered again as the next
      // round. Otherwise (the game is over, say) only the service's reason and Discard.
      const taken = Boolean(entry.error && entry.error.taken);
      return h(
        "div",
        { class: "pending failed", "data-testid": "pending-failed" },
        h("p", {}, taken ? t("pending_taken", { number, game: gameName }) : t("pending_failed", { number, game: gameName })),
        entry.error ? h("p", { class: "detail", lang: "en" }, entry.error.message) : null,
        h(
          "div",
          { class: "row" },
          canEnterAgain(entry)
            ? h("button", { type: "button", class: "primary", "data-testid": "edit-refused", onclick: () => editRefused(gameId) }, t("edit_refused"))
            : null,
          h("button", { type: "button", class: "danger", onclick: () => discard(gameId) }, t("discard_round")),
        ),
      );
    }
    const text =
      entry.state === "waiting"
        ? t("pending_waiting", { number, game: gameName, attempts: entry.attempts })
        : t("pending_sending", { number, game: gameName });
    return h(
      "div",
      { class: "pending", "data-testid": "pending" },
      h("p", {}, text),
      entry.state === "waiting"
        ? h("button", { type: "button", onclick: () => retry(gameId) }, t("retry_now"))
        : null,
    );
  });
  replace(outboxBox, items);
}

function canEnterAgain(entry) {
  return entry.state === "failed" && Boolean(entry.error && (entry.error.taken || entry.error.status === 422));
}

function replacedByOpenEntry(gameId, entry) {
  const current = app.route;
  const draft = app.draft;
  return Boolean(
    current && current.view === "game" && current.tab === "round" && current.id === gameId && draft && draft.replaces === entry.key,
  );
}

// Open the round entry form with a refused round's entry. It stays in the outbox until the new
// entry is confirmed (replacing it) or it is discarded: closing the page meanwhile loses nothing.
function editRefused(gameId) {
  const entry = store.pending(gameId);
  if (!entry || !canEnterAgain(entry)) return;
  app.prefill = { gameId, key: entry.key };
  const target = gameUrl(gameId, "round");
  if (location.hash === target) route();
  else location.hash = target;
}

onOutboxChange(async (event) => {
  renderOutbox();
  if (event.type === "sent") announce(t("round_saved", { number: event.round.number }));
  if (app.game && event.gameId === app.game.id && (event.type === "sent" || event.type === "discarded")) {
    await refreshGame(true);
  }
});

// ---------- home ----------

function renderHome() {
  const games = store.games();
  const list = games.length
    ? h(
        "ul",
        { class: "games" },
        games.map((game) =>
          h(
            "li",
            { class: "game-item" },
            h(
              "a",
              { class: "game-link", href: gameUrl(game.id), "data-key": `open-${game.id}` },
              h("span", { class: "game-name" }, game.name || game.players.join(", ")),
              h(
                "span",
                { class: "game-meta" },
                `${rulesetTitle(game.ruleset)} · ${game.status === "finished" ? t("status_finished") : t("status_in_progress")}`,
              ),
              game.imported ? importedMark(game.imported) : null,
            ),
            app.confirmForget === game.id
              ? h(
                  "button",
                  {
                    type: "button",
                    class: "danger",
                    "data-key": `forget-${game.id}`,
                    onclick: () => {
                      store.forgetGame(game.id);
                      app.confirmForget = null;
                      renderHome();
                    },
                  },
                  t("forget_confirm"),
                )
              : h(
                  "button",
                  {
                    type: "button",
                    class: "secondary",
                    "data-key": `forget-${game.id}`,
                    "aria-label": t("forget_game_named", { game: game.name || game.players.join(", ") }),
                    onclick: () => {
                      app.confirmForget = game.id;
                      renderHome();
                    },
                  },
                  t("forget_game"),
                ),
          ),
        ),
      )
    : h("p", { class: "empty" }, t("no_games"));
  replace(
    main,
    heading(t("app_name")),
    h("p", { class: "lead" }, t("tagline")),
    h("a", { class: "button primary big", href: "#/new", "data-testid": "new-game" }, t("new_game")),
    h("h2", {}, t("games_on_phone")),
    list,
    h("h2", {}, t("import_title")),
    h(
      "label",
      { class: "file" },
      h("span", {}, t("import_label")),
      h("input", { type: "file", accept: "application/json,.json", id: "import-file", onchange: importFile }),
    ),
    h("div", { id: "import-result" }),
  );
}

// An imported game shows the same name as its original: it is marked in words, with the day
// this phone imported it.
function importedMark(when) {
  const date = new Date(when);
  let shown = null;
  if (!Number.isNaN(date.getTime())) {
    try {
      shown = new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(date);
    } catch {
      shown = date.toLocaleDateString();
    }
  }
  return h(
    "span",
    { class: "game-imported", "data-testid": "imported" },
    h("span", { class: "badge imported" }, t("imported_badge")),
    shown ? [" ", h("time", { datetime: when }, t("imported_on", { date: shown }))] : null,
  );
}

async function importFile(event) {
  const file = event.target.files[0];
  const box = document.getElementById("import-result");
  if (!file) return;
  try {
    const text = await file.text();
    try {
      JSON.parse(text);
    } catch {
      replace(box, h("div", { class: "error", role: "alert" }, h("p", {}, t("import_not_json"))));
      return;
    }
    const game = await api.importGame(text);
    store.saveGame(game, game.token, { imported: new Date().toISOString() });
    app.notice = t("imported");
    location.hash = gameUrl(game.id);
  } catch (error) {
    replace(box, errorBox(error));
  }
}

// ---------- new game ----------

async function renderNew() {
  if (!app.rulesets) app.rulesets = await api.rulesets();
  // dealer/starter: a seat index or null (at random); they follow their person when seats shift.
  // optionErrors: what the service said about each option it refused ({name: problem}).
  const form = { ruleset: "jhyap", name: "", names: ["", "", ""], dealer: null, starter: null, touched: {}, values: {}, error: null, optionErrors: {}, optionsOpen: false, busy: false };
  const optionInput = (ruleset, name, spec) => {
    const id = `opt-${name}`;
    const value = name in form.values ? form.values[name] : spec.default;
    const label = h("label", { for: id }, t(`opt_${name}`));
    const problem = form.optionErrors[name];
    const described = { "aria-describedby": problem ? `${id}-error ${id}-help` : `${id}-help`, "aria-invalid": problem ? "true" : null };
    let input;
    if (spec.allowed.type === "choice") {
      input = h(
        "select",
        { id, "data-key": id, ...described, onchange: (e) => setOption(name, e.target.value) },
        spec.allowed.choices.map((choice) =>
          h("option", { value: choice, selected: value === choice }, t(`choice_${choice}`)),
        ),
      );
    } else if (spec.allowed.type === "even_integers") {
      input = h("input", {
        id,
        "data-key": id,
        type: "text",
        inputmode: "numeric",
        value: value.join(", "),
        ...described,
        oninput: (e) => setOption(name, e.target.value),
      });
    } else {
      input = h("input", {
        id,
        "data-key": id,
        type: "number",
        inputmode: "numeric",
        min: spec.allowed.minimum,
        max: spec.allowed.maximum,
        value,
        ...described,
        oninput: (e) => setOption(name, e.target.value),
      });
    }
    return h(
      "div",
      { class: "field" },
      label,
      input,
      problem ? h("p", { class: "field-error", id: `${id}-error`, "data-testid": `${id}-error` }, optionProblem(name, problem)) : null,
      h("p", { class: "help", id: `${id}-help` }, t(`opt_${name}_help`), " ", t("default_is", { value: showValue(spec.default) })),
    );
  };
  const showValue = (value) => (Array.isArray(value) ? value.join(", ") || "—" : typeof value === "string" ? t(`choice_${value}`) : value);
  const setOption = (name, value) => {
    form.values[name] = value;
    form.touched[name] = true;
    if (name in form.optionErrors) clearOptionError(name);
  };
  // The value was changed after the service refused it: its message goes (the rest stay).
  const clearOptionError = (name) => {
    delete form.optionErrors[name];
    const id = `opt-${name}`;
    const input = document.getElementById(id);
    if (input) {
      input.removeAttribute("aria-invalid");
      input.setAttribute("aria-describedby", `${id}-help`);
    }
    document.getElementById(`${id}-error`)?.remove();
    if (!Object.keys(form.optionErrors).length) form.error = null;
    // The box at the top names only the options still refused (none: it goes).
    replace(document.getElementById("form-error"), form.error ? formErrorBox() : null);
  };
  // The service's error, or for refused options a pointer to them by the page's own labels.
  const formErrorBox = () => {
    const names = Object.keys(form.optionErrors);
    if (!names.length) return errorBox(form.error);
    return h(
      "div",
      { class: "error", role: "alert", "data-testid": "error" },
      h("p", {}, t("err_options", { names: names.map((name) => t(`opt_${name}`)).join(", ") })),
    );
  };
  const ruleset = () => app.rulesets.find((r) => r.name === form.ruleset);
  const seatSelect = (id, labelKey) =>
    h(
      "div",
      { class: "field" },
      h("label", { for: id }, t(labelKey)),
      h(
        "select",
        { id, "data-key": id, onchange: (e) => (form[id] = e.target.value === "" ? null : Number(e.target.value)) },
        h("option", { value: "", selected: form[id] === null }, t("pick_random")),
        form.names.map((name, seat) =>
          h("option", { value: String(seat), selected: form[id] === seat }, name.trim() || t("seat_n", { n: seat + 1 })),
        ),
      ),
    );
  // Seats from `seat` on moved up by one: the chosen dealer and starter move with their person.
  const seatRemoved = (seat) => {
    for (const role of ["dealer", "starter"]) {
      if (form[role] === seat) form[role] = null;
      else if (form[role] !== null && form[role] > seat) form[role] -= 1;
    }
  };
  const seatsCut = () => {
    for (const role of ["dealer", "starter"]) if (form[role] !== null && form[role] >= form.names.length) form[role] = null;
  };

  const draw = () => {
    const rules = ruleset();
    replace(
      main,
      heading(t("new_game")),
      h(
        "form",
        { id: "new-game-form", novalidate: true, onsubmit: submit },
        h(
          "fieldset",
          { class: "choices" },
          h("legend", {}, t("choose_game")),
          app.rulesets.map((r) =>
            h(
              "label",
              { class: ["choice", form.ruleset === r.name && "selected"] },
              h("input", {
                type: "radio",
                name: "ruleset",
                value: r.name,
                "data-key": `ruleset-${r.name}`,
                checked: form.ruleset === r.name,
                onchange: () => {
                  form.ruleset = r.name;
                  form.values = {};
                  form.touched = {};
                  form.optionErrors = {};
                  form.error = null;
                  while (form.names.length > r.max_players) form.names.pop();
                  while (form.names.length < r.min_players) form.names.push("");
                  seatsCut();
                  draw();
                },
              }),
              h("span", {}, rulesetTitle(r.name)),
              h("span", { class: "help" }, t("players_range", { min: r.min_players, max: r.max_players })),
            ),
          ),
        ),
        h(
          "div",
          { class: "field" },
          h("label", { for: "game-name" }, t("game_name")),
          h("input", {
            id: "game-name",
            "data-key": "game-name",
            type: "text",
            maxlength: "100",
            autocomplete: "off",
            value: form.name,
            oninput: (e) => (form.name = e.target.value),
          }),
        ),
        h(
          "fieldset",
          {},
          h("legend", {}, t("players_in_order")),
          h(
            "ol",
            { class: "names" },
            form.names.map((name, seat) =>
              h(
                "li",
                {},
                h("label", { for: `player-${seat}`, class: "visually-hidden" }, t("seat_n", { n: seat + 1 })),
                h("input", {
                  id: `player-${seat}`,
                  "data-key": `player-${seat}`,
                  type: "text",
                  maxlength: "40",
                  autocomplete: "off",
                  placeholder: t("seat_n", { n: seat + 1 }),
                  value: name,
                  oninput: (e) => {
                    form.names[seat] = e.target.value;
                    for (const id of ["dealer", "starter"]) {
                      const select = document.getElementById(id);
                      if (select) select.options[seat + 1].textContent = e.target.value.trim() || t("seat_n", { n: seat + 1 });
                    }
                  },
                }),
                form.names.length > rules.min_players
                  ? h(
                      "button",
                      {
                        type: "button",
                        class: "icon secondary",
                        "data-key": `remove-${seat}`,
                        "aria-label": t("remove_seat", { n: seat + 1 }),
                        onclick: () => {
                          form.names.splice(seat, 1);
                          seatRemoved(seat);
                          draw();
                        },
                      },
                      "✕",
                    )
                  : null,
              ),
            ),
          ),
          form.names.length < rules.max_players
            ? h(
                "button",
                {
                  type: "button",
                  class: "secondary",
                  "data-key": "add-player",
                  onclick: () => {
                    form.names.push("");
                    draw();
                    document.getElementById(`player-${form.names.length - 1}`).focus();
                  },
                },
                t("add_player"),
              )
            : null,
        ),
        seatSelect("dealer", "first_dealer"),
        rules.chooses_starter ? seatSelect("starter", "first_starter") : null,
        h(
          "details",
          { class: "options", open: form.optionsOpen, ontoggle: (e) => (form.optionsOpen = e.target.open) },
          h("summary", {}, t("rule_options")),
          Object.entries(rules.options).map(([name, spec]) => optionInput(rules.name, name, spec)),
        ),
        h("div", { id: "form-error" }, form.error ? formErrorBox() : null),
        h("button", { type: "submit", class: "primary big", "data-testid": "start-game", disabled: form.busy }, t("start_game")),
      ),
    );
  };

  const localError = (message) => {
    form.error = null;
    replace(document.getElementById("form-error"), h("div", { class: "error", role: "alert" }, h("p", {}, message)));
  };

  async function submit(event) {
    event.preventDefault();
    const rules = ruleset();
    const names = form.names.map((n) => n.trim()).filter(Boolean);
    if (names.length < rules.min_players) return localError(t("need_players", { min: rules.min_players }));
    const body = { ruleset: rules.name, players: names };
    const name = form.name.trim();
    if (name) body.name = name;
    const seatOf = (role) => {
      if (form[role] === null || form[role] >= form.names.length) return undefined;
      const typed = form.names[form[role]].trim();
      const seat = typed ? names.indexOf(typed) : -1;
      return seat >= 0 ? seat : undefined;
    };
    const dealer = seatOf("dealer");
    if (dealer !== undefined) body.dealer = dealer;
    const starter = rules.chooses_starter ? seatOf("starter") : undefined;
    if (starter !== undefined) body.starter = starter;
    const options = {};
    for (const [key, spec] of Object.entries(rules.options)) {
      if (!form.touched[key]) continue;
      const raw = form.values[key];
      if (spec.allowed.type === "choice") options[key] = raw;
      else if (spec.allowed.type === "even_integers")
        options[key] = String(raw).split(/[\s,]+/).filter(Boolean).map(Number);
      else options[key] = raw === "" ? raw : Number(raw);
    }
    if (Object.keys(options).length) body.options = options;
    form.busy = true;
    try {
      const game = await api.createGame(body);
      store.saveGame(game, game.token);
      const random = [];
      if (dealer === undefined) random.push(t("random_dealer", { name: game.players.find((p) => p.id === game.next_round.dealer).name }));
      if (rules.chooses_starter && starter === undefined)
        random.push(t("random_starter", { name: game.players.find((p) => p.id === game.next_round.starter).name }));
      app.notice = random.join(" ") || null;
      location.hash = gameUrl(game.id);
    } catch (error) {
      form.busy = false;
      form.error = error;
      form.optionErrors = optionErrors(error, rules);
      const refused = Object.keys(form.optionErrors);
      if (refused.length) {
        // Shown by each refused option, under its own label; the first one gets the focus.
        form.optionsOpen = true;
        draw();
        document.getElementById(`opt-${refused[0]}`).focus();
        return;
      }
      replace(document.getElementById("form-error"), errorBox(error));
      document.querySelector("#form-error .error")?.focus?.();
    }
  }
  draw();
}

// The options a 422 from POST /games refused, by name: details are keyed by field path,
// {"options": {"call_limit": ["give a whole number from 0 to 50."]}}. Only the ruleset's own.
function optionErrors(error, rules) {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const options = error.details && error.details.options;
  if (!options || typeof options !== "object" || Array.isArray(options)) return {};
  const found = {};
  for (const [name, problems] of Object.entries(options)) {
    if (!(name in rules.options)) continue;
    const problem = Array.isArray(problems) ? problems[0] : problems;
    found[name] = typeof problem === "string" ? problem : "";
  }
  return found;
}

// The service's problems with an option, in the page's words where it knows them.
const OPTION_PROBLEMS = [
  [/^give a whole number from (-?\d+) to (-?\d+)\.?$/, (m) => t("opt_problem_range", { min: m[1], max: m[2] })],
  [/^each score must be even and from (-?\d+) to (-?\d+)\.?$/, (m) => t("opt_problem_even", { min: m[1], max: m[2] })],
  [/^give distinct whole numbers\.?$/, () => t("opt_problem_distinct")],
  [/^give a list of at most (\d+) scores\.?$/, (m) => t("opt_problem_count", { n: m[1] })],
];

// "Call limit: give a whole number from 0 to 50.", with the option's label as the form shows it.
function optionProblem(name, problem) {
  let text = null;
  for (const [pattern, words] of OPTION_PROBLEMS) {
    const match = pattern.exec(problem);
    if (match) text = words(match);
  }
  const label = h("span", { class: "field-error-label" }, t(`opt_${name}`));
  if (text === null && !problem) return label;
  return [label, ": ", text !== null ? h("span", {}, text) : h("span", { lang: "en" }, problem)];
}

// ---------- game ----------

async function loadGame(force = false) {
  const id = app.route.id;
  const response = await api.game(id, force ? null : app.etag);
  if (response.status === 304) return false;
  app.game = response.data;
  app.etag = response.headers.get("ETag");
  store.updateGame(app.game);
  return true;
}

async function loadRounds() {
  app.rounds = await api.rounds(app.route.id);
  app.entries = null;
}

async function refreshGame(force = false) {
  if (!app.route || !app.route.id) return;
  try {
    const changed = await loadGame(force);
    if (!changed) return;
    await loadRounds();
    if (app.route.tab !== "round" && app.route.tab !== "edit") renderGame();
  } catch {
    // offline: keep showing what we have; the outbox banner says what is waiting
  }
}

function startPolling() {
  stopPolling();
  const every = app.route.view === "watch" ? 2000 : 5000;
  app.poll = setInterval(() => refreshGame(false), every);
}

function stopPolling() {
  if (app.poll) clearInterval(app.poll);
  app.poll = null;
}

async function renderGameRoute(fresh) {
  if (fresh || !app.game) {
    replace(main, h("p", { class: "loading" }, t("loading")));
    await loadGame(true);
    await loadRounds();
    if (app.route.view === "game" && store.game(app.game.id)) store.updateGame(app.game);
    startPolling();
  }
  if (app.route.tab === "round") return startEntry();
  if (app.route.tab === "edit") return startEdit(app.route.number);
  renderGame();
}

function canWrite() {
  return app.route.view === "game" && Boolean(store.token(app.game.id));
}

function tabs() {
  const base = app.route.view === "watch" ? `#/watch/${encodeURIComponent(app.game.id)}` : gameUrl(app.game.id);
  const items = [
    ["table", t("tab_table"), base],
    ["history", t("tab_history"), `${base}/history`],
    ["chart", t("tab_chart"), `${base}/chart`],
  ];
  return h(
    "nav",
    { class: "tabs", "aria-label": t("game_sections") },
    items.map(([key, label, href]) =>
      h("a", { href, class: ["tab", app.route.tab === key && "current"], "aria-current": app.route.tab === key ? "page" : null, "data-key": `tab-${key}` }, label),
    ),
  );
}

function gameTitle() {
  const game = app.game;
  return game.name || game.players.map((p) => p.name).join(", ");
}

function renderGame() {
  const game = app.game;
  checkUndo();
  const parts = [heading(gameTitle()), h("p", { class: "subtitle" }, rulesetTitle(game.ruleset))];
  if (app.route.view === "watch") parts.push(h("p", { class: "watching" }, t("watching")));
  else if (!canWrite()) parts.push(h("p", { class: "watching" }, t("read_only")));
  if (app.notice) {
    parts.push(h("p", { class: "notice", role: "status" }, app.notice));
    app.notice = null;
  }
  parts.push(tabs());
  if (app.route.tab === "history") parts.push(historyView());
  else if (app.route.tab === "chart") parts.push(chartView());
  else parts.push(tableView());
  replace(main, parts);
}

function tableView() {
  const game = app.game;
  const limit = game.options.elimination_limit;
  const next = game.next_round;
  const pending = store.pending(game.id);
  const roleOf = (player) => {
    if (!next) return [];
    const roles = [];
    if (player.id === next.dealer) roles.push(h("span", { class: "badge deal" }, t("deals")));
    if (player.id === next.starter) roles.push(h("span", { class: "badge start" }, game.ruleset === "jhyap" ? t("starts") : t("leads")));
    return roles;
  };
  const winners = game.winners.map(playerName);
  return h(
    "section",
    { class: "table-view", "aria-labelledby": "table-heading" },
    h("h2", { id: "table-heading", class: "visually-hidden" }, t("tab_table")),
    game.status === "finished"
      ? h(
          "div",
          { class: "winner", role: "status", "data-testid": "winner" },
          h("p", { class: "winner-title" }, winners.length > 1 ? t("shared_win", { names: winners.join(", ") }) : t("winner_is", { name: winners[0] })),
          h("p", {}, t("game_over_after", { n: game.rounds_played })),
        )
      : h(
          "div",
          { class: "next-round", "data-testid": "next-round" },
          h("p", { class: "round-number" }, t("round_n", { n: next.number })),
          h("p", {}, t("next_deals", { name: playerName(next.dealer) })),
          h("p", {}, game.ruleset === "jhyap" ? t("next_starts", { name: playerName(next.starter) }) : t("next_leads", { name: playerName(next.starter) })),
          game.ruleset === "twenty-two" ? h("p", { class: "cards-each", "data-testid": "cards-each" }, t("cards_each", { n: next.cards_each })) : null,
        ),
    h(
      "ol",
      { class: "players", "data-testid": "players" },
      game.players.map((player) =>
        h(
          "li",
          { class: ["player", player.eliminated && "out", game.winners.includes(player.id) && "won"], "data-testid": "player", "data-player": player.name },
          h(
            "div",
            { class: "who" },
            h("span", { class: "name" }, player.name),
            h("span", { class: "roles" }, roleOf(player)),
          ),
          h(
            "div",
            { class: "numbers" },
            h("span", { class: "score" }, String(player.score)),
            h("span", { class: "visually-hidden" }, t("col_points")),
            h(
              "span",
              { class: "distance" },
              player.eliminated
                ? t("out_in_round", { n: player.eliminated_in_round })
                : game.winners.includes(player.id)
                  ? t("winner")
                  : t("to_limit", { n: limit - player.score }),
            ),
          ),
          game.ruleset === "twenty-two" && player.pile && player.pile.length
            ? h("div", { class: "pile", role: "group", "aria-label": t("score_pile") }, player.pile.map(cardNode))
            : null,
        ),
      ),
    ),
    h("p", { class: "limit" }, t("elimination_limit_is", { n: limit })),
    canWrite() && game.status !== "finished"
      ? pending
        ? h("p", { class: "notice" }, t("wait_for_pending"))
        : h("a", { class: "button primary big", href: gameUrl(game.id, "round"), "data-testid": "record-round" }, t("record_round", { n: next.number }))
      : null,
    shareBox(),
  );
}

function shareBox() {
  const game = app.game;
  const link = shareUrl(game.id);
  return h(
    "section",
    { class: "share", "aria-labelledby": "share-heading" },
    h("h2", { id: "share-heading" }, t("share_export")),
    h("label", { for: "share-link" }, t("share_link")),
    h("input", { id: "share-link", type: "text", readonly: true, value: link, "data-testid": "share-link" }),
    h(
      "div",
      { class: "row" },
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(link);
              announce(t("copied"));
            } catch {
              document.getElementById("share-link").select();
            }
          },
        },
        t("copy_link"),
      ),
      h("a", { class: "button secondary", href: api.exportUrl(game.id), download: `scorekeeper-${game.id}.json`, "data-testid": "export" }, t("export_json")),
    ),
    h(
      "details",
      { class: "rules" },
      h("summary", {}, t("rule_options")),
      h(
        "dl",
        {},
        Object.entries(game.options).map(([name, value]) => [
          h("dt", {}, t(`opt_${name}`)),
          h("dd", {}, Array.isArray(value) ? value.join(", ") || "—" : typeof value === "string" ? t(`choice_${value}`) : String(value)),
        ]),
      ),
    ),
  );
}

// ---------- history ----------

function resultLine(result, round) {
  const game = app.game;
  const what =
    game.ruleset === "jhyap"
      ? h("span", { class: "hand" }, result.cards ? [result.cards.map(cardNode), " ", t("hand_total", { n: result.hand })] : String(result.hand))
      : h("span", { class: "hand" }, cardNode(result.card));
  const marks = [];
  if (game.ruleset === "jhyap" && round.caller === result.player) marks.push(h("span", { class: "badge" }, t("caller")));
  if (round.takers && round.takers.includes(result.player)) marks.push(h("span", { class: "badge" }, t("took_it")));
  if (result.halved) marks.push(h("span", { class: "badge halved" }, t("halved")));
  if (result.eliminated) marks.push(h("span", { class: "badge out" }, t("eliminated")));
  return h(
    "tr",
    {},
    h("th", { scope: "row" }, playerName(result.player), " ", marks),
    h("td", {}, what),
    h("td", { class: "num" }, `+${result.points}`),
    h("td", { class: "num" }, t("before_after", { before: result.score_before, after: result.score_after })),
  );
}

function roundSummary(round) {
  if (app.game.ruleset === "jhyap") {
    return round.caller_succeeded
      ? t("call_succeeded", { name: playerName(round.caller) })
      : t("call_failed", { name: playerName(round.caller) });
  }
  return t("took_trick", { names: round.takers.map(playerName).join(", "), n: round.cards_each });
}

function resultsTable(round, caption) {
  return h(
    "table",
    { class: "results" },
    h("caption", { class: "visually-hidden" }, caption),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, t("col_player")),
        h("th", { scope: "col" }, app.game.ruleset === "jhyap" ? t("col_hand") : t("col_card")),
        h("th", { scope: "col", class: "num" }, t("col_points")),
        h("th", { scope: "col", class: "num" }, t("col_score")),
      ),
    ),
    h("tbody", {}, round.results.map((result) => resultLine(result, round))),
  );
}

function historyView() {
  const rounds = app.rounds || [];
  const last = lastRound();
  if (!last) return h("section", { class: "history" }, historyMessage(), h("p", { class: "empty" }, t("no_rounds")));
  return h(
    "section",
    { class: "history", "aria-labelledby": "history-heading" },
    h("h2", { id: "history-heading", class: "visually-hidden" }, t("tab_history")),
    h(
      "ol",
      { class: "rounds", reversed: true },
      rounds
        .slice()
        .reverse()
        .map((round) =>
          h(
            "li",
            { class: "round", "data-testid": `round-${round.number}` },
            h("h3", {}, t("round_n", { n: round.number })),
            h("p", { class: "meta" }, t("dealt_by", { name: playerName(round.dealer) }), " · ", roundSummary(round)),
            resultsTable(round, t("round_n", { n: round.number })),
            canWrite()
              ? h(
                  "div",
                  { class: "row" },
                  h(
                    "a",
                    {
                      class: "button secondary",
                      href: gameUrl(app.game.id, `edit/${round.number}`),
                      "data-testid": `edit-${round.number}`,
                    },
                    t("edit"),
                    h("span", { class: "visually-hidden" }, ` (${t("round_n", { n: round.number })})`),
                  ),
                  round === last ? undoButton(round) : null,
                )
              : null,
            round === last ? historyMessage() : null,
          ),
        ),
    ),
  );
}

// What happened to the last undo (failed, or cancelled because the rounds changed), shown
// right below the undo control; one at a time.
function historyMessage() {
  const message = app.historyMessage;
  if (!message) return null;
  if (message.error) return h("div", { id: "history-message" }, errorBox(message.error, "undo-error"));
  return h("p", { id: "history-message", class: "notice", role: "status", "data-testid": "undo-note" }, message.note);
}

function showHistoryMessage() {
  const box = document.getElementById("history-message");
  if (box) box.scrollIntoView({ block: "nearest" });
}

function lastRound() {
  const rounds = app.rounds || [];
  return rounds.length ? rounds[rounds.length - 1] : null;
}

// The round as the service shows it, to tell whether it is still the same: a correction (here or
// by another phone, or one of an earlier round that scores it again) keeps its number and
// created_at but changes what it says, so all of it is compared.
function roundSeen(round) {
  return JSON.stringify(round);
}

// A pending "Yes, undo round N" belongs to that round: when the rounds change under it (another
// phone recorded, undid, replaced or corrected a round) it is cancelled, never moved to another
// round.
function checkUndo() {
  const pending = app.confirmUndo;
  if (!pending || app.undoing) return;
  const last = lastRound();
  if (last && last.number === pending.number && roundSeen(last) === pending.seen) return;
  app.confirmUndo = null;
  const note =
    last && last.number > pending.number
      ? t("undo_cancelled_recorded", { n: last.number })
      : t("undo_cancelled_changed", { n: pending.number });
  app.historyMessage = { note };
  announce(note);
}

async function undoConfirmed(event) {
  const target = app.confirmUndo;
  if (!target || app.undoing) return;
  app.undoing = true;
  event.currentTarget.disabled = true;
  let reload = false;
  try {
    await api.undoRound(app.game.id, store.token(app.game.id), target.number);
    app.confirmUndo = null;
    app.historyMessage = null;
    announce(t("undone", { n: target.number }));
    reload = true;
  } catch (error) {
    app.historyMessage = { error };
    if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
      // Not the last round any more: show the rounds as they are now.
      app.confirmUndo = null;
      reload = true;
    }
  } finally {
    app.undoing = false;
  }
  // Offline: the next poll catches up.
  if (reload) await refreshGame(true);
  if (app.route.view === "game" && app.route.tab === "history") {
    renderGame();
    showHistoryMessage();
  }
}

// Cancel, or Escape: the prompt closes, the round stays, and the focus goes back to Undo.
function cancelUndo() {
  app.confirmUndo = null;
  app.historyMessage = null;
  renderGame();
  document.querySelector("[data-testid=undo]")?.focus();
}

function undoButton(round) {
  const number = round.number;
  if (!app.confirmUndo) {
    return h(
      "button",
      {
        type: "button",
        class: "secondary",
        "data-key": "undo",
        "data-testid": "undo",
        onclick: () => {
          app.confirmUndo = { number, seen: roundSeen(round) };
          app.historyMessage = null;
          renderGame();
        },
      },
      t("undo_round_n", { n: number }),
    );
  }
  return h(
    "span",
    { class: "row" },
    h(
      "button",
      {
        type: "button",
        class: "danger",
        "data-key": "undo",
        "data-testid": "undo-confirm",
        disabled: app.undoing,
        onclick: undoConfirmed,
      },
      t("undo_confirm", { n: app.confirmUndo.number }),
    ),
    h(
      "button",
      { type: "button", class: "secondary", onclick: cancelUndo },
      t("cancel"),
    ),
  );
}

// ---------- chart ----------

function chartView() {
  return h(
    "section",
    { class: "chart", "aria-labelledby": "chart-heading" },
    h("h2", { id: "chart-heading", class: "visually-hidden" }, t("tab_chart")),
    app.rounds && app.rounds.length ? chart(app.game, app.rounds, t) : h("p", { class: "empty" }, t("no_rounds")),
  );
}

// ---------- round entry (new and edit) ----------

function draftKey(gameId) {
  return `scorekeeper.draft.${gameId}`;
}

function saveDraft() {
  const draft = app.draft;
  if (!draft || draft.mode !== "new") return;
  // A card being changed is not kept: the entry opens again with its picker closed.
  const { preview, previewError, changing, complete, ...keep } = draft;
  sessionStorage.setItem(draftKey(app.game.id), JSON.stringify(keep));
}

function clearDraft() {
  sessionStorage.removeItem(draftKey(app.game.id));
}

function newDraft(participants, number, mode, starter) {
  const ids = participants.map((p) => p.id);
  if (app.game.ruleset === "jhyap") {
    return { kind: "jhyap", mode, number, ids, caller: null, hands: {}, current: null, cardMode: false, rank: null };
  }
  return { kind: "tt", mode, number, ids, plays: [], current: ids.includes(starter) ? starter : ids[0], rank: null };
}

async function startEntry() {
  const gameId = app.game.id;
  const prefill = app.prefill && app.prefill.gameId === gameId ? app.prefill : null;
  app.prefill = null;
  // A refused round goes to the game's next round as it is now, not as this phone last saw it
  // (offline: the form works from what this phone has).
  if (prefill) await refreshGame(true);
  // Another tap may have moved on while the game was loading: draw only on this game's round tab.
  const current = app.route;
  if (!current || current.view !== "game" || current.tab !== "round" || current.id !== gameId) return;
  const game = app.game;
  let draft = null;
  try {
    draft = JSON.parse(sessionStorage.getItem(draftKey(game.id)));
  } catch {
    draft = null;
  }
  // The refused round this entry stands for: the one "Edit this round" was tapped for, or the
  // one a kept draft was started from (the form opened again after Escape or a reload).
  const pending = store.pending(game.id);
  const key = prefill ? prefill.key : draft && draft.replaces;
  const refused = pending && key && pending.key === key && canEnterAgain(pending) ? pending : null;
  if (!canWrite() || game.status === "finished" || (pending && !refused)) {
    location.hash = gameUrl(game.id);
    return;
  }
  const number = game.next_round.number;
  const ids = activePlayers().map((p) => p.id);
  const keep =
    draft && draft.number === number && draft.ids.join() === ids.join() && (draft.replaces || null) === (refused ? refused.key : null);
  if (!keep) {
    draft = newDraft(activePlayers(), number, "new", game.next_round.starter);
    if (refused) {
      fillDraft(draft, refused.body);
      if (draft.kind === "jhyap") draft.current = nextEmptyHandOf(draft, null);
      draft.replaces = refused.key;
    }
  }
  app.draft = draft;
  draft.complete = entryComplete();
  saveDraft();
  renderOutbox();
  renderEntry();
  if (draft.complete) requestPreview();
}

// Fill a draft with a round's entry (as sent to the service), for the players the draft has.
function fillDraft(draft, entry) {
  if (draft.kind === "jhyap") {
    draft.caller = draft.ids.includes(entry.caller) ? entry.caller : null;
    for (const hand of entry.hands || []) {
      if (!draft.ids.includes(hand.player)) continue;
      draft.hands[hand.player] = hand.cards ? { cards: hand.cards.slice() } : { total: hand.total };
    }
  } else {
    draft.plays = (entry.last_trick || [])
      .filter((play) => draft.ids.includes(play.player))
      .map((play) => ({ player: play.player, card: play.card }));
  }
  draft.current = null;
}

async function startEdit(number) {
  const game = app.game;
  if (!canWrite()) {
    location.hash = gameUrl(game.id, "history");
    return;
  }
  if (!app.entries) app.entries = (await api.exportGame(game.id)).rounds;
  const current = app.route;
  if (current.tab !== "edit" || current.id !== game.id || current.number !== number) return;
  const item = app.entries.find((r) => r.number === number);
  const round = app.rounds.find((r) => r.number === number);
  if (!item || !round) {
    location.hash = gameUrl(game.id, "history");
    return;
  }
  const participants = round.results.map((r) => game.players.find((p) => p.id === r.player));
  const draft = newDraft(participants, number, "edit", round.starter);
  draft.original = round;
  fillDraft(draft, item.entry);
  app.draft = draft;
  // Escape leaves a correction only while nothing was changed (an edit draft is not kept).
  draft.unchanged = JSON.stringify(entryBody());
  draft.complete = true;
  renderEntry();
  requestPreview();
}

function entryComplete() {
  const draft = app.draft;
  if (draft.kind === "jhyap") {
    return draft.caller !== null && draft.ids.every((id) => handReady(draft.hands[id]));
  }
  return draft.plays.length === draft.ids.length;
}

function handReady(hand) {
  return hand && (Number.isInteger(hand.total) || (hand.cards && hand.cards.length > 0));
}

function entryBody() {
  const draft = app.draft;
  let body;
  if (draft.kind === "jhyap") {
    body = {
      caller: draft.caller,
      hands: draft.ids.map((id) => {
        const hand = draft.hands[id];
        return hand.cards && hand.cards.length ? { player: id, cards: hand.cards } : { player: id, total: hand.total };
      }),
    };
  } else {
    body = { last_trick: draft.plays.map((play) => ({ player: play.player, card: play.card })) };
  }
  return draft.mode === "new" ? { number: draft.number, ...body } : body;
}

function changed() {
  const draft = app.draft;
  // Only the tap that completes the entry brings Confirm on screen (once the preview is back);
  // a change to an entry that was already complete (a total typed again, a Twenty Two card
  // changed in place) leaves the page where it is.
  const completed = !draft.complete;
  draft.complete = entryComplete();
  draft.preview = null;
  draft.previewError = null;
  saveDraft();
  renderEntry();
  if (draft.complete) requestPreview({ reveal: completed });
}

// reveal: scroll the Confirm button into view when it can be tapped (after a tap that completed
// the entry), without moving focus: the preview is announced from its live region.
async function requestPreview({ reveal = false } = {}) {
  const draft = app.draft;
  const seq = ++app.previewSeq;
  draft.previewing = true;
  renderPreview();
  try {
    const token = store.token(app.game.id);
    const result =
      draft.mode === "new"
        ? await api.previewRound(app.game.id, token, entryBody())
        : await api.previewCorrection(app.game.id, token, draft.number, entryBody());
    if (seq !== app.previewSeq || app.draft !== draft) return;
    draft.preview = result;
    draft.previewError = null;
  } catch (error) {
    if (seq !== app.previewSeq || app.draft !== draft) return;
    draft.preview = null;
    draft.previewError = error;
  }
  draft.previewing = false;
  renderPreview();
  const button = document.querySelector("[data-testid=confirm]");
  if (reveal && button && !button.disabled) button.scrollIntoView({ block: "nearest" });
}

function nextEmptyHand(after) {
  return nextEmptyHandOf(app.draft, after);
}

function nextEmptyHandOf(draft, after) {
  const start = after === null ? 0 : draft.ids.indexOf(after) + 1;
  for (let i = 0; i < draft.ids.length; i++) {
    const id = draft.ids[(start + i) % draft.ids.length];
    if (!handReady(draft.hands[id])) return id;
  }
  return null;
}

function renderEntry() {
  const draft = app.draft;
  const title = draft.mode === "new" ? t("record_round", { n: draft.number }) : t("edit_round_n", { n: draft.number });
  const back = gameUrl(app.game.id, draft.mode === "new" ? "" : "history");
  replace(
    main,
    heading(title),
    h("p", { class: "subtitle" }, gameTitle()),
    draft.kind === "jhyap" ? jhyapEntry() : twentyTwoEntry(),
    h("section", { id: "preview", class: "preview", "aria-live": "polite", "aria-labelledby": "preview-heading" }),
    h("div", { class: "row" }, h("a", { class: "button secondary", href: back, "data-testid": "cancel-entry" }, t("cancel"))),
  );
  renderPreview();
}

function jhyapEntry() {
  const draft = app.draft;
  const players = draft.ids.map((id) => app.game.players.find((p) => p.id === id));
  const current = draft.current;
  const currentPlayer = players.find((p) => p.id === current);
  const hand = (current !== null && draft.hands[current]) || {};
  return h(
    "div",
    { class: "entry" },
    h(
      "fieldset",
      { class: "callers" },
      h("legend", {}, t("who_called")),
      h(
        "div",
        { class: "grid players-grid" },
        players.map((player) =>
          h(
            "button",
            {
              type: "button",
              class: ["pick", draft.caller === player.id && "selected"],
              "aria-pressed": String(draft.caller === player.id),
              "data-key": `caller-${player.id}`,
              "data-testid": "caller",
              onclick: () => {
                draft.caller = player.id;
                if (draft.current === null || handReady(draft.hands[draft.current])) draft.current = nextEmptyHand(null);
                changed();
              },
            },
            h("span", { class: "pick-name" }, player.name),
          ),
        ),
      ),
    ),
    h(
      "fieldset",
      { class: "hands" },
      h("legend", {}, t("hand_totals")),
      h(
        "div",
        { class: "grid hands-grid" },
        players.map((player) => {
          const value = draft.hands[player.id];
          const shown = !value
            ? "—"
            : value.cards && value.cards.length
              ? value.cards.map(cardText).join(" ")
              : String(value.total);
          return h(
            "button",
            {
              type: "button",
              class: ["hand-slot", draft.current === player.id && "current", handReady(value) && "done"],
              "aria-pressed": String(draft.current === player.id),
              "data-key": `hand-${player.id}`,
              "data-testid": "hand-slot",
              onclick: () => {
                draft.current = player.id;
                draft.rank = null;
                saveDraft();
                renderEntry();
              },
            },
            h("span", { class: "slot-name" }, player.name),
            h(
              "span",
              { class: "slot-value" },
              !value ? spoken("—", t("not_entered")) : value.cards && value.cards.length ? value.cards.map(cardNode) : shown,
            ),
          );
        }),
      ),
    ),
    current !== null
      ? h(
          "fieldset",
          { class: "pad-box", id: "pad" },
          h("legend", {}, draft.cardMode ? t("tap_cards_of", { name: currentPlayer.name }) : t("total_of", { name: currentPlayer.name })),
          h(
            "div",
            { class: "row toggle" },
            h(
              "button",
              {
                type: "button",
                class: ["secondary", !draft.cardMode && "selected"],
                "aria-pressed": String(!draft.cardMode),
                "data-key": "mode-total",
                "data-testid": "mode-total",
                onclick: () => {
                  draft.cardMode = false;
                  saveDraft();
                  renderEntry();
                },
              },
              t("mode_total"),
            ),
            h(
              "button",
              {
                type: "button",
                class: ["secondary", draft.cardMode && "selected"],
                "aria-pressed": String(draft.cardMode),
                "data-key": "mode-cards",
                "data-testid": "mode-cards",
                onclick: () => {
                  draft.cardMode = true;
                  saveDraft();
                  renderEntry();
                },
              },
              t("mode_cards"),
            ),
          ),
          draft.cardMode ? cardPad(hand) : numberPad(),
        )
      : null,
  );
}


function numberPad() {
  const draft = app.draft;
  const current = draft.current;
  const value = draft.hands[current] && draft.hands[current].total;
  const buttons = [];
  for (let n = 0; n <= PAD_MAX; n++) {
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: ["num-key", value === n && "selected"],
          "data-key": `pad-${n}`,
          "data-testid": `pad-${n}`,
          onclick: () => {
            draft.hands[current] = { total: n };
            draft.current = nextEmptyHand(current);
            changed();
          },
        },
        String(n),
      ),
    );
  }
  return h("div", { class: "pad", role: "group", "aria-label": t("number_pad") }, buttons);
}

function cardPad(hand) {
  const draft = app.draft;
  const current = draft.current;
  const cards = (hand && hand.cards) || [];
  const add = (code) => {
    const next = [...cards, code];
    draft.hands[current] = { cards: next };
    draft.rank = null;
    changed();
  };
  return h(
    "div",
    { class: "cards-pad" },
    h(
      "p",
      { class: "chosen", "aria-live": "polite" },
      cards.length ? cards.map(cardNode) : t("no_cards_yet"),
    ),
    h(
      "div",
      { class: "grid ranks", role: "group", "aria-label": t("rank") },
      RANKS.map((rank) =>
        h(
          "button",
          {
            type: "button",
            class: ["pick", draft.rank === rank && "selected"],
            "aria-pressed": String(draft.rank === rank),
            "data-key": `rank-${rank}`,
            "data-testid": `rank-${rank}`,
            disabled: cards.length >= 5,
            onclick: () => {
              draft.rank = rank;
              renderEntry();
            },
          },
          spoken(rank, t(`rank_${rank}`)),
        ),
      ),
      h(
        "button",
        { type: "button", class: "pick", "data-key": "rank-JK", "data-testid": "joker", disabled: cards.length >= 5, onclick: () => add("JK") },
        t("joker"),
      ),
    ),
    h(
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
            disabled: !draft.rank,
            onclick: () => add(draft.rank + suit),
          },
          spoken(SUIT_SYMBOL[suit], t(`suit_${suit}`)),
        ),
      ),
    ),
    h(
      "div",
      { class: "row" },
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          "data-key": "remove-card",
          disabled: !cards.length,
          onclick: () => {
            draft.hands[current] = cards.length > 1 ? { cards: cards.slice(0, -1) } : null;
            changed();
          },
        },
        t("remove_last_card"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          "data-key": "cards-done",
          "data-testid": "cards-done",
          disabled: !cards.length,
          onclick: () => {
            // The pad stays on cards for the next player: a table that counts cards counts them all.
            draft.current = nextEmptyHand(current);
            saveDraft();
            renderEntry();
          },
        },
        t("next_player"),
      ),
    ),
  );
}

// Cards that cannot be picked: kept in a score pile, or already played in this trick (except the
// play at index `changing`, whose card is being changed).
function unavailableCards(changing = null) {
  const used = new Set();
  for (const player of app.game.players) for (const card of player.pile || []) used.add(card);
  if (app.draft.mode === "edit") {
    // Piles now include cards kept in this and later rounds; only the trick itself is checked here.
    used.clear();
  }
  app.draft.plays.forEach((play, index) => {
    if (index !== changing) used.add(play.card);
  });
  return used;
}

// The play whose card is being changed (an index into draft.plays), or null.
function changingPlay(draft) {
  const index = draft.changing;
  if (Number.isInteger(index) && index >= 0 && index < draft.plays.length) return index;
  draft.changing = null;
  return null;
}

// Stop changing a played card (Escape, "Keep", the same play tapped again): nothing changes.
function stopChanging() {
  const draft = app.draft;
  const index = changingPlay(draft);
  if (index === null) return false;
  draft.changing = null;
  draft.rank = null;
  saveDraft();
  renderEntry();
  document.querySelector(`[data-key="play-${index}"]`)?.focus();
  return true;
}

function twentyTwoEntry() {
  const draft = app.draft;
  const players = draft.ids.map((id) => app.game.players.find((p) => p.id === id));
  const played = new Set(draft.plays.map((p) => p.player));
  const remaining = players.filter((p) => !played.has(p.id));
  if (draft.current !== null && played.has(draft.current)) draft.current = null;
  if (draft.current === null && remaining.length) draft.current = remaining[0].id;
  const changing = changingPlay(draft);
  const current = players.find((p) => p.id === (changing !== null ? draft.plays[changing].player : draft.current));
  const used = unavailableCards(changing);
  const nextClockwise = (afterId) => {
    const seats = app.game.players.map((p) => p.id);
    const start = seats.indexOf(afterId);
    for (let i = 1; i <= seats.length; i++) {
      const id = seats[(start + i) % seats.length];
      if (draft.ids.includes(id) && !played.has(id) && id !== afterId) return id;
    }
    return null;
  };
  return h(
    "div",
    { class: "entry" },
    h("p", { class: "help" }, t("tt_instructions")),
    h(
      "ol",
      { class: "trick", "aria-label": t("final_trick"), "data-testid": "trick" },
      draft.plays.map((play, index) =>
        h(
          "li",
          {},
          // Tapping a play opens the picker for that player; the new card takes its place.
          h(
            "button",
            {
              type: "button",
              class: ["play", "secondary", changing === index && "selected"],
              "aria-pressed": String(changing === index),
              "data-key": `play-${index}`,
              "data-testid": "trick-play",
              onclick: () => {
                if (changing === index) {
                  stopChanging();
                  return;
                }
                draft.changing = index;
                draft.rank = null;
                saveDraft();
                renderEntry();
              },
            },
            h("span", { class: "order" }, `${index + 1}.`),
            " ",
            h("span", { class: "play-name" }, playerName(play.player)),
            " ",
            cardNode(play.card),
            " ",
            h("span", { class: "play-change" }, t("change_card")),
          ),
        ),
      ),
    ),
    draft.plays.length ? h("p", { class: "help" }, t("tt_change_hint")) : null,
    draft.plays.length
      ? h(
          "button",
          {
            type: "button",
            class: "secondary",
            "data-key": "remove-play",
            onclick: () => {
              const last = draft.plays.pop();
              if (changing === draft.plays.length) draft.changing = null;
              draft.current = last.player;
              draft.rank = null;
              changed();
            },
          },
          t("remove_last_play"),
        )
      : null,
    changing !== null || remaining.length
      ? h(
          "div",
          { class: "pad-box", id: "pad" },
          changing !== null
            ? h(
                "div",
                { class: "row" },
                h(
                  "button",
                  { type: "button", class: "secondary", "data-key": "keep-card", "data-testid": "keep-card", onclick: stopChanging },
                  t("keep_card", { card: cardLabel(draft.plays[changing].card) }),
                ),
              )
            : h(
                "fieldset",
                {},
                h("legend", {}, t("who_played_next")),
                h(
                  "div",
                  { class: "grid players-grid" },
                  remaining.map((player) =>
                    h(
                      "button",
                      {
                        type: "button",
                        class: ["pick", draft.current === player.id && "selected"],
                        "aria-pressed": String(draft.current === player.id),
                        "data-key": `player-${player.id}`,
                        "data-testid": "trick-player",
                        onclick: () => {
                          draft.current = player.id;
                          saveDraft();
                          renderEntry();
                        },
                      },
                      h("span", { class: "pick-name" }, player.name),
                    ),
                  ),
                ),
              ),
          h(
            "fieldset",
            {},
            h("legend", {}, changing !== null ? t("change_card_of", { name: current.name }) : t("card_of", { name: current.name })),
            h(
              "div",
              { class: "grid ranks", role: "group", "aria-label": t("rank") },
              TT_RANKS.map((rank) =>
                h(
                  "button",
                  {
                    type: "button",
                    class: ["pick", draft.rank === rank && "selected"],
                    "aria-pressed": String(draft.rank === rank),
                            "data-key": `rank-${rank}`,
                    "data-testid": `rank-${rank}`,
                    disabled: SUITS.every((suit) => used.has(rank + suit)),
                    onclick: () => {
                      draft.rank = rank;
                      renderEntry();
                    },
                  },
                  spoken(rank, t(`rank_${rank}`)),
                ),
              ),
            ),
            h(
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
                    disabled: !draft.rank || used.has(draft.rank + suit),
                    onclick: () => {
                      const card = draft.rank + suit;
                      draft.rank = null;
                      if (changing !== null) {
                        // In place: the order of play stays as it was.
                        draft.plays[changing] = { player: draft.plays[changing].player, card };
                        draft.changing = null;
                        changed();
                        document.querySelector(`[data-key="play-${changing}"]`)?.focus();
                        return;
                      }
                      const player = draft.current;
                      draft.plays.push({ player, card });
                      played.add(player);
                      draft.current = nextClockwise(player);
                      changed();
                    },
                  },
                  spoken(SUIT_SYMBOL[suit], t(`suit_${suit}`)),
                ),
              ),
            ),
          ),
        )
      : null,
  );
}

function renderPreview() {
  const box = document.getElementById("preview");
  if (!box) return;
  const draft = app.draft;
  const complete = entryComplete();
  const parts = [h("h2", { id: "preview-heading" }, t("preview"))];
  let canConfirm = false;
  if (!complete) {
    parts.push(h("p", { class: "help" }, draft.kind === "jhyap" ? t("preview_hint_jhyap") : t("preview_hint_tt")));
  } else if (draft.previewing && !draft.preview) {
    parts.push(h("p", { class: "help" }, t("checking")));
  } else if (draft.preview) {
    canConfirm = true;
    const round = draft.preview;
    parts.push(h("p", { class: "summary", "data-testid": "preview-summary" }, roundSummary(round)));
    parts.push(resultsTable(round, t("preview")));
    const after = round.game;
    if (after.status === "finished") {
      const names = after.winners.map(playerName).join(", ");
      parts.push(h("p", { class: "winner-title" }, after.winners.length > 1 ? t("shared_win", { names }) : t("winner_is", { name: names })));
    } else if (round.cards_each !== undefined && after.next_round) {
      parts.push(h("p", {}, t("next_deal_preview", { name: playerName(after.next_round.dealer), n: after.next_round.cards_each })));
    }
    if (draft.mode === "edit") parts.push(h("p", { class: "notice" }, editNote(round)));
  } else if (draft.previewError) {
    if (draft.previewError instanceof NetworkError && draft.mode === "new") {
      canConfirm = true;
      parts.push(h("p", { class: "notice", "data-testid": "offline-note" }, t("preview_offline")));
    } else {
      parts.push(errorBox(draft.previewError, "preview-error"));
    }
    if (draft.previewError instanceof NetworkError) {
      // Also tried again on its own when the browser says the connection is back.
      parts.push(
        h(
          "button",
          { type: "button", class: "secondary", "data-key": "retry-preview", "data-testid": "retry-preview", disabled: Boolean(draft.previewing), onclick: () => requestPreview({ reveal: true }) },
          t("retry_preview"),
        ),
      );
    }
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
        onclick: confirmEntry,
      },
      draft.mode === "new" ? t("confirm_round", { n: draft.number }) : t("save_correction"),
    ),
  );
  replace(box, parts);
}

function editNote(round) {
  const original = app.draft.original;
  const before = new Map(original.results.map((r) => [r.player, r.score_after]));
  const changes = round.results
    .filter((r) => before.get(r.player) !== r.score_after)
    .map((r) => t("score_change", { name: playerName(r.player), before: before.get(r.player), after: r.score_after }));
  const later = app.game.rounds_played - app.draft.number;
  return [
    changes.length ? changes.join("; ") + ". " : t("no_score_change") + " ",
    later > 0 ? t("later_rescored", { n: later }) : "",
  ].join("");
}

async function confirmEntry(event) {
  const draft = app.draft;
  // A second tap (double tap) lands after the round was handed over: nothing more to do.
  if (!draft || draft.sending) return;
  draft.sending = true;
  if (event && event.currentTarget) event.currentTarget.disabled = true;
  const game = app.game;
  const token = store.token(game.id);
  if (draft.mode === "new") {
    const body = entryBody();
    clearDraft();
    app.draft = null;
    try {
      enqueue(game.id, token, body, draft.replaces);
    } catch {
      // already one waiting; it is in the banner
    }
    renderOutbox();
    location.hash = gameUrl(game.id);
    return;
  }
  try {
    await api.correctRound(game.id, token, draft.number, entryBody());
  } catch (error) {
    draft.sending = false;
    if (app.draft !== draft) return;
    draft.preview = null;
    draft.previewError = error;
    renderPreview();
    return;
  }
  announce(t("corrected", { n: draft.number }));
  if (app.draft === draft) app.draft = null;
  // Offline right after saving: the history catches up on the next poll.
  await refreshGame(true);
  location.hash = gameUrl(game.id, "history");
}

// The connection is back: a preview that failed for want of one is asked for again.
window.addEventListener("online", () => {
  const draft = app.draft;
  if (draft && draft.previewError instanceof NetworkError && !draft.sending && entryComplete()) requestPreview();
});

// ---------- keyboard ----------

// Escape cancels what is open, never anything that loses an entry or changes the game: a pending
// "Yes, undo round N", a "tap again to remove", a card being changed, then the round entry itself
// (a new round's draft is kept on this phone; a correction only when nothing was changed yet).
function onEscape(event) {
  if (event.key !== "Escape" || event.defaultPrevented || event.isComposing) return;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target instanceof Element && event.target.closest("input, select, textarea")) return;
  const current = app.route;
  if (!current) return;
  if (current.view === "home" && app.confirmForget !== null) {
    const id = app.confirmForget;
    app.confirmForget = null;
    renderHome();
    document.querySelector(`[data-key="forget-${CSS.escape(id)}"]`)?.focus();
    event.preventDefault();
    return;
  }
  if (current.view === "game" && current.tab === "history" && app.confirmUndo && !app.undoing) {
    cancelUndo();
    event.preventDefault();
    return;
  }
  const draft = app.draft;
  if (current.view === "game" && (current.tab === "round" || current.tab === "edit") && draft && !draft.sending) {
    event.preventDefault();
    if (draft.kind === "tt" && stopChanging()) return;
    if (draft.mode === "new") {
      saveDraft();
      location.hash = gameUrl(app.game.id);
    } else if (entryComplete() && JSON.stringify(entryBody()) === draft.unchanged) {
      // (An incomplete correction, a hand emptied say, was changed: it stays open.)
      location.hash = gameUrl(app.game.id, "history");
    }
  }
}

document.addEventListener("keydown", onEscape);

// ---------- start ----------

async function start() {
  const select = document.getElementById("lang-select");
  const lang = pickLanguage();
  await setLanguage(lang);
  select.value = lang;
  select.addEventListener("change", async () => {
    store.setLang(select.value);
    await setLanguage(select.value);
    renderOutbox();
    if (app.draft) {
      renderEntry();
    } else {
      await route();
    }
    select.focus();
  });
  window.addEventListener("hashchange", route);
  renderOutbox();
  flushAll();
  await route();
  document.body.classList.add("ready");
}

start();

export { LANGUAGES, language };
