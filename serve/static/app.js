// tablesmith explorer: pick a table, look up a state, see and play every move with its
// value. The position lives in the URL hash (#table=NAME&state=STATE), so it can be shared.
// Boards are drawn by a renderer per game (the registry's game name); a game without one
// is shown as text.
'use strict';

const $ = (sel) => document.querySelector(sel);
const SVG = 'http://www.w3.org/2000/svg';

// el makes an element: el('div', {class: 'x', onclick: f}, child, 'text', …).
function el(tag, attrs = {}, ...children) {
  const e = tag.startsWith('svg:') ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

// A probe result's number: remoteness (puzzles, plies of a won or lost game) or bound.
const number = (r) => r.remoteness ?? r.bound;

// verdict says what a probe result means, for the position's headline.
function verdict(r) {
  if (r.value) return {label: r.value, value: r.remoteness ?? '', note: r.remoteness !== undefined ? 'plies' : ''};
  if (r.bound !== undefined) return {label: 'at least', value: r.bound, note: 'moves (pattern-database bound)'};
  if (r.reachable === false) return {label: '', value: 'unreachable', note: 'cannot reach the goal'};
  return {label: 'remoteness', value: r.remoteness, note: r.remoteness === 0 ? 'the goal' : 'moves to the goal'};
}

// moveClass compares a move's value with the position's: better, same, worse or none.
// A two-player value after a move is the opponent's: their loss is our best move.
function moveClass(cur, mv) {
  if (mv.value) return {loss: 'better', draw: 'same', win: 'worse'}[mv.value];
  const a = number(cur), b = number(mv);
  if (b === undefined) return 'none';
  if (a === undefined) return 'same';
  return b < a ? 'better' : b > a ? 'worse' : 'same';
}

const valueText = (mv) => mv.value ? `${mv.value}${mv.remoteness !== undefined ? ' ' + mv.remoteness : ''}`
  : number(mv) ?? 'unreachable';

// ---- board renderers, keyed by game name ----
// Each has goal(params) → state, describe(from, to, params) → a move's name, and
// draw(view) → an element; view = {params, result, moves: [{...move, cls, best}], play(state)}.

const slide = {
  parse: (s) => (s.trim().includes(' ') ? s.trim().split(/\s+/) : [...s.trim()]).map(Number),
  format: (tiles) => (tiles.length <= 10 && tiles.every((t) => t <= 9) ? tiles.join('') : tiles.join(' ')),
  goal(p) {
    const n = p.rows * p.cols, tiles = Array.from({length: n - 1}, (_, i) => i + 1);
    return slide.format(p.goal === 'blank-first' ? [0, ...tiles] : [...tiles, 0]);
  },
  // The tile that moves is the one on the cell the blank moves to.
  describe(from, to, p) {
    const a = slide.parse(from), b = slide.parse(to), was = a.indexOf(0), now = b.indexOf(0);
    const d = was - now, arrow = d === p.cols ? '↓' : d === -p.cols ? '↑' : d === 1 ? '→' : '←';
    return `tile ${a[now]} ${arrow}`;
  },
  draw(view) {
    const {params: p} = view, tiles = slide.parse(view.result.state);
    const byCell = new Map(view.moves.map((m) => [slide.parse(m.state).indexOf(0), m]));
    const board = el('div', {class: 'slide-board', role: 'grid'});
    board.style.gridTemplateColumns = `repeat(${p.cols}, auto)`;
    tiles.forEach((t, cell) => {
      const m = byCell.get(cell);
      if (t === 0) board.append(el('div', {class: 'tile blank', 'data-cell': cell}));
      else if (!m) board.append(el('div', {class: 'tile', 'data-cell': cell}, String(t)));
      else board.append(el('button', {class: `tile ${m.cls}${m.best ? ' best' : ''}`, 'data-cell': cell,
        title: `${slide.describe(view.result.state, m.state, p)}: ${valueText(m)}`, onclick: () => view.play(m.state)},
      String(t), el('small', {class: m.cls}, String(valueText(m)))));
    });
    return board;
  },
};

const hanoi = {
  goal: (p) => String(p.pegs - 1).repeat(p.disks),
  describe(from, to) {
    const i = [...from].findIndex((c, k) => c !== to[k]);
    return `disk ${i + 1}: peg ${from[i]} → ${to[i]}`;
  },
  // Pegs with their disks (disk 1 the smallest), every legal move an arrow coloured by
  // its value; click an arrow, or a peg and then another, to move.
  draw(view) {
    const {pegs: k, disks: n} = view.params, state = view.result.state;
    // Arrows above the pegs (y0 is where they land), labels under the arrows, then the pegs.
    const lift = (a, b) => 16 + 14 * Math.abs(a - b), y0 = lift(0, k - 1) + 24, top = y0 + 24;
    const dh = Math.max(8, Math.min(24, 240 / n)), W = Math.max(360, 110 * k), H = top + dh * (n + 1) + 16;
    const x = (peg) => (peg + 0.5) * W / k, base = H - 10, maxW = W / k - 16;
    const svg = el('svg:svg', {class: 'hanoi', width: W, height: H, viewBox: `0 0 ${W} ${H}`});
    const height = Array(k).fill(0);
    for (let peg = 0; peg < k; peg++) {
      svg.append(el('svg:rect', {class: 'peg', x: x(peg) - 3, y: base - dh * (n + 1), width: 6, height: dh * (n + 1)}));
      svg.append(el('svg:text', {x: x(peg), y: y0 + 16, 'text-anchor': 'middle'}, `peg ${peg}`));
    }
    svg.append(el('svg:rect', {class: 'peg', x: 4, y: base, width: W - 8, height: 6}));
    for (let d = n; d >= 1; d--) { // largest first, so each lands on the ones below it
      const peg = Number(state[d - 1]), w = 24 + (maxW - 24) * (n === 1 ? 1 : (d - 1) / (n - 1));
      height[peg]++;
      svg.append(el('svg:rect', {class: 'disk', 'data-disk': d, x: x(peg) - w / 2, y: base - dh * height[peg],
        width: w, height: dh - 1, rx: 3, fill: `hsl(${210 - 170 * (d - 1) / Math.max(n - 1, 1)}, 55%, 55%)`}));
    }
    view.moves.forEach((m) => {
      const i = [...state].findIndex((c, j) => c !== m.state[j]), a = Number(state[i]), b = Number(m.state[i]);
      const h = lift(a, b), mx = (x(a) + x(b)) / 2, play = () => view.play(m.state);
      svg.append(el('svg:path', {class: `arrow ${m.cls}${m.best ? ' best' : ''}`, 'marker-end': `url(#head-${m.cls})`,
        d: `M ${x(a)} ${y0} Q ${mx} ${y0 - 2 * h} ${x(b)} ${y0}`, onclick: play},
      el('svg:title', {}, `${hanoi.describe(state, m.state)}: ${valueText(m)}`)));
      svg.append(el('svg:text', {class: m.cls, x: mx, y: y0 - h - 5, 'text-anchor': 'middle', onclick: play}, String(valueText(m))));
    });
    const defs = el('svg:defs');
    for (const c of ['better', 'same', 'worse', 'none']) {
      defs.append(el('svg:marker', {id: `head-${c}`, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto'},
        el('svg:path', {d: 'M0,0 L10,5 L0,10 z', class: `arrow-head ${c}`})));
    }
    svg.prepend(defs);
    // Peg clicks: the first picks the source, the second the target.
    let from = null;
    for (let peg = 0; peg < k; peg++) {
      const hit = el('svg:rect', {class: 'peg-hit', 'data-peg': peg, x: x(peg) - W / k / 2, y: top, width: W / k, height: H - top});
      hit.addEventListener('click', () => {
        if (from === null) { from = peg; hit.classList.add('selected'); return; }
        const m = view.moves.find((mv) => [...state].some((c, j) => Number(c) === from && Number(mv.state[j]) === peg));
        svg.querySelectorAll('.peg-hit').forEach((h) => h.classList.remove('selected'));
        from = null;
        if (m) view.play(m.state);
      });
      svg.append(hit);
    }
    return svg;
  },
};

const renderers = {slide, 'slide-pdb': slide, hanoi};

// A game without a renderer: the state as text.
const plain = {goal: () => '', describe: (from, to) => to, draw: (view) => el('pre', {}, view.result.state)};

// ---- the page ----

let tables = [], current = null; // the table list and the selected table

const rendererOf = (t) => renderers[t.game] ?? plain;
const apiBase = (t) => `/api/v1/tables/${encodeURIComponent(t.name)}`;

function hashParams() { return new URLSearchParams(location.hash.slice(1)); }
function linkTo(name, state) {
  const q = new URLSearchParams({table: name});
  if (state !== undefined) q.set('state', state);
  return '#' + q.toString();
}
function play(state) { location.hash = linkTo(current.name, state); }

function showError(msg) {
  const e = $('#error');
  e.textContent = msg || '';
  e.hidden = !msg;
}

async function getJSON(url) {
  const res = await fetch(url);
  const body = await res.json();
  return {ok: res.ok, body};
}

// showTable fills in the table's metadata and its distribution chart.
async function showTable(t) {
  document.querySelectorAll('nav#tables a').forEach((a) => a.classList.toggle('current', a.dataset.name === t.name));
  $('#table-title').textContent = `${t.name} — ${t.game} (${t.kind}${t.set ? ' set' : ''})`;
  const i = t.info, rows = [['game', `${t.game} ${JSON.stringify(t.params)}`]];
  if (t.set) {
    rows.push(['set', `${i.dir} (${i.format})`], ['members', i.members.map((m) => `${m.file}: ${JSON.stringify(m.params)}`).join('\n')],
      ['slots', i.slots.toLocaleString()], ['size', `${i.bytes.toLocaleString()} bytes`]);
  } else {
    rows.push(['index', i.index], ['encoding', i.encoding], ['slots', i.slots.toLocaleString()],
      [t.kind === 'pdb' ? 'entries' : 'states', i.states.toLocaleString()]);
    if (t.kind === 'puzzle') rows.push(['unreachable', i.unreachable.toLocaleString()], ['max remoteness', i.max_remoteness]);
    rows.push(['size', `${i.bytes.toLocaleString()} bytes (${i.bits_per_state.toFixed(3)} bits/state)`],
      ['built', `${i.build.created ?? ''} by ${i.build.tool ?? ''} ${i.build.go_version ?? ''}`]);
  }
  $('#meta').replaceChildren(...rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]));
  // The chart is the server's SVG (the same as `tablesmith info --plot`), placed inline so
  // that its bars have tooltips and the position's bar can be marked.
  const res = await fetch(`${apiBase(t)}/chart.svg`);
  const doc = new DOMParser().parseFromString(await res.text(), 'image/svg+xml');
  $('#chart').replaceChildren(document.importNode(doc.documentElement, true));
}

