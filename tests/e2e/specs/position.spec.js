// The position text (docs/notation.md) is shown under the game log and copies with one press
// (issue 13).
const { test, expect, openFreshGame, serverState, state, serve } = require('./helpers');

test('the game log shows the position as text and Copy puts it on the clipboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openFreshGame(page);
  await page.locator('.log-panel summary').click();
  const game = await serverState(page);
  expect(game.position_text).toMatch(/^[LD]:7\/-\/0:7\/-\/0$/);
  await expect(page.locator('#position-text')).toHaveText(game.position_text);
  await page.locator('#copy-position').click();
  await expect(page.locator('#copy-status')).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(game.position_text);
});

test('the position text is the one the server sends', async ({ page }) => {
  await serve(page, state({ position_text: 'D:5/4,9/1:6/10/0' }));
  await page.locator('.log-panel summary').click();
  await expect(page.locator('#position-text')).toHaveText('D:5/4,9/1:6/10/0');
});
