// The page's protocol client: it keeps the game's start and move line, asks the engine for
// the position string, the legal moves and the result after every change, draws the board
// and turns clicks into one of the listed legal moves. Every rule lives in the engine.
'use strict';
const $ = (id) => document.getElementById(id);

// Named levels: the engine's `Player` option and the `go` limit sent for its moves
// (docs/web.md has what each scores against the next; scripts/levels.sh plays them).
const LEVELS = {
  beginner: { name: 'Beginner', player: 'random', go: 'go depth 1' },
  novice: { name: 'Novice', player: 'greedy', go: 'go depth 1' },
  casual: { name: 'Casual', player: 'search', go: 'go nodes 300' },
  club: { name: 'Club', player: 'search', go: 'go nodes 5000' },
  strong: { name: 'Strong', player: 'search', go: 'go movetime 200' },
  full: { name: 'Full strength', player: 'search', go: 'go movetime 1000' },
};

// The page's whole state; window.tabula lets tests and curious users read it. `moves` is the
// whole line, `ply` how much of it is on the board (less while reviewing), `lineResult` the
// engine's result at the line's end (`result` is the shown position's). In backgammon match
// play `matchGames` are the match's finished games before this one ({first, moves, result})
// and `matchStart` the start this game got from `Next game of the match` (null: the first
// game, from startpos): a pasted position string replaces `start` and leaves the match.
const S = {
  game: 'gipf', opts: '', start: null, moves: [], ply: 0, dice: null, fen: '', prevFen: '', legal: [],
  result: 'none', lineResult: 'none', st: null, sel: [], searching: null, discard: false, onStopped: null,
  info: {}, infoSide: 'w', infoFen: '', flip: false, rolling: false, matchGames: [], matchStart: null,
};
window.tabula = S;
let ws = null;
const waiters = [];

// The engine's games and their declared options, from the server's /games.json (by name).
const CATALOG = {};
// Games drawn through the generic view although games.js draws them: `?generic=nim` (tests).
const GENERIC_ONLY = new URLSearchParams(location.search).getAll('generic');
const generics = {};
// How the page shows a game: its drawing from games.js, or the generic view (the engine's
// `d` board as text, every legal move a button) for a game the page does not know.
function gameFor(name) {
  if (GAMES[name] && !GENERIC_ONLY.includes(name)) return GAMES[name];
  if (!generics[name]) {
    generics[name] = {
      title: name, generic: true,
      help: "The board as the engine draws it (its d command). Play a move with its button under the board.",
      // The side to move comes from `d` (sync); position strings are the game's own.
      parse() { return { side: 'w' }; },
      render() { return '0 0 1 1'; },
      seqs(m) { return [[m]]; },
      marks() { return []; },
      pos() { return [0, 0]; },
    };
  }
  return generics[name];
}
function game() { return gameFor(S.game); }
function sideName(c) { return c === 'w' ? 'White' : 'Black'; }
function other(c) { return c === 'w' ? 'b' : 'w'; }
function playerOf(c) { return $(c === 'w' ? 'white' : 'black').value; }
function isEngine(c) { return playerOf(c) !== 'human'; }
function atEnd() { return S.ply === S.moves.length; }
// The game is over by the engine's result, or on time.
function over() { return S.result !== 'none' || !!C.flagged; }
// A human may move while the engine is idle or only analysing (the analysis then stops);
// while reviewing an earlier position a move starts a new line from there.
function humanToMove() {
  return S.st && !over() && S.searching !== 'play' && (!atEnd() || !isEngine(S.st.side));
}
function livePlay() { return isEngine('w') !== isEngine('b'); }

// The protocol log keeps the last 300 lines, each cut to 400 characters (a backgammon
// legalmoves line before the roll lists every roll's plays). It is drawn once a frame, and
// only while open: laying it out for every line slowed engine-against-engine games down.
const logLines = [];
let logAsked = false;
function log(line) {
  logLines.push(line.length > 400 ? line.slice(0, 400) + ' ...' : line);
  if (logLines.length > 300) logLines.splice(0, logLines.length - 300);
  if (logAsked || !$('tools').open) return;
  logAsked = true;
  requestAnimationFrame(showLog);
}
function showLog() {
  logAsked = false;
  const box = $('log');
  box.textContent = logLines.join('\n');
  box.scrollTop = box.scrollHeight;
}
// Errors are shown as sentences: the protocol's `error ` prefix is for programs.
function showError(line) {
  const text = line.replace(/^error /, '');
  $('error').textContent = text.charAt(0).toUpperCase() + text.slice(1);
}
function clearError() { $('error').textContent = ''; }

function send(line) { log('> ' + line); ws.send(line); }

