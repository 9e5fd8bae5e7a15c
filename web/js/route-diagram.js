// The route diagram of the rules page: Shell's squares numbered 1-14 with rosettes on 4, 8
// and 14, Bitumen's private squares outlined dashed, the shared middle, and arrows showing
// the direction of travel for both sides.

import { COLUMNS, HOME, ROWS, cellOf, describeCell, isRosette } from './rules.js';
import { CELL, MARGIN, boardOutlinePath, cellCentre, cellOrigin, rosette, svg } from './svg.js';

export function drawRouteDiagram(svgElement) {
  const width = 2 * MARGIN + COLUMNS * CELL;
  const height = 2 * MARGIN + ROWS * CELL;
  svgElement.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svgElement.replaceChildren(
    svg('defs', {}, [
      arrowMarker('arrow-light', 'route-arrow-light'),
      arrowMarker('arrow-dark', 'route-arrow-dark'),
    ]),
    svg('path', { class: 'board-frame', d: boardOutlinePath() }),
  );
  for (let row = 0; row < ROWS; row += 1) {
    for (let col = 0; col < COLUMNS; col += 1) svgElement.append(diagramCell(row, col));
  }
  const shared = cellOrigin(1, 0);
  svgElement.append(
    svg('rect', {
      class: 'route-shared',
      x: shared.x + 2,
      y: shared.y + 2,
      width: COLUMNS * CELL - 4,
      height: CELL - 4,
      rx: 8,
    }),
  );
  svgElement.append(
    routeLine('light', 'route-line-light', 'arrow-light'),
    routeLine('dark', 'route-line-dark', 'arrow-dark'),
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

function diagramCell(row, col) {
  const info = describeCell(row, col);
  const { x, y } = cellOrigin(row, col);
  const group = svg('g', { class: 'route-cell', 'aria-hidden': 'true' });
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
  if (isRosette(info.route)) group.append(rosette(x + CELL / 2, y + CELL / 2, 40));
  if (!dashed) {
    group.append(
      svg('circle', { class: 'route-number-disc', cx: x + CELL / 2, cy: y + CELL / 2, r: 20 }),
      svg('text', { class: 'route-number-big', x: x + CELL / 2, y: y + CELL / 2 + 8 }, [
        String(info.route),
      ]),
    );
  }
  return group;
}

// A side's route from its start tray to home, drawn beside the square numbers (below them
// for Shell, above for Bitumen) with an arrowhead on every step to show the direction.
function routeLine(side, cls, marker) {
  const dy = side === 'light' ? 32 : -32;
  const points = [];
  for (let route = 0; route <= HOME; route += 1) {
    const { row, col } = cellOf(side, route);
    const centre = cellCentre(row, col);
    const point = { x: centre.x, y: centre.y + dy };
    // Turn outside the numbers where the route leaves or re-enters the player's own row.
    if (route === 5 || route === 13) {
      const previous = points[points.length - 1];
      const side = route === 5 ? -32 : 32;
      points.push({ x: previous.x + side, y: previous.y }, { x: point.x + side, y: point.y });
    }
    points.push(point);
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
