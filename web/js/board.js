// The SVG board: the rule set's lattice (3 x 8 or Aseb's 3 x 12) with trays, the pieces,
// highlights and move animations, all drawn from the server's geometry (rules.js). It draws
// whatever position it is given and reports presses; game logic lives in app.js.

import { SIDE_NAME, cellKey, geometry as currentGeometry } from './rules.js';
import { Layout } from './board-layout.js';
import { CELL, MARGIN, pieceShape, rosette, svg } from './svg.js';

const PIECE_RADIUS = 30;
const TRAY_PIECE_RADIUS = 8.5;
const TRAY_INSET = 9;
// A board whose squares would be drawn smaller than this (CSS px) folds its long tail, if it
// has one (Aseb's twelve columns on a phone): see Layout.
const FOLD_BELOW_PX = 36;
// Room a route number keeps from its square's edge, and around it on its plate (board units).
const NUMBER_INSET = 6;
const PLATE_PAD = 3;
export class Board {
  // `onPress(row, col, viaKeyboard)` is called when a cell is pressed.
  constructor(svgElement, onPress) {
    this.svg = svgElement;
    this.onPress = onPress;
    this.cells = new Map();
    this.focusKey = cellKey(2, 4);
    // The piece a move animation carries ({side, from}): redraws leave it off its start
    // square until the animation ends, so it is never drawn twice.
    this.moving = null;
    // Ids inside the SVG are the board's own, so two boards on one page do not share them.
    this.shadowId = `${svgElement.id}-tray-shadow`;
    this.geo = null;
    this.layout = null;
    this.fold = false;
    this.svg.addEventListener('keydown', (event) => this.onKey(event));
    // The drawn width decides whether a long board folds and how large its text is drawn.
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => this.fit()).observe(this.svg);
    }
  }

  // Follows the drawn width: folds a board too long for it (or unfolds it), then sets
  // --board-unit, the board units a CSS pixel shows, with which the styles keep the board's
  // text at 11.5 px or more on screen, and fits each route number inside its square.
  fit() {
    const width = this.svg.getBoundingClientRect().width;
    if (!this.geo || width === 0) return;
    const flatWidth = 2 * MARGIN + this.geo.columns * CELL;
    const fold = (width / flatWidth) * CELL < FOLD_BELOW_PX;
    if (fold !== this.fold) {
      this.fold = fold;
      if (new Layout(this.geo, fold).folded !== this.layout.folded) {
        // The same board drawn anew: the roving tab stop (and the focus) stay where they were.
        const key = this.focusKey;
        const focused = this.svg.contains(document.activeElement);
        this.build();
        this.redraw();
        if (this.cells.has(key)) this.setFocus(key, focused);
      }
    }
    this.svg.style.setProperty('--board-unit', String(this.layout.width / width));
    this.fitLabels();
  }

  // Route numbers too long for their square at this size ("10,18") are narrowed to fit, with
  // their plates; a tray label that cannot fit at a legible size gives way to its short form.
  fitLabels() {
    for (const text of this.svg.querySelectorAll('.route-number')) {
      text.removeAttribute('textLength');
      text.removeAttribute('lengthAdjust');
      const room = CELL - 2 * NUMBER_INSET - 2 * PLATE_PAD;
      let length = text.getComputedTextLength();
      if (length > room) {
        text.setAttribute('textLength', room);
        text.setAttribute('lengthAdjust', 'spacingAndGlyphs');
        length = room;
      }
      const plate = text.previousElementSibling;
      if (plate?.classList.contains('route-number-plate')) {
        const size = parseFloat(getComputedStyle(text).fontSize);
        const baseline = Number(text.getAttribute('y'));
        plate.setAttribute('width', length + 2 * PLATE_PAD);
        plate.setAttribute('y', baseline - 0.78 * size - PLATE_PAD);
        plate.setAttribute('height', 0.78 * size + 2 * PLATE_PAD);
      }
    }
    // A tray's label too wide for its tray at this size is narrowed to fit. (It keeps its word:
    // a short form such as IN would no longer be part of the tray's spoken name.)
    for (const text of this.svg.querySelectorAll('.tray-label')) {
      text.removeAttribute('textLength');
      text.removeAttribute('lengthAdjust');
      const room = CELL - 2 * TRAY_INSET - 14;
      if (text.getComputedTextLength() > room) {
        text.setAttribute('textLength', room);
        text.setAttribute('lengthAdjust', 'spacingAndGlyphs');
      }
    }
  }

  // Draws the board of `geo` (a rules.js Geometry; the game on screen's by default) when it
  // is not the one drawn already.
  // `pin`: keep this geometry (a replay's or review's record) instead of following the game.
  useGeometry(geo = currentGeometry(), pin = false) {
    if (pin) this.pinned = true;
    if (!geo || geo === this.geo) return;
    this.geo = geo;
    this.build();
    this.fit();
  }

  // Where a lattice cell is drawn (its top left corner, its centre) in the current layout.
  origin(row, col) {
    return this.layout.origin(row, col);
  }

  centre(row, col) {
    return this.layout.centre(row, col);
  }

  build() {
    const geo = this.geo;
    const layout = new Layout(geo, this.fold);
    this.layout = layout;
    this.cells = new Map();
    this.focusKey = cellKey(geo.trays.light.row, geo.trays.light.start);
    this.svg.dataset.ruleSet = geo.name;
    this.svg.dataset.board = geo.json.board;
    this.svg.dataset.layout = layout.folded ? 'folded' : 'flat';
    this.svg.setAttribute('viewBox', `0 0 ${layout.width} ${layout.height}`);
    this.svg.replaceChildren();
    this.svg.append(
      svg('defs', {}, [
        svg('filter', { id: this.shadowId, x: '-10%', y: '-10%', width: '120%', height: '120%' }, [
          svg('feOffset', { dx: 0, dy: 3 }),
          svg('feGaussianBlur', { stdDeviation: 3, result: 'blur' }),
          svg('feComposite', {
            in: 'SourceGraphic',
            in2: 'blur',
            operator: 'arithmetic',
            k2: -1,
            k3: 1,
            result: 'inner',
          }),
          svg('feFlood', { 'flood-color': '#000', 'flood-opacity': 0.55 }),
          svg('feComposite', { in2: 'inner', operator: 'in' }),
          svg('feComposite', { in2: 'SourceGraphic', operator: 'over' }),
        ]),
      ]),
    );
    const frame = svg('path', { class: 'board-frame', d: layout.outline(geo) });
    this.svg.append(frame);
    if (layout.folded) this.svg.append(layout.turnArrow());
    this.cellLayer = svg('g', { class: 'cells' });
    this.pieceLayer = svg('g', { class: 'pieces', 'pointer-events': 'none' });
    this.overlayLayer = svg('g', { class: 'overlay', 'pointer-events': 'none' });
    this.svg.append(this.cellLayer, this.pieceLayer, this.overlayLayer);
    for (let row = 0; row < geo.rows; row += 1) {
      for (let col = 0; col < geo.columns; col += 1) this.buildCell(row, col);
    }
  }

  buildCell(row, col) {
    const info = this.geo.describeCell(row, col);
    if (info.kind === 'panel') return; // a blank beside Aseb's long middle row
    const { x, y } = this.origin(row, col);
    const key = cellKey(row, col);
    const group = svg('g', {
      class: `cell cell-${info.kind}`,
      role: 'button',
      tabindex: key === this.focusKey ? 0 : -1,
      'data-row': row,
      'data-col': col,
      'data-kind': info.kind,
      'data-side': info.side ?? 'shared',
      'data-route': info.route,
      'data-tile': info.tile ?? null,
    });
    if (info.kind === 'square') {
      group.append(
        svg('rect', {
          class: `square${info.side === null ? ' square-shared' : ''}`,
          x: x + 3,
          y: y + 3,
          width: CELL - 6,
          height: CELL - 6,
          rx: 6,
        }),
      );
      if (info.rosette) {
        group.append(rosette(x + CELL / 2, y + CELL / 2, 40));
      } else {
        group.append(squarePattern(info.tile, x, y));
      }
      // Each side's numbers, at its own edge when the two number the square differently; a
      // tile a path crosses twice (Murray, Skiriuk) shows both of its squares, "11,17".
      const light = info.routes.light.length > 0 ? info.routes.light.join(',') : undefined;
      const dark = info.routes.dark.length > 0 ? info.routes.dark.join(',') : undefined;
      const numbers =
        light !== undefined && dark !== undefined && light !== dark
          ? [['light', light], ['dark', dark]]
          : [[info.side ?? 'shared', light ?? dark]];
      // Each number sits on a plate of the square's colour, so that a rosette's petals never
      // run under it; fitLabels() sizes the plate to the number as drawn.
      for (const [owner, number] of numbers) {
        const baseline = owner === 'dark' ? y + 33 : y + CELL - 11;
        group.append(
          svg('rect', {
            class: `route-number-plate${info.side === null ? ' square-shared' : ''}`,
            x: x + NUMBER_INSET,
            y: baseline - 24,
            width: 40,
            height: 27,
            rx: 5,
            'aria-hidden': 'true',
          }),
          svg(
            'text',
            {
              class: `route-number route-number-${owner}`,
              x: x + NUMBER_INSET + PLATE_PAD,
              y: baseline,
              'aria-hidden': 'true',
            },
            [String(number)],
          ),
        );
      }
    } else {
      group.append(
        svg('rect', { class: 'panel', x, y, width: CELL, height: CELL }),
        svg('rect', {
          class: 'tray',
          x: x + TRAY_INSET,
          y: y + TRAY_INSET,
          width: CELL - 2 * TRAY_INSET,
          height: CELL - 2 * TRAY_INSET,
          rx: 12,
          filter: `url(#${this.shadowId})`,
        }),
        // "START" and "HOME", narrowed where the board is drawn too small for them.
        svg(
          'text',
          {
            class: 'tray-label',
            x: x + CELL / 2,
            y: info.side === 'dark' ? y + 36 : y + CELL - 17,
            'aria-hidden': 'true',
          },
          [info.kind === 'start' ? 'START' : 'HOME'],
        ),
      );
    }
    group.append(
      svg('rect', {
        class: 'highlight',
        x: x + 6,
        y: y + 6,
        width: CELL - 12,
        height: CELL - 12,
        rx: 10,
      }),
      svg('rect', {
        class: 'highlight-edge',
        x: x + 11,
        y: y + 11,
        width: CELL - 22,
        height: CELL - 22,
        rx: 7,
      }),
      // In the corner, so that a piece to be captured does not hide it.
      svg('circle', { class: 'target-dot', cx: x + CELL - 17, cy: y + CELL - 17, r: 10 }),
      svg('rect', {
        class: 'focus-ring',
        x: x + 1,
        y: y + 1,
        width: CELL - 2,
        height: CELL - 2,
        rx: 8,
      }),
    );
    group.addEventListener('click', () => {
      this.setFocus(key, false);
      this.onPress(row, col, false);
    });
    this.cellLayer.append(group);
    this.cells.set(key, group);
  }

  // Draws again what was drawn before the board was built anew (folded or unfolded).
  redraw() {
    if (this.drawn) this.render(this.drawn.position, this.drawn.view);
    if (this.arrows) this.drawArrows(this.arrows);
    if (this.chances) this.showChances(this.chances);
  }

  // Moves the keyboard focus to a cell.
  focusCell(row, col) {
    if (!this.cells.has(cellKey(row, col))) return;
    this.setFocus(cellKey(row, col), true);
  }

  setFocus(key, moveFocus) {
    const previous = this.cells.get(this.focusKey);
    if (previous) previous.setAttribute('tabindex', '-1');
    this.focusKey = key;
    const next = this.cells.get(key);
    next.setAttribute('tabindex', '0');
    if (moveFocus) next.focus();
  }

  // Arrow keys move between cells (a roving tab stop); Enter and Space press.
  onKey(event) {
    const target = event.target.closest?.('.cell');
    if (!target) return;
    // The arrows move as the board is drawn (a folded board's tail runs under it).
    const layout = this.layout;
    const lattice = (r, c) => layout.lattice.get(cellKey(r, c));
    const at = layout.at.get(cellKey(Number(target.dataset.row), Number(target.dataset.col)));
    let row = at.row;
    let col = at.col;
    const { rows, columns } = layout;
    const has = (r, c) => {
      const cell = lattice(r, c);
      return cell !== undefined && this.cells.has(cellKey(cell.row, cell.col));
    };
    // Steps over the blank cells beside Aseb's middle row.
    const step = (dr, dc) => {
      for (let r = row + dr, c = col + dc; r >= 0 && r < rows && c >= 0 && c < columns; r += dr, c += dc) {
        if (has(r, c)) return [r, c];
      }
      return [row, col];
    };
    switch (event.key) {
      case 'ArrowLeft':
        [row, col] = step(0, -1);
        break;
      case 'ArrowRight':
        [row, col] = step(0, 1);
        break;
      case 'ArrowUp':
        [row, col] = step(-1, 0);
        break;
      case 'ArrowDown':
        [row, col] = step(1, 0);
        break;
      case 'Home':
        col = 0;
        if (!has(row, col)) [row, col] = step(0, 1);
        break;
      case 'End':
        col = columns - 1;
        if (!has(row, col)) [row, col] = step(0, -1);
        break;
      case 'Enter':
      case ' ': {
        event.preventDefault();
        const pressed = lattice(row, col);
        this.onPress(pressed.row, pressed.col, true);
        return;
      }
      default:
        return;
    }
    event.preventDefault();
    const next = lattice(row, col);
    this.setFocus(cellKey(next.row, next.col), true);
  }

  // Draws `position`. `view` = {movable:Set<route>, selected:route|null, targets:Set<route>,
  // activeSide, lastMove:{side,from,to}|null}; routes belong to view.activeSide.
  render(position, view) {
    this.drawn = { position, view };
    if (!this.pinned) this.useGeometry();
    if (!this.geo) return;
    const geo = this.geo;
    this.pieceLayer.replaceChildren();
    position = this.moving ? withoutPiece(position, this.moving) : position;
    for (const [key, group] of this.cells) {
      const [row, col] = key.split('-').map(Number);
      const info = geo.describeCell(row, col, view.activeSide, position);
      const piece = geo.pieceAt(position, row, col);
      const mine = (info.side ?? view.activeSide) === view.activeSide;
      const route = info.route;
      const movable = mine && view.movable.has(route) && info.kind !== 'home';
      const selected = mine && view.selected === route && info.kind !== 'home';
      // A move may land on either visit of a tile the path crosses twice.
      const reached = mine ? (info.routes[view.activeSide] ?? []).find((r) => view.targets.has(r)) : undefined;
      const target = reached !== undefined;
      const captures = target && Boolean(view.captures?.has(reached));
      group.classList.toggle('movable', movable);
      group.classList.toggle('selected', selected);
      group.classList.toggle('target', target);
      const last = view.lastMove;
      const lastCells = last ? [geo.cellOf(last.side, last.from), geo.cellOf(last.side, last.to)] : [];
      group.classList.toggle(
        'last-move',
        lastCells.some((c) => c.row === row && c.col === col),
      );
      if (piece) {
        const { x, y } = this.centre(row, col);
        const shape = pieceShape(piece.side, x, y, PIECE_RADIUS);
        shape.setAttribute('data-cell', key);
        this.pieceLayer.append(shape);
      } else if (info.kind === 'start' || info.kind === 'home') {
        const count = info.kind === 'start' ? position[info.side].start : position[info.side].home;
        this.drawTray(row, col, info.side, count);
      }
      group.setAttribute('aria-label', cellLabel(info, piece, position, { movable, target, captures }));
      if (selected) group.setAttribute('aria-pressed', 'true');
      else group.removeAttribute('aria-pressed');
    }
  }

  drawTray(row, col, side, count) {
    const { x, y } = this.origin(row, col);
    const group = svg('g', { class: 'tray-pieces', 'data-count': count, 'data-cell': cellKey(row, col) });
    const columns = 4;
    const spacing = 2 * TRAY_PIECE_RADIUS + 2.5;
    const topRow = side === 'dark' ? y + 50 : y + 30;
    for (let index = 0; index < count; index += 1) {
      const line = Math.floor(index / columns);
      const inLine = Math.min(columns, count - line * columns);
      const startX = x + CELL / 2 - ((inLine - 1) * spacing) / 2;
      const cx = startX + (index % columns) * spacing;
      const cy = topRow + line * spacing;
      group.append(pieceShape(side, cx, cy, TRAY_PIECE_RADIUS));
    }
    this.pieceLayer.append(group);
  }

  // Animates a piece of `side` hopping from route `from` to `to`; resolves when done.
  async animateMove(side, from, to, hopMs) {
    const cells = this.geo.routeCells(side, from, to);
    const start = this.centre(cells[0].row, cells[0].col);
    const ghost = pieceShape(side, 0, 0, PIECE_RADIUS);
    ghost.classList.add('moving');
    ghost.setAttribute('transform', `translate(${start.x} ${start.y})`);
    this.overlayLayer.append(ghost);
    this.moving = { side, from };
    const hidden = this.hidePieceAt(side, from);
    if (hopMs > 0 && cells.length > 1) {
      const frames = cells.map((cell) => {
        const centre = this.centre(cell.row, cell.col);
        return { transform: `translate(${centre.x}px, ${centre.y}px)` };
      });
      const animation = ghost.animate(frames, {
        duration: hopMs * (cells.length - 1),
        easing: 'ease-in-out',
        fill: 'forwards',
      });
      await animation.finished.catch(() => {});
    }
    ghost.remove();
    if (hidden) hidden.remove();
    this.moving = null;
  }

  // Hides the drawn piece a move starts from (one piece of a start pile); returns it.
  hidePieceAt(side, route) {
    if (route >= this.geo.home) return null;
    const { row, col } = this.geo.cellOf(side, route);
    const drawn = this.pieceLayer.querySelector(`[data-cell="${cellKey(row, col)}"]`);
    const piece = route === 0 ? drawn?.lastElementChild : drawn;
    if (piece) piece.style.visibility = 'hidden';
    return piece;
  }

  // Animates a captured piece of `side` going back from route `from` to its start tray.
  async animateCapture(side, from, durationMs) {
    const source = this.geo.cellOf(side, from);
    const start = this.geo.cellOf(side, 0);
    const a = this.centre(source.row, source.col);
    const b = this.centre(start.row, start.col);
    const ghost = pieceShape(side, 0, 0, PIECE_RADIUS);
    ghost.classList.add('moving', 'captured');
    ghost.setAttribute('transform', `translate(${a.x} ${a.y})`);
    this.overlayLayer.append(ghost);
    if (durationMs > 0) {
      const animation = ghost.animate(
        [
          { transform: `translate(${a.x}px, ${a.y}px) scale(1)`, opacity: 1 },
          { transform: `translate(${b.x}px, ${b.y}px) scale(0.4)`, opacity: 0.6 },
        ],
        { duration: durationMs, easing: 'ease-in', fill: 'forwards' },
      );
      await animation.finished.catch(() => {});
    }
    ghost.remove();
  }

  // Draws moves as arrows along the route, for the review: `arrows` = [{side, from, to,
  // kind}], kind "played" (solid), "best" (dashed, set off a little) or "played best".
  drawArrows(arrows) {
    this.arrows = arrows;
    for (const element of this.overlayLayer.querySelectorAll('.move-arrow')) element.remove();
    for (const { side, from, to, kind } of arrows) {
      const shift = kind === 'best' ? (side === 'dark' ? 10 : -10) : 0;
      const centres = this.geo
        .routeCells(side, from, Math.min(to, this.geo.home))
        .map((c) => this.centre(c.row, c.col));
      const d = centres.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y + shift}`).join(' ');
      const end = centres[centres.length - 1];
      const before = centres[centres.length - 2] ?? { x: end.x - 1, y: end.y };
      const angle = Math.atan2(end.y - before.y, end.x - before.x);
      const head = [0, 2.5, -2.5].map((turn, i) => {
        const r = i === 0 ? 0 : 22;
        return `${end.x - r * Math.cos(angle + turn * 0.2)},${end.y + shift - r * Math.sin(angle + turn * 0.2)}`;
      });
      const kindClass = kind.split(' ').map((k) => `move-arrow-${k}`).join(' ');
      this.overlayLayer.append(
        svg('g', { class: `move-arrow ${kindClass}`, 'data-from': from, 'data-to': to, 'aria-hidden': 'true' }, [
          svg('circle', { class: 'arrow-start', cx: centres[0].x, cy: centres[0].y + shift, r: 9 }),
          svg('path', { class: 'arrow-line', d }),
          svg('polygon', { class: 'arrow-head', points: head.join(' ') }),
        ]),
      );
    }
  }

  // Shows a chance on each square a move reaches, for live hints: `labels` = [{side, to,
  // text}]; an empty list clears them.
  // Two moves may reach one tile on its two visits (a path that crosses itself): their labels
  // then take the top and bottom of the square, each led by its square's number.
  showChances(labels) {
    this.chances = labels;
    for (const element of this.overlayLayer.querySelectorAll('.chance-label')) element.remove();
    const byCell = new Map();
    for (const label of [...labels].sort((a, b) => a.to - b.to)) {
      const { row, col } = this.geo.cellOf(label.side, Math.min(label.to, this.geo.home));
      const key = cellKey(row, col);
      if (!byCell.has(key)) byCell.set(key, { row, col, labels: [] });
      byCell.get(key).labels.push(label);
    }
    for (const { row, col, labels: here } of byCell.values()) {
      const { x, y } = this.origin(row, col);
      const shared = here.length > 1;
      here.forEach(({ to, text }, index) => {
        const low = shared ? index === 1 : row === 0;
        const top = low ? y + CELL - 46 : y + 3;
        const reached = Math.min(to, this.geo.home);
        const words = shared
          ? [svg('tspan', { class: 'chance-route' }, [`${reached} `]), text]
          : [text];
        this.overlayLayer.append(
          svg('g', { class: 'chance-label', 'data-to': reached, 'aria-hidden': 'true' }, [
            svg('rect', { x: x + 3, y: top, width: CELL - 6, height: 43, rx: 8 }),
            svg(
              'text',
              { x: x + CELL / 2, y: top + 33, 'text-anchor': 'middle', ...(shared ? { textLength: CELL - 14, lengthAdjust: 'spacingAndGlyphs' } : {}) },
              words,
            ),
          ]),
        );
      });
    }
  }

  // Removes labels that belong to an earlier step.
  clearFlashes() {
    for (const element of this.overlayLayer.querySelectorAll('.flash, .flash-ring')) element.remove();
  }

  // Shows a short label over a cell ("Throw again!", "Captured!") for `ms` milliseconds.
  flashLabel(row, col, text, kind, ms) {
    const { x: cx, y } = this.centre(row, col);
    const width = Math.max(150, text.length * 17 + 36);
    const boardWidth = this.layout.width;
    // Keep the label on the board near the edges.
    const x = Math.min(Math.max(cx, MARGIN + width / 2), boardWidth - MARGIN - width / 2);
    const labelY = row === 0 ? y + 40 : y - 40;
    const group = svg('g', { class: `flash flash-${kind}` }, [
      svg('rect', { x: x - width / 2, y: labelY - 24, width, height: 44, rx: 22 }),
      svg('text', { x, y: labelY + 8 }, [text]),
    ]);
    const ring = svg('circle', { class: `flash-ring flash-ring-${kind}`, cx, cy: y, r: 44 });
    this.overlayLayer.append(ring, group);
    setTimeout(() => {
      group.remove();
      ring.remove();
    }, ms);
  }
}

// `position` without the piece of `moving.side` on `moving.from` (one of its start pile).
function withoutPiece(position, { side, from }) {
  const own = position[side];
  if (from === 0 ? own.start === 0 : !own.board.includes(from)) return position;
  const changed =
    from === 0 ? { ...own, start: own.start - 1 } : { ...own, board: own.board.filter((r) => r !== from) };
  return { ...position, [side]: changed };
}

// Decoration of plain squares: the "eyes" pattern of the old boards, a star on the end
// tiles A8 and C8 of the standard board.
function squarePattern(tile, x, y) {
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  const group = svg('g', { class: 'pattern', 'aria-hidden': 'true' });
  if (tile === 'A8' || tile === 'C8') {
    const points = [];
    for (let i = 0; i < 16; i += 1) {
      const radius = i % 2 === 0 ? 30 : 12;
      const angle = (i * Math.PI) / 8;
      points.push(`${cx + Math.cos(angle) * radius},${cy + Math.sin(angle) * radius}`);
    }
    group.append(svg('polygon', { points: points.join(' ') }));
    return group;
  }
  for (const [dx, dy] of [
    [-20, -20],
    [20, -20],
    [0, 0],
    [-20, 20],
    [20, 20],
  ]) {
    group.append(svg('circle', { cx: cx + dx, cy: cy + dy, r: 5 }));
  }
  return group;
}

function cellLabel(info, piece, position, flags) {
  if (info.kind === 'start') {
    const count = position[info.side].start;
    return (
      `${SIDE_NAME[info.side]} start pile: ${count} ${count === 1 ? 'piece' : 'pieces'} waiting` +
      (flags.movable ? ', can enter' : '')
    );
  }
  if (info.kind === 'home') {
    const count = position[info.side].home;
    return (
      `${SIDE_NAME[info.side]} home: ${count} ${count === 1 ? 'piece' : 'pieces'} finished` +
      (flags.target ? ', reachable: press to bear off' : '')
    );
  }
  const light = info.routes.light.join(' and ');
  const dark = info.routes.dark.join(' and ');
  let number = light && dark && light !== dark ? `${light} (${SIDE_NAME.dark} ${dark})` : light || dark;
  // On a tile a path crosses twice, the visit its piece is on.
  if (piece && info.routes[piece.side].length > 1) number = String(piece.route);
  const owner = info.side ? `${SIDE_NAME[info.side]} square ${number}` : `Shared square ${number}`;
  const kind = info.rosette ? (info.safe ? ', safe rosette' : ', rosette') : '';
  const content = piece ? `, ${SIDE_NAME[piece.side]} piece` : ', empty';
  let state = flags.movable ? ', can move' : flags.target ? ', reachable: press to move here' : '';
  if (flags.target && flags.captures && piece) state += ` and capture the ${SIDE_NAME[piece.side]} piece`;
  return owner + kind + content + state;
}
