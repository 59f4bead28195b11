// The QR code's matrix (vendored qrcode-generator) and our SVG path of it: `npm test`.
// That a phone's camera reads the drawn code back is checked in tests/browser/test_install.py.

import assert from "node:assert/strict";
import { test } from "node:test";

import { QUIET_ZONE, qrMatrix, qrPath } from "../../scorekeeper/static/js/qr.js";

const LINK =
  "https://scores.example.org/#/scorer/game/q7RkZ2x0Tb6hJpWm9aLc1A/" +
  "Xy9_Qw3-Lm0pZr8sTb1cVn2dWe4fGh5j";

// A finder pattern whose top left module is (row, column): 7x7 dark ring, light ring, dark 3x3.
function isFinder(matrix, row, column) {
  for (let y = 0; y < 7; y += 1) {
    for (let x = 0; x < 7; x += 1) {
      const ring = Math.max(Math.abs(y - 3), Math.abs(x - 3));
      if (matrix[row + y][column + x] !== (ring !== 2)) return false;
    }
  }
  return true;
}

test("a scorer link becomes a square code of 4 × version + 17 modules", () => {
  const matrix = qrMatrix(LINK);
  const size = matrix.length;
  assert.equal((size - 17) % 4, 0);
  // 96 bytes at error correction M: more than version 5 holds (84), so version 6, 41 modules.
  assert.equal(LINK.length, 96);
  assert.equal(size, 41);
  assert.ok(matrix.every((row) => row.length === size));
});

test("the code has its three finder patterns and its timing patterns", () => {
  const matrix = qrMatrix(LINK);
  const last = matrix.length - 7;
  assert.ok(isFinder(matrix, 0, 0));
  assert.ok(isFinder(matrix, 0, last));
  assert.ok(isFinder(matrix, last, 0));
  assert.ok(!isFinder(matrix, last, last));
  for (let i = 8; i < matrix.length - 8; i += 1) {
    assert.equal(matrix[6][i], i % 2 === 0, `row 6, column ${i}`);
    assert.equal(matrix[i][6], i % 2 === 0, `column 6, row ${i}`);
  }
  // The dark module beside the bottom left finder (always dark).
  assert.equal(matrix[4 * ((matrix.length - 17) / 4) + 9][8], true);
});

test("the same text gives the same code; another text another code", () => {
  assert.deepEqual(qrMatrix(LINK), qrMatrix(LINK));
  assert.notDeepEqual(qrMatrix(LINK), qrMatrix(LINK.replace("Xy9", "Xy8")));
});

test("the path draws one unit square per dark module, past the quiet zone", () => {
  assert.equal(QUIET_ZONE, 4);
  assert.equal(
    qrPath([
      [true, false],
      [false, true],
    ]),
    "M4 4h1v1h-1zM5 5h1v1h-1z",
  );
  assert.equal(qrPath([[false]]), "");
  const matrix = qrMatrix(LINK);
  const dark = matrix.flat().filter(Boolean).length;
  assert.equal(qrPath(matrix).split("z").length - 1, dark);
});
