// The board as the server describes it: every rule set's geometry (docs/web-api.md,
// "Geometry") turned into the lattice the page draws, and applying a move for animation.
// Why a press is illegal comes from the server too (game state "illegal_reasons"). The page keeps no rules constants: cells, paths,
// rosettes, safe tiles and home all come from the server. The server stays the referee.

export const SIDES = ['light', 'dark'];
export const SIDE_NAME = { light: 'Shell', dark: 'Bitumen' };

export function otherSide(side) {
  return side === 'light' ? 'dark' : 'light';
}

export function cellKey(row, col) {
  return `${row}-${col}`;
}

// The row a side owns: dark plays the top row (lane C), light the bottom row (lane A).
export function ownRow(side) {
  return side === 'light' ? 2 : 0;
}

function laneRow(lane) {
  return 2 - lane;
}

// One rule set's board, built from the server's geometry JSON.
export class Geometry {
  constructor(json) {
    this.json = json;
    this.name = json.name;
    this.title = json.title;
    this.columns = json.columns;
    this.rows = json.rows ?? 3;
    this.routeLength = json.route_length;
    this.home = json.home;
    this.dice = json.dice;
    this.prose = json.prose ?? [];
    this.perfectPlay = json.perfect_play ?? null;
    this.tiles = new Map(); // tile name -> {row, col, lane, column, tile, rosette}
    for (const cell of json.cells) {
      this.tiles.set(cell.tile, { ...cell, row: laneRow(cell.lane), col: cell.column - 1 });
    }
    this.cellInfo = new Map(); // cellKey -> the tile and each side's route squares on it
    for (const cell of this.tiles.values()) {
      this.cellInfo.set(cellKey(cell.row, cell.col), { ...cell, routes: { light: [], dark: [] } });
    }
    this.paths = {};
    for (const side of SIDES) {
      this.paths[side] = json.paths[side].map((tile) => this.tiles.get(tile));
      this.paths[side].forEach((cell, index) => {
        this.cellInfo.get(cellKey(cell.row, cell.col)).routes[side].push(index + 1);
      });
    }
    this.rosetteTiles = new Set(json.rosettes);
    this.safeTiles = new Set(json.safe);
    // The trays sit on the first two blank cells of each side's own row.
    this.trays = {};
    for (const side of SIDES) {
      const row = ownRow(side);
      const blanks = [];
      for (let col = 0; col < this.columns; col += 1) {
        if (!this.cellInfo.has(cellKey(row, col))) blanks.push(col);
      }
      this.trays[side] = { row, start: blanks[0] ?? 0, home: blanks[1] ?? blanks[0] ?? 1 };
    }
  }

  // Lattice cell of a side's route square: 0 is the start tray, home (or more) the home tray.
  cellOf(side, route) {
    const tray = this.trays[side];
    if (route <= 0) return { row: tray.row, col: tray.start };
    if (route >= this.home) return { row: tray.row, col: tray.home };
    const cell = this.paths[side][route - 1];
    return { row: cell.row, col: cell.col };
  }

  // The tile of a side's route square ("B4"), or null for the trays.
  tileOf(side, route) {
    return route <= 0 || route >= this.home ? null : this.paths[side][route - 1].tile;
  }

  // What a lattice cell is: {kind:'square'|'start'|'home'|'panel', side, route, routes, tile}.
  // `side` is the only side whose path crosses it, or null when both do; `route` is the
  // number `viewer` (else that side) gives it. On a tile that path crosses twice (Murray,
  // Skiriuk) `route` is the visit a piece of that side stands on in `position`, else the first.
  describeCell(row, col, viewer = 'light', position = null) {
    for (const side of SIDES) {
      const tray = this.trays[side];
      if (row !== tray.row) continue;
      if (col === tray.start) return { kind: 'start', side, route: 0, routes: { [side]: [0] } };
      if (col === tray.home) return { kind: 'home', side, route: this.home, routes: { [side]: [this.home] } };
    }
    const info = this.cellInfo.get(cellKey(row, col));
    if (!info) return { kind: 'panel', side: null, route: null, routes: {} };
    const crossing = SIDES.filter((side) => info.routes[side].length > 0);
    const side = crossing.length === 1 ? crossing[0] : null;
    const numbering = side ?? (info.routes[viewer].length > 0 ? viewer : otherSide(viewer));
    const visits = info.routes[numbering];
    const standing = position && visits.length > 1 ? visits.find((r) => position[numbering].board.includes(r)) : undefined;
    return {
      kind: info.routes.light.length + info.routes.dark.length > 0 ? 'square' : 'panel',
      side,
      route: standing ?? visits[0] ?? null,
      routes: info.routes,
      tile: info.tile,
      rosette: info.rosette,
      safe: this.safeTiles.has(info.tile),
    };
  }

