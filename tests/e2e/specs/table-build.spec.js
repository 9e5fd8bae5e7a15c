// The offer to build the perfect opponent's missing table from the settings dialog:
// the offer, a build's progress, cancelling it and a build to the end that then plays Perfect
// (about 10 s of solving; the server's XDG_DATA_HOME is a throw-away directory;
// UR_E2E_TABLE_BUILD=0 skips it).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const AxeBuilder = require('@axe-core/playwright').default;
const { test, expect, openFreshGame, waitSettled, serverState, screenshot, newPerson } = require('./helpers');
const { startServe } = require('./serve-process');

// 5 pieces with "any" bear-off: the smallest offered rules that are not solved on the fly.
async function choosePerfectFivePieces(page) {
  await page.click('#settings-button');
  const dialog = page.locator('#settings-dialog');
  await expect(dialog).toBeVisible();
  await dialog.locator('input[name=opponent][value=perfect]').check();
  await dialog.locator('input[name=pieces][value="5"]').check();
  await dialog.locator('input[name=bear_off][value=any]').check();
  await dialog.locator('input[name=sound]').setChecked(false);
  await dialog.locator('#settings-save-new').click();
}

// Skips the test when the server already has the table (nothing would be offered).
async function skipIfTableExists(page) {
  const missing = await page.evaluate(async () => {
    const answer = await fetch('api/games', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ settings: { opponent: 'perfect', pieces: 5, bear_off: 'any' } }),
    });
    return (await answer.json()).table_missing ?? null;
  });
  test.skip(missing === null, 'the server has the 5-piece table already');
  expect(missing).toMatchObject({ pieces: 5, bear_off: 'any' });
}

test('a missing perfect table is offered, builds with progress and can be cancelled', async ({ page }) => {
  await openFreshGame(page);
  await skipIfTableExists(page);
  await choosePerfectFivePieces(page);

  const dialog = page.locator('#settings-dialog');
  const offer = page.locator('#table-build');
  await expect(dialog).toBeVisible();
  await expect(offer).toBeVisible();
  await expect(page.locator('#table-build-text')).toContainText('5 pieces');
  const start = page.locator('#table-build-start');
  await expect(start).toHaveText(/^Build the table now \(.+\)$/);
  await expect(start).toBeFocused();
  // The settings the player chose are kept in the reopened dialog.
  await expect(dialog.locator('input[name=opponent][value=perfect]')).toBeChecked();
  await expect(dialog.locator('input[name=pieces][value="5"]')).toBeChecked();
  // Nothing changed on the server.
  expect((await serverState(page)).settings.opponent).not.toBe('perfect');
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .include('#table-build')
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await start.focus();

  // Start the build from the keyboard.
  await page.keyboard.press('Enter');
  const cancel = page.locator('#table-build-cancel');
  await expect(cancel).toBeVisible();
  await expect(cancel).toBeFocused();
  await expect(page.locator('#table-build-bar')).toBeVisible();
  await expect(page.locator('#table-build-detail')).toContainText(/\d+% · .*layers \d+\/\d+/);
  await screenshot(page, 'table-build-progress');

  await cancel.click();
  await expect(page.locator('#table-build-detail')).toContainText('cancelled', { timeout: 30_000 });
  await expect(start).toBeVisible();
  await expect(start).toBeFocused();
  const state = await page.evaluate(async () => (await fetch('api/tables/build')).json());
  expect(state.state).toBe('cancelled');

  // Closing the dialog keeps the game as it was.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect((await serverState(page)).settings.opponent).not.toBe('perfect');
});

test('saved Perfect settings without their table offer the build on the first visit', async ({ page }) => {
  await openFreshGame(page);
  await skipIfTableExists(page);
  // A returning player whose saved settings ask for Perfect at 5 pieces, and no game to resume.
  await page.evaluate(() => {
    localStorage.setItem('ur.settings', JSON.stringify({ opponent: 'perfect', pieces: 5, bear_off: 'any' }));
    localStorage.removeItem('ur.gameId');
  });
  await page.reload();

  const dialog = page.locator('#settings-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.locator('#table-build')).toBeVisible();
  await expect(page.locator('#table-build-text')).toContainText('5 pieces');
  await expect(page.locator('#table-build-start')).toBeFocused();
  await expect(dialog.locator('input[name=opponent][value=perfect]')).toBeChecked();
  await expect(dialog.locator('input[name=pieces][value="5"]')).toBeChecked();
  await expect(dialog.locator('input[name=bear_off][value=any]')).toBeChecked();
  await expect(page.locator('#message')).toContainText('saved settings ask for the Perfect level');

  // Declining keeps the game that started meanwhile with the default settings.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.locator('#game')).toHaveAttribute('aria-busy', 'false');
  expect((await serverState(page)).settings.opponent).not.toBe('perfect');
});

test('a finished build saves the settings and the game goes on against Perfect', async ({ page }) => {
  test.skip(process.env.UR_E2E_TABLE_BUILD === '0', 'UR_E2E_TABLE_BUILD=0 skips the full build');
  // The build takes 15 s of CPU; on a CI machine shared with the other tests, allow far more.
  test.setTimeout(360_000);
  await openFreshGame(page);
  await skipIfTableExists(page);
  await choosePerfectFivePieces(page);
  await page.locator('#table-build-start').click();
  await expect(page.locator('#settings-dialog')).toBeHidden({ timeout: 300_000 });
  await waitSettled(page);
  const game = await serverState(page);
  expect(game.settings.opponent).toBe('perfect');
  expect(game.rules.pieces).toBe(5);
  await expect(page.locator('#message')).not.toContainText('needs the solved table');
});

// A server that lets nobody build (`ur serve --table-builds off`; remote players under the
// default `local` are the same case) named its build button all the same, and the build was
// then refused: the offer now names the command for the server's operator instead.
test('where the server builds no tables, the offer names the command instead of a button', async ({ browser }) => {
  test.skip(!process.env.UR_BINARY, 'UR_BINARY is not set (scripts/run-e2e.sh sets it)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ur-e2e-builds-off.'));
  const { child, base } = await startServe(dataDir, { extra: ['--table-builds', 'off'] });
  try {
    const page = await newPerson(browser, base);
    await openFreshGame(page);
    await choosePerfectFivePieces(page);
    await expect(page.locator('#settings-dialog')).toBeVisible();
    await expect(page.locator('#table-build')).toBeVisible();
    await expect(page.locator('#table-build-text')).toHaveText(
      'This server has no solved table for 5 pieces (any throw bears off) yet, so the Perfect level cannot play ' +
        'these rules. Only whoever runs this server can build it, with `ur solve --pieces 5 --bear-off any` there.',
    );
    await expect(page.locator('#table-build-start')).toBeHidden();
    await expect(page.locator('#table-build-cancel')).toBeHidden();
    await page.context().close();
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
