// tablesmith explorer: pick a table, look up a state, see and play every move with its
// value. The position lives in the URL hash (#table=NAME&state=STATE), so it can be shared.
// Boards are drawn by a renderer per game (the registry's game name) — one for every board
// of the Morris family, drawn from the board the server sends as data; a game without one
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

// verdict says what a probe result means, for the position's headline. A two-player
// position lost with no move left is the end of the game.
function verdict(r) {
  if (r.over) return {label: r.value, value: r.remoteness ?? '', note: 'game over by the rules'};
  if (r.value === 'loss' && (r.remoteness ?? 0) === 0 && !(r.moves ?? []).length) return {label: r.value, value: 0, note: 'game over: no legal move'};
  // A win/draw/loss-only set has no remoteness: the value alone.
  if (r.value) return {label: r.value, value: r.remoteness ?? '', note: r.remoteness !== undefined ? 'plies to the end' : 'with best play'};
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

// valueText is a move's value as the list shows it. A two-player move's value is the
// opponent's after it: it is told from the mover's view, counting the move itself, so that
// the best move's plies are the position's. A win/draw/loss-only set has no plies to tell.
const moverText = {loss: (r) => (r === undefined ? 'wins' : `wins in ${r + 1}`), win: (r) => (r === undefined ? 'loses' : `loses in ${r + 1}`),
  draw: () => 'draw'};
const valueText = (mv) => mv.value ? moverText[mv.value](mv.remoteness) : number(mv) ?? 'unreachable';

// arrowHeads are the markers at the end of move arrows, one per value colour.
function arrowHeads() {
  const defs = el('svg:defs');
  for (const c of ['better', 'same', 'worse', 'none']) {
    defs.append(el('svg:marker', {id: `head-${c}`, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto'},
      el('svg:path', {d: 'M0,0 L10,5 L0,10 z', class: `arrow-head ${c}`})));
  }
  return defs;
}

// ---- board renderers, keyed by game name ----
// Each has goal(params) → state, describe(from, move, params) → a move's name, and
// draw(view) → an element; view = {params, result, moves: [{...move, cls, best, next}],
// play(state), over}: next is the state a move leads to, over the text of a game's end.
// Optional: next(state, move) when a move's state is not the one to show (a game's last
// move), over(state) → {text, value} when the game is over there (no probe is made; value
// is the side to move's), chartKey(state) → the chart panel of a set. A game's entry may
// instead be a function of the table's entry that makes its renderer (the Morris family's,
// from the board the server sends).

const slide = {
  parse: (s) => (s.trim().includes(' ') ? s.trim().split(/\s+/) : [...s.trim()]).map(Number),
  format: (tiles) => (tiles.length <= 10 && tiles.every((t) => t <= 9) ? tiles.join('') : tiles.join(' ')),
  goal(p) {
    const n = p.rows * p.cols, tiles = Array.from({length: n - 1}, (_, i) => i + 1);
    return slide.format(p.goal === 'blank-first' ? [0, ...tiles] : [...tiles, 0]);
  },
  // The tile that moves is the one on the cell the blank moves to.
  describe(from, m, p) {
    const a = slide.parse(from), b = slide.parse(m.state), was = a.indexOf(0), now = b.indexOf(0);
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
        title: `${slide.describe(view.result.state, m, p)}: ${valueText(m)}`, onclick: () => view.play(m.next)},
      String(t), el('small', {class: m.cls}, String(valueText(m)))));
    });
    return board;
  },
};

const hanoi = {
  goal: (p) => String(p.pegs - 1).repeat(p.disks),
  describe(from, m) {
    const to = m.state, i = [...from].findIndex((c, k) => c !== to[k]);
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
      const h = lift(a, b), mx = (x(a) + x(b)) / 2, play = () => view.play(m.next);
      svg.append(el('svg:path', {class: `arrow ${m.cls}${m.best ? ' best' : ''}`, 'marker-end': `url(#head-${m.cls})`,
        d: `M ${x(a)} ${y0} Q ${mx} ${y0 - 2 * h} ${x(b)} ${y0}`, onclick: play},
      el('svg:title', {}, `${hanoi.describe(state, m)}: ${valueText(m)}`)));
      svg.append(el('svg:text', {class: m.cls, x: mx, y: y0 - h - 5, 'text-anchor': 'middle', onclick: play}, String(valueText(m))));
    });
    svg.prepend(arrowHeads());
    // Peg clicks: the first picks the source, the second the target.
    let from = null;
    for (let peg = 0; peg < k; peg++) {
      const hit = el('svg:rect', {class: 'peg-hit', 'data-peg': peg, x: x(peg) - W / k / 2, y: top, width: W / k, height: H - top});
      hit.addEventListener('click', () => {
        if (from === null) { from = peg; hit.classList.add('selected'); return; }
        const m = view.moves.find((mv) => [...state].some((c, j) => Number(c) === from && Number(mv.state[j]) === peg));
        svg.querySelectorAll('.peg-hit').forEach((h) => h.classList.remove('selected'));
        from = null;
        if (m) view.play(m.next);
      });
      svg.append(hit);
    }
    return svg;
  },
};

