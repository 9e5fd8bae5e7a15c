// Playing a turn: the hop, what the message line and the log say, the speed-of-play settings,
// the keys, a second window and a lost connection (issue 12). Prepared states (serve) make
// the situations certain; the rest runs against the real server.
const { test, expect, state, serve, openFreshGame, chooseSettings, waitSettled, serverState } = require('./helpers');

const cell = (page, side, route) => page.locator(`#board .cell[data-side="${side}"][data-route="${route}"]`);

// Records every text the message line shows, from the first paint on.
async function recordMessages(page) {
  await page.addInitScript(() => {
    window.messages = [];
    document.addEventListener('DOMContentLoaded', () => {
      const message = document.getElementById('message');
      new MutationObserver(() => window.messages.push(message.textContent)).observe(message, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
  });
}

// Counts the Web Animations the page starts (the hop and capture animations use them).
async function countAnimations(page) {
  await page.addInitScript(() => {
    window.animations = 0;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args) {
      window.animations += 1;
      return animate.apply(this, args);
    };
  });
}

// Light on square 1 with a throw of 4: the one legal move goes to shared square 5.
const hopState = state({
  position: { turn: 'light', light: { start: 6, home: 0, board: [1] }, dark: { start: 7, home: 0, board: [] } },
  phase: 'move',
  roll: 4,
  dice: [true, true, true, true],
  legal_moves: [{ from: 1, to: 5, capture: false, extra_throw: false }],
});
const afterHop = state({
  version: 1001,
  position: { turn: 'dark', light: { start: 6, home: 0, board: [5] }, dark: { start: 7, home: 0, board: [] } },
  to_move: 'dark',
});
const hopAnswer = {
  json: { game: afterHop, events: [{ type: 'move', side: 'light', from: 1, to: 5, capture: false, extra_throw: false }] },
};

// Plays the hop of hopState with the page's preferences `prefs` and answers how many
// animations it started.
async function animationsOfAHop(page, prefs) {
  await page.addInitScript((saved) => localStorage.setItem('ur.prefs', JSON.stringify(saved)), prefs);
  await serve(page, hopState, { move: hopAnswer });
  await cell(page, 'light', 1).click();
  await cell(page, 'shared', 5).click();
  await expect(page.locator('#board .pieces [data-cell="1-0"]')).toHaveCount(1);
  return page.evaluate(() => window.animations);
}

test.describe('with full motion', () => {
  test.use({ reducedMotion: 'no-preference' });

  test('a moving piece is not drawn on its start square while it hops', async ({ page }) => {
    await serve(page, hopState, { move: hopAnswer });
    await cell(page, 'light', 1).click();
    await cell(page, 'shared', 5).click();
    // Mid-animation: the hopping copy is on the board, and nothing else is on square 1.
    const during = await page.waitForFunction(() => {
      if (!document.querySelector('#board .overlay .moving')) return null;
      const start = document.querySelector('#board .pieces [data-cell="2-3"]');
      return { drawn: Boolean(start) && getComputedStyle(start).visibility !== 'hidden' };
    });
    expect(await during.jsonValue()).toEqual({ drawn: false });
    await expect(page.locator('#board .overlay .moving')).toHaveCount(0);
    await expect(page.locator('#board .pieces [data-cell="1-0"]')).toHaveCount(1);
    await expect(page.locator('#board .pieces [data-cell="2-3"]')).toHaveCount(0);
  });

  test('speed of play "off" moves without animation; "normal" animates', async ({ page }) => {
    await countAnimations(page);
    expect(await animationsOfAHop(page, { sound: false, speed: 'off' })).toBe(0);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(await animationsOfAHop(page, { sound: false, speed: 'normal' })).toBeGreaterThan(0);
  });
});

test('reduced motion still animates nothing at the fast speed', async ({ page }) => {
  await countAnimations(page);
  expect(await animationsOfAHop(page, { sound: false, speed: 'fast' })).toBe(0);
});

test('the speed of play and one-press moves are in Settings and kept', async ({ page }) => {
  await openFreshGame(page);
  await page.click('#settings-button');
  const dialog = page.locator('#settings-dialog');
  await expect(dialog.locator('input[name=speed][value=normal]')).toBeChecked();
  await dialog.locator('input[name=speed][value=fast]').check();
  await dialog.locator('input[name=one_press]').check();
  await page.locator('#settings-save').click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.locator('#game')).toHaveAttribute('aria-busy', 'false');
  await page.click('#settings-button');
  await expect(dialog.locator('input[name=speed][value=fast]')).toBeChecked();
  await expect(dialog.locator('input[name=one_press]')).toBeChecked();
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('ur.prefs')))).toMatchObject({ speed: 'fast', one_press: true });
});

