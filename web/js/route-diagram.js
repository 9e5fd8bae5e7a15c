// The route diagram of the rules page, for the rule set on screen (the server's geometry):
// Shell's squares numbered along its path with the rosettes marked, the squares only
// Bitumen uses outlined dashed, the middle row, and arrows showing both sides' direction.

import { SIDE_NAME } from './rules.js';
import { CELL, MARGIN, cellCentre, cellOrigin, rosette, svg } from './svg.js';

// `geo`: a rules.js Geometry.
export function drawRouteDiagram(svgElement, geo) {
  if (!geo) return;
  const width = 2 * MARGIN + geo.columns * CELL;
  const height = 2 * MARGIN + geo.rows * CELL;
  svgElement.dataset.ruleSet = geo.name;
  // A gutter left of and below the board holds the coordinates.
  svgElement.setAttribute('viewBox', `${-GUTTER} 0 ${width + GUTTER} ${height + GUTTER}`);
  svgElement.replaceChildren(
    svg('defs', {}, [
      arrowMarker('arrow-light', 'route-arrow-light'),
      arrowMarker('arrow-dark', 'route-arrow-dark'),
    ]),
    svg('path', { class: 'board-frame', d: geo.outline(CELL, MARGIN) }),
  );
  for (let row = 0; row < geo.rows; row += 1) {
    for (let col = 0; col < geo.columns; col += 1) svgElement.append(diagramCell(geo, row, col));
  }
  const shared = cellOrigin(1, 0);
  svgElement.append(
    svg('rect', {
      class: 'route-shared',
      x: shared.x + 2,
      y: shared.y + 2,
      width: geo.columns * CELL - 4,
      height: CELL - 4,
      rx: 8,
    }),
  );
  svgElement.append(
    routeLine(geo, 'light', 'route-line-light', 'arrow-light'),
    routeLine(geo, 'dark', 'route-line-dark', 'arrow-dark'),
    coordinates(geo, height),
  );
}

// Space for the coordinates, in the diagram's units (a cell is CELL).
const GUTTER = 34;

// The rows' letters and the columns' numbers, so that a square's name (B4) in the rules'
// sentences and in game records (RGN) can be found on the diagram.
function coordinates(geo, height) {
  const group = svg('g', { class: 'route-coordinates', 'aria-hidden': 'true' });
  const letters = new Map();
  for (const tile of geo.tiles.values()) letters.set(tile.row, tile.tile[0]);
  for (const [row, letter] of [...letters].sort((a, b) => a[0] - b[0])) {
    group.append(svg('text', { x: -GUTTER / 2, y: cellCentre(row, 0).y + 8 }, [letter]));
  }
  for (let col = 0; col < geo.columns; col += 1) {
    group.append(svg('text', { x: cellCentre(0, col).x, y: height + GUTTER / 2 + 4 }, [String(col + 1)]));
  }
  return group;
}

// The caption under the diagram, in the set's own numbers.
export function routeCaption(geo) {
  const rosettes = [];
  for (let route = 1; route < geo.home; route += 1) if (geo.isRosette('light', route)) rosettes.push(route);
  const light = geo.paths.light.map((cell) => cell.tile);
  return (
    `${SIDE_NAME.light}'s route in ${geo.title}, squares 1 to ${geo.routeLength}: ` +
    `${light.join(', ')}, then home. Rosettes on ${rosettes.join(', ')}. ` +
    (geo.hasOwnSquares('dark') ? `The dashed squares are on ${SIDE_NAME.dark}'s route only. ` : '') +
    `${SIDE_NAME.dark} follows the mirror image of this route, the top and bottom rows swapped.`
  );
}

function arrowMarker(id, cls) {
  return svg(
    'marker',
    {
      id,
      viewBox: '0 0 10 10',
      refX: 8,
      refY: 5,
      markerWidth: 5,
      markerHeight: 5,
      orient: 'auto-start-reverse',
    },
    [svg('path', { class: cls, d: 'M0,0 L10,5 L0,10 z' })],
  );
}