// Lines from the engine (or the server): errors are shown, info and bestmove belong to the
// running search, everything else answers the oldest pending transaction.
function onLine(line) {
  log('< ' + line);
  if (line.startsWith('error ')) showError(line);
  if (line.startsWith('info ')) return onInfo(line);
  if (line.startsWith('bestmove')) return onBestmove(line.split(' ')[1]);
  if (!waiters.length) return;
  if (line === 'readyok') { const w = waiters.shift(); w.resolve(w.lines); } else waiters[0].lines.push(line);
}

// Sends commands followed by isready; resolves with the lines answered before readyok.
function tx(cmds) {
  return new Promise((resolve) => {
    waiters.push({ lines: [], resolve });
    cmds.forEach(send);
    send('isready');
  });
}
const failed = (lines) => lines.some((l) => l.startsWith('error '));

// Stops a running search and waits for its bestmove, which is then thrown away.
function halt() {
  if (!S.searching) return Promise.resolve();
  return new Promise((resolve) => { S.onStopped = resolve; S.discard = true; send('stop'); });
}

function positionCmd(n) {
  const moves = S.moves.slice(0, n);
  return `position ${S.start ? 'fen ' + S.start : 'startpos'}${moves.length ? ' moves ' + moves.join(' ') : ''}`;
}

// Sets the engine to the shown position and reads it back (and the one before it, to mark
// what the last move removed); false when the engine refused.
async function sync(autoplay = true) {
  const cmds = [];
  if (S.ply > 0) cmds.push(positionCmd(S.ply - 1), 'fen');
  cmds.push(positionCmd(S.ply));
  if (S.dice && atEnd()) cmds.push('dice ' + S.dice);
  // Before a backgammon roll, legalmoves lists every roll's plays (thousands): without the
  // cube no move exists before the roll (protocol.md), so they are not asked for.
  const preRoll = S.game === 'backgammon' && !(S.dice && atEnd()) && !/cube=on/.test(S.opts);
  cmds.push('fen', ...(preRoll ? [] : ['legalmoves']), 'result');
  const lines = await tx(cmds);
  if (failed(lines)) return false;
  if (preRoll) S.legal = [];
  const fens = lines.filter((l) => l.startsWith('fen ')).map((l) => l.slice(4));
  S.fen = fens[fens.length - 1];
  S.prevFen = S.ply > 0 ? fens[0] : '';
  for (const l of lines) {
    if (l === 'legalmoves' || l.startsWith('legalmoves ')) S.legal = l.split(' ').slice(1);
    else if (l.startsWith('result ')) S.result = l.slice(7);
  }
  if (atEnd()) S.lineResult = S.result;
  else S.dice = null;
  S.st = game().parse(S.fen);
  if (game().generic) {
    // `d` prints the board, then `game ...`, the fen, `side to move ...` and more.
    const d = await tx(['d']);
    const end = d.findIndex((l) => l.startsWith('game '));
    S.boardText = d.slice(0, end < 0 ? d.length : end).join('\n');
    S.st.side = d.includes('side to move black') ? 'b' : 'w';
  }
  // A pasted position string may carry its roll: then its plays are asked for after all.
  if (preRoll && S.st.dice) {
    const more = await tx(['legalmoves']);
    const l = more.find((x) => x === 'legalmoves' || x.startsWith('legalmoves '));
    if (l) S.legal = l.split(' ').slice(1);
  }
  S.st.options = S.opts;
  S.sel = [];
  if (atEnd()) clockSwitch(over() ? null : S.st.side);
  if (isEngine('w') && isEngine('b')) renderSoon(); else render();
  if (autoplay) setTimeout(engineTurn, 0);
  return true;
}

// The option choices of the chosen game as `key=value` words (defaults left out).
function chosenOptions() {
  return [...$('options').querySelectorAll('select')]
    .filter((s) => s.selectedIndex > 0).map((s) => `${s.dataset.key}=${s.value}`).join(' ');
}

// `finished`: the match game this one follows (Next game of the match); without it a new
// match begins.
async function newGame(start = null, finished = null) {
  await halt();
  clearError();
  const name = $('game').value;
  const opts = chosenOptions();
  if (failed(await tx([`newgame ${name}${opts ? ' ' + opts : ''}`]))) return;
  const matchGames = finished ? S.matchGames.concat([finished]) : [];
  Object.assign(S, { game: name, opts, start, moves: [], ply: 0, dice: null, info: {}, matchGames, matchStart: start });
  clockReset();
  // Playing Black against the engine: Black's side at the bottom.
  S.flip = isEngine('w') && !isEngine('b');
  keepField('fen', false);
  await sync();
  S.firstFen = S.fen;
}

