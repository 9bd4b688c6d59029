// The page's protocol client: it keeps the game's start and move list, asks the engine for
// the position string, the legal moves and the result after every change, draws the board
// and turns clicks into one of the listed legal moves. Every rule lives in the engine.
'use strict';
const $ = (id) => document.getElementById(id);

// The page's whole state; window.tabula lets tests and curious users read it.
const S = {
  game: 'gipf', opts: '', start: null, moves: [], dice: null, fen: '', legal: [], result: 'none', st: null,
  sel: [], searching: null, discard: false, onStopped: null, info: {}, pv: [],
};
window.tabula = S;
let ws = null;
const waiters = [];

function game() { return GAMES[S.game]; }
function sideName(c) { return c === 'w' ? 'White' : 'Black'; }
function playerOf(c) { return $(c === 'w' ? 'white' : 'black').value; }
// A human may move while the engine is idle or only analysing (the analysis then stops).
function humanToMove() {
  return S.st && S.result === 'none' && S.searching !== 'play' && playerOf(S.st.side) === 'human';
}
function movetime() { return Math.max(1, Math.min(60000, +$('movetime').value || 300)); }

// The protocol log keeps the last 300 lines, each cut to 400 characters (a backgammon
// legalmoves line before the roll lists every roll's plays).
function log(line) {
  const box = $('log');
  const shown = line.length > 400 ? line.slice(0, 400) + ' ...' : line;
  box.textContent = (box.textContent + shown + '\n').split('\n').slice(-300).join('\n');
  box.scrollTop = box.scrollHeight;
}
function showError(text) { $('error').textContent = text; }
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

// Sets the engine to the page's position and reads it back; false when the engine refused.
async function sync(autoplay = true) {
  const position = `position ${S.start ? 'fen ' + S.start : 'startpos'}${S.moves.length ? ' moves ' + S.moves.join(' ') : ''}`;
  const cmds = [position].concat(S.dice ? ['dice ' + S.dice] : [], ['fen', 'legalmoves', 'result']);
  const lines = await tx(cmds);
  if (failed(lines)) return false;
  for (const l of lines) {
    if (l.startsWith('fen ')) S.fen = l.slice(4);
    else if (l === 'legalmoves' || l.startsWith('legalmoves ')) S.legal = l.split(' ').slice(1);
    else if (l.startsWith('result ')) S.result = l.slice(7);
  }
  S.st = game().parse(S.fen);
  S.st.options = S.opts;
  S.sel = [];
  render();
  if (autoplay) setTimeout(engineTurn, 0);
  return true;
}

async function newGame() {
  await halt();
  clearError();
  const name = $('game').value;
  const opts = [...$('options').querySelectorAll('select')]
    .filter((s) => s.selectedIndex > 0).map((s) => `${s.dataset.key}=${s.value}`).join(' ');
  if (failed(await tx([`newgame ${name}${opts ? ' ' + opts : ''}`]))) return;
  Object.assign(S, { game: name, opts, start: null, moves: [], dice: null, info: {}, pv: [] });
  await sync();
}

// The option controls of the chosen game (the first value of each is its default).
function showOptions() {
  const box = $('options');
  box.textContent = '';
  for (const o of GAMES[$('game').value].options) {
    const lab = document.createElement('label');
    lab.textContent = o.key + ' ';
    const sel = document.createElement('select');
    sel.dataset.key = o.key;
    for (const v of o.values) sel.add(new Option(v, v));
    lab.appendChild(sel);
    box.appendChild(lab);
  }
}

async function playMove(m) {
  if (S.searching === 'analyse') await halt();
  S.moves.push(m);
  S.dice = null;
  S.info = {};
  S.pv = [];
  if (!(await sync())) { S.moves.pop(); await sync(); }
}

async function rollDice() {
  if (S.searching === 'analyse') await halt();
  const lines = await tx(['roll']);
  const r = lines.find((l) => l.startsWith('roll '));
  if (r) { S.dice = r.split(' ')[1]; await sync(); }
}

