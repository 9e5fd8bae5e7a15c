// The throw, pass and move controls in chosen positions. The server's answers are replaced
// with prepared states (page.route) so that rare situations, like a forced pass, are certain.
const { test, expect } = require('./helpers');

const GAME_ID = 'g-00000000000e2e01';

function state(overrides) {
  const base = {
    id: GAME_ID,
    version: 1000,
    settings: { opponent: 'easy', pieces: 7, bear_off: 'exact', starts: 'alternate', auto_play: false, auto_pass: false, seat: 'light' },
    next_settings: null,
    rules: { pieces: 7, bear_off: 'exact' },
    position: { turn: 'light', light: { start: 7, home: 0, board: [] }, dark: { start: 7, home: 0, board: [] } },
    phase: 'throw',
    to_move: 'light',
    roll: null,
    dice: null,
    legal_moves: [],
    pass_reason: null,
    human_sides: ['light'],
    computer_sides: ['dark'],
    winner: null,
    tally: { light: 0, dark: 0 },
    game_number: 1,
    starting_side: 'light',
    opening: null,
    log: [],
  };
  return { ...base, ...overrides };
}

// Serves `game` for GET and records intents; `answers[action]` gives the reply to an intent.
async function serve(page, game, answers = {}) {
  const intents = [];
  await page.addInitScript((id) => localStorage.setItem('ur.gameId', JSON.stringify(id)), GAME_ID);
  await page.route('**/api/games/**', async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const action = url.pathname.split('/')[4];
    if (!action) {
      await route.fulfill({ json: { game } });
      return;
    }
    intents.push({ action, body: request.postDataJSON() });
    const answer = answers[action];
    if (answer) await route.fulfill(answer);
    else await route.fulfill({ status: 409, json: { error: 'Not in this test.', code: 'bad_request' } });
  });
  await page.goto('/');
  await expect(page.locator('#game')).toHaveAttribute('aria-busy', 'false');
  return intents;
}

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
  expect(intents).toEqual([{ action: 'pass', body: { side: 'light' } }]);
});

test('an illegal press says why, and a legal one moves', async ({ page }) => {
  const game = state({
    ...crowded,
    phase: 'move',
    roll: 2,
    dice: [true, false, true, false],
    legal_moves: [{ from: 0, to: 2, capture: false, extra_throw: false }],
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
  await expect(message).toHaveText("Square 8 is the central rosette: the opponent's piece there is safe.");
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
  expect(intents[0]).toEqual({ action: 'move', body: { from: 0, side: 'light' } });
  // The server's refusal is shown as it is.
  await expect(message).toHaveText('Refused in this test.');
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
