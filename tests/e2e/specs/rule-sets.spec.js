// Every rule set is chosen in the settings and played by clicking: a Masters game (three dice,
// a 16-square path through the opponent's row) and an Aseb game (the 3 x 12 board) against the
// easy computer to the game-over screen, with screenshots of both boards for the docs, and
// the Aseb board on a 360 px wide phone.
const { test, expect, screenshot, docsShotPath, openFreshGame, chooseSettings, waitSettled, serverState } = require('./helpers');

// Plays the game on screen to its end by clicking: throw, pass, or the piece furthest along.
// Takes a screenshot for the docs once `shotAfter` moves are on the board.
async function playToTheEnd(page, shot, shotAfter = 8) {
  let moves = 0;
  let shotTaken = false;
  for (let step = 0; step < 1500; step += 1) {
    const controls = await waitSettled(page);
    if (controls.gameOver) break;
    if (controls.canPass) {
      await page.click('#pass-button');
    } else if (controls.canThrow) {
      await page.click('#throw-button');
    } else if (controls.movable > 0) {
      if (moves >= shotAfter && !shotTaken) {
        await page.screenshot({ path: docsShotPath(shot) });
        shotTaken = true;
      }
      const pieces = page.locator('#board .cell.movable');
      await pieces.nth((await pieces.count()) - 1).click();
      await page.locator('#board .cell.target').first().click();
      moves += 1;
    }
  }
  await expect(page.locator('#game-over-dialog')).toBeVisible();
  await expect(page.locator('#game-over-title')).toHaveText(/You win!|The computer wins/);
  expect(shotTaken).toBeTruthy();
  return moves;
}

test('a Masters game is chosen in the settings and played to the end', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openFreshGame(page);
  await chooseSettings(page, { ruleSet: 'masters', opponent: 'easy', pieces: 3, bearOff: 'any', autoPlay: true, speed: 'off' });
  const game = await serverState(page);
  expect(game.rules.name).toBe('masters');
  expect(game.geometry.dice.count).toBe(3);
  await expect(page.locator('#board')).toHaveAttribute('data-rule-set', 'masters');
  await expect(page.locator('#dice .die')).toHaveCount(3);
  // Light's path runs through C7 and C8 of dark's row: both sides number those squares.
  await expect(page.locator('#board .cell[data-tile="C7"] .route-number')).toHaveCount(2);
  // The rules page is Masters': its route and the server's prose.
  await page.getByRole('button', { name: 'Rules' }).click();
  await expect(page.locator('#rules-set-title')).toContainText('Masters');
  const numbers = await page.locator('#route-diagram .route-number-big').allTextContents();
  expect(numbers.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  await screenshot(page, 'masters-rules');
  await page.getByRole('button', { name: 'Close the rules' }).click();
  const moves = await playToTheEnd(page, 'masters-web.png');
  test.info().annotations.push({ type: 'moves', description: `${moves} moves by the player` });
  expect((await serverState(page)).phase).toBe('game_over');
  // The review is exact: 3-piece Masters is solved on the spot, and drawn on its own board.
  await page.click('#game-over-review');
  await expect(page.locator('#review-content')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('#review-players')).toContainText('Masters, 3 pieces');
  await expect(page.locator('#review-source')).not.toContainText('estimated by the search');
  await expect(page.locator('#review-board')).toHaveAttribute('data-rule-set', 'masters');
});

