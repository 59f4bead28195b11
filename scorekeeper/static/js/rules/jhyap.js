// Jhyap (Dhumbai / Dhumbal): call low, or pay the penalty (rules/jhyap.py; rules.md, "Jhyap").

import { Ruleset } from "./base.js";
import { CARD_CODE_HINT, faceValue, isJoker, parseCard } from "./cards.js";
import { RuleError } from "./errors.js";
import { optionSpec } from "./options.js";
import { checkOnePerActive, roundResult, stateAfter } from "./round.js";
import { isActive, isFinished } from "./state.js";
import { countOf, isInteger, shown } from "./words.js";

export const MAX_HAND_CARDS = 5;
export const MAX_HAND_TOTAL = 50;

/** Jhyap value of a card: joker 0, ace 1, pips at face value, J/Q/K 10. */
export function cardValue(card) {
  return isJoker(card) ? 0 : faceValue(card, 1);
}

/** Jhyap as rules.md decides it. */
export class Jhyap extends Ruleset {
  static ruleset = "jhyap";
  static title = "Jhyap";
  static minPlayers = 2;
  static maxPlayers = 5;
  static choosesStarter = true;
  static tallyNames = ["rounds_played", "calls", "calls_won", "halvings", "hand_total"];
  /** What the page needs to draw the ruleset (the server's descriptor, GET /rulesets). */
  static descriptor = {
    entry: {
      kind: "caller_and_totals",
      max_total: 50,
      max_cards: 5,
    },
    results: {
      column: "hand",
    },
    summary: "call",
    starter: "starts",
    next_round: [],
    player: [],
    limit: "elimination_limit",
    figures: [
      {
        name: "rounds_played",
        words: "fig_rounds",
      },
      {
        name: "calls_won",
        words: "fig_calls",
        of: "calls",
      },
      {
        name: "caught",
        words: "fig_caught",
      },
      {
        name: "halvings",
        words: "fig_halvings",
      },
      {
        name: "average_hand",
        words: "fig_average",
      },
      {
        name: "eliminations",
        words: "fig_out",
      },
    ],
  };
  static optionSpecs = [
    optionSpec("call_limit", 5, "integer", { minimum: 0, maximum: 50 }),
    optionSpec("caller_penalty", 30, "integer", { minimum: 0, maximum: 1000 }),
    optionSpec("caller_tie", "caller_wins", "choice", { choices: ["caller_wins", "caller_loses"] }),
    optionSpec("elimination_limit", 200, "integer", { minimum: 1, maximum: 10000 }),
    optionSpec("halve_at", [100, 200], "even_integers", {
      minimum: 2,
      maxItems: 10,
      cappedBy: "elimination_limit",
    }),
    optionSpec("decks", 1, "integer", {
      minimum: 1,
      maximum: 2,
      defaultFor: (players) => (players > 4 ? 2 : 1),
    }),
    optionSpec("next_starter", "lowest_hand", "choice", {
      choices: ["lowest_hand", "round_winner"],
    }),
  ];

  /** The entry from its JSON form: the caller, and each hand's player and total or cards. */
  parseEntry(raw) {
    const hands = raw.hands.map((hand) => ({
      player: hand.player,
      total: hand.total ?? null,
      cards: hand.cards !== null && hand.cards !== undefined ? [...hand.cards] : null,
    }));
    return { caller: raw.caller, hands };
  }

  /** Score one Jhyap round (rules 3 to 8): {result, state}. */
  play(state, entry) {
    if (isFinished(state)) throw new RuleError("The game is over; no more rounds can be recorded.");
    const ids = entry.hands.map((hand) => hand.player);
    const seats = checkOnePerActive(this, state, ids, "hands", "hand");
    const [totals, cards] = this.handTotals(entry.hands, seats);
    const caller = this.checkCaller(entry.caller, seats, totals);

    // Rule 4: the call, and each player's round points.
    const catchers = this.catchers(totals, caller);
    const succeeded = !catchers.length;
    const points = new Map(totals);
    points.set(caller, succeeded ? 0 : this.options.caller_penalty + totals.get(caller));

    // Rules 5 and 6: running totals, halving (once), elimination.
    const scores = [...state.scores];
    const halved = new Set();
    for (const seat of seats) {
      scores[seat] += points.get(seat);
      if (this.options.halve_at.includes(scores[seat])) {
        scores[seat] = Math.floor(scores[seat] / 2);
        halved.add(seat);
      }
    }
    const eliminated = seats.filter((seat) => scores[seat] > this.options.elimination_limit);
    const nextTurns = (after) => {
      const [dealer, starter] = this.nextTurns(after, state.dealer, totals, caller, catchers);
      return { ...after, dealer, starter };
    };
    // Tallies, in tallyNames order: a round played, the call and its outcome, halvings, hand.
    const tallies = new Map(
      seats.map((seat) => [
        seat,
        [
          1,
          +(seat === caller),
          +(seat === caller && succeeded),
          +halved.has(seat),
          totals.get(seat),
        ],
      ]),
    );
    const after = stateAfter(this, state, seats, scores, eliminated, nextTurns, tallies);
    const result = roundResult(this, state, after, {
      seats,
      points,
      halved,
      row: (seat) => ({ hand: totals.get(seat), cards: cards.get(seat) ?? null }),
      fields: { caller: this.players[caller].id, caller_succeeded: succeeded },
    });
    return { result, state: after };
  }

