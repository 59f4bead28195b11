// Hearts: take no hearts and not the queen of spades, or take them all and shoot the moon
// (rules/hearts.py; rules.md, "Hearts").

import { Ruleset } from "./base.js";
import { RuleError } from "./errors.js";
import { optionSpec } from "./options.js";
import { bestTotals, checkOnePerActive, roundResult, stateAfter } from "./round.js";
import { activeSeats, isFinished } from "./state.js";
import { isInteger } from "./words.js";

export const HEARTS = 13;
export const QUEEN = 13;
/** Every hand's penalty points add up to this; a player who takes them all shoots the moon. */
export const HAND_POINTS = HEARTS + QUEEN;
const PASSES = { 4: ["left", "right", "across", "keep"] };
const OTHER_PASSES = ["left", "right", "keep"];

/** Where the cards pass before the hand after `handsPlayed` hands (rule 4). */
export function passDirection(handsPlayed, players) {
  const cycle = PASSES[players] ?? OTHER_PASSES;
  return cycle[handsPlayed % cycle.length];
}

/** Hearts as rules.md decides it. */
export class Hearts extends Ruleset {
  static ruleset = "hearts";
  static title = "Hearts";
  static minPlayers = 3;
  static maxPlayers = 6;
  static choosesStarter = false;
  static tallyNames = ["rounds_played", "points_taken", "moons", "clean_hands"];
  /** What the page needs to draw the ruleset (the server's descriptor, GET /rulesets). */
  static descriptor = {
    entry: {
      kind: "hearts_and_queen",
      hearts: 13,
      queen: 13,
    },
    results: {
      column: "taken",
    },
    summary: "moon",
    starter: null,
    next_round: ["pass"],
    player: [],
    limit: "limit",
    figures: [
      {
        name: "rounds_played",
        words: "fig_hands",
      },
      {
        name: "moons",
        words: "fig_moons",
      },
      {
        name: "clean_hands",
        words: "fig_clean",
      },
      {
        name: "average_taken",
        words: "fig_average_taken",
      },
    ],
  };
  static optionSpecs = [
    optionSpec("limit", 100, "integer", { minimum: 50, maximum: 500 }),
    optionSpec("moon", "add_to_others", "choice", {
      choices: ["add_to_others", "subtract_from_shooter"],
    }),
  ];

  /** No seat leads by rule: the holder of the lowest club does. */
  firstStarter() {
    return null;
  }

  /** The next dealer, and where the cards pass before the hand. */
  nextRound(state) {
    const { number, dealer } = super.nextRound(state);
    const pass = passDirection(state.rounds_played, activeSeats(state).length);
    return { number, dealer, starter: null, pass };
  }

  /** The entry from its JSON form: each player's points or hearts, and the queen's taker. */
  parseEntry(raw) {
    const hands = raw.hands.map((hand) => ({
      player: hand.player,
      points: hand.points ?? null,
      hearts: hand.hearts ?? null,
    }));
    return { hands, queen: raw.queen ?? null };
  }

  /** Score one hand (rules 1 to 4): {result, state}. */
  play(state, entry) {
    if (isFinished(state)) throw new RuleError("The game is over; no more rounds can be recorded.");
    const ids = entry.hands.map((hand) => hand.player);
    const seats = checkOnePerActive(this, state, ids, "hands", "hand");
    const taken = this.penalties(entry, seats);

    // Rule 2: a player who took all 26 shot the moon.
    const moon = seats.find((seat) => taken.get(seat) === HAND_POINTS) ?? null;
    const points = new Map(taken);
    if (moon !== null) {
      const shooterScores = this.options.moon === "subtract_from_shooter";
      for (const seat of seats) {
        if (seat === moon) points.set(seat, shooterScores ? -HAND_POINTS : 0);
        else points.set(seat, shooterScores ? 0 : HAND_POINTS);
      }
    }
    const scores = [...state.scores];
    for (const seat of seats) scores[seat] += points.get(seat);
    const dealer = state.dealer;
    const nextTurns = (after) => ({
      ...after,
      dealer: this.nextActiveSeat(after, dealer),
      starter: null,
    });
    const tallies = new Map(
      seats.map((seat) => [seat, [1, taken.get(seat), +(seat === moon), +(taken.get(seat) === 0)]]),
    );
    const after = stateAfter(this, state, seats, scores, [], nextTurns, tallies);
    const result = roundResult(this, state, after, {
      seats,
      points,
      halved: new Set(),
      row: (seat) => ({ taken: taken.get(seat) }),
      fields: {
        pass: passDirection(state.rounds_played, seats.length),
        moon: moon === null ? null : this.players[moon].id,
      },
    });
    return { result, state: after };
  }

