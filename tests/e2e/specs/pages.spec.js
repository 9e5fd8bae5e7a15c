// Settings, the rules page, resuming after a reload, keyboard play and a phone-sized screen.
const { test, expect, screenshot, openFreshGame, chooseSettings, waitSettled, gameId, serverState } = require('./helpers');

test('the 5-piece setting starts a game with five pieces a side', async ({ page }) => {
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'medium', pieces: 5 });
  const lightStart = page.locator('#board .cell[data-side="light"][data-kind="start"]');
  await expect(lightStart).toHaveAttribute('aria-label', /5 pieces waiting/);
  await expect(page.locator('#board .cell[data-side="dark"][data-kind="start"]')).toHaveAttribute('aria-label', /\b[0-5] pieces? waiting/);
  await expect(page.locator('#player-light .player-home')).toContainText('home 0/5');
  const game = await serverState(page);
  expect(game.rules.pieces).toBe(5);
  expect(game.settings.opponent).toBe('medium');
  // The settings dialog shows what is in force.
  await page.click('#settings-button');
  await expect(page.locator('input[name=pieces][value="5"]')).toBeChecked();
  await page.getByRole('button', { name: 'Cancel' }).click();
});

test('the higher-throw setting opens with both sides throwing', async ({ page }) => {
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'easy', pieces: 3, starts: 'higher' });
  const game = await serverState(page);
  expect(game.settings.starts).toBe('higher');
  expect(game.opening.light).not.toBe(game.opening.dark);
  await page.locator('.log-panel summary').click();
  await expect(page.locator('#log')).toContainText('Opening throws');
});

test('the rules page explains the game and shows the route', async ({ page }) => {
  await openFreshGame(page);
  await page.getByRole('button', { name: 'Rules' }).click();
  const rules = page.locator('#rules-dialog');
  await expect(rules).toBeVisible();
  await expect(rules.getByRole('heading', { name: 'How to play' })).toBeVisible();
  await expect(rules).toContainText('central rosette');
  const diagram = page.locator('#route-diagram');
  const numbers = await diagram.locator('.route-number-big').allTextContents();
  expect(numbers.map(Number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  await expect(diagram.locator('.route-square-theirs')).toHaveCount(6);
  await expect(diagram.locator('.rosette')).toHaveCount(5);
  await expect(diagram.locator('.route-shared')).toHaveCount(1);
  await expect(diagram.locator('polyline[marker-end]')).toHaveCount(2);
  await screenshot(page, 'rules');
  await page.getByRole('button', { name: 'Close the rules' }).click();
  await expect(rules).toBeHidden();
  // Closing takes #rules out of the address (in the dialog's close event, a moment later);
  // going to the same address before that would change nothing and open nothing.
  await expect(page).not.toHaveURL(/#rules$/);
  // The page's address opens the rules directly.
  await page.goto('/#rules');
  await expect(page.locator('#rules-dialog')).toBeVisible();
});

test('a reload resumes the same game', async ({ page }) => {
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'easy', pieces: 7 });
  let controls = await waitSettled(page);
  if (controls.canThrow) {
    await page.click('#throw-button');
    controls = await waitSettled(page);
  }
  const id = await gameId(page);
  const before = await serverState(page);
  await page.reload();
  await expect(page.locator('#game')).toHaveAttribute('aria-busy', 'false');
  expect(await gameId(page)).toBe(id);
  if (before.roll !== null) await expect(page.locator('#roll-count')).toHaveText(String(before.roll));
  await expect(page.locator('#player-light .player-home')).toContainText(`home ${before.position.light.home}/7`);
  // A game the server no longer knows is replaced by a new one.
  await page.evaluate(() => localStorage.setItem('ur.gameId', JSON.stringify('g-ffffffffffffffff')));
  await page.reload();
  await expect(page.locator('#game')).toHaveAttribute('aria-busy', 'false');
  await expect.poll(() => gameId(page)).not.toBe('g-ffffffffffffffff');
});

test('keyboard play: T throws, arrows move between squares, Enter presses', async ({ page }) => {
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'friend', pieces: 7, starts: 'alternate' });
  await expect(page.locator('#player-dark .player-name')).toContainText('player 2');
  // Every square and tray is labelled.
  const labels = await page.locator('#board .cell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
  expect(labels).toHaveLength(24);
  for (const label of labels) expect(label).toMatch(/^(Shell|Bitumen|Shared)/);
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const controls = await waitSettled(page);
    if (controls.movable > 0) break;
    await page.keyboard.press('t');
  }
  await expect(page.locator('#announcer')).toContainText(/threw \d|entered|moved|pass/);
  // Focus the start tray of the side to move with the keyboard and enter a piece.
  const side = await page.locator('.player.to-move').getAttribute('data-side');
  const tray = page.locator(`#board .cell[data-side="${side}"][data-kind="start"]`);
  await tray.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator(`#board .cell[data-side="${side}"][data-col="3"]`)).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(tray).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(tray).toHaveAttribute('aria-pressed', 'true');
  // The keyboard focus jumps to the square the piece can reach.
  const target = page.locator('#board .cell.target');
  await expect(target).toHaveCount(1);
  await expect(target).toBeFocused();
  await page.keyboard.press('Enter');
  await waitSettled(page);
  await expect(tray).toHaveAttribute('aria-label', /6 pieces waiting/);
  await expect(page.locator('#log')).toContainText('entered a piece');
});

