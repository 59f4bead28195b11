// Errors the rules engine throws for input that breaks the rules (rules/errors.py).

/** A round entry, option or setup that the rules do not allow: one sentence and its details. */
export class RuleError extends Error {
  /** `message` is one sentence for the table; `details` maps the offending field to its problems. */
  constructor(message, details = {}) {
    super(message);
    this.name = "RuleError";
    this.code = "invalid_round";
    this.details = details;
  }

  /** The refusal as JSON: the error body's code, message and details. */
  toJSON() {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** Game options, players or first seats that a ruleset does not allow. */
export class InvalidOptions extends RuleError {
  constructor(message, details = {}) {
    super(message, details);
    this.name = "InvalidOptions";
    this.code = "invalid_game";
  }
}

/** A ruleset name that is not in the registry. */
export class UnknownRuleset extends InvalidOptions {
  constructor(message, details = {}) {
    super(message, details);
    this.name = "UnknownRuleset";
  }
}

/** A request to end a game by hand that its rules do not allow now. */
export class CannotEnd extends RuleError {
  constructor(message, details = {}) {
    super(message, details);
    this.name = "CannotEnd";
    this.code = "invalid_request";
  }
}