// The option menus of the chosen game, from its declaration (the first value of each is its
// default), labelled by games.js's `display` where it has one.
function showOptions() {
  const box = $('options');
  box.textContent = '';
  const name = $('game').value, g = gameFor(name);
  for (const o of CATALOG[name].options) {
    const shown = (g.display || {})[o.key] || {};
    const nameOf = (v) => (typeof shown.names === 'function' ? shown.names(v) : (shown.names || {})[v]) || v;
    const lab = document.createElement('label');
    lab.textContent = (shown.label || o.key) + ' ';
    lab.title = o.doc;
    const sel = document.createElement('select');
    sel.dataset.key = o.key;
    o.values.forEach((v) => sel.add(new Option(nameOf(v), v)));
    sel.onchange = () => newGame();
    lab.appendChild(sel);
    box.appendChild(lab);
  }
  $('howto').textContent = g.help;
}

// The game menu: the games the page draws in games.js's order, then any other the engine
// plays (shown through the generic view).
function fillGames(list) {
  for (const entry of list) CATALOG[entry.name] = entry;
  const names = Object.keys(GAMES).filter((n) => CATALOG[n]);
  for (const entry of list) if (!names.includes(entry.name)) names.push(entry.name);
  for (const n of names) $('game').add(new Option(gameFor(n).title, n));
  $('game').value = names[0];
}

// Adds a move at the shown position: the same move as the line's next one only steps on,
// another one starts a new line from here (the old continuation is dropped).
async function playMove(m) {
  if (S.searching === 'analyse') await halt();
  if (S.moves[S.ply] !== m) S.moves = S.moves.slice(0, S.ply).concat([m]);
  S.ply++;
  S.dice = null;
  S.info = {};
  keepField('fen', false);
  if (!(await sync())) { S.moves.pop(); S.ply--; await sync(); }
}

async function rollDice() {
  // One roll at a time: a second call while the first waits (both players' menus set to the
  // engine at once) would send a second `roll`, whose error spoils the first one's reply.
  if (S.rolling) return;
  S.rolling = true;
  try {
    if (S.searching === 'analyse') await halt();
    const lines = await tx(['roll']);
    const r = lines.find((l) => l.startsWith('roll '));
    if (r) { S.dice = r.split(' ')[1]; await sync(); }
  } finally {
    S.rolling = false;
  }
}

// When the side to move is the engine's (and the line is at its end): roll for it, or
// search for its move at its level.
function engineTurn() {
  if (S.searching || S.rolling || !S.st || over() || !atEnd() || !isEngine(S.st.side)) return;
  if (S.game === 'backgammon' && !S.st.dice && !S.st.offered && !S.legal.includes('double')) { rollDice(); return; }
  const level = LEVELS[playerOf(S.st.side)];
  S.searching = 'play';
  S.info = {};
  S.infoSide = S.st.side;
  S.infoFen = S.fen;
  send(`setoption name Player value ${level.player}`);
  send('setoption name MultiPV value 1');
  // With a time control the engine is also told the clocks (the first limit reached ends).
  const clocks = C.tc ? ` wtime ${Math.max(0, Math.round(clockValue('w')))} btime ${Math.max(0, Math.round(clockValue('b')))} winc ${C.tc.inc} binc ${C.tc.inc}` : '';
  send(level.go + clocks);
  render();
}

function onBestmove(m) {
  const mode = S.searching, discard = S.discard;
  S.searching = null;
  S.discard = false;
  if (S.onStopped) { const f = S.onStopped; S.onStopped = null; f(); }
  if (mode !== 'play' || discard || m === '0000' || m === undefined) { render(); return; }
  if (m === 'roll') rollDice(); else playMove(m);
}

function onInfo(line) {
  const t = line.split(' ');
  const at = (k) => { const i = t.indexOf(k); return i < 0 ? null : t[i + 1]; };
  if (t[1] === 'string' || !at('depth')) return;
  const k = +(at('multipv') || 1), s = t.indexOf('score'), p = t.indexOf('pv');
  // `wdl W D L`: in a backgammon match, the mover's match winning chance per mille.
  const win = at('wdl');
  S.info[k] = { depth: at('depth'), kind: s < 0 ? '' : t[s + 1], value: s < 0 ? 0 : +t[s + 2], win: win === null ? null : +win, nodes: at('nodes'), pv: p < 0 ? [] : t.slice(p + 1) };
  renderSoon();
}

// A score from the mover's view, told from White's: "White +1.25", "Black mates in 3".
// Backgammon scores are thousandths of a point of equity, the others centipawn-like units.
function scoreText(i, mover) {
  if (!i.kind) return '';
  const v = mover === 'w' ? i.value : -i.value;
  if (i.kind === 'mate') return `${sideName(v > 0 ? 'w' : 'b')} wins in ${Math.abs(v)}`;
  const unit = S.game === 'backgammon' ? 1000 : 100;
  return `${v >= 0 ? '+' : '−'}${(Math.abs(v) / unit).toFixed(2)}`;
}
// White's match winning chance from a line's `wdl` ("White 56.2% to win the match"), or ''.
function matchText(i, mover) {
  if (i.win === null || i.win === undefined) return '';
  const white = mover === 'w' ? i.win : 1000 - i.win;
  return `White ${(white / 10).toFixed(1)}% to win the match`;
}
// White's share of the evaluation bar, 0..1.
function whiteShare(i, mover) {
  const v = mover === 'w' ? i.value : -i.value;
  if (i.kind === 'mate') return v > 0 ? 1 : 0;
  return 0.5 + 0.5 * Math.tanh(v / (S.game === 'backgammon' ? 600 : 400));
}