test.describe('on a phone', () => {
  // Full motion here, so the dice, hop and capture animations run at least once.
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true, reducedMotion: 'no-preference' });

  test('the board fits a 360 px screen and plays by tapping', async ({ page }) => {
    await openFreshGame(page);
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(360);
    const box = await page.locator('#board').boundingBox();
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360.5);
    const cell = await page.locator('#board .cell[data-route="9"]').boundingBox();
    expect(cell.width).toBeGreaterThanOrEqual(40);
    await expect(page.locator('#throw-button')).toBeInViewport();
    let controls = await waitSettled(page);
    for (let attempt = 0; attempt < 20 && controls.movable === 0; attempt += 1) {
      await page.locator(controls.canPass ? '#pass-button' : '#throw-button').tap();
      controls = await waitSettled(page);
    }
    await page.locator('#board .cell.movable').first().tap();
    await expect(page.locator('#board .cell.target')).toHaveCount(1);
    await screenshot(page, 'phone');
    await page.locator('#board .cell.target').tap();
    await waitSettled(page);
  });
});

test('a second tab on the same game follows it through the WebSocket', async ({ browser }) => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const first = await context.newPage();
  await openFreshGame(first);
  await chooseSettings(first, { opponent: 'friend', pieces: 7 });
  const second = await context.newPage();
  await openFreshGame(second);
  expect(await gameId(second)).toBe(await gameId(first));
  await expect(second.locator('#connection')).toBeHidden();
  // Each throw in the first tab shows up in the second without a reload.
  for (let turn = 0; turn < 3; turn += 1) {
    const controls = await waitSettled(first);
    if (controls.canThrow) await first.click('#throw-button');
    else if (controls.canPass) await first.click('#pass-button');
    else {
      await first.locator('#board .cell.movable').first().click();
      await first.locator('#board .cell.target').click();
    }
    await waitSettled(first);
    const game = await serverState(first);
    await expect(second.locator('#roll-count')).toHaveText(game.roll === null ? /./ : String(game.roll));
    await expect(second.locator('#board .cell.movable')).toHaveCount(game.phase === 'move' ? new Set(game.legal_moves.map((m) => m.from)).size : 0);
    await expect(second.locator('#player-light .player-home')).toContainText(`home ${game.position.light.home}/7`);
  }
  await context.close();
});

test('New game during a game asks first', async ({ page }) => {
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'easy', pieces: 3 });
  const controls = await waitSettled(page);
  if (controls.canThrow) await page.click('#throw-button');
  await waitSettled(page);
  const before = await serverState(page);
  await page.click('#new-game-button');
  const confirm = page.locator('#confirm-new-dialog');
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Keep playing' }).click();
  await expect(confirm).toBeHidden();
  expect((await serverState(page)).version).toBe(before.version);
  await page.click('#new-game-button');
  await confirm.getByRole('button', { name: 'Start a new game' }).click();
  await expect.poll(async () => (await serverState(page)).game_number).toBe(before.game_number + 1);
});

test('Save applies settings now before the first throw, otherwise from the next game', async ({ page }) => {
  // A fresh page starts game 1, which Shell opens: nothing is thrown yet.
  await openFreshGame(page);
  const game = await serverState(page);
  expect(game.starting_side).toBe('light');
  expect(game.roll).toBeNull();
  const saveWith = async (pieces) => {
    await page.click('#settings-button');
    await page.locator(`input[name=pieces][value="${pieces}"]`).check();
    await page.locator('#settings-save').click();
  };
  await saveWith(3);
  await expect(page.locator('#player-light .player-home')).toContainText('home 0/3');
  expect((await serverState(page)).game_number).toBe(game.game_number);
  await waitSettled(page);
  await page.click('#throw-button');
  await waitSettled(page);
  await saveWith(5);
  await expect(page.locator('#message')).toHaveText('Saved. The new settings apply from the next game.');
  const after = await serverState(page);
  expect(after.rules.pieces).toBe(3);
  expect(after.next_settings.pieces).toBe(5);
  // The Perfect level without a solved table is refused politely, and nothing changes.
  await page.click('#settings-button');
  await page.locator('input[name=opponent][value=perfect]').check();
  await page.locator('#settings-save').click();
  // (Once the solver is built in, Perfect is accepted for the next game instead.)
  await expect(page.locator('#message')).toContainText(/Perfect level needs the solved table|Saved/);
});
