// Twenty Two: avoid taking the last trick; 22 points knocks you out (rules/twenty_two.py).

import { Ruleset } from "./base.js";
import { CARD_CODE_HINT, faceValue, isJoker, parseCard, rankOrder } from "./cards.js";
import { RuleError } from "./errors.js";
import { optionSpec } from "./options.js";
import { checkOnePerActive, roundResult, stateAfter } from "./round.js";
import { activeSeats, inserted, isFinished } from "./state.js";
import { shown } from "./words.js";

export const DECK_SIZE = 52;

/** Twenty Two points of a card: ace 11, J/Q/K 10, pips at face value. */
export function cardValue(card) {
  return faceValue(card, 11);
}

/** Cards left to deal from: the deck minus every card kept in a score pile. */
export function pack(state) {
  return DECK_SIZE - state.piles.reduce((sum, pile) => sum + pile.length, 0);
}

/**
 * Twenty Two as rules.md decides it. Its state adds `piles` (the cards each seat kept since the
 * start, or since the piles last went back), `cards_each` (the coming deal) and `deal_value`
 * (rule 2's value for the coming deal before the pack caps it; 0 once the game is over).
 */
export class TwentyTwo extends Ruleset {
  static ruleset = "twenty-two";
  static title = "Twenty Two";
  static minPlayers = 2;
  static maxPlayers = 6;
  static choosesStarter = false;
  static tallyNames = ["rounds_played", "tricks_taken", "points_taken"];
  /** What the page needs to draw the ruleset (the server's descriptor, GET /rulesets). */
  static descriptor = {
    entry: {
      kind: "one_card_each",
    },
    results: {
      column: "card",
    },
    summary: "trick",
    starter: "leads",
    next_round: ["cards_each", "pack"],
    player: ["pile"],
    limit: "elimination_limit",
    figures: [
      {
        name: "rounds_played",
        words: "fig_rounds",
      },
      {
        name: "tricks_taken",
        words: "fig_tricks",
      },
      {
        name: "points_taken",
        words: "fig_points",
      },
      {
        name: "eliminations",
        words: "fig_out",
      },
    ],
  };
  static optionSpecs = [
    optionSpec("elimination_limit", 22, "integer", { minimum: 1, maximum: 1000 }),
    optionSpec("first_deal", 7, "integer", { minimum: 1, maximum: 26 }),
    optionSpec("tie_scores", "tied", "choice", { choices: ["tied", "all"] }),
  ];

  /** The first deal must leave a card for everyone: at most floor(52 / players). */
  optionMaximum(spec, options) {
    if (spec.name === "first_deal") return Math.floor(DECK_SIZE / this.players.length);
    return super.optionMaximum(spec, options);
  }

  /** Empty score piles and the first deal size. */
  initialExtra() {
    const firstDeal = this.options.first_deal;
    return { piles: this.players.map(() => []), cards_each: firstDeal, deal_value: firstDeal };
  }

  /** Dealer and starter, plus how many cards to deal and the pack size. */
  nextRound(state) {
    return { ...super.nextRound(state), cards_each: state.cards_each, pack: pack(state) };
  }

  /** The entry from its JSON form: the final trick in the order played. */
  parseEntry(raw) {
    return { last_trick: raw.last_trick.map((play) => ({ player: play.player, card: play.card })) };
  }

