// The throw, pass and move controls in chosen positions. The server's answers are replaced
// with prepared states (page.route) so that rare situations, like a forced pass, are certain.
const { test, expect, state, serve } = require('./helpers');

// A middle-game position: light has pieces on 4, 6 and 14, one waiting; dark sits on 8.
const crowded = {
  rules: { pieces: 4, bear_off: 'exact' },
  position: { turn: 'light', light: { start: 1, home: 0, board: [4, 6, 14] }, dark: { start: 3, home: 0, board: [8] } },
};

test('a forced pass shows "No move — pass" in place of the throw control, with the reason', async ({ page }) => {
  const passState = state({
    phase: 'pass',
    roll: 0,
    dice: [false, false, false, false],
    pass_reason: 'A throw of 0: the turn passes.',
  });
  const after = state({ version: 1001, position: { ...passState.position, turn: 'dark' }, to_move: 'dark', phase: 'throw' });
  const intents = await serve(page, passState, {
    pass: { json: { game: { ...after, version: 1002, position: { ...after.position, turn: 'light' }, to_move: 'light' }, events: [{ type: 'pass', side: 'light', reason: 'A throw of 0: the turn passes.' }, { type: 'throw', side: 'dark', roll: 0, dice: [false, false, false, false] }, { type: 'pass', side: 'dark', reason: 'A throw of 0: the turn passes.' }] } },
  });
  const pass = page.getByRole('button', { name: 'No move — pass' });
  await expect(pass).toBeVisible();
  await expect(page.locator('#throw-button')).toBeHidden();
  await expect(page.locator('#pass-reason')).toHaveText('A throw of 0: the turn passes.');
  await expect(page.locator('#roll-count')).toHaveText('0');
  await pass.click();
  await expect(page.locator('#throw-button')).toBeVisible();
  await expect(page.locator('#pass-button')).toBeHidden();
  await expect(page.locator('#throw-button')).toHaveAttribute('aria-disabled', 'false');
  expect(intents).toEqual([{ action: 'pass', body: { side: 'light', version: 1000 } }]);
});

test('an illegal press says why, and a legal one moves', async ({ page }) => {
  const game = state({
    ...crowded,
    phase: 'move',
    roll: 2,
    dice: [true, false, true, false],
    legal_moves: [{ from: 0, to: 2, capture: false, extra_throw: false }],
    // As the server words them (src/server/web_game_test.cpp checks the same position).
    illegal_reasons: {
      4: 'Square 6 already holds one of your pieces.',
      6: "Square 8 is a rosette: the opponent's piece there is safe.",
      14: 'Bearing off from square 14 needs exactly 1, not 2.',
    },
  });
  const intents = await serve(page, game, {
    move: { status: 409, json: { error: 'Refused in this test.', code: 'illegal_move' } },
  });
  const message = page.locator('#message');
  const cell = (side, route) => page.locator(`#board .cell[data-side="${side}"][data-route="${route}"]`);
  // The only movable piece waits in the start tray, and it glows.
  await expect(page.locator('#board .cell.movable')).toHaveCount(1);
  await expect(cell('light', 0)).toHaveClass(/movable/);

  await cell('light', 4).click();
  await expect(message).toHaveText('Square 6 already holds one of your pieces.');
  await cell('shared', 6).click();
  await expect(message).toHaveText("Square 8 is a rosette: the opponent's piece there is safe.");
  await cell('light', 14).click();
  await expect(message).toHaveText('Bearing off from square 14 needs exactly 1, not 2.');
  await cell('shared', 8).click();
  await expect(message).toContainText('That is a Bitumen piece');
  await cell('shared', 10).click();
  await expect(message).toContainText('Square 10 is empty');
  await cell('light', 15).click();
  await expect(message).toHaveText('Pieces at home have finished their run.');
  await expect(message).toHaveAttribute('data-kind', 'error');

  // Press the start tray, then the highlighted square.
  await cell('light', 0).click();
  await expect(cell('light', 2)).toHaveClass(/target/);
  await expect(cell('light', 2)).toHaveAttribute('aria-label', /reachable/);
  await cell('light', 2).click();
  await expect.poll(() => intents.length).toBe(1);
  expect(intents[0]).toEqual({ action: 'move', body: { from: 0, side: 'light', version: 1000 } });
  // The server's refusal is shown as it is.
  await expect(message).toHaveText('Refused in this test.');
});

// A custom set on Murray's path, as the server describes it: {rules, geometry}. Its middle row
// is squares 5-11, then 17-23 back.
async function murray(page) {
  const created = await page.request.post('/api/games', {
    data: { settings: { opponent: 'easy', rules: { name: 'masters', path: 'murray' } } },
  });
  expect(created.ok()).toBeTruthy();
  const { rules, geometry } = (await created.json()).game;
  expect(geometry.route_length).toBe(27);
  return { rules, geometry };
}