test('an Aseb game on the 3 x 12 board is played to the end, and fits a 360 px phone', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openFreshGame(page);
  await chooseSettings(page, { ruleSet: 'aseb', opponent: 'easy', pieces: 3, bearOff: 'any', autoPlay: true, speed: 'off' });
  expect((await serverState(page)).rules.name).toBe('aseb');
  await expect(page.locator('#board')).toHaveAttribute('data-board', 'aseb');
  await expect(page.locator('#board .cell-square')).toHaveCount(20);
  await expect(page.locator('#board .cell[data-tile="B12"] .rosette')).toHaveCount(1);
  const viewBox = (await page.locator('#board').getAttribute('viewBox')).split(' ').map(Number);
  expect(viewBox[2] / viewBox[3]).toBeGreaterThan(3.5); // twelve columns wide, three rows high
  await playToTheEnd(page, 'aseb-web.png', 6);
  // The next game keeps the set.
  await page.click('#game-over-new');
  await waitSettled(page);
  expect((await serverState(page)).rules.name).toBe('aseb');

  // A phone: the whole board is on screen, nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await expect(page.locator('#board')).toHaveAttribute('data-board', 'aseb');
  const box = await page.locator('#board').boundingBox();
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await screenshot(page, 'aseb-phone');
});

test('the Perfect level is refused for a custom path the solver cannot index', async ({ page }) => {
  await openFreshGame(page);
  await page.click('#settings-button');
  const dialog = page.locator('#settings-dialog');
  await dialog.locator('input[name=rule_set][value=custom]').check();
  await expect(page.locator('#custom-rules')).toBeVisible();
  await dialog.locator('select[name=custom_path]').selectOption('murray');
  await dialog.locator('input[name=opponent][value=perfect]').check();
  await dialog.locator('#settings-save-new').click();
  await expect(page.locator('#message')).toContainText('crosses itself');
  expect((await serverState(page)).rules.name ?? 'finkel').toBe('finkel');
});

test('a tile a custom path crosses twice shows both of its squares', async ({ page }) => {
  await openFreshGame(page);
  await page.click('#settings-button');
  const dialog = page.locator('#settings-dialog');
  await dialog.locator('input[name=rule_set][value=custom]').check();
  await dialog.locator('select[name=custom_path]').selectOption('murray');
  await dialog.locator('input[name=opponent][value=easy]').check();
  await dialog.locator('#settings-save-new').click();
  await waitSettled(page);
  expect((await serverState(page)).rules).toMatchObject({ name: 'custom', path: 'murray' });
  // Murray's path runs along the middle row twice: B7 is square 11 and square 17.
  await expect(page.locator('#board .cell[data-tile="B7"] .route-number')).toHaveText('11,17');
  // C1 is light's 24 and dark's 4, each once.
  await expect(page.locator('#board .cell[data-tile="C1"] .route-number')).toHaveText(['24', '4']);
  // The rules page's diagram numbers every square of the 27, both visits of the middle row,
  // with the coordinates its sentences use; no square is on Bitumen's route only.
  await page.getByRole('button', { name: 'Rules' }).click();
  const numbers = await page.locator('#route-diagram .route-number-big').allTextContents();
  expect(numbers.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 27 }, (_, i) => i + 1));
  await expect(page.locator('#route-diagram .route-coordinates text')).toHaveText(['C', 'B', 'A', '1', '2', '3', '4', '5', '6', '7', '8']);
  await expect(page.locator('#route-legend-theirs')).toBeHidden();
  await expect(page.locator('#route-caption')).not.toContainText('dashed');
  await expect(page.locator('#rules-set-prose')).toContainText('All 20 tiles are shared');
  await expect(page.locator('#rules-set-prose')).toContainText('Shell enters at A4');
});

