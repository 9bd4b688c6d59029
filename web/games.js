// What the page knows of each game: the position string's layout (protocol.md), where each
// point is drawn (notation.md's names), and how a move's text splits into clicks. No rules:
// which moves exist always comes from the engine's `legalmoves`, and which games and options
// exist from the server's /games.json (each game's declaration in the engine); `display` only
// gives nicer labels to option keys and values (`names`: a map, or a function of the value).
// A game missing here is played through the generic view (app.js).
'use strict';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

// The first field of a position string split into its '/'-separated parts.
function rowsOf(fen) { return fen.split(' ')[0].split('/'); }

// Expands digit runs of a row ("b2w" -> ['b','.','.','w']).
function expandRow(row) {
  const cells = [];
  for (const m of row.matchAll(/(\d+)|(.)/g)) {
    if (m[1]) for (let i = 0; i < +m[1]; i++) cells.push('.');
    else cells.push(m[2]);
  }
  return cells;
}

// Every order of a list (backgammon steps and Cascades stones may be clicked in any order).
function orders(list) {
  if (list.length <= 1) return [list];
  const out = [];
  list.forEach((x, i) => {
    for (const rest of orders(list.slice(0, i).concat(list.slice(i + 1)))) out.push([x].concat(rest));
  });
  return out;
}

// The squares that held a piece before a move and are empty after it, the move's own start
// excluded: what a detonation or a capture took away (drawn as crosses after the move).
function emptied(before, after, keep) {
  return Object.keys(before).filter((p) => /[wb]/i.test(before[p]) && after[p] === '.' && !keep.includes(p));
}

const Bombardment = {
  title: 'Bombardment',
  help: 'Tap one of your pieces, then the square it steps to (one square forward, straight or diagonally, onto an empty square), or tap the piece and then Detonate: it explodes with every piece on the eight squares around it. Reach the far rank, or leave the opponent without pieces.',
  display: { size: { label: 'Board size' } },
  reasons: { 'far-rank': (w) => `${w} reached the far rank`, 'no-pieces': (w, l) => `${l} has no pieces left`, 'board-empty': () => 'every piece is gone' },
  tokenLabel(t) { return t.startsWith('x') ? `Detonate ${t.slice(1)}` : t; },
  parse(fen) {
    const board = rowsOf(fen).map(expandRow);
    const at = {};
    board.forEach((row, i) => row.forEach((c, f) => { at[LETTERS[f] + (board.length - i)] = c; }));
    return { board, at, n: board.length, side: fen.split(' ')[1] };
  },
  pos(p, st) {
    const f = LETTERS.indexOf(p[0]), r = +p.slice(1);
    return [30 + f * 40 + 20, 10 + (st.n - r) * 40 + 20];
  },
  render(g, st) {
    const n = st.n;
    for (let r = n; r >= 1; r--) {
      for (let f = 0; f < n; f++) {
        const name = LETTERS[f] + r, [x, y] = this.pos(name, st);
        el(g, 'rect', { x: x - 20, y: y - 20, width: 40, height: 40, class: (f + r) % 2 ? 'sq-light' : 'sq-dark' });
        const c = st.board[n - r][f];
        if (c !== '.') piece(g, x, y, 15, c);
        hit(g, name, 'rect', { x: x - 20, y: y - 20, width: 40, height: 40 });
      }
      label(g, 15, 10 + (n - r) * 40 + 25, String(r));
    }
    for (let f = 0; f < n; f++) label(g, 30 + f * 40 + 20, 10 + n * 40 + 15, LETTERS[f]);
    return `0 0 ${40 + n * 40} ${30 + n * 40}`;
  },
  // e2e3: from, to; xe2: the piece, then the detonate button.
  seqs(m) {
    const pts = m.match(/[a-p]\d+/g) || [];
    return [m.startsWith('x') ? [pts[0], m] : pts];
  },
  marks(m) {
    const pts = m.match(/[a-p]\d+/g) || [];
    return m.startsWith('x') ? [{ at: pts[0], bad: true }] : [{ from: pts[0], to: pts[1] }];
  },
  removed(before, after, m) { return m.startsWith('x') ? emptied(before.at, after.at, []) : []; },
};

