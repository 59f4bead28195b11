// The score pad: each player's points, round by round, for any game without rules of its own
// (rules/score_pad.py; rules.md, "Score pad").

import { Ruleset } from "./base.js";
import { CannotEnd, RuleError } from "./errors.js";
import { optionSpec } from "./options.js";
import { bestTotals, checkOnePerActive, roundResult, stateAfter } from "./round.js";
import { activeSeats, isFinished } from "./state.js";
import { isInteger } from "./words.js";

/** A round's points per player are a whole number from -MAX_POINTS to MAX_POINTS. */
export const MAX_POINTS = 10000;

/** The score pad as rules.md decides it. */
export class ScorePad extends Ruleset {
  static ruleset = "score-pad";
  static title = "Score pad";
  static minPlayers = 2;
  static maxPlayers = 12;
  static choosesStarter = false;
  static tallyNames = ["rounds_played", "points"];
  /** What the page needs to draw the ruleset (the server's descriptor, GET /rulesets). */
  static descriptor = {
    entry: {
      kind: "points",
      minimum: -10000,
      maximum: 10000,
    },
    results: {
      column: null,
    },
    summary: null,
    starter: "starts",
    next_round: [],
    player: [],
    limit: "target",
    figures: [
      {
        name: "rounds_played",
        words: "fig_rounds",
      },
      {
        name: "points",
        words: "fig_total_points",
      },
      {
        name: "average_points",
        words: "fig_average_points",
      },
    ],
  };
  static optionSpecs = [
    optionSpec("winner", "highest", "choice", { choices: ["highest", "lowest"] }),
    optionSpec("target", null, "integer", { minimum: 1, maximum: 100000, optional: true }),
    optionSpec("rounds", null, "integer", { minimum: 1, maximum: 1000, optional: true }),
  ];

  /** Whether the lowest total wins (else the highest). */
  get lowestWins() {
    return this.options.winner === "lowest";
  }

  /** The entry from its JSON form: each player's points. */
  parseEntry(raw) {
    return { hands: raw.hands.map((hand) => ({ player: hand.player, points: hand.points })) };
  }

  /** Add each player's points to their total; the game may end by target or rounds. */
  play(state, entry) {
    if (isFinished(state)) throw new RuleError("The game is over; no more rounds can be recorded.");
    const ids = entry.hands.map((hand) => hand.player);
    const seats = checkOnePerActive(this, state, ids, "hands", "hand");
    const points = new Map();
    entry.hands.forEach((hand, index) => {
      const seat = seats[index];
      if (!isInteger(hand.points) || !(-MAX_POINTS <= hand.points && hand.points <= MAX_POINTS)) {
        throw new RuleError(
          `${this.nameOf(seat)}'s points must be a whole number from ${-MAX_POINTS} to ${MAX_POINTS}.`,
          {
            hands: {
              [String(index)]: { points: [`Must be from ${-MAX_POINTS} to ${MAX_POINTS}.`] },
            },
          },
        );
      }
      points.set(seat, hand.points);
    });
    const scores = [...state.scores];
    for (const seat of seats) scores[seat] += points.get(seat);
    const dealer = state.dealer;
    const nextTurns = (after) => {
      const nextDealer = this.nextActiveSeat(after, dealer);
      return { ...after, dealer: nextDealer, starter: this.nextActiveSeat(after, nextDealer) };
    };
    const tallies = new Map(seats.map((seat) => [seat, [1, points.get(seat)]]));
    const after = stateAfter(this, state, seats, scores, [], nextTurns, tallies);
    const result = roundResult(this, state, after, {
      seats,
      points,
      halved: new Set(),
      row: () => ({}),
      fields: {},
    });
    return { result, state: after };
  }

  /** The game ends when a total reaches the target, or after the set number of rounds. */
  roundEnd(state, newScores, eliminated, seats) {
    const { target, rounds } = this.options;
    const reached = target !== null && Math.max(...seats.map((seat) => newScores[seat])) >= target;
    const counted = rounds !== null && state.rounds_played + 1 >= rounds;
    if (!(reached || counted)) return [state.eliminated_in_round, [], false];
    return [state.eliminated_in_round, bestTotals(newScores, seats, this.lowestWins), true];
  }

  /** Whether a lower total is better: the lowest wins. */
  lowerIsBetter() {
    return this.lowestWins;
  }

  /** Without a target or a number of rounds, the table ends the game. */
  canBeEnded() {
    return this.options.target === null && this.options.rounds === null;
  }

  /** The best total among the players still in the game wins; equal totals share. */
  winnersAtEnd(state) {
    if (!state.rounds_played) {
      throw new CannotEnd("No round has been played yet, so the game has no winner to end on.", {
        status: ["Play a round first."],
      });
    }
    return bestTotals(state.scores, activeSeats(state), this.lowestWins);
  }

  /** A newcomer starts on the total least in their favour: the worst among the active. */
  newcomerScore(state, active) {
    const totals = active.map((seat) => state.scores[seat]);
    return this.lowestWins ? Math.max(...totals) : Math.min(...totals);
  }
}