test('a custom set is chosen column by column; an unplayable one is refused', async ({ page }) => {
  await openFreshGame(page);
  await page.click('#settings-button');
  const dialog = page.locator('#settings-dialog');
  await dialog.locator('input[name=rule_set][value=custom]').check();
  await expect(page.locator('#custom-rules')).toBeVisible();
  await dialog.locator('select[name=custom_path]').selectOption('masters');
  await dialog.locator('select[name=custom_dice]').selectOption('2');
  await dialog.locator('input[name=custom_capture_extra_throw]').check();
  await dialog.locator('#settings-save-new').click();
  await waitSettled(page);
  const game = await serverState(page);
  expect(game.rules).toMatchObject({ name: 'custom', path: 'masters', dice: 2, capture_extra_throw: true });
  expect(game.geometry.route_length).toBe(16);
  await expect(page.locator('#dice .die')).toHaveCount(2);
  // The dialog shows the custom columns again; the Masters path leaves the Aseb board.
  await page.click('#settings-button');
  await expect(dialog.locator('select[name=custom_path]')).toHaveValue('masters');
  await dialog.locator('select[name=custom_board]').selectOption('aseb');
  await dialog.locator('#settings-save-new').click();
  const refusal = 'These rules cannot be played: the masters path leaves the aseb board at C7. Nothing was changed.';
  await expect(page.locator('#message')).toHaveText(refusal);
  // The dialog stays open with the choices, and says why, so that they can be corrected.
  await expect(dialog).toBeVisible();
  await expect(page.locator('#settings-note')).toHaveText(refusal);
  await expect(dialog.locator('select[name=custom_board]')).toHaveValue('aseb');
  await expect(dialog.locator('select[name=custom_path]')).toHaveValue('masters');
  expect((await serverState(page)).rules.board).toBe('standard');
  // Corrected, the same dialog saves.
  await dialog.locator('select[name=custom_board]').selectOption('standard');
  await dialog.locator('#settings-save-new').click();
  await waitSettled(page);
  await expect(dialog).toBeHidden();
  expect((await serverState(page)).rules).toMatchObject({ name: 'custom', board: 'standard', path: 'masters' });
});

// Every number and tray label on the board as drawn: its on-screen font size (CSS size times
// the SVG's scale), its box and the box of the square or tray it belongs to, and what lies
// under its middle and its corners besides the text itself.
async function boardTexts(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('#board .route-number, #board .tray-label')].map((element) => {
      const matrix = element.getScreenCTM();
      const box = element.getBoundingClientRect();
      const square = element.closest('.cell').querySelector('.square, .tray').getBoundingClientRect();
      const under = [];
      for (const fx of [0.15, 0.5, 0.85]) {
        for (const fy of [0.35, 0.65]) {
          const below = document
            .elementsFromPoint(box.left + fx * box.width, box.top + fy * box.height)
            .find((e) => e !== element && !element.contains(e));
          under.push(below?.getAttribute('class') ?? '');
        }
      }
      return {
        text: element.textContent,
        kind: element.classList.contains('tray-label') ? 'tray' : 'number',
        size: Math.round(parseFloat(getComputedStyle(element).fontSize) * Math.hypot(matrix.a, matrix.b) * 10) / 10,
        box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
        square: { left: square.left, right: square.right, top: square.top, bottom: square.bottom, width: square.width },
        under,
      };
    }),
  );
}

// Fails with the texts that are too small, stick out of their square or tray, or lie on a
// rosette's petals.
function expectLegible(texts, where) {
  expect(texts.length, where).toBeGreaterThan(0);
  const small = texts.filter((t) => t.size < 11).map((t) => `${t.text} ${t.size}px`);
  expect(small, `${where}: text under 11 px`).toEqual([]);
  const outside = texts
    .filter((t) => t.box.left < t.square.left + 1.5 || t.box.right > t.square.right - 1.5)
    .map((t) => `${t.text} [${Math.round(t.box.left)}, ${Math.round(t.box.right)}] in [${Math.round(t.square.left)}, ${Math.round(t.square.right)}]`);
  expect(outside, `${where}: text that does not fit its square or tray`).toEqual([]);
  const onPetals = texts.filter((t) => t.under.some((c) => /petal|rosette-heart/.test(c))).map((t) => t.text);
  expect(onPetals, `${where}: numbers drawn on a rosette's petals`).toEqual([]);
}

