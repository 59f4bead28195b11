// The page's one owner of live state (state/live.js), wired to the API, this phone's storage,
// its outbox and the browser; and `session`, the game on screen as the views read it: the
// service's game, with this phone's outbox applied on top while anything waits there (the
// provisional game, state/provisional.js). Once the outbox is empty the service's game is shown.

import { api, ApiError, BASE, NetworkError } from "../api.js";
import { creating, onOutboxChange, settled, waiting } from "../outbox.js";
import { store } from "../store.js";
import { follow } from "./live-connection.js";
import { replayable } from "./live-history.js";
import { createLive } from "./live.js";
import { provisionalGame, unsettled } from "./provisional.js";
import { currentRoute } from "./route.js";

export const live = createLive({
  base: BASE,
  api,
  store,
  outbox: {
    settled,
    sending: (gameId) => waiting(gameId).some((item) => item.state === "sending"),
    creating,
  },
  follow,
  isNetworkError: (error) => error instanceof NetworkError,
  isGone: (error) => error instanceof ApiError && error.status === 404,
});

onOutboxChange((event) => live.outboxChanged(event));

/** The game as the views read it, worked out once for each state of the game and the outbox. */
function sessionOf(owner) {
  let memo = { key: null, view: null };

  // The outbox's items that the history held does not hold yet (a round another phone took
  // first is left out until the table chooses: the game shows what Keep theirs would leave).
  function queued(state) {
    const items = store.outbox(state.game.id).items;
    return unsettled(state.held, items, state.asked);
  }

  // {game, rounds, entries, made, provisional: how many changes wait to be sent (0: none)}.
  function view() {
    const state = owner.game();
    if (!state) return { game: null, rounds: null, entries: null, provisional: 0 };
    const items = queued(state).filter((item) => item.state !== "taken");
    const key = [state.held, state.asked, JSON.stringify(items)];
    if (memo.key && key.every((part, at) => part === memo.key[at])) return memo.view;
    let result = {
      game: state.game,
      rounds: state.held.rounds.map((item) => item.round),
      entries: state.held.rounds,
      provisional: 0,
    };
    if (items.length) {
      try {
        const shown = provisionalGame(state.held, items);
        result = { ...shown, provisional: waiting(state.game.id).length };
      } catch {
        // a history the rules on the phone cannot replay: the service's game
      }
    }
    memo = { key, view: result };
    return result;
  }

  return {
    get game() {
      return view().game;
    },
    get rounds() {
      return view().rounds;
    },
    // History numbers made by queued changes: their outbox keys.
    get made() {
      return view().made || new Map();
    },
    // How many changes the game shown has that the service has not answered yet (0: none).
    get provisional() {
      return view().provisional;
    },
    // The provisional game's parts the previews need: the history held and the queue on top.
    get base() {
      const state = owner.game();
      if (!state || !replayable(state.held)) return null;
      return { exported: state.held, items: queued(state) };
    },
    // The entries of the rounds, as the export has them (provisional ones too).
    async entries() {
      await owner.entries();
      return view().entries;
    },
  };
}

export const session = sessionOf(live);

/** The game read again, with its whole history (a change was refused: it moved on meanwhile). */
export function refreshGame() {
  return live.refresh();
}

// This phone may record and change rounds: it has the game's token and is not just watching.
export function canWrite() {
  return currentRoute().view === "game" && store.writable(session.game.id);
}
