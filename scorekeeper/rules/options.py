"""A ruleset's options: what each allows, and the check of a new game's options."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import InvalidOptions
from .state import is_integer
from .words import Message, count_of, listed

if TYPE_CHECKING:
    from .base import Ruleset


@dataclass(frozen=True)
class OptionSpec:
    """One option of a ruleset: its default and the values it allows."""

    name: str
    description: str
    default: Any
    kind: str
    """``integer``, ``choice`` or ``even_integers``."""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    max_items: int | None = None
    capped_by: str | None = None
    """The option whose value is this one's maximum, if any (named in messages)."""
    default_for: Callable[[int], Any] | None = field(default=None, compare=False)
    """Computes the default from the number of players, when it depends on it."""
    optional: bool = False
    """Whether ``None`` is allowed: the option is off (an integer that is not always wanted)."""

    def default_value(self, player_count: int) -> Any:
        """The default for a table of ``player_count`` players."""
        return self.default_for(player_count) if self.default_for else self.default

    def describe(self) -> dict[str, Any]:
        """The option as the rulesets listing shows it."""
        allowed: dict[str, Any] = {"type": self.kind}
        for key in ("minimum", "maximum", "max_items"):
            if getattr(self, key) is not None:
                allowed[key] = getattr(self, key)
        if self.choices:
            allowed["choices"] = list(self.choices)
        if self.optional:
            allowed["optional"] = True
        return {"description": self.description, "default": self.default, "allowed": allowed}


def option_maximum(spec: OptionSpec, options: Mapping[str, Any]) -> int | None:
    """The largest value ``spec`` allows: its own, or the value of the option capping it."""
    if spec.capped_by is None:
        return spec.maximum
    cap = options.get(spec.capped_by)
    return cap if is_integer(cap) else 0


def resolve_options(
    rules: Ruleset[Any, Any], given: Mapping[str, Any], check: bool = True
) -> dict[str, Any]:
    """Check the given options of ``rules`` (unless told not to) and fill in the defaults."""
    specs = {spec.name: spec for spec in rules.option_specs}
    unknown = sorted(set(given) - set(specs))
    if unknown and check:
        names = listed([repr(name) for name in unknown])
        raise InvalidOptions(
            Message.counted(
                len(unknown),
                "{title} has no option {names}.",
                "{title} has no options {names}.",
                title=Message(rules.title),
                names=names,
            ),
            {"options": {name: ["Unknown option."] for name in unknown}},
        )
    resolved = {name: spec.default_value(len(rules.players)) for name, spec in specs.items()}
    resolved.update(given)
    for name, spec in specs.items():
        maximum = rules.option_maximum(spec, resolved)
        if name not in given and spec.kind == "even_integers" and is_integer(maximum):
            # A default list drops what a lowered limit puts out of range.
            resolved[name] = [value for value in resolved[name] if value <= maximum]
    problems = {
        name: problem
        for name, spec in specs.items()
        if check and (problem := _option_problem(rules, spec, resolved[name], resolved))
    }
    if problems:
        message, _ = next(iter(problems.values()))
        raise InvalidOptions(
            message, {"options": {name: [detail] for name, (_, detail) in problems.items()}}
        )
    for name, spec in specs.items():
        if spec.kind == "even_integers" and isinstance(resolved[name], tuple | list):
            resolved[name] = sorted(resolved[name])
    return resolved


def _option_problem(
    rules: Ruleset[Any, Any], spec: OptionSpec, value: Any, options: Mapping[str, Any]
) -> tuple[str, str] | None:
    """Why ``value`` is not allowed for ``spec`` (a sentence, and the field's problem)."""
    name, minimum, maximum = spec.name, spec.minimum, rules.option_maximum(spec, options)
    if spec.optional and value is None:
        return None
    if spec.kind == "choice":
        if value in spec.choices:
            return None
        choices = listed(spec.choices, "or")
        return (
            Message("The option {name} must be {choices}.", name=name, choices=choices),
            f"choose {choices}.",
        )
    if spec.kind == "integer":
        assert minimum is not None and maximum is not None
        if is_integer(value) and minimum <= value <= maximum:
            return None
        if spec.optional:
            return (
                Message(
                    "The option {name} must be a whole number from {minimum} to {maximum}, "
                    "or null for none.",
                    name=name,
                    minimum=minimum,
                    maximum=maximum,
                ),
                f"give a whole number from {minimum} to {maximum}, or null.",
            )
        return (
            Message(
                "The option {name} must be a whole number from {minimum} to {maximum}.",
                name=name,
                minimum=minimum,
                maximum=maximum,
            ),
            f"give a whole number from {minimum} to {maximum}.",
        )
    if spec.kind == "even_integers":
        assert minimum is not None and maximum is not None and spec.max_items is not None
        if not isinstance(value, list | tuple) or len(value) > spec.max_items:
            at_most = count_of(spec.max_items, "score")
            return (
                Message(
                    "The option {name} must be a list of at most {scores}.",
                    name=name,
                    scores=at_most,
                ),
                f"give a list of at most {at_most}.",
            )
        if len(set(v for v in value if is_integer(v))) != len(value):
            return (
                Message("The option {name} must list whole numbers, each only once.", name=name),
                "give distinct whole numbers.",
            )
        if not any(v % 2 or not minimum <= v <= maximum for v in value):
            return None
        return _even_scores_problem(spec, minimum, maximum)
    raise AssertionError(f"unknown option kind {spec.kind}")


def _even_scores_problem(spec: OptionSpec, minimum: int, maximum: int) -> tuple[str, str]:
    """The problem of an even score out of range, for the few even scores allowed."""
    evens = [v for v in range(minimum, maximum + 1) if v % 2 == 0]
    if not evens:
        empty = "The option {name} must be an empty list."
        if spec.capped_by:
            empty = "The option {name} must be an empty list when {other} is {maximum}."
        message = Message(empty, name=spec.name, other=spec.capped_by, maximum=maximum)
        return message, "give an empty list."
    if len(evens) == 1:
        return (
            Message(
                "The only score the option {name} may list is {score}.",
                name=spec.name,
                score=evens[0],
            ),
            f"the only score allowed is {evens[0]}.",
        )
    return (
        Message(
            "Each score in the option {name} must be an even number from {minimum} to {maximum}.",
            name=spec.name,
            minimum=minimum,
            maximum=maximum,
        ),
        f"each score must be even and from {minimum} to {maximum}.",
    )
