// The review of one game (docs/review.md, docs/web-game.md): POST /api/review rates every
// throw against perfect play, and this view shows it as a win-chance graph, a move list with
// each move's class, the board at the chosen throw with the best move beside the one played,
// the key moments, every legal move's chance and both players' summaries. It takes the screen
// of the game or the replay that opened it and gives it back on Close.

import { ApiError, api } from './api.js';
import { Board } from './board.js';
import { Geometry, SIDE_NAME, geometry, homeSquare } from './rules.js';
import { svg } from './svg.js';
import { TableBuildOffer } from './table-build.js';

const $ = (id) => document.getElementById(id);

// How each class is shown: an icon and its word as well as a colour (docs/review.md).
export const CLASS_MARK = {
  best: '✓',
  excellent: '✓',
  good: '·',
  inaccuracy: '?!',
  mistake: '?',
  blunder: '??',
  forced: '–',
};

const CLASSES = ['best', 'excellent', 'good', 'inaccuracy', 'mistake', 'blunder'];

const NO_HIGHLIGHTS = { movable: new Set(), selected: null, targets: new Set(), activeSide: 'light', lastMove: null };

// The graph's drawing area in SVG units; the SVG scales to the width it is given.
const GRAPH = { width: 640, height: 220, left: 44, right: 12, top: 14, bottom: 30 };

export function percent(chance) {
  return `${(chance * 100).toFixed(1)}%`;
}

export function points(loss) {
  return `${(loss * 100).toFixed(1)} pp`;
}

export function signedPoints(value) {
  return `${value >= 0 ? '+' : '−'}${points(Math.abs(value))}`;
}

// A move in route squares, as the board numbers them: every move the review and the replay's
// figures name, played, best or ranked, so that one view never mixes them with RGN's tiles.
// `home`: the rule set's home square (the game on screen's unless given).
export function moveWords(move, home = homeSquare()) {
  if (!move) return 'pass';
  if (move.from === 0) return `enter on ${move.to}`;
  if (move.to >= home) return `${move.from} off`;
  return `${move.from} → ${move.to}`;
}

export function sameMove(a, b) {
  return Boolean(a && b && a.from === b.from && a.to === b.to);
}

// Light's (Shell's) chance before a throw.
function lightChance(entry) {
  return entry.side === 'light' ? entry.win_before : 1 - entry.win_before;
}

function isMistake(entry) {
  return entry.class === 'mistake' || entry.class === 'blunder';
}

// The record as POST /api/review takes it: the moves without the positions, to keep it small.
export function reviewRequest(record) {
  return {
    rules: record.rules,
    tags: record.tags,
    plies: record.plies.map(({ side, roll, move }) => ({ side, roll, move })),
    result: record.result,
  };
}

export class ReviewView {
  // `onOpen()` hides the screen underneath; `onClose()` brings it back.
  constructor({ onOpen, onClose }) {
    this.onOpen = onOpen;
    this.onClose = onClose;
    this.board = new Board($('review-board'), () => {});
    this.record = null;
    this.review = null;
    this.index = 0; // the chosen throw, 0-based
    this.keyStep = -1; // the key moment shown last
    this.request = 0; // drops answers for a review no longer wanted
    this.returnFocus = null;
    this.drawMs = null;
    this.tableBuild = new TableBuildOffer(() => this.load(false), {
      prefix: 'review-build',
      consequence: 'so the review cannot be exact.',
      offer: 'The server can build the table now (it is saved for next time), or the review can use the expert search’s estimate.',
      otherwise: 'The review can use the expert search’s estimate instead.',
    });
    $('review-close').addEventListener('click', () => this.close());
    $('review-estimate').addEventListener('click', () => this.load(true));
    $('review-key').addEventListener('click', () => this.nextKeyMoment());
    document.addEventListener('keydown', (event) => this.onKey(event));
    // The graph is drawn at one unit a pixel: draw it again when its width changes.
    window.addEventListener('resize', () => {
      clearTimeout(this.resizeTimer);
      this.resizeTimer = setTimeout(() => this.redrawGraph(), 100);
    });
  }

