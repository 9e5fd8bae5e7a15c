// A whole game against the easy computer, played by clicking only, to the game-over screen.
const { test, expect, screenshot, openFreshGame, chooseSettings, waitSettled, serverState } = require('./helpers');

test('plays a full game against the computer by clicking, then starts the next one', async ({ page }) => {
  test.setTimeout(150_000);
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'easy', pieces: 3, bearOff: 'any', starts: 'alternate', autoPlay: false });
  await expect(page.locator('#player-dark .player-name')).toContainText('computer (easy)');
  await expect(page.locator('#player-light .player-home')).toContainText('home 0/3');
  await screenshot(page, 'opening');
  // Pressing the start tray before throwing says what to do first.
  await page.locator('#board .cell[data-side="light"][data-kind="start"]').click();
  await expect(page.locator('#message')).toHaveText('Throw the dice first.');

  let checkedDimmed = false;
  let passes = 0;
  let moves = 0;
  let midGameSaved = false;
  for (let step = 0; step < 600; step += 1) {
    const controls = await waitSettled(page);
    if (controls.gameOver) break;
    if (controls.canPass) {
      await expect(page.locator('#throw-button')).toBeHidden();
      await expect(page.locator('#pass-reason')).not.toBeEmpty();
      passes += 1;
      await page.click('#pass-button');
    } else if (controls.canThrow) {
      await page.click('#throw-button');
    } else if (controls.movable > 0) {
      if (!checkedDimmed) {
        // A throw waits: the control stays, dimmed, and hovering it says why.
        const throwButton = page.locator('#throw-button');
        await expect(throwButton).toBeVisible();
        await expect(throwButton).toHaveAttribute('aria-disabled', 'true');
        await page.mouse.move(0, 0);
        await throwButton.hover();
        await expect(page.locator('#throw-hint')).toBeVisible();
        await expect(page.locator('#throw-hint')).toContainText(/throw of \d is waiting/);
        await page.mouse.move(0, 0);
        checkedDimmed = true;
      }
      // Prefer the piece furthest along, so the game ends quickly.
      const pieces = page.locator('#board .cell.movable');
      const count = await pieces.count();
      await pieces.nth(count - 1).click();
      await expect(page.locator('#board .cell.target')).toHaveCount(1);
      await page.locator('#board .cell.target').click();
      moves += 1;
      if (moves === 6 && !midGameSaved) {
        await waitSettled(page);
        await screenshot(page, 'mid-game');
        midGameSaved = true;
      }
    }
  }
  const dialog = page.locator('#game-over-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.locator('#game-over-title')).toHaveText(/You win!|The computer wins/);
  await expect(page.locator('#game-over-tally')).toContainText(/Games won: You \(Shell\) [01] – [01] Computer \(Bitumen\)/);
  const finished = await serverState(page);
  expect(finished.phase).toBe('game_over');
  const nextStarter = finished.starting_side === 'light' ? 'dark' : 'light';
  await expect(page.locator('#game-over-next')).toHaveText(
    `Next game: ${nextStarter === 'light' ? 'Shell' : 'Bitumen'} starts.`,
  );
  await screenshot(page, 'game-over');
  expect(checkedDimmed).toBeTruthy();
  test.info().annotations.push({ type: 'moves', description: `${moves} moves, ${passes} passes by the player` });

  // The next game: the tally is kept and the first player alternates.
  await page.click('#game-over-new');
  await expect(dialog).toBeHidden();
  await waitSettled(page);
  const next = await serverState(page);
  expect(next.game_number).toBe(finished.game_number + 1);
  expect(next.starting_side).toBe(nextStarter);
  expect(next.tally.light + next.tally.dark).toBe(finished.tally.light + finished.tally.dark);
  await expect(page.locator('#player-light .player-home')).toContainText(`wins ${next.tally.light}`);
});