// When the side to move is the engine's: roll for it, or search for its move.
function engineTurn() {
  if (S.searching || !S.st || S.result !== 'none' || playerOf(S.st.side) !== 'engine') return;
  if (S.game === 'backgammon' && !S.st.dice && !S.st.offered && !S.legal.includes('double')) { rollDice(); return; }
  S.searching = 'play';
  S.info = {};
  send(`go movetime ${movetime()}`);
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
  S.info[k] = { depth: at('depth'), score: s < 0 ? '' : t[s + 1] + ' ' + t[s + 2], nodes: at('nodes'), pv: p < 0 ? [] : t.slice(p + 1) };
  if (k === 1) S.pv = S.info[k].pv;
  render();
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

function button(box, text, token, onClick) {
  const b = document.createElement('button');
  b.textContent = text;
  b.dataset.token = token;
  b.onclick = onClick;
  box.appendChild(b);
  return b;
}

function drawMarks(layer, moves) {
  for (const [m, kind, mover] of moves) {
    let marks = [];
    try { marks = game().marks(m, S.st, mover); } catch (e) { marks = []; }
    for (const mk of marks) {
      const pos = (p) => game().pos(p, S.st, mk.mover || mover);
      if (mk.at) ring(layer, pos(mk.at), mk.bad && kind !== 'pv2' ? 'bad' : kind);
      else arrow(layer, pos(mk.from), pos(mk.to), kind);
    }
  }
}

function render() {
  if (!S.st) return;
  const svg = $('board');
  svg.textContent = '';
  if (S.game === 'backgammon') S.st.usedDice = game().usedDice(S.sel, S.st);
  svg.setAttribute('viewBox', game().render(el(svg, 'g'), S.st));
  const other = S.st.side === 'w' ? 'b' : 'w';
  const marks = [];
  if (S.moves.length) marks.push([S.moves[S.moves.length - 1], 'last', other]);
  if (S.pv.length && S.legal.includes(S.pv[0])) {
    marks.push([S.pv[0], 'pv1', S.st.side]);
    if (S.pv[1] && S.game !== 'backgammon') marks.push([S.pv[1], 'pv2', other]);
  }
  drawMarks(el(svg, 'g'), marks);

  const cands = humanToMove() ? candidates(S.sel) : [];
  const next = new Set(cands.filter(([, s]) => s.length > S.sel.length).map(([, s]) => s[S.sel.length]));
  const points = new Set();
  for (const h of svg.querySelectorAll('[data-point]')) {
    const p = h.dataset.point;
    points.add(p);
    h.classList.toggle('target', next.has(p));
    h.classList.toggle('selected', S.sel.includes(p));
  }
  const box = $('choices');
  box.textContent = '';
  for (const t of [...next].filter((t) => !points.has(t)).sort()) {
    const b = button(box, t, t, () => onToken(t));
    // A removal choice shows its run on the board while the pointer is on its button.
    const run = t.match(/^x([a-z]\d+)-([a-z]\d+)/);
    if (run) {
      b.onmouseenter = () => { const p = (q) => game().pos(q, S.st); arrow(el(svg, 'g', { class: 'hover' }), p(run[1]), p(run[2]), 'bad'); };
      b.onmouseleave = () => svg.querySelectorAll('.hover').forEach((h) => h.remove());
    }
  }
  const exact = cands.find(([, seq]) => seq.length === S.sel.length && S.sel.length);
  if (exact) button(box, 'Play ' + exact[0], 'play', () => playMove(exact[0]));
  if (humanToMove() && S.game === 'backgammon' && !S.st.dice && !S.st.offered) button(box, 'Roll', 'roll', rollDice);
  if (S.sel.length) button(box, 'Clear', 'clear', () => { S.sel = []; render(); });

  $('status').textContent = S.result !== 'none'
    ? 'Game over: ' + S.result
    : `${sideName(S.st.side)} to move (${playerOf(S.st.side)})${S.searching === 'play' ? ', engine thinking' : ''}${S.searching === 'analyse' ? ', analysing' : ''}`;
  document.body.dataset.plies = String(S.moves.length);
  document.body.dataset.result = S.result;
  if (document.activeElement !== $('fen')) $('fen').value = S.fen;
  if (document.activeElement !== $('moves')) $('moves').value = S.moves.join(' ');
  $('analysis').textContent = Object.keys(S.info).sort((a, b) => a - b)
    .map((k) => { const i = S.info[k]; return `${k}. depth ${i.depth}  ${i.score}  nodes ${i.nodes}  pv ${i.pv.join(' ')}`; }).join('\n');
}

// Replaces the start or the move list, going back to the old ones if the engine refuses.
async function setPosition(start, moves) {
  await halt();
  clearError();
  const old = [S.start, S.moves, S.dice];
  Object.assign(S, { start, moves, dice: null, info: {}, pv: [] });
  if (!(await sync())) {
    [S.start, S.moves, S.dice] = old;
    await sync(false);
  }
}

// Takes back one move, and more until a human is to move when playing the engine.
async function undo() {
  await halt();
  clearError();
  if (!S.moves.length) return;
  S.dice = null;
  S.moves.pop();
  await sync(false);
  while (S.moves.length && playerOf(S.st.side) === 'engine' && (playerOf('w') === 'human' || playerOf('b') === 'human')) {
    S.moves.pop();
    await sync(false);
  }
  engineTurn();
}

function analyse() {
  if (S.searching || S.result !== 'none') return;
  S.searching = 'analyse';
  S.info = {};
  send('go infinite');
  render();
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = newGame;
  ws.onmessage = (e) => onLine(String(e.data));
  ws.onclose = () => {
    const e = $('error');
    e.textContent = (e.textContent ? e.textContent + ' ' : '') + '(the connection to the server is closed: reload the page)';
  };
}

// Leaving the page ends its session (and so its engine) at once.
window.addEventListener('pagehide', () => { if (ws) ws.close(); });
$('board').addEventListener('click', (e) => {
  const h = e.target.closest('[data-point]');
  if (h) onToken(h.dataset.point);
});
$('game').onchange = showOptions;
$('newgame').onclick = newGame;
$('white').onchange = $('black').onchange = () => { render(); engineTurn(); };
$('undo').onclick = undo;
$('analyse').onclick = analyse;
$('stop').onclick = () => { if (S.searching) send('stop'); };
$('setfen').onclick = () => setPosition($('fen').value.trim(), []);
$('setmoves').onclick = () => setPosition(S.start, $('moves').value.trim().split(/\s+/).filter(Boolean));
$('copyfen').onclick = () => navigator.clipboard.writeText($('fen').value);
$('copymoves').onclick = () => navigator.clipboard.writeText($('moves').value);
$('send').onclick = () => { const c = $('command').value; if (c) { clearError(); send(c); } };
$('command').onkeydown = (e) => { if (e.key === 'Enter') $('send').onclick(); };
showOptions();
connect();