test('with one-press moves, pressing a movable piece moves it', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('ur.prefs', JSON.stringify({ sound: false, one_press: true })));
  const intents = await serve(page, hopState, { move: hopAnswer });
  await cell(page, 'light', 1).click();
  await expect.poll(() => intents.length).toBe(1);
  expect(intents[0]).toEqual({ action: 'move', body: { from: 1, side: 'light', version: 1000 } });
  await expect(page.locator('#board .pieces [data-cell="1-0"]')).toHaveCount(1);
});

test('Space and Enter throw and pass, but not from a button or a dialog', async ({ page }) => {
  const thrown = state({ version: 1001, phase: 'pass', roll: 0, dice: [false, false, false, false], pass_reason: 'A throw of 0: the turn passes.' });
  const passed = state({ version: 1002 });
  const intents = await serve(page, state({}), {
    throw: { json: { game: thrown, events: [{ type: 'throw', side: 'light', roll: 0, dice: [false, false, false, false] }] } },
    pass: { json: { game: passed, events: [{ type: 'pass', side: 'light', reason: 'A throw of 0: the turn passes.' }] } },
  });
  await page.locator('#message').click();
  await page.keyboard.press('Space');
  await expect(page.locator('#pass-button')).toBeVisible();
  await page.locator('#message').click();
  await page.keyboard.press('Enter');
  await expect(page.locator('#throw-button')).toBeVisible();
  expect(intents.map((i) => i.action)).toEqual(['throw', 'pass']);
  // In the settings dialog Space ticks a box; on a button Enter presses that button.
  await page.click('#settings-button');
  await page.locator('input[name=sound]').focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('Escape');
  await page.locator('#rules-button').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#rules-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  expect(intents.map((i) => i.action)).toEqual(['throw', 'pass']);
});

test('an automatic move keeps the throw on the message line, before the move', async ({ page }) => {
  await recordMessages(page);
  const game = state({ settings: { ...state({}).settings, auto_play: true } });
  const after = state({
    version: 1001,
    settings: game.settings,
    position: { turn: 'dark', light: { start: 6, home: 0, board: [1] }, dark: { start: 7, home: 0, board: [] } },
    to_move: 'dark',
  });
  await serve(page, game, {
    throw: {
      json: {
        game: after,
        events: [
          { type: 'throw', side: 'light', roll: 1, dice: [true, false, false, false] },
          { type: 'move', side: 'light', from: 0, to: 1, capture: false, extra_throw: false },
        ],
      },
    },
  });
  await page.click('#throw-button');
  await expect(page.locator('#board .pieces [data-cell="2-3"]')).toHaveCount(1);
  const messages = await page.evaluate(() => window.messages);
  expect(messages).toContain('You threw 1. You entered a piece on square 1.');
  expect(messages).not.toContain('You entered a piece on square 1.');
});

test('the prompt on a capture target says that it captures', async ({ page }) => {
  await serve(page, state({
    rules: { pieces: 4, bear_off: 'exact' },
    position: { turn: 'light', light: { start: 3, home: 0, board: [5] }, dark: { start: 3, home: 0, board: [7] } },
    phase: 'move',
    roll: 2,
    dice: [true, true, false, false],
    legal_moves: [{ from: 5, to: 7, capture: true, extra_throw: false }],
  }));
  await cell(page, 'shared', 5).click();
  await expect(page.locator('#message')).toHaveText('Now press the highlighted square: square 7, which captures the Bitumen piece there.');
  await expect(cell(page, 'shared', 7)).toHaveAttribute('aria-label', /reachable: press to move here and capture the Bitumen piece/);
});

test('friends read one set of names, never doubled', async ({ page }) => {
  const friend = {
    settings: { ...state({}).settings, opponent: 'friend' },
    human_sides: ['light', 'dark'],
    computer_sides: [],
  };
  await serve(page, state({
    ...friend,
    position: { turn: 'dark', light: { start: 7, home: 0, board: [] }, dark: { start: 7, home: 0, board: [] } },
    to_move: 'dark',
    phase: 'move',
    roll: 1,
    dice: [true, false, false, false],
    legal_moves: [{ from: 0, to: 1, capture: false, extra_throw: false }],
  }));
  await expect(page.locator('#message')).toHaveText('Bitumen threw 1. Press a glowing piece (or the start tray), then its highlighted square.');

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await serve(page, state({
    ...friend,
    position: { turn: 'dark', light: { start: 0, home: 7, board: [] }, dark: { start: 7, home: 0, board: [] } },
    phase: 'game_over',
    to_move: null,
    winner: 'light',
    tally: { light: 1, dark: 0 },
  }));
  await expect(page.locator('#game-over-tally')).toHaveText('Games won: Shell 1 – 0 Bitumen');
});

