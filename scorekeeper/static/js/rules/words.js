// Plain English for the engine's messages (rules/words.py), and values written as Python writes them.

/** `count` with `noun` in the right number: "1 point", "2 points", "0 cards". */
export function countOf(count, noun, plural = null) {
  return `${count} ${count === 1 ? noun : plural || noun + "s"}`;
}

/** Items joined as a sentence lists them: "A", "A and B", "A, B and C". */
export function listed(items, conjunction = "and") {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** Whether `value` is a JSON integer (booleans are not numbers here). */
export function isInteger(value) {
  return Number.isInteger(value);
}

// Python's str.isprintable() is false for these (the ASCII space aside).
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const ESCAPES = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** One character of a Python string literal, escaped as `repr` escapes it. */
function escaped(char, quote) {
  if (char === quote) return "\\" + quote;
  if (ESCAPES[char]) return ESCAPES[char];
  if (char === " " || !UNPRINTABLE.test(char)) return char;
  const point = char.codePointAt(0);
  if (point < 0x100) return "\\x" + point.toString(16).padStart(2, "0");
  if (point < 0x10000) return "\\u" + point.toString(16).padStart(4, "0");
  return "\\U" + point.toString(16).padStart(8, "0");
}

/** A JSON value as Python's `repr` writes it: 'ZZ', None, True, [1, 2], {'a': 1}. */
export function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloat(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    const items = Object.entries(value).map(([key, item]) => `${pyRepr(key)}: ${pyRepr(item)}`);
    return `{${items.join(", ")}}`;
  }
  const text = String(value);
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  return quote + Array.from(text, (char) => escaped(char, quote)).join("") + quote;
}

/** A non-integer number as Python writes a float (1.5, 1e+16, inf). */
function pyFloat(value) {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  const text = Math.abs(value) < 1e-4 ? value.toExponential() : String(value);
  return text.replace(/e([+-])(\d)$/, "e$10$2");
}

/**
 * A value the table sent, as a person reads it in a sentence (rules/words.py `shown`): text in
 * double quotes, each character that does not show written as its code point ("KH<U+0000>");
 * anything else as JSON writes it (12, null).
 */
export function shown(value) {
  if (typeof value !== "string") return JSON.stringify(value === undefined ? null : value);
  const point = (char) => char.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
  const each = (char) => (char === " " || !UNPRINTABLE.test(char) ? char : `<U+${point(char)}>`);
  return `"${Array.from(value, each).join("")}"`;
}

/** A value as a Python f-string writes it: text as it is, anything else as `repr`. */
export function pyStr(value) {
  return typeof value === "string" ? value : pyRepr(value);
}