// The Morris family (Mühle): one renderer for every board, made per table from the board
// the server sends as data (the entry's "board": points, lines, mills and the rules that
// end a game). Points are numbered as the notation numbers them (docs/REFERENCE.md, "The
// Morris family"): ring by ring from the outside, each ring 8 points clockwise from its
// top-left corner (corners and midpoints of a square), a centre point last.

// morrisLayout places the points of a board of n points on a grid: with R rings, ring s
// is the square from (s, s) to (2R − s, 2R − s), the centre (R, R). It returns the grid
// coordinates of points 1..n (at 0..n−1) and the grid's size, or null for a board of
// other points.
function morrisLayout(n) {
  const rings = Math.floor(n / 8);
  if (!rings || n % 8 > 1) return null;
  const xy = [];
  for (let s = 0; s < rings; s++) {
    for (const [i, j] of [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [1, 2], [0, 2], [0, 1]]) xy.push([s + i * (rings - s), s + j * (rings - s)]);
  }
  if (n % 8) xy.push([rings, rings]);
  return {xy, size: 2 * rings};
}
const millName = {W: 'White', B: 'Black'}, millOther = {W: 'B', B: 'W'};

// The notation of every board: a position, a move.
const millNotation = {
  // parse reads one of W/B/. a point, a space and W|B, then the stones in hand "W:n B:m"
  // (omitted in the moving phase): the board (point p at p−1), the side to move and the hands.
  parse(s) {
    const [board = '', side = '', ...rest] = s.trim().split(/\s+/), b = [...board], hand = {W: 0, B: 0};
    for (const f of rest) {
      const m = /^([WB]):(\d+)$/.exec(f);
      if (m) hand[m[1]] = Number(m[2]);
    }
    return {board: b, side, hand, count: (c) => b.filter((x) => x === c).length};
  },
  // format writes a parsed position back, the hands only while a side holds stones.
  format: (pos) => `${pos.board.join('')} ${pos.side}${pos.hand.W || pos.hand.B ? ` W:${pos.hand.W} B:${pos.hand.B}` : ''}`,
  // parseMove reads "a-b", "a-bxc" (moving phase) or "a", "axc" (a placement: from null).
  parseMove(mv) {
    const m = /^(?:(\d+)-)?(\d+)(?:x(\d+))?$/.exec(mv);
    return {from: m[1] ? Number(m[1]) : null, to: Number(m[2]), remove: m[3] ? Number(m[3]) : null};
  },
  // apply returns the position after a move.
  apply(state, move) {
    const pos = millNotation.parse(state), mv = millNotation.parseMove(move), side = pos.side;
    if (mv.from === null) pos.hand[side]--;
    else pos.board[mv.from - 1] = '.';
    pos.board[mv.to - 1] = side;
    if (mv.remove) pos.board[mv.remove - 1] = '.';
    pos.side = millOther[side];
    return millNotation.format(pos);
  },
};