  /** Score one Twenty Two round (rules 4 to 7): {result, state}. */
  play(state, entry) {
    if (isFinished(state)) throw new RuleError("The game is over; no more rounds can be recorded.");
    const plays = entry.last_trick;
    const ids = plays.map((play) => play.player);
    const seats = checkOnePerActive(this, state, ids, "last_trick", "final card");
    const cards = this.checkTrick(state, plays, seats);

    // Rule 4: the highest rank takes the trick; ties score as tie_scores says.
    const highest = Math.max(...cards.map(rankOrder));
    const tied = seats.filter((_, i) => rankOrder(cards[i]) === highest);
    const takers = tied.length === 1 || this.options.tie_scores === "tied" ? tied : [...seats];
    const cardOf = new Map(seats.map((seat, i) => [seat, cards[i]]));
    const points = new Map(
      seats.map((seat) => [seat, takers.includes(seat) ? cardValue(cardOf.get(seat)) : 0]),
    );

    // Rule 5: elimination at the limit or above.
    const scores = [...state.scores];
    const piles = state.piles.map((pile) => [...pile]);
    for (const seat of takers) {
      scores[seat] += points.get(seat);
      piles[seat].push(cardOf.get(seat).code);
    }
    const eliminated = takers.filter((seat) => scores[seat] >= this.options.elimination_limit);
    // Rules 2 and 6: the (last-played tied) loser deals; the deal follows their card.
    const loser = tied[tied.length - 1];
    const nextTurns = (after) => {
      const starter = this.nextActiveSeat(after, loser);
      return this.nextDeal({ ...after, dealer: loser, starter }, cardValue(cardOf.get(loser)));
    };
    const tallies = new Map(
      seats.map((seat) => [seat, [1, +takers.includes(seat), points.get(seat)]]),
    );
    const extra = { piles, cards_each: 0, deal_value: 0 };
    const after = stateAfter(this, state, seats, scores, eliminated, nextTurns, tallies, extra);
    const result = roundResult(this, state, after, {
      seats,
      points,
      halved: new Set(),
      row: (seat) => ({ card: cardOf.get(seat).code }),
      fields: {
        takers: takers.map((seat) => this.players[seat].id),
        cards_each: state.cards_each,
      },
    });
    return { result, state: after };
  }

  /** The cards the player in `seat` keeps in their score pile. */
  playerFields(state, seat) {
    return { pile: [...state.piles[seat]] };
  }

  /** Rule 2: deal `value` cards each, or the pack shared out evenly, never below 1. */
  nextDeal(state, value) {
    const active = activeSeats(state).length;
    if (pack(state) < active) {
      // Decision (an empty pack): every score pile goes back; the running totals stay.
      state = { ...state, piles: state.piles.map(() => []) };
    }
    const cardsEach = Math.max(1, Math.min(value, Math.floor(pack(state) / active)));
    return { ...state, cards_each: cardsEach, deal_value: value };
  }

  /** Rule 6 after a leave: a dealer's deal passes clockwise, and the lead to their left. */
  passTurns(state, seat) {
    const passed = super.passTurns(state, seat);
    if (state.dealer === seat) {
      return { ...passed, starter: this.nextActiveSeat(passed, passed.dealer) };
    }
    return passed;
  }

  /** The newcomer in `seat` has an empty score pile. */
  seatAdded(state, seat) {
    return { ...state, piles: inserted(state.piles, seat, []) };
  }

  /** Rule 2 again for the players now at the table: the same value, a new cap. */
  afterSeatChange(state) {
    if (isFinished(state)) return { ...state, cards_each: 0, deal_value: 0 };
    return this.nextDeal(state, state.deal_value);
  }

  /** The score piles and the deal of a stored state, with their defaults. */
  extraFromDict(data) {
    return {
      piles: data.piles ?? [],
      cards_each: data.cards_each ?? 0,
      deal_value: data.deal_value ?? 0,
    };
  }

  /** Parse the final trick's cards: valid codes, no jokers, none twice, none already kept. */
  checkTrick(state, plays, seats) {
    const kept = new Map();
    state.piles.forEach((pile, seat) => pile.forEach((code) => kept.set(code, seat)));
    const seen = new Map();
    const fail = (index, message, problem) =>
      new RuleError(message, { last_trick: { [String(index)]: { card: [problem] } } });
    return plays.map((play, index) => {
      const seat = seats[index];
      const name = this.nameOf(seat);
      let card;
      try {
        card = parseCard(play.card);
      } catch {
        const message = `${name}'s card ${shown(play.card)} is not a card; ${CARD_CODE_HINT}.`;
        throw fail(index, message, "Not a card code.");
      }
      if (isJoker(card)) {
        throw fail(index, `${name} played a joker, but Twenty Two has no jokers.`, "No jokers.");
      }
      if (seen.has(card.code)) {
        const first = this.nameOf(seen.get(card.code));
        const message = `${card.code} was played twice, by ${first} and ${name}; a deck has one of each card.`;
        throw fail(index, message, "Already in this trick.");
      }
      if (kept.has(card.code)) {
        const owner = this.nameOf(kept.get(card.code));
        const message = `${card.code} is in ${owner}'s score pile, so ${name} cannot have played it.`;
        throw fail(index, message, `Kept by ${owner}.`);
      }
      seen.set(card.code, seat);
      return card;
    });
  }
}