const MORRIS_POINTS = 'a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7'.split(' ');
const MORRIS_LINES = [
  ['a1', 'g1'], ['b2', 'f2'], ['c3', 'e3'], ['a4', 'c4'], ['e4', 'g4'], ['c5', 'e5'], ['b6', 'f6'], ['a7', 'g7'],
  ['a1', 'a7'], ['b2', 'b6'], ['c3', 'c5'], ['d1', 'd3'], ['d5', 'd7'], ['e3', 'e5'], ['f2', 'f6'], ['g1', 'g7'],
];

const Morris = {
  title: "Nine Men's Morris",
  help: 'While you have men in hand, tap an empty point to place one; then tap a man and the point it moves to. Three in a row (a mill) lets you remove one of the opponent\'s men: tap it. Leave the opponent with two men or no move.',
  display: {
    flying: { label: 'Flying with three', names: { false: 'no', true: 'yes' } },
    repetition: { label: 'Draw on repetition', names: { 0: 'never', 2: '2nd time', 3: '3rd time', 5: '5th time' } },
    nocapture: { label: 'Draw without capture', names: { 0: 'never', 20: '20 plies', 50: '50 plies', 100: '100 plies', 200: '200 plies' } },
  },
  reasons: {
    'too-few-pieces': (w, l) => `${l} is down to two men`, blocked: (w, l) => `${l} cannot move`,
    repetition: () => 'the position repeated', 'no-capture': () => 'no capture for too long',
  },
  // After the man is placed or moved, a move that closes a mill still waits for its capture:
  // the page draws the man on its new point and asks for the capture.
  pending(sel, cands) {
    const done = sel.join('');
    return sel.length && cands.some(([m]) => m.startsWith(done + 'x')) ? sel : null;
  },
  preview(st, sel) {
    const at = Object.assign({}, st.at);
    const up = st.side === 'w' ? 'W' : 'B';
    if (sel.length === 2) { at[sel[1]] = at[sel[0]]; at[sel[0]] = '.'; } else at[sel[0]] = up;
    return Object.assign({}, st, { at, hand: sel.length === 1 ? Object.assign({}, st.hand, { [st.side]: st.hand[st.side] - 1 }) : st.hand });
  },
  prompt(sel, cands, st) {
    if (!this.pending(sel, cands)) return '';
    return `Mill! Tap one of ${st.side === 'w' ? "Black's" : "White's"} men to remove it.`;
  },
  removed(before, after, m) { const c = m.split('x')[1]; return c ? [c] : []; },
  parse(fen) {
    const [ranks, side, wh, bh, clock] = fen.split(' ');
    const at = {};
    ranks.split('/').forEach((row, i) => {
      const rank = 7 - i;
      const names = MORRIS_POINTS.filter((p) => +p[1] === rank).sort();
      [...row].forEach((c, j) => { at[names[j]] = c; });
    });
    return { at, side, hand: { w: +wh, b: +bh }, clock: +clock };
  },
  pos(p) { return [40 + LETTERS.indexOf(p[0]) * 50, 40 + (7 - +p[1]) * 50]; },
  render(g, st) {
    for (const [a, b] of MORRIS_LINES) {
      const [x1, y1] = this.pos(a), [x2, y2] = this.pos(b);
      el(g, 'line', { x1, y1, x2, y2, class: 'board-line' });
    }
    for (const p of MORRIS_POINTS) {
      const [x, y] = this.pos(p);
      el(g, 'circle', { cx: x, cy: y, r: 5, class: 'spot' });
      if (st.at[p] === 'W') piece(g, x, y, 17, 'w');
      if (st.at[p] === 'B') piece(g, x, y, 17, 'b');
      hit(g, p, 'circle', { cx: x, cy: y, r: 24 });
    }
    for (let i = 0; i < 7; i++) {
      label(g, 40 + i * 50, 375, LETTERS[i]);
      label(g, 12, 45 + i * 50, String(7 - i));
    }
    // The men still in hand, under the board.
    ['w', 'b'].forEach((c, k) => {
      label(g, 20 + k * 190, 405, (c === 'w' ? 'White' : 'Black') + ' in hand: ' + st.hand[c], 'left');
      for (let i = 0; i < st.hand[c]; i++) piece(g, 30 + k * 190 + i * 17, 425, 7, c);
    });
    label(g, 190, 460, `plies without capture: ${st.clock}`);
    return '0 0 380 470';
  },
  // d2, d2xa1, d2d3, d2d3xa1: the points in the order written.
  seqs(m) { return [m.match(/[a-g][1-7]/g)]; },
  marks(m) {
    const [move, cap] = m.split('x');
    const pts = move.match(/[a-g][1-7]/g);
    const out = pts.length === 2 ? [{ from: pts[0], to: pts[1] }] : [{ at: pts[0] }];
    if (cap) out.push({ at: cap, bad: true });
    return out;
  },
};

