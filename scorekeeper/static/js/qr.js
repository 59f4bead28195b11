// A QR code drawn on the phone (nothing is sent anywhere): the vendored qrcode-generator makes the
// matrix, and an SVG built with DOM calls draws it.

import { s } from "./dom.js";
import qrcode from "./vendor/qrcode-generator/qrcode.js";

// Modules of quiet zone around the code, as the standard asks.
export const QUIET_ZONE = 4;

// The code's modules, rows of booleans (true: dark): byte mode, error correction M, the smallest
// version that holds the text.
export function qrMatrix(text) {
  const code = qrcode(0, "M");
  code.addData(text, "Byte");
  code.make();
  const size = code.getModuleCount();
  return Array.from({ length: size }, (_, row) =>
    Array.from({ length: size }, (_, column) => code.isDark(row, column)),
  );
}

// One SVG path of unit squares, one for each dark module, past the quiet zone.
export function qrPath(matrix) {
  const squares = [];
  matrix.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) squares.push(`M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`);
    }),
  );
  return squares.join("");
}

// label: what the image is, for a screen reader.
export function qrSvg(text, label) {
  const matrix = qrMatrix(text);
  const size = matrix.length + 2 * QUIET_ZONE;
  return s(
    "svg",
    {
      class: "qr",
      viewBox: `0 0 ${size} ${size}`,
      role: "img",
      "aria-label": label,
      "shape-rendering": "crispEdges",
      "data-testid": "scorer-qr",
      "data-modules": String(matrix.length),
    },
    s("rect", { width: size, height: size, fill: "#ffffff" }),
    s("path", { d: qrPath(matrix), fill: "#000000" }),
  );
}
