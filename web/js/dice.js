// The dice tray: four tetrahedral dice seen from above. A die whose marked corner points up
// shows a bright tip at its apex; the count of marked tips is the throw.

import { svg } from './svg.js';

const DIE_SIZE = 60;
const GAP = 12;

export class DiceTray {
  constructor(svgElement, countElement) {
    this.svg = svgElement;
    this.countElement = countElement;
    this.svg.setAttribute('viewBox', `0 0 ${4 * DIE_SIZE + 5 * GAP} ${DIE_SIZE + 2 * GAP}`);
    this.dice = [];
    this.rolling = false;
    for (let index = 0; index < 4; index += 1) {
      const die = this.buildDie(GAP + index * (DIE_SIZE + GAP), GAP);
      this.svg.append(die);
      this.dice.push(die);
    }
    this.show(null);
  }

  buildDie(x, y) {
    const top = { x: x + DIE_SIZE / 2, y };
    const left = { x, y: y + DIE_SIZE * 0.9 };
    const right = { x: x + DIE_SIZE, y: y + DIE_SIZE * 0.9 };
    const apex = { x: x + DIE_SIZE / 2, y: y + DIE_SIZE * 0.58 };
    const face = (a, b, cls) =>
      svg('polygon', { class: `die-face ${cls}`, points: `${a.x},${a.y} ${b.x},${b.y} ${apex.x},${apex.y}` });
    const group = svg('g', { class: 'die', 'aria-hidden': 'true' }, [
      face(top, left, 'die-face-left'),
      face(top, right, 'die-face-right'),
      face(left, right, 'die-face-front'),
      svg('circle', { class: 'die-tip', cx: apex.x, cy: apex.y, r: 9 }),
    ]);
    group.style.transformOrigin = `${apex.x}px ${apex.y}px`;
    return group;
  }

  // Shows the dice: `marks` is an array of four booleans (marked tip up) or null for none.
  show(marks) {
    this.dice.forEach((die, index) => {
      const marked = marks ? Boolean(marks[index]) : false;
      die.classList.toggle('marked', marked);
      die.classList.toggle('idle', !marks);
    });
    const count = marks ? marks.filter(Boolean).length : null;
    this.countElement.textContent = count === null ? '–' : String(count);
    this.countElement.dataset.roll = count === null ? '' : String(count);
  }

  // Tumbles the dice for `durationMs`, then shows `marks`.
  async roll(marks, durationMs) {
    if (durationMs > 0) {
      this.rolling = true;
      this.svg.classList.add('rolling');
      this.countElement.textContent = '…';
      const steps = Math.max(1, Math.round(durationMs / 90));
      for (let step = 0; step < steps; step += 1) {
        this.dice.forEach((die) => die.classList.toggle('marked', Math.random() < 0.5));
        await new Promise((resolve) => setTimeout(resolve, durationMs / steps));
      }
      this.svg.classList.remove('rolling');
      this.rolling = false;
    }
    this.show(marks);
  }
}

// Dice faces for a roll when the server sent only the count.
export function marksForRoll(roll) {
  return [0, 1, 2, 3].map((index) => index < roll);
}