const Cascades = {
  title: 'Cascades',
  help: 'Place one or two stones a turn (White\'s first move: one), each beside or below one of your stones; tap one cell, then a second one or Play. Hold more than half of the bottom row, or the most of it after two passes.',
  display: {
    width: { label: 'Top row' },
    rows: { label: 'Rows' },
    adjacency: { label: 'Grows', names: { 'side-below': 'beside or below', below: 'below only' } },
  },
  reasons: { majority: (w) => `${w} holds most of the bottom row`, 'two-passes': () => 'two passes in a row' },
  tokenLabel(t) { return t === 'pass' ? 'Pass' : t; },
  parse(fen) {
    const [rows, side, passes, first] = fen.split(' ');
    const cells = rows.split('/').map((r) => [...r]);
    return { cells, side, passes: +passes, first: first === 'first', rows: cells.length, width: cells[0].length };
  },
  pos(p, st) {
    const r = LETTERS.indexOf(p[0]) + 1, c = +p.slice(1);
    return [20 + (c - 1 + (st.rows - r) / 2) * 36 + 18, 20 + (r - 1) * 32 + 18];
  },
  render(g, st) {
    st.cells.forEach((row, i) => {
      row.forEach((c, j) => {
        const name = LETTERS[i] + (j + 1), [x, y] = this.pos(name, st);
        const pts = [0, 1, 2, 3, 4, 5].map((k) => {
          const a = Math.PI / 6 + (k * Math.PI) / 3;
          return `${x + 19 * Math.cos(a)},${y + 19 * Math.sin(a)}`;
        });
        el(g, 'polygon', { points: pts.join(' '), class: i === st.rows - 1 ? 'cell bottom' : 'cell' });
        if (c !== '.') piece(g, x, y, 13, c);
        hit(g, name, 'circle', { cx: x, cy: y, r: 18 });
      });
      label(g, 10 + ((st.rows - 1 - i) / 2) * 36, 20 + i * 32 + 23, LETTERS[i]);
    });
    const w = 40 + (st.width + st.rows - 1) * 36, h = 50 + st.rows * 32;
    label(g, w / 2, h - 8, `passes in a row: ${st.passes}${st.first ? ', first move: one stone' : ''}`);
    return `0 0 ${w} ${h}`;
  },
  // pass is a button; the stones of a two-stone move may be clicked in either order.
  seqs(m) { return m === 'pass' ? [['pass']] : orders(m.split(',')); },
  marks(m) { return m === 'pass' ? [] : m.split(',').map((p) => ({ at: p })); },
};