  redrawGraph() {
    if (!this.isOpen() || !this.review) return;
    this.renderGraph();
    this.select(this.index, false, true);
  }

  isOpen() {
    return !$('review').hidden;
  }

  // Opens the review of `record` (a JSON record, docs/records.md); `returnFocus` gets the
  // focus back on Close.
  open(record, returnFocus = null) {
    this.record = record;
    // The record's own board (from its geometry, else the game on screen's).
    this.geo = record.geometry ? new Geometry(record.geometry) : geometry();
    this.board.useGeometry(this.geo, true);
    this.returnFocus = returnFocus;
    this.review = null;
    this.onOpen();
    $('review').hidden = false;
    const tags = record.tags ?? {};
    $('review-players').textContent =
      `Shell: ${tags.Light ?? 'Human'} · Bitumen: ${tags.Dark ?? 'Human'} · ` +
      // The set's title names its pieces and bear-off where they are not the set's own.
      (this.geo?.title ?? `${record.rules.pieces} pieces each, bear-off ${record.rules.bear_off}`);
    $('review-content').hidden = true;
    $('review-close').focus();
    this.load(false);
  }

  // Hides the review without giving the screen back (another screen takes it).
  dismiss() {
    if (!this.isOpen()) return;
    this.request += 1;
    this.tableBuild.hide();
    $('review').hidden = true;
  }

  close() {
    if (!this.isOpen()) return;
    this.request += 1;
    this.tableBuild.hide();
    $('review').hidden = true;
    this.onClose();
    this.returnFocus?.focus?.();
  }

  async load(estimate) {
    const request = (this.request += 1);
    this.tableBuild.hide();
    $('review-offer').hidden = true;
    this.showStatus(estimate ? 'Reviewing with the search’s estimate…' : 'Reviewing the game…');
    let review;
    try {
      review = await api.review(reviewRequest(this.record), estimate);
    } catch (error) {
      if (request !== this.request) return;
      const missing = error instanceof ApiError ? error.details?.table_missing : null;
      const unavailable = error instanceof ApiError ? error.details?.perfect_play : null;
      if (unavailable && !estimate) {
        // No exact review for this set, ever (its path crosses itself): say so, and offer the
        // search's estimate only.
        this.showStatus(`${unavailable} The search can estimate a review instead.`);
        this.tableBuild.hide();
        $('review-offer').hidden = false;
        $('review-build').hidden = false; // only its estimate button: there is no table to build
        $('review-build-progress').hidden = true;
        $('review-build-cancel').hidden = true;
        $('review-build-start').hidden = true;
        $('review-build-title').textContent = 'An exact review is not possible for this rule set';
        $('review-build-text').textContent = '';
        return;
      }
      if (missing) {
        $('review-build-start').hidden = false;
        $('review-build-title').textContent = 'An exact review needs the solved table';
        this.showStatus('');
        $('review-offer').hidden = false;
        this.tableBuild.show(missing, false);
      } else {
        this.showStatus(`The review is not available: ${error.message}`);
      }
      return;
    }
    if (request !== this.request) return;
    const arrived = performance.now();
    if (!Array.isArray(review?.throws) || review.throws.length === 0) {
      this.showStatus('The record holds no throw to review.');
      return;
    }
    this.review = review;
    this.keyStep = -1;
    this.showStatus('');
    this.renderAll();
    // Drawn: the layout is done when the next frame starts.
    void $('review-content').offsetHeight;
    performance.mark('review-drawn');
    this.drawMs = performance.now() - arrived;
    $('review').dataset.drawMs = this.drawMs.toFixed(1);
  }

  showStatus(text) {
    $('review-status').textContent = text;
    $('review-status').hidden = !text;
  }