// The legal moves whose click sequences start with sel, as [move, sequence] pairs.
function candidates(sel) {
  const out = [];
  for (const m of S.legal) {
    for (const seq of game().seqs(m, S.st)) {
      if (seq.length >= sel.length && sel.every((t, i) => seq[i] === t)) out.push([m, seq]);
    }
  }
  return out;
}

// One click (a point of the board or a choice button) added to the move being entered.
function onToken(t) {
  if (!humanToMove()) return;
  clearError();
  let sel = S.sel.concat([t]);
  let cands = candidates(sel);
  if (!cands.length) { sel = [t]; cands = candidates(sel); }
  if (!cands.length) { S.sel = []; render(); return; }
  const exact = cands.filter(([, seq]) => seq.length === sel.length);
  const longer = cands.some(([, seq]) => seq.length > sel.length);
  if (exact.length && !longer) { playMove(exact[0][0]); return; }
  S.sel = sel;
  render();
}

function button(box, text, token, onClick, cls) {
  const b = document.createElement('button');
  b.textContent = text;
  b.dataset.token = token;
  b.onclick = onClick;
  if (cls) b.className = cls;
  box.appendChild(b);
  return b;
}

function drawMarks(layer, moves, st) {
  for (const [m, kind, mover] of moves) {
    let marks = [];
    try { marks = game().marks(m, st, mover); } catch (e) { marks = []; }
    for (const mk of marks) {
      const pos = (p) => game().pos(p, st, mk.mover || mover);
      if (mk.at) ring(layer, pos(mk.at), mk.bad && kind !== 'pv2' ? 'bad' : kind);
      else arrow(layer, pos(mk.from), pos(mk.to), kind);
    }
  }
}

// The analysis shown is the one of the position on the board: an engine's own search is
// not advice (and while it plays a human, its line would be a free hint).
function shownInfo() {
  if (S.infoFen !== S.fen) return {};
  if (S.searching === 'play' && livePlay()) return {};
  return S.info;
}

// Turns the drawing half a turn for the flipped board, keeping every text upright.
function flipView(svg, view, box) {
  const [x, y, w, h] = box.split(' ').map(Number);
  const cx = x + w / 2, cy = y + h / 2;
  view.setAttribute('transform', `rotate(180 ${cx} ${cy})`);
  for (const t of view.querySelectorAll('text')) {
    const tx0 = +t.getAttribute('x'), ty0 = +t.getAttribute('y');
    t.setAttribute('transform', `rotate(180 ${tx0} ${ty0 - 4})`);
    // A text that ran right from its point now runs left from the mirrored point.
    const cls = t.classList;
    if (cls.contains('left')) { cls.remove('left'); cls.add('right'); } else if (cls.contains('right')) { cls.remove('right'); cls.add('left'); }
  }
}

// Draws at the next frame: a search's info lines and an engine-against-engine game change
// the state faster than the screen shows it. What a click changes is drawn at once (render).
let frameAsked = false;
function renderSoon() {
  if (frameAsked) return;
  frameAsked = true;
  requestAnimationFrame(() => { frameAsked = false; render(); });
}