test('on a path that crosses itself, a piece on either visit of a tile is chosen and moved by pressing', async ({ page }) => {
  const game = state({
    ...(await murray(page)),
    position: { turn: 'light', light: { start: 5, home: 0, board: [16, 18] }, dark: { start: 7, home: 0, board: [] } },
    position_text: 'L:5/16,18/0:7/-/0',
    phase: 'move',
    roll: 1,
    dice: [true, false, false, false],
    legal_moves: [
      { from: 0, to: 1, capture: false, extra_throw: false },
      { from: 16, to: 17, capture: false, extra_throw: false },
      { from: 18, to: 19, capture: false, extra_throw: false },
    ],
  });
  const intents = await serve(page, game, {
    move: { status: 409, json: { error: 'Refused in this test.', code: 'illegal_move' } },
  });
  const tile = (name) => page.locator(`#board .cell[data-tile="${name}"]`);
  // B6 is squares 10 and 18: its piece is on 18, and it may move.
  await expect(tile('B6')).toHaveClass(/movable/);
  await expect(tile('B6')).toHaveAttribute('aria-label', /square 18, Shell piece, can move/);
  await tile('B6').click();
  await expect(tile('B6')).toHaveClass(/selected/);
  await expect(tile('B5')).toHaveClass(/target/);
  await tile('B5').click();
  await expect.poll(() => intents.length).toBe(1);
  expect(intents[0]).toMatchObject({ action: 'move', body: { from: 18, side: 'light' } });
  // An empty tile of two visits is named by both.
  await tile('B3').click();
  await expect(page.locator('#message')).toContainText('The tile of squares 7 and 21 is empty');
  // A7 (16) lands on B7's second visit, 17.
  await tile('A7').click();
  await expect(tile('B7')).toHaveClass(/target/);
  await tile('B7').click();
  await expect.poll(() => intents.length).toBe(2);
  expect(intents[1]).toMatchObject({ action: 'move', body: { from: 16, side: 'light' } });
});

test('two moves onto the two visits of one tile show both chances, each with its square', async ({ page }) => {
  const game = state({
    ...(await murray(page)),
    hints_on: true,
    position: { turn: 'light', light: { start: 5, home: 0, board: [10, 16] }, dark: { start: 7, home: 0, board: [] } },
    position_text: 'L:5/10,16/0:7/-/0',
    phase: 'move',
    roll: 1,
    dice: [true, false, false, false],
    legal_moves: [
      { from: 0, to: 1, capture: false, extra_throw: false },
      { from: 10, to: 11, capture: false, extra_throw: false },
      { from: 16, to: 17, capture: false, extra_throw: false },
    ],
  });
  await serve(page, game, {
    hints: {
      json: {
        exact: false,
        win: { light: 0.6, dark: 0.4 },
        moves: [
          { from: 0, to: 1, win: 0.5 },
          { from: 10, to: 11, win: 0.8 },
          { from: 16, to: 17, win: 0.76 },
        ],
      },
    },
  });
  // B7 is squares 11 and 17: one label each, apart, each naming its square.
  const eleven = page.locator('#board .chance-label[data-to="11"]');
  const seventeen = page.locator('#board .chance-label[data-to="17"]');
  await expect(eleven).toHaveText('11 80%');
  await expect(seventeen).toHaveText('17 76%');
  const [a, b] = [await eleven.boundingBox(), await seventeen.boundingBox()];
  expect(a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(true);
  await expect(page.locator('#board .chance-label[data-to="1"]')).toHaveText('50%');
});

test('presses before the throw and during the computer turn say why', async ({ page }) => {
  await serve(page, state({ ...crowded, phase: 'throw' }));
  await page.locator('#board .cell[data-side="light"][data-route="4"]').click();
  await expect(page.locator('#message')).toHaveText('Throw the dice first.');

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await serve(page, state({ ...crowded, position: { ...crowded.position, turn: 'dark' }, to_move: 'dark', phase: 'throw' }));
  await page.locator('#board .cell[data-side="light"][data-route="4"]').click();
  await expect(page.locator('#message')).toHaveText('It is not your turn: the computer is playing.');
  await page.locator('#throw-button').hover();
  await expect(page.locator('#throw-hint')).toHaveText('Wait: the computer is playing its turn.');
});

test('the dimmed throw control explains itself on hover and on press-and-hold', async ({ browser }) => {
  const context = await browser.newContext({ hasTouch: true, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await serve(page, state({
    ...crowded,
    phase: 'move',
    roll: 3,
    dice: [true, true, true, false],
    legal_moves: [{ from: 0, to: 3, capture: false, extra_throw: false }],
  }));
  const throwButton = page.locator('#throw-button');
  await expect(throwButton).toHaveAttribute('aria-disabled', 'true');
  await expect(throwButton).toHaveClass(/dimmed/);
  // aria-disabled keeps it pressable (Playwright counts it as disabled, hence force).
  await throwButton.tap({ force: true });
  await expect(page.locator('#throw-hint')).toBeVisible();
  await expect(page.locator('#throw-hint')).toHaveText('Your throw of 3 is waiting: move a glowing piece first.');
  await expect(page.locator('#message')).toHaveText('Your throw of 3 is waiting: move a glowing piece first.');
  await context.close();
});
