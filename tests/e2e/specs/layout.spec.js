// The layout on a phone, upright and on its side (issue 12): the throw control without
// scrolling, every text at 11 px or more, a tooltip that leaves the dice count visible, and a
// Close button that stays in view in the rules.
const { test, expect, screenshot, state, serve, openFreshGame } = require('./helpers');

// The smallest on-screen font size of every visible text, with where it is: CSS font size
// times the scale an SVG drawing is shown at.
async function smallestText(page, root = 'body') {
  return page.evaluate((selector) => {
    const found = [];
    const scope = document.querySelector(selector);
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!node.textContent.trim() || !element) continue;
      if (element.closest('.sr-only, [hidden], dialog:not([open]), option, title')) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let size = parseFloat(style.fontSize);
      if (element instanceof SVGElement) {
        const matrix = element.getScreenCTM();
        size *= Math.hypot(matrix.a, matrix.b);
      }
      found.push({ size: Math.round(size * 10) / 10, text: node.textContent.trim().slice(0, 30) });
    }
    found.sort((a, b) => a.size - b.size);
    return found[0];
  }, root);
}

function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

for (const viewport of [
  { width: 360, height: 740 },
  { width: 740, height: 360 },
]) {
  const name = `${viewport.width}x${viewport.height}`;
  test.describe(`on a ${name} phone`, () => {
    test.use({ viewport, hasTouch: true, isMobile: true });

    test('the throw control is on screen without scrolling and no text is under 11 px', async ({ page }) => {
      await openFreshGame(page);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const button = await page.locator('#throw-button').boundingBox();
      expect(button.y).toBeGreaterThanOrEqual(0);
      expect(button.y + button.height).toBeLessThanOrEqual(viewport.height);
      expect(button.x + button.width).toBeLessThanOrEqual(viewport.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      const smallest = await smallestText(page);
      expect(smallest.size, `"${smallest.text}"`).toBeGreaterThanOrEqual(11);
      await screenshot(page, `layout-${name}`);

      await page.click('#settings-button');
      const inSettings = await smallestText(page, '#settings-dialog');
      expect(inSettings.size, `"${inSettings.text}"`).toBeGreaterThanOrEqual(11);
    });

    test('the press-and-hold tooltip leaves the dice count visible', async ({ page }) => {
      await serve(page, state({
        phase: 'move',
        roll: 3,
        dice: [true, true, true, false],
        legal_moves: [{ from: 0, to: 3, capture: false, extra_throw: false }],
      }));
      await page.locator('#throw-button').tap({ force: true });
      const hint = page.locator('#throw-hint');
      await expect(hint).toBeVisible();
      expect(overlaps(await hint.boundingBox(), await page.locator('#roll-count').boundingBox())).toBe(false);
      expect(overlaps(await hint.boundingBox(), await page.locator('#dice').boundingBox())).toBe(false);
    });

    test('the rules keep their Close button in view and their text legible', async ({ page }) => {
      await openFreshGame(page);
      await page.click('#rules-button');
      const dialog = page.locator('#rules-dialog');
      await expect(dialog).toBeVisible();
      const smallest = await smallestText(page, '#rules-dialog');
      expect(smallest.size, `"${smallest.text}"`).toBeGreaterThanOrEqual(11);
      await dialog.evaluate((element) => {
        element.scrollTop = element.scrollHeight;
      });
      const close = page.getByRole('button', { name: 'Close the rules' });
      const box = await close.boundingBox();
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      // Nothing covers it: the point at its middle is the button.
      const onTop = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.id, {
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
      });
      expect(onTop).toBe('rules-close');
      await close.click();
      await expect(dialog).toBeHidden();
    });
  });
}