  /** Each seat's hand total, and the canonical cards of hands entered as cards (Maps by seat). */
  handTotals(hands, seats) {
    const totals = new Map();
    const cards = new Map();
    const deckUse = new Map();
    const fail = (index, message, problem, field = "total") =>
      new RuleError(message, { hands: { [String(index)]: { [field]: [problem] } } });
    hands.forEach((hand, index) => {
      const seat = seats[index];
      const name = this.nameOf(seat);
      if ((hand.total === null) === (hand.cards === null)) {
        const message = `Give ${name}'s hand as a total or as cards, not both or neither.`;
        throw fail(index, message, "Give total or cards.");
      }
      if (hand.total !== null) {
        if (!isInteger(hand.total) || !(0 <= hand.total && hand.total <= MAX_HAND_TOTAL)) {
          throw fail(
            index,
            `${name}'s hand total must be a whole number from 0 to ${MAX_HAND_TOTAL}.`,
            `Must be from 0 to ${MAX_HAND_TOTAL}.`,
          );
        }
        totals.set(seat, hand.total);
        return;
      }
      if (!(1 <= hand.cards.length && hand.cards.length <= MAX_HAND_CARDS)) {
        throw fail(
          index,
          `A hand holds 1 to ${MAX_HAND_CARDS} cards, ` +
            `but ${name}'s has ${countOf(hand.cards.length, "card")}.`,
          `Give 1 to ${MAX_HAND_CARDS} cards.`,
          "cards",
        );
      }
      const parsed = hand.cards.map((code) => {
        try {
          return parseCard(code);
        } catch {
          const message = `${name}'s card ${shown(code)} is not a card; ${CARD_CODE_HINT}.`;
          throw fail(index, message, "Not a card code.", "cards");
        }
      });
      totals.set(
        seat,
        parsed.reduce((sum, card) => sum + cardValue(card), 0),
      );
      cards.set(
        seat,
        parsed.map((card) => card.code),
      );
      for (const card of parsed) deckUse.set(card.code, (deckUse.get(card.code) ?? 0) + 1);
    });
    this.checkDeck(deckUse);
    return [totals, cards];
  }

  /** Check the round's cards fit the deck (each card `decks` times, jokers twice that). */
  checkDeck(deckUse) {
    const decks = this.options.decks;
    const uses = [...deckUse].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [code, count] of uses) {
      const allowed = code === "JK" ? 2 * decks : decks;
      if (count > allowed) {
        const what = code === "JK" ? "jokers" : `copies of ${code}`;
        const [deck, hold] = decks === 1 ? ["one deck", "holds"] : [`${decks} decks`, "hold"];
        throw new RuleError(
          `The round has ${count} ${what}, but ${deck} ${hold} only ${allowed}.`,
          {
            hands: [`Too many ${what} for ${deck}.`],
          },
        );
      }
    }
  }

  /** Rule 3: the caller is a player in the round, within the call limit; return their seat. */
  checkCaller(callerId, seats, totals) {
    const caller = this.seatOf(callerId);
    if (caller === null || !seats.includes(caller)) {
      throw new RuleError("The caller must be one of the players in this round.", {
        caller: ["Not a player in this round."],
      });
    }
    const limit = this.options.call_limit;
    if (totals.get(caller) > limit) {
      throw new RuleError(
        `${this.nameOf(caller)} called Jhyap with ${countOf(totals.get(caller), "point")}; ` +
          `the call limit is ${limit}.`,
        { caller: [`Over the call limit of ${limit}.`] },
      );
    }
    return caller;
  }

  /** Rule 4: the seats whose hand beats the caller's (a tie only under caller_loses). */
  catchers(totals, caller) {
    const tiesLose = this.options.caller_tie === "caller_loses";
    const own = totals.get(caller);
    return [...totals]
      .filter(([seat, total]) => seat !== caller && (total < own || (tiesLose && total === own)))
      .map(([seat]) => seat);
  }

  /** Rules 1 and 7: the next dealer and starter (seats); `state` is after eliminations. */
  nextTurns(state, dealer, totals, caller, catchers) {
    const nextDealer = this.nextActiveSeat(state, dealer);
    if (this.options.next_starter === "round_winner") {
      return [nextDealer, this.roundWinner(state, totals, caller, catchers)];
    }
    const contenders = [...totals.keys()].filter((seat) => isActive(state, seat));
    const lowest = Math.min(...contenders.map((seat) => totals.get(seat)));
    const starter = this.clockwiseFrom((dealer + 1) % this.players.length).find(
      (seat) => contenders.includes(seat) && totals.get(seat) === lowest,
    );
    return [nextDealer, starter];
  }

  /** Rule 7 under round_winner: the caller, or the catcher with the lowest hand. */
  roundWinner(state, totals, caller, catchers) {
    // A successful caller scored 0, so is still active (halving only lowers a total).
    let winner = caller;
    if (catchers.length) {
      const lowest = Math.min(...catchers.map((seat) => totals.get(seat)));
      // Equal lowest catchers: the first of them clockwise from the caller's left.
      winner = this.clockwiseFrom((caller + 1) % this.players.length).find(
        (seat) => catchers.includes(seat) && totals.get(seat) === lowest,
      );
    }
    if (isActive(state, winner)) return winner;
    // That catcher went out in this round: the next active seat after the caller.
    return this.nextActiveSeat(state, caller);
  }
}
