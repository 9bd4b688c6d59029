// SVG helpers shared by the game drawings: element creation, pieces, arrows and marks.
'use strict';
const SVGNS = 'http://www.w3.org/2000/svg';

// Creates an SVG element with attributes (and optional text) and appends it to parent.
function el(parent, name, attrs, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// A piece of colour 'w' or 'b' (upper case: a double piece, drawn with a ring).
function piece(parent, x, y, r, c) {
  const white = c.toLowerCase() === 'w';
  el(parent, 'circle', { cx: x, cy: y, r, class: 'piece ' + (white ? 'white' : 'black') });
  if (c === 'W' || c === 'B') el(parent, 'circle', { cx: x, cy: y, r: r * 0.55, class: 'piece ring ' + (white ? 'black' : 'white') });
}

// A transparent click target named after the point it stands for (data-point).
function hit(parent, name, shape, attrs) {
  return el(parent, shape, Object.assign({ class: 'hit', 'data-point': name }, attrs));
}

// An arrow from a to b ([x, y] each); kind picks the colour (css classes arrow-KIND).
function arrow(parent, a, b, kind) {
  const [x1, y1] = a, [x2, y2] = b;
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / len, uy = (y2 - y1) / len, h = 10;
  const bx = x2 - ux * h, by = y2 - uy * h;
  el(parent, 'line', { x1, y1, x2: bx, y2: by, class: 'arrow arrow-' + kind });
  el(parent, 'polygon', {
    points: `${x2},${y2} ${bx - uy * h * 0.6},${by + ux * h * 0.6} ${bx + uy * h * 0.6},${by - ux * h * 0.6}`,
    class: 'arrowhead arrow-' + kind,
  });
}

// A ring around a point, for placements, captures and detonations.
function ring(parent, p, kind) {
  el(parent, 'circle', { cx: p[0], cy: p[1], r: 19, class: 'ring-mark arrow-' + kind });
}

// Text that never takes clicks.
function label(parent, x, y, text, cls) {
  return el(parent, 'text', { x, y, class: 'label ' + (cls || '') }, text);
}

// A cross over a point: a piece the last move took off the board.
function cross(parent, p) {
  const [x, y] = p, d = 9;
  el(parent, 'path', { d: `M${x - d},${y - d}L${x + d},${y + d}M${x - d},${y + d}L${x + d},${y - d}`, class: 'removed-mark' });
}

// A numbered disc, naming a choice drawn on the board like the button that makes it.
function badge(parent, p, text, k) {
  el(parent, 'circle', { cx: p[0], cy: p[1], r: 10, class: `badge run-${k}` });
  label(parent, p[0], p[1] + 4, text, 'badge-text');
}