  // Whether some square lies on `side`'s route only (none on Murray's, where all are shared).
  hasOwnSquares(side) {
    return this.paths[side].some((cell) => this.describeCell(cell.row, cell.col).side === side);
  }

  isRosette(side, route) {
    const tile = this.tileOf(side, route);
    return tile !== null && this.rosetteTiles.has(tile);
  }

  isSafe(side, route) {
    const tile = this.tileOf(side, route);
    return tile !== null && this.safeTiles.has(tile);
  }

  // The opponent's route square on the cell of `side`'s square `route`, or null.
  opposite(side, route) {
    if (route <= 0 || route >= this.home) return null;
    const { row, col } = this.cellOf(side, route);
    return this.cellInfo.get(cellKey(row, col)).routes[otherSide(side)][0] ?? null;
  }

  // The cells a piece passes through from `from` to `to` (inclusive), for hop-by-hop animation.
  routeCells(side, from, to) {
    const cells = [];
    for (let route = from; route <= Math.min(to, this.home); route += 1) cells.push(this.cellOf(side, route));
    return cells;
  }

  // The piece on a cell: {side, route} or null.
  pieceAt(position, row, col) {
    const info = this.cellInfo.get(cellKey(row, col));
    if (!info) return null;
    for (const side of SIDES) {
      const route = info.routes[side].find((r) => position[side].board.includes(r));
      if (route !== undefined) return { side, route };
    }
    return null;
  }

  squareName(route) {
    if (route <= 0) return 'the start';
    if (route >= this.home) return 'home';
    return `square ${route}`;
  }

  // The position after `side` moves from -> to (captures included). The turn is left alone:
  // the next state from the server sets it.
  applyMove(position, side, from, to) {
    const next = { turn: position.turn };
    for (const s of SIDES) {
      const p = position[s];
      next[s] = { start: p.start, home: p.home, board: [...p.board] };
    }
    const us = next[side];
    const them = next[otherSide(side)];
    if (from === 0) us.start -= 1;
    else us.board = us.board.filter((route) => route !== from);
    if (to >= this.home) {
      us.home += 1;
    } else {
      us.board.push(to);
      us.board.sort((a, b) => a - b);
      const theirs = this.opposite(side, to);
      if (theirs !== null && them.board.includes(theirs)) {
        them.board = them.board.filter((route) => route !== theirs);
        them.start += 1;
      }
    }
    return next;
  }

  // Whether `side`'s move to `to` lands on an opposing piece (captures it).
  captures(position, side, to) {
    const theirs = this.opposite(side, to);
    return theirs !== null && position[otherSide(side)].board.includes(theirs);
  }

  // The board's outline: per column, from the top of its first cell to the bottom of its last.
  outline(cellSize, margin) {
    const top = [];
    const bottom = [];
    for (let col = 0; col < this.columns; col += 1) {
      const rows = [];
      for (let row = 0; row < this.rows; row += 1) {
        if (this.cellInfo.has(cellKey(row, col))) rows.push(row);
      }
      top.push(Math.min(...rows));
      bottom.push(Math.max(...rows) + 1);
    }
    const x = (col) => margin + col * cellSize;
    const y = (row) => margin + row * cellSize;
    const parts = [`M${x(0)},${y(top[0])}`];
    for (let col = 0; col < this.columns; col += 1) parts.push(`V${y(top[col])}`, `H${x(col + 1)}`);
    for (let col = this.columns - 1; col >= 0; col -= 1) parts.push(`V${y(bottom[col])}`, `H${x(col)}`);
    parts.push('Z');
    return parts.join(' ');
  }

  isTray(row, col) {
    return SIDES.some((side) => {
      const tray = this.trays[side];
      return tray.row === row && (tray.start === col || tray.home === col);
    });
  }
}

// The geometry of the game on screen; the board, narration and hints read it.
let current = null;
let currentJson = '';

export function setGeometry(json) {
  if (!json) return current;
  const text = JSON.stringify(json);
  if (text !== currentJson) {
    current = new Geometry(json);
    currentJson = text;
  }
  return current;
}

export function geometry() {
  return current;
}

// The home square of the game on screen (route length + 1).
export function homeSquare() {
  return current?.home ?? Infinity;
}