// morris makes the renderer of a table of the Morris family from its board (t.board); a
// table without one, or whose points are not rings of 8, is shown as text.
function morris(t) {
  const B = t.board, layout = B && morrisLayout(B.points);
  if (!layout) return plain;
  const N = B.points, {parse, parseMove, apply} = millNotation;
  // millsOf lists the mills the stones of colour c complete on a board.
  const millsOf = (board, c) => B.mills.filter((m) => m.every((p) => board[p - 1] === c));
  const mill = {
    // starts lists the stones a side of the set's whole games begins with: its empty-board
    // sectors 0-0-n-n, fewest first.
    starts: (p) => (p.sectors ?? []).map((name) => /^0-0-(\d+)-(\d+)$/.exec(name)).filter((m) => m && m[1] === m[2])
      .map((m) => Number(m[1])).sort((a, b) => a - b),
    start: (n) => `${'.'.repeat(N)} W W:${n} B:${n}`,
    // startOf says the stones a side begins with when state is an empty board, else undefined.
    startOf: (state) => {
      const m = new RegExp(`^\\.{${N}} W W:(\\d+) B:(\\d+)$`).exec(state.trim());
      return m && m[1] === m[2] ? Number(m[1]) : undefined;
    },
    // The default position: the empty board of the largest whole game the set holds; else
    // White to move in the set's first sector (on Nine's board 3-3 is the README's example,
    // a win in 1), else stones from point 1 (White) and the last point down (Black).
    goal(p) {
      const starts = mill.starts(p);
      if (starts.length) return mill.start(starts[starts.length - 1]);
      const [w, b] = (p.sectors?.[0] ?? `${p.w}-${p.b}`).split('-').map(Number);
      if (w === 3 && b === 3 && B.name === 'nine') return 'W.W.....B.B..W......B... W';
      return `${'W'.repeat(w)}${'.'.repeat(N - w - b)}${'B'.repeat(b)} W`;
    },
    describe: (from, m) => m.move,
    // A move that ends the game (it leaves the opponent 2 stones, closes a mill where a mill
    // wins, or fills the board where that draws) has no state in the API; the page shows
    // the board after it.
    next: (state, m) => m.state ?? apply(state, m.move),
    // over says, for a position the game ended in, why and its value for the side to
    // move: the tables hold no such position.
    over(state) {
      const pos = parse(state), last = millOther[pos.side];
      if (pos.board.length !== N || !last) return null;
      if (B.mill_wins) {
        const [m] = millsOf(pos.board, last);
        if (m) return {text: `${millName[last]} closed the mill ${m.join('-')}: ${millName[last]} wins`, value: 'loss'};
      } else {
        const left = (c) => pos.count(c) + pos.hand[c];
        for (const c of ['W', 'B']) {
          if (left(c) < 3 && left(millOther[c]) >= 3) return {text: `${millName[c]} has ${left(c)} stones left: ${millName[millOther[c]]} wins`, value: 'loss'};
        }
      }
      if (B.full_board_draw && !pos.board.includes('.')) return {text: 'the board is full: a draw', value: 'draw'};
      return null;
    },
    // The sector: stones of the side to move, then of the opponent; in the placement phase
    // then their stones in hand.
    chartKey(state) {
      const pos = parse(state), me = pos.side, you = millOther[me];
      const hands = pos.hand.W || pos.hand.B ? `-${pos.hand[me]}-${pos.hand[you]}` : '';
      return `${pos.count(me)}-${pos.count(you)}${hands}`;
    },
    // The board as it looks — its lines from the board's data, the stones (those standing
    // in a mill marked), the stones in hand beside it — and every legal move coloured by
    // its value: in the placement phase a ring on each empty point (the best solid, the
    // others faint) with its value, in the moving phase an arrow (the best solid, the
    // others faint, or left out when there are many), and a cross on the stone a capture
    // removes. Click an empty point to place; click a stone, then its target, to move; then
    // (when a capture has a choice) the stone to remove. A move hovered in the list is
    // shown alone.
    draw(view) {
      const state = view.result.state, pos = parse(state), U = Math.min(120, 384 / layout.size), M = 30, S = layout.size * U + 2 * M;
      const xy = (p) => layout.xy[p - 1].map((g) => M + g * U);
      const moves = view.moves.map((m) => ({...m, ...parseMove(m.move)}));
      // Placements and moves of a stone may be offered together (a rule set that lets a
      // stone move while its side holds stones): rings for the one, arrows for the other.
      const placing = moves.length ? moves.some((m) => m.from === null) : pos.hand[pos.side] > 0, sliding = moves.some((m) => m.from !== null);
      const plies = (m) => (m.remoteness === undefined ? '' : m.remoteness + 1);
      const short = (m) => ({better: `+${plies(m)}`, worse: `−${plies(m)}`, same: '='})[m.cls] ?? '';
      const colour = (c) => (c === 'W' ? 'white' : 'black');
      const blocked = !view.over && view.result.value === 'loss' && (view.result.remoteness ?? 0) === 0 && !moves.length;
      const inMill = new Set(['W', 'B'].flatMap((c) => millsOf(pos.board, c).flat()));
      const wrap = el('div', {class: 'mill'});
      // The selection: a stone to move (one a move starts from), then its target (or the
      // point placed on) when a capture there has a choice.
      let from = null, to = null;
      const click = (p) => {
        if (to !== null) { // the stone to remove
          const m = moves.find((mv) => mv.from === from && mv.to === to && mv.remove === p);
          if (m) return view.play(m.next);
          from = to = null;
          return render();
        }
        if (from === null ? placing : p !== from) { // a placement on p, or the selected stone to p
          const ms = moves.filter((mv) => mv.from === from && mv.to === p);
          if (ms.length === 1) return view.play(ms[0].next);
          if (ms.length > 1) {
            to = p;
            return render();
          }
        }
        from = p !== from && moves.some((mv) => mv.from === p) ? p : null;
        render();
      };
      // hand shows the stones a side still holds, a row beside the board (White's above it,
      // Black's below), the side to move's outlined.
      const hand = (c) => el('div', {class: `hand${c === pos.side && !view.over && !blocked ? ' to-move' : ''}`, 'data-side': c},
        el('span', {class: 'hand-name'}, millName[c]),
        el('span', {class: 'hand-stones'}, ...Array.from({length: pos.hand[c]}, () => el('span', {class: `dot ${colour(c)}`}))),
        el('span', {class: 'hand-count'}, `${pos.hand[c]} in hand`),
        el('small', {class: 'hand-board'}, `${pos.count(c)} on the board`));
      const render = () => {
        const svg = el('svg:svg', {class: 'mill-board', width: S, height: S, viewBox: `0 0 ${S} ${S}`}, arrowHeads(),
          el('svg:rect', {class: 'wood', x: 2, y: 2, width: S - 4, height: S - 4, rx: 10}));
        for (const [a, b] of B.lines) {
          const [x1, y1] = xy(a), [x2, y2] = xy(b);
          svg.append(el('svg:line', {class: 'mill-line', 'data-line': `${a}-${b}`, x1, y1, x2, y2}));
        }
        for (let p = 1; p <= N; p++) {
          const [x, y] = xy(p), c = pos.board[p - 1];
          svg.append(el('svg:circle', {class: 'mill-point', 'data-point': p, cx: x, cy: y, r: 5}), el('svg:text', {class: 'mill-num', x: x + 13, y: y - 13}, String(p)));
          if (c === 'W' || c === 'B') {
            svg.append(el('svg:circle', {class: `stone ${colour(c)}${p === from ? ' selected' : ''}${inMill.has(p) ? ' in-mill' : ''}`, 'data-point': p, cx: x, cy: y, r: 18}));
          }
        }
        // The moves of the selection (all without one); a from-to pair has the colour of its
        // best move (moves come best first).
        const shown = moves.filter((m) => (from === null || m.from === from) && (to === null || m.to === to));
        const targets = new Map();
        for (const m of shown) if (!targets.has(`${m.from ?? ''}-${m.to}`)) targets.set(`${m.from ?? ''}-${m.to}`, m);
        if (from === null && to !== null) { // the stone placed, before the capture is chosen
          const [x, y] = xy(to);
          svg.append(el('svg:circle', {class: `stone ${colour(pos.side)} ghost`, 'data-point': to, cx: x, cy: y, r: 18}));
        } else {
          const many = from === null && [...targets.values()].filter((m) => m.from !== null).length > 12;
          for (const m of targets.values()) {
            if (m.from === null) { // a ring on a point a stone may be placed on
              const [x, y] = xy(m.to), key = String(m.to);
              svg.append(el('svg:circle', {class: `place ${m.cls}${m.best ? ' best' : ' faint'}`, 'data-move': key, cx: x, cy: y, r: 13},
                el('svg:title', {}, `${m.move}: ${valueText(m)}`)));
              svg.append(el('svg:text', {class: `target ${m.cls}`, 'data-move': key, x, y: y + 30, 'text-anchor': 'middle'}, short(m)));
              continue;
            }
            const key = `${m.from}-${m.to}`, [x1, y1] = xy(m.from), [x2, y2] = xy(m.to), k = 1 - 10 / Math.hypot(x2 - x1, y2 - y1);
            const look = m.best || from !== null ? '' : many ? ' hidden' : ' faint';
            svg.append(el('svg:line', {class: `arrow ${m.cls}${m.best ? ' best' : ''}${look}`, 'data-move': key,
              'marker-end': `url(#head-${m.cls})`, x1, y1, x2: x1 + (x2 - x1) * k, y2: y1 + (y2 - y1) * k,
              onclick: () => { from = m.from; click(m.to); }}, el('svg:title', {}, `${m.move}: ${valueText(m)}`)));
            if (from !== null && to === null) svg.append(el('svg:text', {class: `target ${m.cls}`, x: x2, y: y2 + 32, 'text-anchor': 'middle'}, short(m)));
          }
        }
        for (const m of shown.filter((mv) => mv.remove)) {
          const [x, y] = xy(m.remove), r = 11;
          svg.append(el('svg:path', {class: `capture ${m.cls}${m.best || to !== null ? '' : ' hidden'}`, 'data-move': m.move,
            d: `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}`}));
          if (to !== null) svg.append(el('svg:text', {class: `target ${m.cls}`, x, y: y + 34, 'text-anchor': 'middle'}, short(m)));
        }
        for (let p = 1; p <= N; p++) { // the click targets, on top
          const [x, y] = xy(p);
          svg.append(el('svg:circle', {class: 'mill-hit', 'data-point': p, cx: x, cy: y, r: 24, onclick: () => click(p)}));
        }
        const flies = (c) => B.flying && (B.flying_in_total ? pos.count(c) + pos.hand[c] === 3 : !pos.hand[c] && pos.count(c) === 3) ? ' (flies)' : '';
        const side = millName[pos.side], hint = to !== null ? 'Click the stone to remove.'
          : from !== null ? `Click where ${from} goes.` : placing && sliding ? 'Click an empty point to place a stone, or a stone, then where it goes.'
            : placing ? 'Click an empty point to place a stone.' : 'Click a stone, then where it goes.';
        const caption = view.over ? el('p', {class: 'mill-caption game-over'}, `Game over — ${view.over}.`)
          : blocked ? el('p', {class: 'mill-caption game-over'}, `Game over — ${side} cannot move: ${millName[millOther[pos.side]]} wins.`)
            : el('p', {class: 'mill-caption'}, el('span', {class: `dot ${colour(pos.side)}`}), ` ${side} to ${placing && sliding ? 'place or move' : placing ? 'place' : 'move'}. `,
              el('small', {}, `White ${pos.count('W')}${flies('W')}, Black ${pos.count('B')}${flies('B')} stones on the board. `, hint));
        wrap.replaceChildren(el('div', {class: 'mill-hands', style: `max-width: ${S}px`}, hand('W'), svg, hand('B')), caption);
      };
      // Hovering a move in the list shows it alone (classes only: the board's nodes stay,
      // so that a click in progress keeps its target).
      view.hover = (m, on) => {
        const svg = wrap.querySelector('svg');
        svg.classList.toggle('hovering', on);
        svg.querySelectorAll('.hl').forEach((e) => e.classList.remove('hl'));
        if (on) svg.querySelectorAll(`[data-move="${m.move}"], [data-move="${m.move.replace(/x.*/, '')}"]`).forEach((e) => e.classList.add('hl'));
      };
      render();
      return wrap;
    },
  };
  return mill;
}