  renderAll() {
    const review = this.review;
    $('review-content').hidden = false;
    $('review-estimated').hidden = review.exact !== false;
    const unavailable = review.geometry?.perfect_play;
    $('review-source').textContent =
      review.exact === false
        ? unavailable
          ? `estimated by the search: ${unavailable}`
          : 'estimated: no solved table'
        : `Exact: ${review.source ?? 'solved table'}.`;
    this.renderGraph();
    this.renderMoves();
    this.renderSummary();
    const key = this.keyMoments();
    $('review-key').disabled = key.length === 0;
    $('review-key').textContent = key.length ? `Key moves (${key.length})` : 'No key moves';
    $('review-key-status').textContent = '';
    // Start at the first mistake, else the first move with a choice, else the first throw.
    const throws = review.throws;
    let start = throws.findIndex(isMistake);
    if (start < 0) start = throws.findIndex((entry) => !entry.forced);
    this.select(Math.max(0, start), false);
  }

  // The key moments in order of the game: the largest losses and the largest luck swings.
  keyMoments() {
    const moments = new Map();
    const key = this.review?.key_moments ?? {};
    for (const ply of key.losses ?? []) moments.set(ply, 'a large loss');
    for (const ply of key.luck ?? []) moments.set(ply, moments.has(ply) ? 'a large loss and a luck swing' : 'a luck swing');
    return [...moments.entries()]
      .filter(([ply]) => ply >= 1 && ply <= this.review.throws.length)
      .sort((a, b) => a[0] - b[0])
      .map(([ply, why]) => ({ ply, why }));
  }

  nextKeyMoment() {
    const moments = this.keyMoments();
    if (moments.length === 0) return;
    this.keyStep = (this.keyStep + 1) % moments.length;
    const moment = moments[this.keyStep];
    this.select(moment.ply - 1, false, true);
    const entry = this.review.throws[moment.ply - 1];
    $('review-key-status').textContent =
      `Key move ${this.keyStep + 1} of ${moments.length}: throw ${moment.ply}, ${moment.why} ` +
      `(loss ${points(entry.loss)}, luck ${signedPoints(entry.luck)}).`;
  }

  // -------------------------------------------------------------------------------------------
  // The win-chance graph: Shell's chance before each throw, one point a throw.