// GIPF: column x (a=0..i=8), internal y = row - 1 + max(0, x - 4) (notation.md).
const GIPF_SIZES = [5, 6, 7, 8, 9, 8, 7, 6, 5];
const Gipf = {
  title: 'GIPF',
  help: 'Tap a dot on the edge, then the spot next to it: your piece enters there and pushes the line along. Four in a row of your colour are taken off with the pieces that extend them; when rows cross, you choose which goes (numbered buttons, the row drawn on the board). Whoever must play with an empty reserve loses.',
  display: { variant: { label: 'Variant' } },
  reasons: { 'no-reserve': (w, l) => `${l} has no pieces left to play`, 'no-gipf': (w, l) => `${l} has no GIPF-piece left` },
  tokenLabel(t, st, i) {
    if (t === 'G') return 'GIPF-piece (double)';
    const run = t.match(/^x([a-i]\d+)-([a-i]\d+)(.*)$/);
    if (!run) return t;
    const kept = run[3] ? ', keep ' + run[3].slice(1).split('/').join(' ') : '';
    return `Row ${i + 1}: remove ${run[1]}–${run[2]}${kept}`;
  },
  // A removal choice's run, drawn on the board with its number beside the buttons.
  run(t) { const r = t.match(/^x([a-i]\d+)-([a-i]\d+)/); return r ? [r[1], r[2]] : null; },
  prompt(sel, cands, st, next) {
    if (![...next].some((t) => t.startsWith('x'))) return '';
    return `${st.side === 'w' ? 'White' : 'Black'} has rows that cross: choose the row to remove (numbered on the board).`;
  },
  removed(before, after) { return emptied(before.at, after.at, []); },
  parse(fen) {
    const f = fen.split(' ');
    const at = {};
    f[0].split('/').forEach((col, i) => {
      expandRow(col).forEach((c, j) => { at[LETTERS[i + 1] + (j + 2)] = c; });
    });
    return { at, side: f[1], reserve: { w: +f[2], b: +f[3] }, captured: { w: +f[4], b: +f[5] }, gipfIn: f[6] };
  },
  points() {
    const out = [];
    GIPF_SIZES.forEach((size, x) => {
      for (let j = 1; j <= size; j++) out.push({ name: LETTERS[x] + j, x, y: j - 1 + Math.max(0, x - 4), dot: x === 0 || x === 8 || j === 1 || j === size });
    });
    return out;
  },
  pos(p) {
    const x = LETTERS.indexOf(p[0]), y = +p.slice(1) - 1 + Math.max(0, x - 4);
    return [60 + x * 0.866 * 44, 30 + (8 - (y - x / 2) - 2) * 44];
  },
  render(g, st) {
    const pts = this.points();
    const byXY = {};
    for (const p of pts) byXY[p.x + ',' + p.y] = p;
    for (const p of pts) {
      for (const [dx, dy] of [[0, 1], [1, 0], [1, 1]]) {
        const q = byXY[(p.x + dx) + ',' + (p.y + dy)];
        if (q && !(p.dot && q.dot)) {
          const [x1, y1] = this.pos(p.name), [x2, y2] = this.pos(q.name);
          el(g, 'line', { x1, y1, x2, y2, class: 'board-line' });
        }
      }
    }
    for (const p of pts) {
      const [x, y] = this.pos(p.name);
      el(g, 'circle', { cx: x, cy: y, r: p.dot ? 6 : 3, class: p.dot ? 'dot' : 'spot' });
      const c = st.at[p.name];
      if (c && c !== '.') piece(g, x, y, 15, c);
      hit(g, p.name, 'circle', { cx: x, cy: y, r: 21 });
      if (p.dot) label(g, x + (p.x < 4 ? -14 : p.x > 4 ? 14 : 0), y + (p.x === 4 ? (y > 200 ? 22 : -12) : 4), p.name, 'small');
    }
    // Reserves and captures beside the board.
    ['w', 'b'].forEach((c, k) => {
      // White's reserve in the top left corner, Black's in the bottom right one.
      const y0 = k ? 425 : 16, x0 = k ? 392 : 8, dir = k ? -1 : 1;
      label(g, x0, y0, `${c === 'w' ? 'White' : 'Black'}: reserve ${st.reserve[c]}, captured ${st.captured[c]}`, k ? 'right' : 'left');
      for (let i = 0; i < st.reserve[c]; i++) piece(g, x0 + dir * ((i % 9) * 15 + 6), y0 + 12 + Math.floor(i / 9) * 15, 6, c);
    });
    if (st.gipfIn) label(g, 10, 462, `may bring GIPF-pieces in: ${st.gipfIn}`, 'left');
    return '0 0 400 470';
  },
  // [G] dot spot, with removal choices (buttons) before and after the push.
  seqs(m) {
    const seq = [];
    for (const part of m.split(':')) {
      if (part.startsWith('x')) seq.push(...part.split(','));
      else {
        if (part.startsWith('G')) seq.push('G');
        seq.push(...part.replace('G', '').split('-'));
      }
    }
    return [seq];
  },
  marks(m) {
    const push = m.split(':').find((p) => !p.startsWith('x')).replace('G', '').split('-');
    return [{ from: push[0], to: push[1] }];
  },
};