// Tic-tac-toe: cells 1..9 row by row from the top left, X first; a move is the cell it
// fills. A line of three ends the game (lost for the side to move), else a full board (a
// draw): such a position is in the tables, with no move.
const tttLines = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const tictactoe = {
  goal: () => '.........',
  // One whole game, from the empty board (the new game's button).
  starts: () => [9],
  start: () => '.........',
  startOf: (state) => (state === '.........' ? 9 : undefined),
  side(state) {
    const n = (c) => [...state].filter((x) => x === c).length;
    return n('X') === n('O') ? 'X' : 'O';
  },
  describe: (from, m) => `cell ${m.move}`,
  line: (b) => tttLines.find(([a, c, d]) => b[a] !== '.' && b[a] === b[c] && b[a] === b[d]),
  // The board: the stones (a line of three marked), and on every empty cell a button
  // with the value of the move there, coloured as the move list colours it.
  draw(view) {
    const b = [...view.result.state], n = (c) => b.filter((x) => x === c).length;
    const toMove = n('X') === n('O') ? 'X' : 'O', line = tictactoe.line(b);
    const byCell = new Map(view.moves.map((m) => [Number(m.move) - 1, m]));
    const board = el('div', {class: 'ttt-board', role: 'grid'});
    b.forEach((c, i) => {
      const m = byCell.get(i), cell = i + 1;
      if (c !== '.') board.append(el('div', {class: `ttt-cell stone ${c === 'X' ? 'x' : 'o'}${line?.includes(i) ? ' won' : ''}`, 'data-cell': cell}, c));
      else if (!m) board.append(el('div', {class: 'ttt-cell', 'data-cell': cell}));
      else board.append(el('button', {class: `ttt-cell ${m.cls}${m.best ? ' best' : ''}`, 'data-cell': cell, 'data-move': m.move,
        title: `${toMove} on cell ${cell}: ${valueText(m)}`, onclick: () => view.play(m.next)}, el('small', {class: m.cls}, String(valueText(m)))));
    });
    const full = !b.includes('.');
    const maker = line && b[line[0]], winner = view.misere ? (maker === 'X' ? 'O' : 'X') : maker;
    const caption = line ? `Game over — ${maker} has three in a row: ${winner} wins.`
      : full ? 'Game over — the board is full: a draw.' : `${toMove} to move.`;
    return el('div', {class: 'ttt'}, board, el('p', {class: `ttt-caption${line || full ? ' game-over' : ''}`}, caption));
  },
};