// markChart highlights the bar that counts value v (single tables only).
function markChart(v) {
  document.querySelectorAll('#chart rect.bar').forEach((b) => b.classList.toggle('current',
    !current.set && v !== undefined && Number(b.dataset.lo) <= v && v <= Number(b.dataset.hi)));
}

// showState probes state and draws the verdict, the board and the moves. Only the
// latest request is drawn, and body[data-shown] then names the URL hash it shows.
let lastProbe = 0;
async function showState(state) {
  const seq = ++lastProbe, hash = location.hash;
  const {ok, body: r} = await getJSON(`${apiBase(current)}/probe?state=${encodeURIComponent(state)}`);
  if (seq !== lastProbe) return;
  document.body.dataset.shown = hash;
  $('#state-input').value = state;
  $('#share').href = linkTo(current.name, state);
  if (!ok) {
    showError(r.error);
    return;
  }
  showError('');
  const v = verdict(r), rend = rendererOf(current), moves = r.moves ?? [];
  $('#value-label').textContent = v.label;
  $('#value').textContent = String(v.value);
  $('#verdict-note').textContent = v.note;
  const bestKey = moves.length ? valueText(moves[0]) : null;
  const view = {params: current.params, result: r, play,
    moves: moves.map((m) => ({...m, cls: moveClass(r, m), best: valueText(m) === bestKey}))};
  $('#board').replaceChildren(rend.draw(view));
  $('#moves').replaceChildren(...view.moves.map((m) => el('li', {},
    el('button', {class: `move ${m.cls}${m.best ? ' best' : ''}`, 'data-state': m.state, onclick: () => play(m.state)},
      rend.describe(r.state, m.state, current.params), el('span', {class: 'val'}, String(valueText(m)))))));
  markChart(number(r));
}

// route shows what the hash names: a table (the first by default) and a state (its goal).
async function route() {
  const q = hashParams();
  const t = tables.find((x) => x.name === q.get('table')) ?? tables[0];
  if (!t) return;
  if (t !== current) {
    current = t;
    await showTable(t);
  }
  await showState(q.get('state') ?? rendererOf(t).goal(t.params));
}

async function main() {
  const {body} = await getJSON('/api/v1/tables');
  tables = body.tables;
  $('#tables').replaceChildren(...tables.map((t) => el('a', {href: linkTo(t.name), 'data-name': t.name}, t.name)));
  $('#state-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    play($('#state-input').value.trim());
  });
  window.addEventListener('hashchange', () => route().catch((e) => showError(String(e))));
  await route();
}

main().catch((e) => showError(String(e)));