  renderGraph() {
    const throws = this.review.throws;
    const chart = $('review-graph');
    // One SVG unit a pixel, so that the labels keep their size on a phone.
    const width = Math.max(280, Math.round(chart.getBoundingClientRect().width) || GRAPH.width);
    const { height, left, right, top, bottom } = GRAPH;
    const plotW = width - left - right;
    const plotH = height - top - bottom;
    const x = (index) => left + (throws.length === 1 ? plotW / 2 : (index * plotW) / (throws.length - 1));
    const y = (chance) => top + (1 - chance) * plotH;
    chart.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const parts = [];
    // Axes, the gridlines at 0, 25, 50, 75 and 100%, and the 50% line drawn stronger.
    for (const level of [0, 0.25, 0.5, 0.75, 1]) {
      parts.push(
        svg('line', { class: level === 0.5 ? 'graph-even' : 'graph-grid', x1: left, x2: width - right, y1: y(level), y2: y(level) }),
        svg('text', { class: 'graph-label', x: left - 6, y: y(level) + 5, 'text-anchor': 'end' }, [`${level * 100}%`]),
      );
    }
    parts.push(
      svg('line', { class: 'graph-axis', x1: left, x2: left, y1: top, y2: top + plotH }),
      svg('line', { class: 'graph-axis', x1: left, x2: width - right, y1: top + plotH, y2: top + plotH }),
      svg('text', { class: 'graph-label', x: left, y: height - 6 }, ['throw 1']),
      svg('text', { class: 'graph-label', x: width - right, y: height - 6, 'text-anchor': 'end' }, [`throw ${throws.length}`]),
    );
    const line = throws.map((entry, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(lightChance(entry)).toFixed(1)}`);
    parts.push(svg('path', { class: 'graph-line', d: line.join(' ') }));
    this.cursor = svg('line', { class: 'graph-cursor', y1: top, y2: top + plotH, x1: left, x2: left });
    parts.push(this.cursor);
    const pointsLayer = svg('g', { class: 'graph-points' });
    throws.forEach((entry, index) => {
      const cx = x(index);
      const cy = y(lightChance(entry));
      const marks = [];
      if (isMistake(entry)) marks.push(entry.class);
      if (entry.luck_mark) marks.push(entry.luck_mark);
      let kind = '';
      if (isMistake(entry)) kind = `point-${entry.class}`;
      else if (entry.luck_mark) kind = `point-luck point-${entry.luck >= 0 ? 'lucky' : 'unlucky'}`;
      const point = svg('g', {
        class: `graph-point ${kind}`,
        role: 'button',
        tabindex: -1,
        'data-index': index,
        'aria-label': `${this.throwText(index)}${marks.length ? ` (${marks.join(', ')})` : ''}`,
      });
      // A wide transparent target for fingers, then the visible mark.
      point.append(svg('circle', { class: 'point-hit', cx, cy, r: 9 }));
      if (isMistake(entry)) {
        point.append(svg('rect', { class: 'point-mark', x: cx - 5.5, y: cy - 5.5, width: 11, height: 11 }));
        point.append(svg('text', { class: 'point-text', x: cx, y: cy - 10, 'text-anchor': 'middle' }, [CLASS_MARK[entry.class]]));
      } else if (entry.luck_mark) {
        const up = entry.luck >= 0;
        const tip = up ? -7 : 7;
        const base = up ? 4 : -4;
        const d = `M${cx},${cy + tip} L${cx + 6},${cy + base} L${cx - 6},${cy + base} Z`;
        point.append(svg('path', { class: 'point-mark', d }));
      } else {
        point.append(svg('circle', { class: 'point-mark', cx, cy, r: 3 }));
      }
      point.addEventListener('click', () => this.select(index, true));
      point.addEventListener('pointerenter', () => this.showReadout(index));
      point.addEventListener('pointerleave', () => this.showReadout(this.index));
      point.addEventListener('focus', () => this.showReadout(index));
      point.addEventListener('keydown', (event) => this.onPointKey(event, index));
      pointsLayer.append(point);
    });
    parts.push(pointsLayer);
    chart.replaceChildren(...parts);
    this.graphX = x;
  }

  onPointKey(event, index) {
    const last = this.review.throws.length - 1;
    const steps = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last };
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.select(index, true);
      return;
    }
    if (!(event.key in steps)) return;
    event.preventDefault();
    event.stopPropagation();
    this.select(Math.max(0, Math.min(last, steps[event.key])), true);
  }

  // The line under the graph: the throw under the pointer, or the chosen one.
  showReadout(index) {
    $('review-readout').textContent = this.throwText(index);
  }

  throwText(index) {
    const entry = this.review.throws[index];
    const played = moveWords(entry.move, this.geo?.home);
    const chance = percent(lightChance(entry));
    return `Throw ${index + 1}: ${SIDE_NAME[entry.side]} threw ${entry.roll}, ${played}, ${entry.class}; Shell ${chance}`;
  }

  // -------------------------------------------------------------------------------------------
  // The move list

  renderMoves() {
    const list = $('review-moves');
    list.replaceChildren(
      ...this.review.throws.map((entry, index) => {
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'replay-ply review-ply';
        button.dataset.index = String(index);
        button.dataset.class = entry.class;
        const played = moveWords(entry.move, this.geo?.home);
        button.append(`${index + 1}. ${SIDE_NAME[entry.side]} threw ${entry.roll}: ${played} `);
        const mark = document.createElement('span');
        mark.className = `review-class class-${entry.class}`;
        const icon = document.createElement('span');
        icon.className = 'class-icon';
        icon.setAttribute('aria-hidden', 'true');
        icon.textContent = CLASS_MARK[entry.class] ?? '';
        mark.append(icon, ` ${entry.class}${entry.only_move ? ' (only move)' : ''}`);
        button.append(mark);
        if (entry.luck_mark) {
          const luck = document.createElement('span');
          luck.className = `luck-mark luck-${entry.luck >= 0 ? 'good' : 'bad'}`;
          luck.textContent = ` ${entry.luck >= 0 ? '▲' : '▼'} ${entry.luck_mark}`;
          button.append(luck);
        }
        button.addEventListener('click', () => this.select(index, false));
        item.append(button);
        return item;
      }),
    );
  }

  // -------------------------------------------------------------------------------------------
  // The chosen throw: board, figures, ranked moves

  // `keyMoment`: chosen by Key moves, whose line then says why; any other choice clears it.
  select(index, focusPoint, keyMoment = false) {
    this.index = index;
    if (!keyMoment) $('review-key-status').textContent = '';
    const entry = this.review.throws[index];
    // The graph: the cursor, the roving tab stop, the readout.
    const x = this.graphX(index);
    this.cursor.setAttribute('x1', x);
    this.cursor.setAttribute('x2', x);
    for (const point of $('review-graph').querySelectorAll('.graph-point')) {
      const here = Number(point.dataset.index) === index;
      point.setAttribute('tabindex', here ? '0' : '-1');
      point.classList.toggle('current', here);
      if (here && focusPoint) point.focus();
    }
    this.showReadout(index);
    for (const button of $('review-moves').querySelectorAll('.review-ply')) {
      const here = Number(button.dataset.index) === index;
      button.classList.toggle('current', here);
      // No scrolling to it: the list is far below the graph and the board being looked at.
      if (here) button.setAttribute('aria-current', 'step');
      else button.removeAttribute('aria-current');
    }
    this.renderBoard(entry);
    this.renderThrow(entry);
    this.renderRanked(entry);
  }

  renderBoard(entry) {
    const best = entry.moves?.[0] ?? null;
    this.board.render(entry.position, { ...NO_HIGHLIGHTS, activeSide: entry.side });
    const arrows = [];
    const same = sameMove(best, entry.move);
    if (best && !same) arrows.push({ side: entry.side, from: best.from, to: best.to, kind: 'best' });
    if (entry.move) arrows.push({ side: entry.side, from: entry.move.from, to: entry.move.to, kind: same ? 'played best' : 'played' });
    this.board.drawArrows(arrows);
    const legend = $('review-legend');
    if (!entry.move) legend.textContent = 'No move: the throw passed.';
    else if (same) legend.textContent = `Solid arrow: the move played, ${moveWords(entry.move, this.geo?.home)}, which is the best move.`;
    else legend.textContent = `Solid arrow: the move played, ${moveWords(entry.move, this.geo?.home)}. Dashed arrow: the best move, ${moveWords(best, this.geo?.home)}.`;
  }

  renderThrow(entry) {
    const best = entry.moves?.[0] ?? null;
    const played = moveWords(entry.move, this.geo?.home);
    const rows = [
      ['Throw', `${entry.ply} of ${this.review.throws.length}: ${SIDE_NAME[entry.side]} threw ${entry.roll}`],
      ['Chance before', `${percent(entry.win_before)} for ${SIDE_NAME[entry.side]}`],
      ['Best move', `${best ? moveWords(best, this.geo?.home) : 'pass'}: ${percent(entry.win_best)}`],
      ['Played', `${played}: ${percent(entry.win_played)}`],
      ...lossAndLuckRows(entry),
    ];
    $('review-throw').replaceChildren(definitionList(rows));
  }

  renderRanked(entry) {
    const body = $('review-ranked');
    const moves = entry.moves ?? [];
    $('review-ranked-title').textContent = `Every move for this throw (${SIDE_NAME[entry.side]} threw ${entry.roll})`;
    if (moves.length === 0) {
      const row = document.createElement('tr');
      row.append(cell('td', '–'), cell('td', 'pass (no legal move)'), cell('td', percent(entry.win_best)), cell('td', '0.0 pp'));
      body.replaceChildren(row);
      return;
    }
    const bestWin = moves[0].win;
    body.replaceChildren(
      ...moves.map((move, rank) => {
        const row = document.createElement('tr');
        const played = sameMove(move, entry.move);
        if (played) row.className = 'played';
        const words = `${moveWords(move, this.geo?.home)}${played ? ' (played)' : ''}${rank === 0 ? ' (best)' : ''}`;
        const loss = points(Math.max(0, bestWin - move.win));
        row.append(cell('td', String(rank + 1)), cell('td', words), cell('td', percent(move.win)), cell('td', loss));
        return row;
      }),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Each player's summary

  renderSummary() {
    const summary = this.review.summary ?? {};
    const sides = ['light', 'dark'];
    const rows = [
      ['Accuracy', (s) => (typeof s.accuracy === 'number' ? s.accuracy.toFixed(1) : '–')],
      ['Skill', (s) => s.skill ?? '–'],
      ['Decisions', (s) => String(s.decisions ?? 0)],
      ...CLASSES.map((name) => [`${CLASS_MARK[name]} ${name}`, (s) => String(s.classes?.[name] ?? 0)]),
      ['Mean loss', (s) => points(s.mean_loss ?? 0)],
      ['Total loss', (s) => points(s.total_loss ?? 0)],
      ['Luck', (s) => signedPoints(s.total_luck ?? 0)],
      ['Luck-adjusted result', (s) => percent(s.luck_adjusted ?? 0)],
    ];
    const head = document.createElement('tr');
    head.append(cell('th', 'Figure', 'col'), ...sides.map((side) => cell('th', SIDE_NAME[side], 'col')));
    const lines = rows.map(([name, value]) => {
      const row = document.createElement('tr');
      row.append(cell('th', name, 'row'), ...sides.map((side) => cell('td', value(summary[side] ?? {}))));
      return row;
    });
    $('review-summary-head').replaceChildren(head);
    $('review-summary-body').replaceChildren(...lines);
    const winner = this.review.winner;
    $('review-winner').textContent = winner ? `${SIDE_NAME[winner]} won the game.` : 'The game is unfinished.';
  }

  // ← → move between throws while the review is shown (not inside the graph or form fields).
  onKey(event) {
    if (!this.isOpen() || !this.review || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (document.querySelector('dialog[open]')) return;
    if (event.target?.closest?.('input, select, textarea, #review-board, #review-graph')) return;
    const last = this.review.throws.length - 1;
    const steps = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0, End: last };
    if (!(event.key in steps)) return;
    event.preventDefault();
    this.select(Math.max(0, Math.min(last, steps[event.key])), false);
  }
}

function cell(tag, text, scope) {
  const element = document.createElement(tag);
  element.textContent = text;
  if (scope) element.setAttribute('scope', scope);
  return element;
}

// The rows that rate a reviewed throw: what the move played cost, and the throw's luck.
export function lossAndLuckRows(entry) {
  return [
    ['Loss', `${points(entry.loss)}, ${entry.class}${entry.only_move ? ' (only move)' : ''}`],
    ['Luck', `${signedPoints(entry.luck)}${entry.luck_mark ? `, ${entry.luck_mark}` : ''}`],
  ];
}

// A <dl> of [term, value] text pairs: the facts of one move, in the review and in the replay.
export function definitionList(rows) {
  const list = document.createElement('dl');
  for (const [term, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    list.append(dt, dd);
  }
  return list;
}