// Misère tic-tac-toe: the same board; a line loses for the player who made it.
const misereTictactoe = {...tictactoe, draw: (view) => tictactoe.draw({...view, misere: true})};

const renderers = {slide, 'slide-pdb': slide, hanoi, mill: morris, tictactoe, 'tictactoe-misere': misereTictactoe};

// A game without a renderer: the state as text.
const plain = {goal: () => '', describe: (from, m) => m.state, draw: (view) => el('pre', {}, view.result.state)};

// ---- the page ----

let tables = [], current = null; // the table list and the selected table

// rendererOf is the renderer of table t: its game's, made for the table once when it is a
// function of the table's entry (the Morris family's: the board is the set's).
const made = new Map();
function rendererOf(t) {
  const r = renderers[t.game] ?? plain;
  if (typeof r !== 'function') return r;
  if (!made.has(t.name)) made.set(t.name, r(t));
  return made.get(t.name);
}
const apiBase = (t) => `/api/v1/tables/${encodeURIComponent(t.name)}`;

function hashParams() { return new URLSearchParams(location.hash.slice(1)); }
function linkTo(name, state) {
  const q = new URLSearchParams({table: name});
  if (state !== undefined) q.set('state', state);
  return '#' + q.toString();
}
function play(state) { location.hash = linkTo(current.name, state); }
// navigate shows state even when the URL names it already.
function navigate(state) {
  const h = linkTo(current.name, state);
  if (location.hash === h) route().catch((e) => showError(String(e)));
  else location.hash = h;
}

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
  const i = t.info, rows = [['game', `${t.game} ${JSON.stringify(t.params)}`]], b = t.board;
  if (b) rows.push(['rules', `${b.title} (${b.rules}): ${b.points} points, ${b.lines.length} lines, ${b.mills.length} mills, ${b.stones} stones a side`]);
  const n = (x) => x.toLocaleString(), longest = (k) => (k >= 0 ? ` (longest ${k})` : '');
  const tiers = i.tiers ?? i.sectors;
  if (t.set && tiers) {
    rows.push(['set', `${i.dir} (${i.format ?? i.kind})`], [`${i.tier_noun ?? 'sector'}s`, tiers.map((x) => `${x.name ?? x.sector}: ${n(x.classes)} positions — ` +
      `${n(x.wins)} wins${longest(x.max_win ?? -1)}, ${n(x.losses)} losses${longest(x.max_loss ?? -1)}, ${n(x.draws)} draws`).join('\n')],
    ['size', `${n(i.bytes)} bytes`]);
  } else if (t.set) {
    rows.push(['set', `${i.dir} (${i.format})`], ['members', i.members.map((m) => `${m.file}: ${JSON.stringify(m.params)}`).join('\n')],
      ['slots', i.slots.toLocaleString()], ['size', `${i.bytes.toLocaleString()} bytes`]);
  } else {
    rows.push(['index', i.index], ['encoding', i.encoding], ['slots', i.slots.toLocaleString()],
      [t.kind === 'pdb' ? 'entries' : 'states', i.states.toLocaleString()]);
    if (t.kind === 'puzzle') rows.push(['unreachable', i.unreachable.toLocaleString()], ['max remoteness', i.max_remoteness]);
    if (t.kind === 'two-player') rows.push(['wins', n(i.wins) + longest(i.max_win)], ['losses', n(i.losses) + longest(i.max_loss)], ['draws', n(i.draws)]);
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

// markChart highlights the bar that counts the position r: in a single table's chart, or
// in the panel of a set's chart the renderer names (a sector), which is then shown alone
// after the panel of the whole set; a bar of a two-player chart counts one outcome
// (data-value).
function markChart(r, key) {
  const v = number(r), svg = $('#chart svg');
  if (!svg) return;
  if (key !== undefined) layoutChart(svg, ['all', key]);
  svg.querySelectorAll('rect.bar').forEach((b) => {
    const here = key === undefined ? !current.set : b.closest('g.panel')?.dataset.key === key;
    const within = v !== undefined && Number(b.dataset.lo) <= v && v <= Number(b.dataset.hi);
    b.classList.toggle('current', here && (b.dataset.value === undefined ? within
      : b.dataset.value === r.value && (r.value === 'draw' || within)));
  });
}

// layoutChart shows only the panels with the given keys, one below the other.
function layoutChart(svg, keys) {
  const panels = [...svg.querySelectorAll('g.panel')], h = Number(svg.dataset.panelHeight ??= svg.viewBox.baseVal.height / panels.length);
  let y = 0;
  for (const g of panels) {
    const show = keys.includes(g.dataset.key);
    g.style.display = show ? '' : 'none';
    if (show) {
      g.setAttribute('transform', `translate(0 ${y})`);
      y += h;
    }
  }
  const w = svg.viewBox.baseVal.width;
  svg.setAttribute('height', y);
  svg.setAttribute('viewBox', `0 0 ${w} ${y}`);
  svg.querySelector(':scope > rect')?.setAttribute('height', y);
}

// showState probes state and draws the verdict, the board and the moves. Only the
// latest request is drawn, and body[data-shown] then names the URL hash it shows.
let lastProbe = 0;
async function showState(state) {
  const seq = ++lastProbe, hash = location.hash, rend = rendererOf(current);
  // A game that is over there is not probed: it has no value in the tables.
  const end = rend.over?.(state), over = end?.text;
  const {ok, body: r} = end ? {ok: true, body: {state, value: end.value, ...(end.value === 'draw' ? {} : {remoteness: 0})}}
    : await getJSON(`${apiBase(current)}/probe?state=${encodeURIComponent(state)}`);
  if (seq !== lastProbe) return;
  document.body.dataset.shown = hash;
  $('#state-input').value = state;
  $('#share').href = linkTo(current.name, state);
  if (!ok) {
    showError(r.error);
    return;
  }
  const how = record(state);
  showError('');
  const v = verdict(r), moves = r.moves ?? [];
  $('#value-label').textContent = v.label;
  $('#value').textContent = String(v.value);
  $('#verdict-note').textContent = over ? `game over: ${over}` : v.note;
  const bestKey = moves.length ? valueText(moves[0]) : null;
  const view = {params: current.params, result: r, play, over,
    moves: moves.map((m) => ({...m, cls: moveClass(r, m), best: valueText(m) === bestKey, next: rend.next?.(r.state, m) ?? m.state}))};
  $('#board').replaceChildren(rend.draw(view));
  $('#moves').replaceChildren(...view.moves.map((m) => el('li', {},
    el('button', {class: `move ${m.cls}${m.best ? ' best' : ''}`, 'data-state': m.next, 'data-move': m.move, onclick: () => play(m.next),
      onmouseenter: () => view.hover?.(m, true), onmouseleave: () => view.hover?.(m, false)},
    rend.describe(r.state, m, current.params), el('span', {class: 'val'}, String(valueText(m)))))));
  markChart(over ? {} : r, current.set ? rend.chartKey?.(state) : undefined);
  shown = {state, moves: view.moves, over: over || !moves.length};
  if (game) game.results[game.cursor] = r;
  drawGame(rend);
  // The computer answers a move of the player's when asked to.
  if (how === 'player' && $('#auto').checked && !shown.over) {
    setTimeout(() => { if (location.hash === hash && shown?.state === state) computerMove(); }, 300);
  }
}

// ---- the game record (two-player tables) ----
// The positions of the game so far, from its start, with the moves between them and each
// position's probe; cursor is the one shown. A move from the shown position adds a ply (and
// drops the plies after it); undo, a click on the strip, or the browser's back button moves
// the cursor; any other position starts a new record.

let game = null, shown = null; // the record; the moves of the position drawn last
let jump = null, byComputer = null; // the ply undo or the strip asked for; the computer's move's position

// record places state in the game record and says how it got there: 'player' or
// 'computer' (a move from the position before), 'jump' or 'new'; undefined for a table
// that is not a two-player game.
function record(state) {
  if (current.kind !== 'two-player') {
    game = null;
    return undefined;
  }
  const cpu = byComputer === state, want = jump;
  byComputer = jump = null;
  if (game?.table === current.name) {
    const at = game.states[want] === state ? want : [game.cursor, game.cursor + 1].find((i) => game.states[i] === state);
    if (at !== undefined) {
      game.cursor = at;
      return 'jump';
    }
    const m = shown?.state === game.states[game.cursor] ? shown.moves.find((mv) => mv.next === state) : undefined;
    if (m) {
      for (const list of [game.states, game.moves, game.results, game.by]) list.length = game.cursor + 1;
      game.states.push(state);
      game.moves.push(m.move);
      game.results.push(null);
      game.by.push(cpu ? 'computer' : 'player');
      game.cursor++;
      return cpu ? 'computer' : 'player';
    }
    const seen = game.states.lastIndexOf(state);
    if (seen >= 0) {
      game.cursor = seen;
      return 'jump';
    }
  }
  game = {table: current.name, states: [state], moves: [null], results: [null], by: [null], cursor: 0};
  return 'new';
}

// computerMove plays the move the server ranks first: the fastest win, the slowest loss,
// or a drawing move. On a win/draw/loss-only set it is a winning move, one that ends the
// game when there is one, but not the fastest: it may go round in circles in a won
// position, for such a set has no remoteness to make progress by.
function computerMove() {
  const m = shown?.moves[0];
  if (!m) return;
  byComputer = m.next;
  play(m.next);
}

function goTo(ply) {
  if (!game || !game.states[ply]) return;
  jump = ply;
  navigate(game.states[ply]);
}

// newGame starts a whole game from the empty board, with the stones per side chosen.
function newGame() {
  const rend = rendererOf(current), n = Number($('#stones').value);
  game = null;
  navigate(rend.start(n));
}

// plyText is a position's value from the side to move's view, as the strip shows it.
function plyText(r) {
  if (!r) return '…';
  if (r.value === 'draw' || (r.value && r.remoteness === undefined)) return r.value;
  return r.value ? `${r.value} ${r.remoteness}` : '';
}

// drawGame shows the game's controls and its strip: the value after every ply.
function drawGame(rend) {
  $('#game').hidden = $('#strip').hidden = !game;
  if (!game) return;
  const starts = rend.starts?.(current.params) ?? [];
  $('#new-game').hidden = !starts.length;
  const sel = $('#stones');
  if (sel.dataset.table !== current.name) {
    sel.dataset.table = current.name;
    sel.replaceChildren(...starts.map((n) => el('option', {value: n}, `${n} stones`)));
    sel.value = String(starts[starts.length - 1] ?? '');
  }
  sel.hidden = starts.length < 2;
  const n = rend.startOf?.(game.states[0]);
  if (starts.includes(n)) sel.value = String(n);
  $('#undo').disabled = game.cursor === 0;
  $('#computer-move').disabled = !shown?.moves.length || !!shown.over;
  const side = (s) => rend.side?.(s) ?? ({W: 'White', B: 'Black'})[s.trim().split(/\s+/)[1]] ?? '';
  $('#strip').replaceChildren(...game.states.map((s, i) => {
    const r = game.results[i], cls = r?.value ?? 'unknown';
    const title = `${i ? `ply ${i}: ${game.moves[i]}${game.by[i] === 'computer' ? ' (computer)' : ''}` : 'start'} — ` +
      `${side(s)} to move${r ? `: ${plyText(r)}` : ''}`;
    return el('li', {}, el('button', {class: `ply ${cls}${i === game.cursor ? ' current' : ''}${i > game.cursor ? ' future' : ''}` +
      `${game.by[i] === 'computer' ? ' computer' : ''}`, 'data-ply': i, title, onclick: () => goTo(i)},
    el('span', {class: 'ply-move'}, i ? game.moves[i] : 'start'), el('span', {class: 'ply-value'}, plyText(r))));
  }));
}

// route shows what the hash names: a table (the first by default) and a state (its goal).
async function route() {
  const q = hashParams();
  const t = tables.find((x) => x.name === q.get('table')) ?? tables[0];
  if (!t) return;
  if (t !== current) {
    current = t;
    await showTable(t);
    $('#state-input').placeholder = `e.g. ${rendererOf(t).goal(t.params)}`;
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
  $('#new-game').addEventListener('click', newGame);
  $('#stones').addEventListener('change', newGame);
  $('#undo').addEventListener('click', () => goTo(game.cursor - 1));
  $('#computer-move').addEventListener('click', computerMove);
  await route();
}

main().catch((e) => showError(String(e)));