function render() {
  if (!S.st) return;
  const svg = $('board');
  svg.textContent = '';
  const g = game();
  const cands = humanToMove() ? candidates(S.sel) : [];
  const next = new Set(cands.filter(([, s]) => s.length > S.sel.length).map(([, s]) => s[S.sel.length]));
  // A half-entered move that still waits for a choice is drawn as far as it goes.
  const pending = g.pending ? g.pending(S.sel, cands) : null;
  const st = pending ? g.preview(S.st, pending) : S.st;
  if (S.game === 'backgammon') {
    st.usedDice = g.usedDice(S.sel, st);
    // The opponent's last roll, read off the last move's token (`31:8/5,6/5`).
    const last = S.moves[S.ply - 1] || '';
    st.lastRoll = /^\d\d:/.test(last) ? last.slice(0, 2) : null;
  }
  // An <svg> has no `hidden` property (only HTML elements do): its style hides it.
  svg.style.display = g.generic ? 'none' : '';
  $('boardtext').hidden = !g.generic;
  if (g.generic) $('boardtext').textContent = S.boardText;
  const view = el(svg, 'g');
  const box = g.render(el(view, 'g'), st);
  svg.setAttribute('viewBox', box);
  const marks = [];
  const lastMove = S.moves[S.ply - 1];
  if (lastMove) marks.push([lastMove, 'last', other(S.st.side)]);
  const info = shownInfo();
  const pv = info[1] ? info[1].pv : [];
  if (pv.length && S.legal.includes(pv[0]) && !S.sel.length) {
    marks.push([pv[0], 'pv1', S.st.side]);
    if (pv[1] && S.game !== 'backgammon') marks.push([pv[1], 'pv2', other(S.st.side)]);
  }
  const layer = el(view, 'g');
  drawMarks(layer, marks, st);
  // What the last move took off the board: crosses where pieces were.
  if (lastMove && S.prevFen && g.removed) {
    let gone = [];
    try { gone = g.removed(g.parse(S.prevFen), S.st, lastMove); } catch (e) { gone = []; }
    for (const p of gone) cross(layer, g.pos(p, S.st));
  }
  // The row choices waiting: each run drawn and numbered like its button.
  const choiceTokens = [...next].filter((t) => !svg.querySelector(`[data-point="${t}"]`)).sort();
  choiceTokens.forEach((t, i) => {
    const run = g.run ? g.run(t) : null;
    if (!run) return;
    const a = g.pos(run[0], st), b = g.pos(run[1], st);
    el(layer, 'line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: `choice-run run-${i % 4}`, 'data-run': t });
    badge(layer, [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], String(i + 1), i % 4);
  });
  if (S.flip) flipView(svg, view, box);

  for (const h of svg.querySelectorAll('[data-point]')) {
    const p = h.dataset.point;
    h.classList.toggle('target', next.has(p));
    h.classList.toggle('selected', S.sel.includes(p));
  }
  const choices = $('choices');
  choices.textContent = '';
  choiceTokens.forEach((t, i) => {
    const label = g.tokenLabel ? g.tokenLabel(t, st, i) : t;
    button(choices, label, t, () => onToken(t), g.run && g.run(t) ? `run-btn run-${i % 4}` : '');
  });
  const exact = cands.find(([, seq]) => seq.length === S.sel.length && S.sel.length);
  if (exact) button(choices, 'Play ' + exact[0], 'play', () => playMove(exact[0]));
  if (humanToMove() && S.game === 'backgammon' && !S.st.dice && !S.st.offered) button(choices, 'Roll', 'roll', rollDice, 'main');
  if (S.sel.length) button(choices, 'Clear', 'clear', () => { S.sel = []; render(); });
  $('prompt').textContent = humanToMove() && g.prompt ? g.prompt(S.sel, cands, st, next) : '';

  renderStatus();
  renderMoves();
  renderAnalysis(info);
  document.body.dataset.plies = String(S.ply);
  document.body.dataset.result = S.result;
  if (!keepField('fen') && document.activeElement !== $('fen')) $('fen').value = S.fen;
  if (document.activeElement !== $('moves')) $('moves').value = S.moves.slice(0, S.ply).join(' ');
}

// "White wins: Black cannot move" from the engine's `result white blocked`.
function resultText(result) {
  const [who, reason, , points] = result.split(' ');
  const explain = game().reasons && game().reasons[reason];
  if (who === 'draw') return `Draw: ${explain ? explain() : reason}`;
  const w = sideName(who[0]), l = sideName(other(who[0]));
  const pts = points ? ` (${points} points)` : '';
  return `${w} wins${pts}: ${explain ? explain(w, l) : reason}`;
}

function renderStatus() {
  const banner = $('banner');
  const ended = atEnd() && over();
  banner.hidden = !ended;
  if (ended) {
    $('banner-text').textContent = C.flagged
      ? `${sideName(other(C.flagged))} wins on time: ${sideName(C.flagged)}'s clock ran out`
      : resultText(S.result) + matchText();
    $('nextgame').hidden = !nextMatchGame();
  }
  $('savemat').hidden = !matchFileReady();
  $('savemat').disabled = !S.moves.length && !S.matchGames.length; // nothing played yet
  let status;
  if (ended) status = 'Game over';
  else {
    const who = isEngine(S.st.side) ? LEVELS[playerOf(S.st.side)].name + ' engine' : 'you';
    status = `${sideName(S.st.side)} to move (${who})`;
    if (S.searching === 'play') status += ', thinking…';
    if (S.searching === 'analyse') status += ', analysing…';
  }
  if (!atEnd()) status = `Reviewing move ${S.ply} of ${S.moves.length}` + (over() ? '' : ' (a move here starts a new line)');
  $('status').textContent = status;
  for (const c of ['w', 'b']) {
    $('clock-' + c).textContent = clockText(c);
    $('clock-' + c).classList.toggle('running', C.side === c);
  }
  $('analyse').hidden = S.searching === 'analyse';
  $('stop').hidden = S.searching !== 'analyse';
}

// Clocks. Without a time control each side's clock counts the time it has used; with one
// (the Clock menu: minutes + seconds of increment) it counts down, the increment added after
// each of the side's turns, and a side whose clock runs out loses on time: the page's call,
// as an arbiter's (the engine knows no clocks but those its `go` is told). The clock that
// runs is the one of the side to move at the end of the line, also while earlier moves are
// reviewed.
const C = { tc: null, left: { w: 0, b: 0 }, side: null, since: 0, flagged: null };
function clockReset() {
  const [base, inc] = $('tc').value.split('+').map(Number);
  C.tc = base ? { base: base * 1000, inc: (inc || 0) * 1000 } : null;
  C.left = { w: C.tc ? C.tc.base : 0, b: C.tc ? C.tc.base : 0 };
  Object.assign(C, { side: null, since: Date.now(), flagged: null });
}
function clockValue(c) {
  const running = C.side === c ? Date.now() - C.since : 0;
  return C.left[c] + (C.tc ? -running : running);
}
// The side whose clock runs from now (null: none); the one that stops gets its increment.
function clockSwitch(side) {
  if (side === C.side) return;
  if (C.side) {
    C.left[C.side] = clockValue(C.side) + (C.tc && side ? C.tc.inc : 0);
  }
  C.side = side;
  C.since = Date.now();
}
function clockText(c) {
  const ms = Math.max(0, clockValue(c));
  const s = C.tc ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
  return `${sideName(c)} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
// A clock that ran out ends the game: the search for that side is stopped.
function clockTick() {
  if (C.tc && C.side && !C.flagged && clockValue(C.side) <= 0) {
    C.left[C.side] = 0;
    C.flagged = C.side;
    C.side = null;
    halt().then(render);
    render();
  }
  for (const c of ['w', 'b']) $('clock-' + c).textContent = clockText(c);
}

// The numbered move list: one row per move number (White's and Black's plies side by side),
// each ply a button that shows the position after it.
function renderMoves() {
  const box = $('movelist');
  box.textContent = '';
  let side = S.start ? game().parse(S.start).side : 'w';
  let row = null, n = 0;
  S.moves.forEach((m, i) => {
    if (!row || side === 'w') {
      n++;
      row = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = n + '.';
      row.appendChild(num);
      if (side === 'b') row.appendChild(document.createElement('span'));
      box.appendChild(row);
    }
    const b = button(row, m, String(i + 1), () => goTo(i + 1), i + 1 === S.ply ? 'ply current' : 'ply');
    b.title = `${sideName(side)}: ${m}`;
    side = other(side);
  });
  // Keep the shown move in view, scrolling the list only (never the page).
  const cur = box.querySelector('.current');
  if (cur && (cur.offsetTop < box.scrollTop || cur.offsetTop + cur.offsetHeight > box.scrollTop + box.clientHeight)) {
    box.scrollTop = cur.offsetTop - box.clientHeight / 2;
  }
}

function renderAnalysis(info) {
  const keys = Object.keys(info).sort((a, b) => a - b);
  const box = $('analysis');
  box.textContent = '';
  for (const k of keys) {
    const i = info[k];
    const li = document.createElement('li');
    const sc = document.createElement('b');
    sc.textContent = scoreText(i, S.infoSide);
    li.appendChild(sc);
    const chance = matchText(i, S.infoSide);
    li.appendChild(document.createTextNode(` ${i.pv.join(' ')}  (depth ${i.depth}${chance ? `; ${chance}` : ''})`));
    box.appendChild(li);
  }
  const best = info[keys[0]];
  const bar = $('evalbar');
  bar.hidden = !best || !best.kind;
  if (best && best.kind) {
    $('evalfill').style.width = (100 * whiteShare(best, S.infoSide)).toFixed(1) + '%';
    const chance = matchText(best, S.infoSide);
    $('evaltext').textContent = `${scoreText(best, S.infoSide)} for White${chance ? `, ${chance}` : ''}`;
  }
}

// Backgammon match play: the next game's start, or null when there is none (a money game,
// or the match is won). The arbiter keeps the score (protocol.md): the points come from the
// engine's result, the Crawford game is the one after a side first reaches match-1 points.
function nextMatchGame() {
  if (S.game !== 'backgammon' || S.result === 'none' || !S.st.match) return null;
  const [who, , , points] = S.result.split(' ');
  const n = S.st.match, score = S.st.score.slice();
  if (who !== 'draw') score[who === 'white' ? 0 : 1] += +(points || 1);
  if (Math.max(...score) >= n) return null;
  const crawford = !S.st.score.includes(n - 1) && score.includes(n - 1);
  const first = S.start || S.firstFen;
  const base = first.split(' ').filter((f) => !/^(match=|score=|crawford$)/.test(f)).join(' ');
  return `${base} match=${n} score=${score[0]}-${score[1]}${crawford ? ' crawford' : ''}`;
}
function matchText() {
  if (S.game !== 'backgammon' || !S.st.match) return '';
  const [who, , , points] = S.result.split(' ');
  const score = S.st.score.slice();
  if (who !== 'draw') score[who === 'white' ? 0 : 1] += +(points || 1);
  const won = Math.max(...score) >= S.st.match;
  return ` — match ${score[0]}-${score[1]}${won ? `, ${score[0] > score[1] ? 'White' : 'Black'} wins the match` : ''}`;
}

// The match file can be written in a backgammon match whose games all began where the
// match put them (New game, then Next game of the match), not at a pasted position.
function matchFileReady() {
  return S.game === 'backgammon' && !!S.st && S.st.match >= 1 && S.start === S.matchStart;
}
function firstSide() { return game().parse(S.start || S.firstFen).side; }

// The match as a `.mat` file (the Jellyfish text GNU Backgammon and eXtreme Gammon import),
// laid out exactly as src/games/backgammon/matfile.rs `write` does, so the engine's
// `backgammon-mat` reads it and the two writers' files compare. The page only formats: the
// actions are the tokens played, the winner and points the engine's `result`. The game in
// progress has no `Wins` line (how GNU Backgammon writes a match being played).
function matText() {
  const games = S.matchGames.slice();
  if (S.moves.length) games.push({ first: firstSide(), moves: S.moves, result: S.lineResult });
  const n = S.st.match, score = [0, 0];
  let out = ` ${n} point match\n\n`;
  games.forEach((g, i) => {
    out += ` Game ${i + 1}\n ${`White : ${score[0]}`.padEnd(31)}Black : ${score[1]}\n`;
    // The sides act in turn (after a take the doubler rolls), so the actions fill the two
    // columns alternately, White's on the left; a game Black opens leaves White's cell empty.
    const cells = g.first === 'b' ? [''] : [];
    let cube = 1;
    for (const m of g.moves) {
      if (m === 'double') cells.push(` Doubles => ${(cube *= 2)}`);
      else if (m === 'take') cells.push(' Takes');
      else if (m === 'drop') cells.push(' Drops');
      else cells.push(matPlay(m));
    }
    let wins = '', beside = false, indent = 0;
    if (g.result !== 'none') {
      const [who, , , points] = g.result.split(' ');
      const p = +(points || 1), k = who === 'white' ? 0 : 1;
      score[k] += p;
      wins = `Wins ${p} point${p === 1 ? '' : 's'}${score[k] >= n ? ' and the match' : ''}`;
      // Black's win right after White's action (a drop) goes beside it, as GNU Backgammon
      // writes it: on a line of its own its import takes it for more of the game.
      beside = k === 1 && cells.length % 2 === 1;
      if (beside) cells.push(' ' + wins);
      indent = k === 0 ? 6 : 34;
    }
    for (let r = 0; r < cells.length; r += 2) {
      out += `${String(r / 2 + 1).padStart(3)}) ${cells[r].padEnd(27)} ${cells[r + 1] || ''}`.trimEnd() + '\n';
    }
    if (wins && !beside) out += ' '.repeat(indent) + wins + '\n';
    out += '\n';
  });
  return out;
}
// `52:13/8,24/22` as `52: 13/8 24/22` (the bar is 25, off 0); `63:pass` as `63: `.
function matPlay(m) {
  const [roll, steps] = m.split(':');
  if (steps === 'pass') return roll + ': ';
  return `${roll}: ${steps.split(',').join(' ').replace(/bar/g, '25').replace(/off/g, '0')}`;
}
// Downloads the match as match.mat through a Blob link; the text is kept in S.savedMat too
// (what the browser test reads: headless downloads are awkward to watch).
function saveMatch() {
  if (!matchFileReady()) return;
  S.savedMat = matText();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([S.savedMat], { type: 'text/plain' }));
  a.download = 'match.mat';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has read the Blob once it started; the URL is freed a little later.
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}

// Shows the position after `ply` moves of the line (nothing is lost: the line stays).
async function goTo(ply) {
  ply = Math.max(0, Math.min(S.moves.length, ply));
  if (ply === S.ply && S.st) return;
  await halt();
  clearError();
  S.ply = ply;
  S.dice = null;
  S.info = {};
  await sync(atEnd());
}

// Takes back the last move, and more until a human is to move when playing the engine.
async function takeBack() {
  await halt();
  clearError();
  if (!S.ply) return;
  S.moves = S.moves.slice(0, S.ply - 1);
  S.ply = S.moves.length;
  S.dice = null;
  S.info = {};
  await sync(false);
  while (S.ply && isEngine(S.st.side) && livePlay()) {
    S.moves.pop();
    S.ply--;
    await sync(false);
  }
  engineTurn();
}

// Replaces the start or the move list; a refused one is shown and the old one stays, while
// the field keeps what the user typed for correcting it.
async function setPosition(start, moves, field) {
  await halt();
  clearError();
  const typed = $(field).value;
  const old = [S.start, S.moves, S.ply, S.dice];
  Object.assign(S, { start, moves, ply: moves.length, dice: null, info: {} });
  if (!(await sync())) {
    const err = $('error').textContent;
    [S.start, S.moves, S.ply, S.dice] = old;
    await sync(false);
    $('error').textContent = err;
    $(field).value = typed;
    keepField(field, true);
  } else keepField(field, false);
}
const kept = {};
function keepField(id, on) { if (on !== undefined) kept[id] = on; return kept[id]; }

async function analyse() {
  if (S.searching || S.result !== 'none') return;
  if (S.game === 'backgammon' && !S.st.dice && !S.legal.includes('double') && !S.st.offered) {
    showError('error roll the dice first: the analysis needs the roll');
    return;
  }
  S.searching = 'analyse';
  S.info = {};
  S.infoSide = S.st.side;
  S.infoFen = S.fen;
  send('setoption name Player value search');
  send(`setoption name MultiPV value ${$('lines').value}`);
  send('go infinite');
  render();
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = () => newGame();
  ws.onmessage = (e) => onLine(String(e.data));
  ws.onclose = () => {
    const e = $('error');
    e.textContent = (e.textContent ? e.textContent + ' ' : '') + '(The connection to the server is closed: reload the page.)';
  };
}

function fillPlayers() {
  for (const id of ['white', 'black']) {
    const sel = $(id);
    sel.add(new Option('Human', 'human'));
    for (const [k, l] of Object.entries(LEVELS)) sel.add(new Option(`Engine: ${l.name}`, k));
  }
  $('white').value = 'human';
  $('black').value = 'casual';
}

// Leaving the page ends its session (and so its engine) at once.
window.addEventListener('pagehide', () => { if (ws) ws.close(); });
$('board').addEventListener('click', (e) => {
  const h = e.target.closest('[data-point]');
  if (h) onToken(h.dataset.point);
});
$('game').onchange = () => { showOptions(); newGame(); };
$('newgame').onclick = () => newGame();
// The finished game is kept for the match file before the next one replaces it.
$('nextgame').onclick = () => {
  const next = nextMatchGame();
  if (!next) return;
  $('nextgame').hidden = true; // one click, one next game (a second would keep this one twice)
  newGame(next, { first: firstSide(), moves: S.moves.slice(), result: S.result });
};
$('savemat').onclick = saveMatch;
$('white').onchange = $('black').onchange = () => { render(); engineTurn(); };
$('flip').onclick = () => { S.flip = !S.flip; render(); };
$('takeback').onclick = takeBack;
$('first').onclick = () => goTo(0);
$('prev').onclick = () => goTo(S.ply - 1);
$('next').onclick = () => goTo(S.ply + 1);
$('last').onclick = () => goTo(S.moves.length);
$('analyse').onclick = analyse;
$('stop').onclick = () => { if (S.searching) send('stop'); };
$('setfen').onclick = () => setPosition($('fen').value.trim(), [], 'fen');
$('setmoves').onclick = () => setPosition(S.start, $('moves').value.trim().split(/\s+/).filter(Boolean), 'moves');
$('fen').oninput = () => keepField('fen', false);
$('tools').ontoggle = () => { if ($('tools').open) showLog(); };
$('copyfen').onclick = () => navigator.clipboard.writeText($('fen').value);
$('copymoves').onclick = () => navigator.clipboard.writeText($('moves').value);
$('send').onclick = () => { const c = $('command').value; if (c) { clearError(); send(c); } };
$('command').onkeydown = (e) => { if (e.key === 'Enter') $('send').onclick(); };
document.addEventListener('keydown', (e) => {
  if (e.target.closest('input, textarea, select')) return;
  const keys = { ArrowLeft: () => goTo(S.ply - 1), ArrowRight: () => goTo(S.ply + 1), Home: () => goTo(0), End: () => goTo(S.moves.length) };
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});
setInterval(clockTick, 250);
// Whatever path led here (the menus changed while a roll or a search was on its way, an
// answer thrown away), an engine whose turn it is is set going once the page is idle:
// engineTurn does nothing while a roll, a search or an exchange is pending.
setInterval(() => { if (!waiters.length) engineTurn(); }, 250);
$('tc').onchange = () => newGame();
fillPlayers();
fetch('/games.json')
  .then((answer) => answer.json())
  .then((list) => { fillGames(list); showOptions(); connect(); })
  .catch((e) => { $('error').textContent = `The list of games could not be read (${e}): reload the page.`; });
