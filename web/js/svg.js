// Small helpers for building SVG with the DOM API, shared by the board and the route diagram.

export const SVG_NS = 'http://www.w3.org/2000/svg';

// Creates an SVG element with attributes and optional children.
export function svg(tag, attributes = {}, children = []) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  for (const child of children) element.append(child);
  return element;
}

// The lattice's cells in SVG user units (the board's shape comes from rules.js Geometry).
export const CELL = 100;
export const MARGIN = 18;

export function cellOrigin(row, col) {
  return { x: MARGIN + col * CELL, y: MARGIN + row * CELL };
}

export function cellCentre(row, col) {
  const { x, y } = cellOrigin(row, col);
  return { x: x + CELL / 2, y: y + CELL / 2 };
}

// An eight-petal rosette centred on (cx, cy), the mark of the five rosette squares.
export function rosette(cx, cy, radius) {
  const group = svg('g', { class: 'rosette', 'aria-hidden': 'true' });
  for (let petal = 0; petal < 8; petal += 1) {
    const angle = (petal * 45 * Math.PI) / 180;
    const px = cx + Math.cos(angle) * radius * 0.52;
    const py = cy + Math.sin(angle) * radius * 0.52;
    group.append(
      svg('ellipse', {
        class: 'petal',
        cx: px,
        cy: py,
        rx: radius * 0.42,
        ry: radius * 0.2,
        transform: `rotate(${petal * 45} ${px} ${py})`,
      }),
    );
  }
  group.append(svg('circle', { class: 'rosette-heart', cx, cy, r: radius * 0.22 }));
  return group;
}

// A piece: Shell (light) is a pale disc with a ring, Bitumen (dark) a dark lozenge with
// five dots. They differ in shape as well as in brightness, so no colour vision is needed.
export function pieceShape(side, cx, cy, radius) {
  const group = svg('g', { class: `piece piece-${side}`, 'aria-hidden': 'true' });
  if (side === 'light') {
    group.append(
      svg('circle', { class: 'piece-body', cx, cy, r: radius }),
      svg('circle', { class: 'piece-mark', cx, cy, r: radius * 0.55, fill: 'none' }),
      svg('circle', { class: 'piece-dot', cx, cy, r: radius * 0.16 }),
    );
  } else {
    const r = radius * 1.08;
    group.append(
      svg('rect', {
        class: 'piece-body',
        x: cx - r * 0.78,
        y: cy - r * 0.78,
        width: r * 1.56,
        height: r * 1.56,
        rx: r * 0.22,
        transform: `rotate(45 ${cx} ${cy})`,
      }),
    );
    const offsets = [
      [0, 0],
      [-0.42, 0],
      [0.42, 0],
      [0, -0.42],
      [0, 0.42],
    ];
    for (const [dx, dy] of offsets) {
      group.append(
        svg('circle', { class: 'piece-dot', cx: cx + dx * r, cy: cy + dy * r, r: r * 0.11 }),
      );
    }
  }
  return group;
}