// Backgammon: drawn from White's side; White's point k is board place k, Black's point q is
// place 25 - q. Click names are the mover's point numbers (notation.md), so they depend on
// the side to move.
const Backgammon = {
  title: 'Backgammon',
  help: 'Tap Roll (or Double when you may), then move checker by checker: tap the point a checker leaves, then the point it reaches (bar and the off tray too). Pip counts are under the board; the cube sits on the side of its owner. Bear all fifteen checkers off first.',
  display: {
    eval: { label: 'Engine evaluation' },
    cube: { label: 'Doubling cube' },
    beaver: { label: 'Beavers' },
    jacoby: { label: 'Jacoby rule' },
    match: { label: 'Match to', names: (v) => (v === '0' ? 'money game' : v === '1' ? '1 point' : `${v} points`) },
  },
  reasons: {
    single: () => 'a single game', gammon: (w, l) => `${l} is gammoned`, backgammon: (w, l) => `${l} is backgammoned`,
    drop: (w, l) => `${l} dropped the cube`,
  },
  tokenLabel(t) {
    const names = { double: 'Double', take: 'Take', drop: 'Drop', beaver: 'Beaver (take and redouble)' };
    if (names[t]) return names[t];
    return t.endsWith(':pass') ? `No move with ${t.slice(0, 2)}: pass` : t;
  },
  prompt(sel, cands, st, next) {
    if (st.offered) {
      const v = st.cube ? +st.cube.split(':')[0] : 1;
      return `${st.side === 'w' ? 'Black' : 'White'} doubles to ${v * 2}: take or drop?`;
    }
    return '';
  },
  // Pips still to travel (a checker on the bar: 25), from the position string's counts.
  pips(side) {
    let n = 0;
    for (const [p, k] of Object.entries(side)) n += (p === 'bar' ? 25 : p === 'off' ? 0 : +p) * k;
    return n;
  },
  parse(fen) {
    const f = fen.split(' ');
    const count = (list) => {
      const out = { bar: 0 }, text = list.split('=')[1];
      let total = 0;
      if (text !== '-') for (const item of text.split(',')) { const [p, n] = item.split(':'); out[p] = +n; total += +n; }
      out.off = 15 - total;
      return out;
    };
    const flags = f.slice(4);
    const cube = flags.find((x) => x.startsWith('cube='));
    return {
      w: count(f[0]), b: count(f[1]), side: f[2], dice: f[3] === '-' ? null : f[3],
      opening: flags.includes('opening'), offered: flags.includes('offered'),
      cube: cube ? cube.slice(5) : null, flags: flags.filter((x) => x !== 'opening').join(' '),
      match: +((flags.find((x) => x.startsWith('match=')) || 'match=0').slice(6)),
      score: (flags.find((x) => x.startsWith('score=')) || 'score=0-0').slice(6).split('-').map(Number),
      crawford: flags.includes('crawford'),
    };
  },
  // Board place (1..24 White's numbering) to the x of its column and whether it is on top.
  place(k) {
    const top = k >= 13, idx = top ? k - 13 : 12 - k;
    return { x: 20 + idx * 30 + (idx >= 6 ? 30 : 0) + 15, top };
  },
  // A mover's point name ('13', 'bar', 'off') as a position on the drawing.
  pos(p, st, mover) {
    const side = mover || st.side;
    if (p === 'bar') return [215, side === 'w' ? 100 : 250];
    if (p === 'off') return [425, side === 'w' ? 300 : 50];
    const k = side === 'w' ? +p : 25 - +p, { x, top } = this.place(k);
    return [x, top ? 60 : 290];
  },
  render(g, st) {
    el(g, 'rect', { x: 5, y: 5, width: 400, height: 340, class: 'bg-board' });
    el(g, 'rect', { x: 200, y: 5, width: 30, height: 340, class: 'bg-bar' });
    el(g, 'rect', { x: 410, y: 5, width: 30, height: 340, class: 'bg-tray' });
    const name = (k) => String(st.side === 'w' ? k : 25 - k);
    for (let k = 1; k <= 24; k++) {
      const { x, top } = this.place(k);
      const yb = top ? 15 : 335, yt = top ? 150 : 200;
      el(g, 'polygon', { points: `${x - 15},${yb} ${x + 15},${yb} ${x},${yt}`, class: k % 2 ? 'tri-a' : 'tri-b' });
      const pieces = st.w[String(k)] ? ['w', st.w[String(k)]] : st.b[String(25 - k)] ? ['b', st.b[String(25 - k)]] : null;
      if (pieces) this.stack(g, x, top, pieces[0], pieces[1]);
      label(g, x, top ? 13 : 354, name(k), top ? 'tiny light' : 'tiny');
      hit(g, name(k), 'rect', { x: x - 15, y: top ? 5 : 195, width: 30, height: 150 });
    }
    // The bar: White's checkers wait in the top half, Black's in the bottom half.
    if (st.w.bar) this.stack(g, 215, true, 'w', st.w.bar, 110);
    if (st.b.bar) this.stack(g, 215, false, 'b', st.b.bar, 240);
    hit(g, 'bar', 'rect', { x: 200, y: 5, width: 30, height: 340 });
    // Borne-off checkers: White's at the bottom of the tray, Black's at the top.
    for (const [c, y0, dir] of [['w', 332, -1], ['b', 18, 1]]) {
      for (let i = 0; i < st[c].off; i++) el(g, 'rect', { x: 413, y: y0 + dir * i * 9 - 4, width: 24, height: 8, class: 'piece ' + (c === 'w' ? 'white' : 'black') });
    }
    hit(g, 'off', 'rect', { x: 410, y: 5, width: 30, height: 340 });
    // The mover's dice on the right half; the opponent's last roll, faded, on the left half.
    const drawDice = (roll, c, x0, used, faded) => {
      const dice = roll[0] === roll[1] ? [roll[0], roll[0], roll[0], roll[0]] : [...roll];
      dice.forEach((d, i) => {
        const x = x0 + i * 30, y = 162;
        el(g, 'rect', { x, y, width: 26, height: 26, rx: 4, class: 'die ' + (c === 'w' ? 'white' : 'black') + (i < used || faded ? ' used' : '') });
        label(g, x + 13, y + 18, d, 'die-text ' + (c === 'w' ? 'on-white' : 'on-black'));
      });
    };
    if (st.dice) drawDice(st.dice, st.side, 262, (st.usedDice || []).length, false);
    if (st.lastRoll) drawDice(st.lastRoll, st.side === 'w' ? 'b' : 'w', 50, 0, true);
    // A centred cube at 1 has no flag in the position string: the game's options tell.
    const cubeOn = st.cube || /cube=on/.test(st.options || '');
    if (cubeOn) {
      const [value, owner] = st.cube ? st.cube.split(':') : ['64', undefined];
      const y = owner === 'w' ? 305 : owner === 'b' ? 15 : 162;
      el(g, 'rect', { x: 201, y, width: 28, height: 28, rx: 3, class: 'cube' + (st.offered ? ' offered' : '') });
      label(g, 215, y + 19, st.offered ? String(2 * (st.cube ? +value : 1)) : value, 'cube-text');
    }
    const pips = `Pips: White ${this.pips(st.w)}, Black ${this.pips(st.b)}`;
    label(g, 10, 372, pips, 'left');
    if (st.match) {
      label(g, 435, 372, `Match to ${st.match}: ${st.score[0]}-${st.score[1]}${st.crawford ? ' Crawford' : ''}`, 'right');
    }
    return '0 0 445 382';
  },
  stack(g, x, top, c, n, start) {
    const y0 = start || (top ? 27 : 323), dir = top ? 1 : -1;
    for (let i = 0; i < Math.min(n, 5); i++) piece(g, x, y0 + dir * i * 24, 12, c);
    if (n > 5) label(g, x, y0 + dir * 4 * 24 + 5, String(n), 'count ' + (c === 'w' ? 'on-white' : 'on-black'));
  },
  // A play is clicked step by step (from, to), the steps in any order; double, take, drop,
  // beaver and NN:pass are buttons. Before the roll the plays are not clickable.
  seqs(m, st) {
    const [roll, play] = m.split(':');
    if (play === undefined) return [[m]];
    if (!st.dice || roll !== st.dice) return [];
    if (play === 'pass') return [[m]];
    return orders(play.split(',')).map((steps) => steps.flatMap((s) => s.split('/')));
  },
  marks(m, st, mover) {
    const play = m.split(':')[1];
    if (!play || play === 'pass') return [];
    return play.split(',').map((s) => { const [a, b] = s.split('/'); return { from: a, to: b, mover }; });
  },
  // The dice used by the steps clicked so far (for greying them out), smallest fit first.
  usedDice(sel, st) {
    if (!st.dice) return [];
    const left = st.dice[0] === st.dice[1] ? [st.dice[0], st.dice[0], st.dice[0], st.dice[0]].map(Number) : [...st.dice].map(Number);
    const used = [];
    for (let i = 0; i + 1 < sel.length; i += 2) {
      const from = sel[i] === 'bar' ? 25 : +sel[i], to = sel[i + 1] === 'off' ? 0 : +sel[i + 1];
      const fits = left.filter((d) => (to === 0 ? d >= from - to : d === from - to)).sort((a, b) => a - b);
      if (fits.length) { left.splice(left.indexOf(fits[0]), 1); used.push(fits[0]); }
    }
    return used;
  },
};