  /** Rule 3: the game ends once a total reaches the limit; the lowest total wins. */
  roundEnd(state, newScores, eliminated, seats) {
    const highest = Math.max(...seats.map((seat) => newScores[seat]));
    if (highest < this.options.limit) return [state.eliminated_in_round, [], false];
    return [state.eliminated_in_round, bestTotals(newScores, seats, true), true];
  }

  /** Rule 5: a leave may not bring the table below three players. */
  checkLeave(state, seat) {
    const Rules = this.constructor;
    const active = activeSeats(state).length;
    if (active - 1 < Rules.minPlayers) {
      throw new RuleError(
        `${Rules.title} is played by at least ${Rules.minPlayers} players, so ` +
          `${this.nameOf(seat)} cannot leave while ${active} are in the game.`,
        { leave: [`At least ${Rules.minPlayers} players must stay in the game.`] },
      );
    }
  }

  /** Rule 1: each seat's penalty points in the hand, checked to add up to 26. */
  penalties(entry, seats) {
    const byHearts = entry.hands.map((hand) => hand.hearts !== null);
    entry.hands.forEach((hand, index) => {
      if ((hand.points === null) === (hand.hearts === null)) {
        throw new RuleError(
          `Give ${this.nameOf(seats[index])}'s take as points or as hearts, not both or neither.`,
          { hands: { [String(index)]: { points: ["Give points or hearts."] } } },
        );
      }
    });
    if (byHearts.some(Boolean) && !byHearts.every(Boolean)) {
      throw new RuleError("Give every player's take as points, or every one as hearts.", {
        hands: ["Give all as points or all as hearts."],
      });
    }
    if (byHearts.every(Boolean)) return this.fromHearts(entry, seats);
    if (entry.queen !== null) {
      throw new RuleError(
        "Leave out who took the queen of spades when the takes are points: " +
          "the points already count it.",
        { queen: ["Only with hearts."] },
      );
    }
    const taken = new Map();
    entry.hands.forEach((hand, index) => {
      const seat = seats[index];
      if (!isInteger(hand.points) || !(0 <= hand.points && hand.points <= HAND_POINTS)) {
        throw new RuleError(
          `${this.nameOf(seat)}'s points must be a whole number from 0 to ${HAND_POINTS}.`,
          { hands: { [String(index)]: { points: [`Must be from 0 to ${HAND_POINTS}.`] } } },
        );
      }
      taken.set(seat, hand.points);
    });
    checkSum(sum(taken), HAND_POINTS, "points");
    if (Math.max(...taken.values()) < QUEEN) {
      throw new RuleError(
        `No one has ${QUEEN} points or more, but the queen of spades alone is ${QUEEN}.`,
        { hands: [`Someone took the queen of spades: ${QUEEN} points or more.`] },
      );
    }
    return taken;
  }

  /** The penalty points of takes given as hearts, with the queen of spades' taker. */
  fromHearts(entry, seats) {
    if (entry.queen === null) {
      throw new RuleError("Say who took the queen of spades.", { queen: ["Who took it?"] });
    }
    const queen = this.seatOf(entry.queen);
    if (queen === null || !seats.includes(queen)) {
      throw new RuleError("The queen of spades must go to one of the players in this hand.", {
        queen: ["Not a player in this hand."],
      });
    }
    const taken = new Map();
    entry.hands.forEach((hand, index) => {
      const seat = seats[index];
      if (!isInteger(hand.hearts) || !(0 <= hand.hearts && hand.hearts <= HEARTS)) {
        throw new RuleError(
          `${this.nameOf(seat)}'s hearts must be a whole number from 0 to ${HEARTS}.`,
          { hands: { [String(index)]: { hearts: [`Must be from 0 to ${HEARTS}.`] } } },
        );
      }
      taken.set(seat, hand.hearts + (seat === queen ? QUEEN : 0));
    });
    checkSum(sum(taken) - QUEEN, HEARTS, "hearts");
    return taken;
  }
}

/** The sum of a Map's values. */
function sum(values) {
  return [...values.values()].reduce((total, value) => total + value, 0);
}

/** Refuse a hand whose `counted` (points or hearts) do not add up to `expected`. */
function checkSum(total, expected, counted) {
  if (total === expected) return;
  const off = Math.abs(total - expected);
  const words = total < expected ? `${off} too few` : `${off} too many`;
  const head =
    counted === "points"
      ? `A hand's points add up to ${expected}`
      : `A deck has ${expected} hearts`;
  throw new RuleError(`${head}, but these add up to ${total} (${words}).`, {
    hands: [`Add up to ${expected}; off by ${off}.`],
  });
}