test('the Aseb board on a 360 px phone: legible numbers and tray labels, squares and hints large enough', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await openFreshGame(page);
  await chooseSettings(page, { ruleSet: 'aseb', opponent: 'easy', pieces: 3, bearOff: 'any', autoPlay: false, speed: 'off' });
  await expect(page.locator('#board')).toHaveAttribute('data-board', 'aseb');
  const box = await page.locator('#board').boundingBox();
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expectLegible(await boardTexts(page), 'Aseb at 360 px');
  // Squares a thumb can press (44 px, as for buttons), and every square is on the board.
  await expect(page.locator('#board .cell-square')).toHaveCount(20);
  const squares = await page.locator('#board .cell-square .square').evaluateAll((rects) =>
    rects.map((rect) => rect.getBoundingClientRect()).map((r) => ({ width: r.width, height: r.height, right: r.right })),
  );
  expect(Math.min(...squares.map((s) => Math.min(s.width, s.height)))).toBeGreaterThanOrEqual(44);
  expect(Math.max(...squares.map((s) => s.right))).toBeLessThanOrEqual(360);
  // The throw control needs no scrolling.
  const control = await page.locator('#throw-button').boundingBox();
  expect(control.y + control.height).toBeLessThanOrEqual(740);

  // Hints: the chances on the squares are as legible.
  await page.click('#hints-button');
  await expect(page.locator('#hints-button')).toHaveAttribute('aria-pressed', 'true');
  for (let step = 0; step < 40; step += 1) {
    const controls = await waitSettled(page);
    if (controls.movable > 0) break;
    if (controls.canPass) await page.click('#pass-button');
    else await page.click('#throw-button');
  }
  await expect(page.locator('#board .chance-label').first()).toBeVisible({ timeout: 30_000 });
  const labels = await page.locator('#board .chance-label text').evaluateAll((texts) =>
    texts.map((text) => {
      const matrix = text.getScreenCTM();
      const box = text.getBoundingClientRect();
      const plate = text.previousElementSibling.getBoundingClientRect();
      return {
        size: parseFloat(getComputedStyle(text).fontSize) * Math.hypot(matrix.a, matrix.b),
        inside: box.left >= plate.left && box.right <= plate.right,
      };
    }),
  );
  for (const label of labels) {
    expect(label.size).toBeGreaterThanOrEqual(13);
    expect(label.inside).toBe(true);
  }
  await screenshot(page, 'aseb-phone-hints');
});

test('route numbers are legible on every board: off the petals, inside their squares, 11 px or more', async ({ page }) => {
  test.setTimeout(120_000);
  await openFreshGame(page);
  for (const custom of [null, 'murray', 'skiriuk', 'masters']) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click('#settings-button');
    const dialog = page.locator('#settings-dialog');
    if (custom) {
      await dialog.locator('input[name=rule_set][value=custom]').check();
      await dialog.locator('select[name=custom_path]').selectOption(custom);
    } else {
      await dialog.locator('input[name=rule_set][value=finkel]').check();
    }
    await dialog.locator('input[name=opponent][value=easy]').check();
    await dialog.locator('#settings-save-new').click();
    await expect(dialog).toBeHidden();
    await waitSettled(page);
    const name = custom ?? 'finkel';
    expectLegible(await boardTexts(page), `${name} at 1280 px`);
    for (const viewport of [{ width: 360, height: 740 }, { width: 740, height: 360 }]) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(100);
      expectLegible(await boardTexts(page), `${name} at ${viewport.width} px`);
    }
    await screenshot(page, `numbers-${name}-phone`);
  }
  // The Aseb board too, with a custom path that crosses its own middle row.
  await page.setViewportSize({ width: 1280, height: 900 });
  await chooseSettings(page, { ruleSet: 'aseb', opponent: 'easy' });
  for (const viewport of [{ width: 1280, height: 900 }, { width: 360, height: 740 }, { width: 740, height: 360 }]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(100);
    expectLegible(await boardTexts(page), `aseb at ${viewport.width} px`);
  }
});