// Nim (the template game): heap letters, counters clicked to take them and all after them.
const Nim = {
  title: 'Nim',
  help: 'Tap a counter: it and every counter to its right in that heap are taken. Whoever takes the last counter wins.',
  display: { heaps: { label: 'Heaps' } },
  reasons: { 'last-counter': (w) => `${w} took the last counter` },
  parse(fen) {
    const [heaps, side] = fen.split(' ');
    return { heaps: heaps.split('/').map(Number), side };
  },
  pos(p, st) {
    const h = LETTERS.indexOf(p[0]), n = st.heaps[h], j = n - +p.slice(1);
    return [60 + j * 30, 30 + h * 40];
  },
  render(g, st) {
    let w = 200;
    st.heaps.forEach((n, h) => {
      label(g, 20, 35 + h * 40, LETTERS[h]);
      for (let j = 0; j < n; j++) {
        const name = LETTERS[h] + (n - j), [x, y] = this.pos(name, st);
        piece(g, x, y, 11, 'b');
        hit(g, name, 'circle', { cx: x, cy: y, r: 14 });
      }
      w = Math.max(w, 80 + n * 30);
    });
    return `0 0 ${w} ${20 + st.heaps.length * 40}`;
  },
  seqs(m) { return [[m]]; },
  marks(m, st) { return st.heaps[LETTERS.indexOf(m[0])] >= +m.slice(1) ? [{ at: m, bad: true }] : []; },
};

const GAMES = { gipf: Gipf, bombardment: Bombardment, cascades: Cascades, morris: Morris, backgammon: Backgammon, nim: Nim };
