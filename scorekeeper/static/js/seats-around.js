// Which edge of a phone lying in the middle of the table each player's label goes to: the seats go
// clockwise seen from above, from the middle of the bottom edge, up the left side, across the top
// and down the right side, evenly spaced around the edge of a phone twice as tall as it is wide.
// Each label is then turned to face its edge (app.css). Pure: no DOM.

const WIDTH = 1;
const HEIGHT = 2;

/**
 * The seats (0..count-1, seat 0 at the bottom edge's middle, or `turn` places on clockwise) on
 * each edge, in the order they follow one another clockwise along it: the bottom edge from its
 * right-hand corner to its left-hand one, the left edge upwards, the top edge rightwards, the
 * right edge downwards.
 */
export function seatEdges(count, turn = 0) {
  const perimeter = 2 * (WIDTH + HEIGHT);
  const legs = [
    ["bottom-left", WIDTH / 2],
    ["left", HEIGHT],
    ["top", WIDTH],
    ["right", HEIGHT],
    ["bottom-right", WIDTH / 2],
  ];
  const found = { "bottom-right": [], "bottom-left": [], left: [], top: [], right: [] };
  const at = [];
  for (let seat = 0; seat < count; seat++) {
    const place = (((seat + turn) % count) + count) % count;
    at.push([place * (perimeter / count), seat]);
  }
  at.sort((a, b) => a[0] - b[0]);
  for (const [along, seat] of at) {
    let left = along;
    for (const [index, [leg, size]] of legs.entries()) {
      if (left >= size && index < legs.length - 1) {
        left -= size;
        continue;
      }
      found[leg].push(seat);
      break;
    }
  }
  return {
    bottom: [...found["bottom-right"], ...found["bottom-left"]],
    left: found.left,
    top: found.top,
    right: found.right,
  };
}
