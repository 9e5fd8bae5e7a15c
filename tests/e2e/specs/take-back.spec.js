// Take back against the computer: after a decision the game returns to the same throw and the
// position before the move; the button shows only while something can be taken back, and the
// setting is offered for computer games only. All against the real server.
const { test, expect, openFreshGame, chooseSettings, waitSettled, serverState } = require('./helpers');

test('Take back after a decision returns to the same throw and the position before it', async ({ page }) => {
  test.setTimeout(120_000);
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'easy', autoPlay: false });
  await expect(page.locator('#take-back-button')).toBeHidden();
  expect((await serverState(page)).can_take_back).toBe(false);

  // Play on until the person must choose between two or more moves.
  let decision = null;
  for (let step = 0; step < 300 && !decision; step += 1) {
    const controls = await waitSettled(page);
    if (controls.gameOver) throw new Error('the game ended before a decision');
    if (controls.canPass) await page.click('#pass-button');
    else if (controls.canThrow) await page.click('#throw-button');
    else if (controls.movable >= 2) decision = await serverState(page);
    else if (controls.movable === 1) {
      await page.locator('#board .cell.movable').click();
      await page.locator('#board .cell.target').click();
    }
  }
  expect(decision, 'a throw with two or more moves').not.toBeNull();
  expect(decision.legal_moves.length).toBeGreaterThanOrEqual(2);

  await page.locator('#board .cell.movable').last().click();
  await page.locator('#board .cell.target').click();
  await waitSettled(page);
  const moved = await serverState(page);
  expect(moved.version).toBeGreaterThan(decision.version);
  expect(moved.can_take_back).toBe(true);
  const button = page.locator('#take-back-button');
  await expect(button).toBeVisible();
  await expect(button).toBeEnabled();

  await button.click();
  await waitSettled(page);
  const back = await serverState(page);
  expect(back.phase).toBe('move');
  expect(back.roll).toBe(decision.roll);
  expect(back.position_text).toBe(decision.position_text);
  expect(back.legal_moves).toEqual(decision.legal_moves);
  await expect(page.locator('#position-text')).toHaveText(decision.position_text);
  await expect(page.locator('#board .cell.movable')).toHaveCount(decision.legal_moves.length);

  // Take back until nothing is left to take back: then the button is gone.
  for (let step = 0; step < 100 && (await serverState(page)).can_take_back; step += 1) {
    await expect(button).toBeVisible();
    await button.click();
    await waitSettled(page);
  }
  expect((await serverState(page)).can_take_back).toBe(false);
  await expect(button).toBeHidden();
});

test('the Take back setting is for computer games; a friend game never shows the button', async ({ page }) => {
  await openFreshGame(page);
  await page.click('#settings-button');
  const dialog = page.locator('#settings-dialog');
  const setting = dialog.locator('input[name=take_back]');
  await expect(setting).toBeVisible();
  await expect(setting).toBeChecked();
  await dialog.locator('input[name=opponent][value=friend]').check();
  await expect(setting).toBeHidden();
  await dialog.locator('input[name=opponent][value=easy]').check();
  await expect(setting).toBeVisible();
  // Off: the computer game keeps no take back after a move.
  await setting.uncheck();
  await dialog.locator('#settings-save-new').click();
  await waitSettled(page);
  expect((await serverState(page)).settings.take_back).toBe(false);
  for (let step = 0; step < 20; step += 1) {
    const controls = await waitSettled(page);
    if (controls.movable > 0) {
      await page.locator('#board .cell.movable').first().click();
      await page.locator('#board .cell.target').click();
      break;
    }
    if (controls.canPass) await page.click('#pass-button');
    else await page.click('#throw-button');
  }
  await waitSettled(page);
  expect((await serverState(page)).can_take_back).toBe(false);
  await expect(page.locator('#take-back-button')).toBeHidden();

  // A friend game: no take back, whatever was saved.
  await chooseSettings(page, { opponent: 'friend' });
  await page.click('#throw-button');
  const controls = await waitSettled(page);
  if (controls.movable > 0) {
    await page.locator('#board .cell.movable').first().click();
    await page.locator('#board .cell.target').click();
  }
  await waitSettled(page);
  const friend = await serverState(page);
  expect(friend.can_take_back).toBe(false);
  await expect(page.locator('#take-back-button')).toBeHidden();
});