function diagramCell(geo, row, col) {
  const info = geo.describeCell(row, col, 'light');
  const { x, y } = cellOrigin(row, col);
  const group = svg('g', { class: 'route-cell', 'aria-hidden': 'true' });
  if (info.kind === 'panel') return group;
  if (info.kind !== 'square') {
    group.append(
      svg('rect', { class: 'panel', x, y, width: CELL, height: CELL }),
      svg('rect', { class: 'tray', x: x + 9, y: y + 9, width: CELL - 18, height: CELL - 18, rx: 12 }),
      svg('text', { class: 'route-tray-label', x: x + CELL / 2, y: y + CELL / 2 + 6 }, [
        info.kind === 'start' ? 'start' : 'home',
      ]),
    );
    return group;
  }
  const dashed = info.side === 'dark';
  // Shell's squares here: two where its path crosses the tile twice (Murray, Skiriuk).
  const numbers = info.routes.light;
  group.append(
    svg('rect', {
      class: `square route-square${dashed ? ' route-square-theirs' : ''}`,
      x: x + 3,
      y: y + 3,
      width: CELL - 6,
      height: CELL - 6,
      rx: 6,
    }),
  );
  if (info.rosette) group.append(rosette(x + CELL / 2, y + CELL / 2, 40));
  if (!dashed) {
    const cx = x + CELL / 2;
    const cy = y + CELL / 2;
    if (numbers.length > 1) {
      // A pill with both visits, the first on the left.
      group.append(svg('rect', { class: 'route-number-disc', x: cx - 38, y: cy - 20, width: 76, height: 40, rx: 20 }));
      numbers.forEach((number, index) => {
        group.append(svg('text', { class: 'route-number-big', x: cx + (index === 0 ? -17 : 17), y: cy + 8 }, [String(number)]));
      });
    } else {
      group.append(
        svg('circle', { class: 'route-number-disc', cx, cy, r: 20 }),
        svg('text', { class: 'route-number-big', x: cx, y: cy + 8 }, [String(numbers[0])]),
      );
    }
  }
  return group;
}

// A side's route from its start tray to home, drawn beside the square numbers (below them
// for Shell, above for Bitumen) with an arrowhead on every step to show the direction.
function routeLine(geo, side, cls, marker) {
  const dy = side === 'light' ? 32 : -32;
  const points = [];
  let last = null;
  for (let route = 0; route <= geo.home; route += 1) {
    const cell = geo.cellOf(side, route);
    const centre = cellCentre(cell.row, cell.col);
    const point = { x: centre.x, y: centre.y + dy };
    // Turn outside the numbers where the route changes row.
    if (last && last.row !== cell.row && route > 1 && route < geo.home) {
      const previous = points[points.length - 1];
      const outward = cell.col === 0 ? -32 : 32;
      points.push({ x: previous.x + outward, y: previous.y }, { x: point.x + outward, y: point.y });
    }
    points.push(point);
    last = cell;
  }
  const group = svg('g', { class: 'route-line', 'aria-hidden': 'true' });
  group.append(
    svg('polyline', {
      class: cls,
      points: points.map((p) => `${p.x},${p.y}`).join(' '),
      'marker-end': `url(#${marker})`,
    }),
  );
  for (let index = 1; index < points.length - 1; index += 1) {
    const a = points[index - 1];
    const b = points[index];
    if (Math.hypot(b.x - a.x, b.y - a.y) < 50) continue;
    const angle = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
    const mx = (a.x + b.x) / 2;
    const my = (a.y + b.y) / 2;
    group.append(
      svg('path', {
        class: `${cls}-head`,
        d: `M${mx - 7},${my - 7} L${mx + 7},${my} L${mx - 7},${my + 7} z`,
        transform: `rotate(${angle} ${mx} ${my})`,
      }),
    );
  }
  return group;
}
