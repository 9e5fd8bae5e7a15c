// The dice tray: the rule set's tetrahedral dice seen from above (four in Finkel, three in
// Masters). A die whose marked corner points up shows a bright tip at its apex; the count of
// marked tips is the throw, except where no marks moves the most (Masters: 4).

import { geometry } from './rules.js';
import { svg } from './svg.js';

const DIE_SIZE = 60;
const GAP = 12;

export class DiceTray {
  constructor(svgElement, countElement) {
    this.svg = svgElement;
    this.countElement = countElement;
    this.dice = [];
    this.rolling = false;
    this.build(4);
    this.show(null);
  }

  // Draws `count` dice (again when the rule set changes their number).
  build(count) {
    if (this.dice.length === count) return;
    this.svg.setAttribute('viewBox', `0 0 ${count * DIE_SIZE + (count + 1) * GAP} ${DIE_SIZE + 2 * GAP}`);
    this.svg.replaceChildren();
    this.svg.dataset.dice = count;
    this.dice = [];
    for (let index = 0; index < count; index += 1) {
      const die = this.buildDie(GAP + index * (DIE_SIZE + GAP), GAP);
      this.svg.append(die);
      this.dice.push(die);
    }
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

  // Shows the dice: `marks` is an array of booleans, one a die (marked tip up), or null.
  show(marks) {
    const dice = geometry()?.dice;
    this.build(marks?.length ?? dice?.count ?? this.dice.length);
    this.dice.forEach((die, index) => {
      const marked = marks ? Boolean(marks[index]) : false;
      die.classList.toggle('marked', marked);
      die.classList.toggle('idle', !marks);
    });
    let count = marks ? marks.filter(Boolean).length : null;
    // Masters: a throw with no marks moves the most.
    const zeroIsMax = count === 0 && dice?.zero_counts_as_max;
    if (zeroIsMax) count = dice.max_roll;
    this.countElement.textContent = count === null ? '–' : String(count);
    this.countElement.title = zeroIsMax ? `No marks up: moves ${count}` : '';
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
        if (marks) this.build(marks.length);
        await new Promise((resolve) => setTimeout(resolve, durationMs / steps));
      }
      this.svg.classList.remove('rolling');
      this.rolling = false;
    }
    this.show(marks);
  }
}

// Dice faces for a roll when the server sent only the count (a roll above the dice count is
// Masters' no-marks throw).
export function marksForRoll(roll) {
  const count = geometry()?.dice?.count ?? 4;
  return Array.from({ length: count }, (_, index) => roll <= count && index < roll);
}
