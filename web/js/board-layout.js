// Where the board's cells are drawn: flat as the server's geometry lays them out, or, on a
// screen too narrow for a long board, folded (board.js decides which).

import { cellKey } from './rules.js';
import { CELL, MARGIN, svg } from './svg.js';

// Room right of a folded board for the arrow that shows where its path turns back.
const FOLD_GUTTER = 24;

// Where each lattice cell is drawn. Flat, every cell is where the geometry puts it. Folded, the
// columns after the last one that holds more than one row (the tail of Aseb's middle row) turn
// back under the board, right to left, so that a long board is drawn half as wide and twice
// as large on a narrow screen. Both are worked out from the server's geometry.
export class Layout {
  constructor(geo, fold) {
    const used = (row, col) => geo.cellInfo.has(cellKey(row, col)) || geo.isTray(row, col);
    let cut = geo.columns;
    let tailRow = null;
    if (fold) {
      for (let col = geo.columns - 1; col >= 0; col -= 1) {
        const rows = [];
        for (let row = 0; row < geo.rows; row += 1) if (used(row, col)) rows.push(row);
        if (rows.length !== 1 || (tailRow !== null && rows[0] !== tailRow)) break;
        tailRow = rows[0];
        cut = col;
      }
      // Only a tail no longer than the rest folds under it.
      if (geo.columns - cut > cut) cut = geo.columns;
    }
    this.folded = cut < geo.columns;
    this.columns = cut;
    this.rows = this.folded ? geo.rows + 1 : geo.rows;
    this.at = new Map(); // lattice cellKey -> drawn {row, col}
    this.lattice = new Map(); // drawn cellKey -> lattice {row, col}
    for (let row = 0; row < geo.rows; row += 1) {
      for (let col = 0; col < geo.columns; col += 1) {
        const drawn = col < cut ? { row, col } : { row: geo.rows, col: cut - 1 - (col - cut) };
        if (col >= cut && row !== tailRow) continue;
        this.at.set(cellKey(row, col), drawn);
        if (used(row, col)) this.lattice.set(cellKey(drawn.row, drawn.col), { row, col });
      }
    }
    this.tailRow = tailRow;
    this.width = 2 * MARGIN + this.columns * CELL + (this.folded ? FOLD_GUTTER : 0);
    this.height = 2 * MARGIN + this.rows * CELL;
  }

  // A folded board's turn: an arrow beside it from the last square before the fold down to
  // the first square of the tail under it.
  turnArrow() {
    const x = MARGIN + this.columns * CELL + 6;
    const from = MARGIN + this.tailRow * CELL + CELL / 2;
    const to = MARGIN + (this.rows - 1) * CELL + CELL / 2;
    const bend = x + FOLD_GUTTER - 10;
    return svg('g', { class: 'fold-arrow', 'aria-hidden': 'true' }, [
      svg('path', { d: `M${x},${from} C${bend},${from} ${bend},${to} ${x + 4},${to}` }),
      svg('polygon', { points: `${x - 4},${to} ${x + 8},${to - 7} ${x + 8},${to + 7}` }),
    ]);
  }

  origin(row, col) {
    const drawn = this.at.get(cellKey(row, col)) ?? { row, col };
    return { x: MARGIN + drawn.col * CELL, y: MARGIN + drawn.row * CELL };
  }

  centre(row, col) {
    const { x, y } = this.origin(row, col);
    return { x: x + CELL / 2, y: y + CELL / 2 };
  }

  // The frame: per drawn column, from the top of its first square to the bottom of its last.
  outline(geo) {
    const top = [];
    const bottom = [];
    for (let col = 0; col < this.columns; col += 1) {
      const rows = [];
      for (let row = 0; row < this.rows; row += 1) {
        const cell = this.lattice.get(cellKey(row, col));
        if (cell && geo.cellInfo.has(cellKey(cell.row, cell.col))) rows.push(row);
      }
      top.push(Math.min(...rows));
      bottom.push(Math.max(...rows) + 1);
    }
    const x = (col) => MARGIN + col * CELL;
    const y = (row) => MARGIN + row * CELL;
    const parts = [`M${x(0)},${y(top[0])}`];
    for (let col = 0; col < this.columns; col += 1) parts.push(`V${y(top[col])}`, `H${x(col + 1)}`);
    for (let col = this.columns - 1; col >= 0; col -= 1) parts.push(`V${y(bottom[col])}`, `H${x(col)}`);
    parts.push('Z');
    return parts.join(' ');
  }
}
