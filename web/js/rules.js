// Client-side knowledge of the rules (docs/rules.md of the project is shared/rules.md):
// board geometry, the words for why a press is illegal, and applying a move for animation.
// The server stays the referee; these functions only explain and animate its decisions.

export const HOME = 15;
export const CENTRAL_ROSETTE = 8;
export const ROSETTES = [4, 8, 14];
export const SIDES = ['light', 'dark'];
export const SIDE_NAME = { light: 'Shell', dark: 'Bitumen' };
export const COLUMNS = 8;
export const ROWS = 3;

export function otherSide(side) {
  return side === 'light' ? 'dark' : 'light';
}

export function isShared(route) {
  return route >= 5 && route <= 12;
}

export function isRosette(route) {
  return ROSETTES.includes(route);
}

// The row a side owns: dark plays the top row, light the bottom row.
export function ownRow(side) {
  return side === 'light' ? 2 : 0;
}

// Lattice cell of a side's route square: 0 is the start tray, 15 (or more) the home tray.
export function cellOf(side, route) {
  const row = ownRow(side);
  if (route <= 0) return { row, col: 4 };
  if (route >= HOME) return { row, col: 5 };
  if (route <= 4) return { row, col: 4 - route };
  if (route <= 12) return { row: 1, col: route - 5 };
  return { row, col: route === 13 ? 7 : 6 };
}

// What a lattice cell is: {kind:'square'|'start'|'home'|'panel', side (null when shared), route}.
export function describeCell(row, col) {
  if (row === 1) {
    return { kind: 'square', side: null, route: col + 5 };
  }
  const side = row === 2 ? 'light' : 'dark';
  if (col === 4) return { kind: 'start', side, route: 0 };
  if (col === 5) return { kind: 'home', side, route: HOME };
  if (col <= 3) return { kind: 'square', side, route: 4 - col };
  return { kind: 'square', side, route: col === 7 ? 13 : 14 };
}

export function cellKey(row, col) {
  return `${row}-${col}`;
}

// The cells a piece passes through from `from` to `to` (inclusive), for hop-by-hop animation.
export function routeCells(side, from, to) {
  const cells = [];
  for (let route = from; route <= Math.min(to, HOME); route += 1) cells.push(cellOf(side, route));
  return cells;
}

function occupies(sidePosition, route) {
  return sidePosition.board.includes(route);
}

// The piece on a cell: {side, route} or null.
export function pieceAt(position, row, col) {
  const cell = describeCell(row, col);
  if (cell.kind !== 'square') return null;
  const sides = cell.side ? [cell.side] : SIDES;
  for (const side of sides) {
    if (occupies(position[side], cell.route)) return { side, route: cell.route };
  }
  return null;
}

// Why moving the mover's piece on `from` by `roll` is illegal, in players' words, or null if
// it is legal. Mirrors src/core/explain.cpp so the page and the terminal say the same thing.
export function whyIllegal(position, rules, roll, from) {
  const us = position[position.turn];
  const them = position[otherSide(position.turn)];
  if (roll <= 0) return 'A throw of 0 moves nothing.';
  if (from === 0) {
    if (us.start === 0) return 'No pieces are waiting to enter.';
  } else if (from >= HOME) {
    return 'Pieces at home have finished their run.';
  } else if (!occupies(us, from)) {
    return `You have no piece on square ${from}.`;
  }
  const to = from + roll;
  if (to > HOME) {
    if (rules.bear_off === 'any') return null;
    return `Bearing off from square ${from} needs exactly ${HOME - from}, not ${roll}.`;
  }
  if (to === HOME) return null;
  if (occupies(us, to)) return `Square ${to} already holds one of your pieces.`;
  if (to === CENTRAL_ROSETTE && occupies(them, to)) {
    return `Square ${to} is the central rosette: the opponent's piece there is safe.`;
  }
  return null;
}

// All legal moves for the side to move (used to cross-check and by the test mock).
export function legalMoves(position, rules, roll) {
  const us = position[position.turn];
  const froms = [...(us.start > 0 ? [0] : []), ...us.board];
  const moves = [];
  for (const from of froms) {
    if (whyIllegal(position, rules, roll, from) !== null) continue;
    const to = Math.min(from + roll, HOME);
    const them = position[otherSide(position.turn)];
    moves.push({
      from,
      to,
      capture: isShared(to) && occupies(them, to),
      extra_throw: isRosette(to),
    });
  }
  return moves.sort((a, b) => a.from - b.from);
}

function clonePosition(position) {
  const copy = { turn: position.turn };
  for (const side of SIDES) {
    const p = position[side];
    copy[side] = { start: p.start, home: p.home, board: [...p.board] };
  }
  return copy;
}

// The position after `side` moves from -> to (captures included). The turn is left alone:
// the next state from the server sets it.
export function applyMove(position, side, from, to) {
  const next = clonePosition(position);
  const us = next[side];
  const them = next[otherSide(side)];
  if (from === 0) us.start -= 1;
  else us.board = us.board.filter((route) => route !== from);
  if (to >= HOME) {
    us.home += 1;
  } else {
    us.board.push(to);
    us.board.sort((a, b) => a - b);
    if (isShared(to) && them.board.includes(to)) {
      them.board = them.board.filter((route) => route !== to);
      them.start += 1;
    }
  }
  return next;
}

// True if the piece of `side` that should be on `from` is where the move starts.
export function canApply(position, side, from) {
  const p = position[side];
  return from === 0 ? p.start > 0 : p.board.includes(from);
}

export function squareName(route) {
  if (route <= 0) return 'the start';
  if (route >= HOME) return 'home';
  return `square ${route}`;
}