test('a real friend game speaks of Shell and Bitumen only', async ({ page }) => {
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'friend', pieces: 3, starts: 'higher' });
  for (let action = 0; action < 16; action += 1) {
    const controls = await waitSettled(page);
    if (controls.gameOver) break;
    if (controls.movable > 0) {
      await page.locator('#board .cell.movable').first().click();
      await page.locator('#board .cell.target').click();
    } else if (controls.canPass) {
      await page.click('#pass-button');
    } else {
      await page.click('#throw-button');
    }
    const texts = await page.evaluate(() => [document.getElementById('message').textContent, document.getElementById('announcer').textContent]);
    for (const text of texts) {
      expect(text).not.toMatch(/\b(Light|Dark)\b/);
      expect(text).not.toMatch(/\b(Shell|Bitumen)\W+\1\b/);
    }
  }
  const log = await page.locator('#log li').allTextContents();
  expect(log.length).toBeGreaterThan(3);
  for (const line of log) {
    expect(line).not.toMatch(/\b(Light|Dark)\b/);
    expect(line).not.toMatch(/\b(Shell|Bitumen)\W+\1\b/);
  }
  expect(log.join('\n')).toMatch(/Shell/);
});

test('Save before the first throw leaves one start line in the log', async ({ page }) => {
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'friend', pieces: 7, starts: 'alternate' });
  await page.click('#settings-button');
  await page.locator('input[name=starts][value=higher]').check();
  await page.locator('#settings-save').click();
  await expect.poll(async () => (await serverState(page)).settings.starts).toBe('higher');
  await waitSettled(page);
  const game = await serverState(page);
  // The earlier game of the series keeps its own line; this game has one.
  const prefix = `Game ${game.game_number}: `;
  const starts = game.log.filter((line) => line.startsWith(prefix));
  expect(starts).toEqual([`${prefix}${game.starting_side === 'light' ? 'Shell' : 'Bitumen'} starts.`]);
  await page.locator('.log-panel summary').click();
  await expect(page.locator('#log li', { hasText: prefix })).toHaveCount(1);
});

test('the seat against the computer is a setting', async ({ page }) => {
  await openFreshGame(page);
  await page.click('#settings-button');
  await page.locator('input[name=opponent][value=easy]').check();
  await page.locator('input[name=seat][value=dark]').check();
  await page.locator('#settings-save-new').click();
  await waitSettled(page);
  const game = await serverState(page);
  expect(game.settings.seat).toBe('dark');
  expect(game.human_sides).toEqual(['dark']);
  await expect(page.locator('#player-dark .player-name')).toHaveText('Bitumen · you');
  await page.click('#settings-button');
  await expect(page.locator('input[name=seat][value=dark]')).toBeChecked();
});

test('a press that lost a race with another window says so and shows the game as it is', async ({ context }) => {
  const first = await context.newPage();
  await openFreshGame(first);
  await chooseSettings(first, { opponent: 'friend', pieces: 7, starts: 'alternate' });
  // The second window hears nothing pushed, so it still shows the throw phase.
  const second = await context.newPage();
  await second.routeWebSocket(/\/ws$/, () => {});
  await second.goto('/');
  await expect(second.locator('#throw-button')).toHaveAttribute('aria-disabled', 'false');
  await first.click('#throw-button');
  await waitSettled(first);
  await second.click('#throw-button');
  await expect(second.locator('#message')).toContainText('moved on in another window');
  const game = await serverState(first);
  expect(game.roll).not.toBeNull();
  await expect(second.locator('#roll-count')).toHaveText(String(game.roll));
  await expect(second.locator('#message')).not.toContainText('Throw the dice first');
});

test('the reconnect clears the "cannot be reached" error', async ({ page }) => {
  let online = true;
  const sockets = [];
  await page.routeWebSocket(/\/ws$/, (ws) => {
    sockets.push(ws);
    if (online) ws.connectToServer();
    else ws.close();
  });
  await page.route('**/api/**', (route) => (online ? route.continue() : route.abort()));
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'friend', pieces: 7, starts: 'alternate' });
  online = false;
  for (const ws of sockets) await ws.close();
  await page.click('#throw-button');
  await expect(page.locator('#message')).toContainText('cannot be reached');
  await expect(page.locator('#connection')).toBeVisible();
  online = true;
  await expect(page.locator('#connection')).toBeHidden({ timeout: 20_000 });
  await expect(page.locator('#message')).not.toContainText('cannot be reached');
});
