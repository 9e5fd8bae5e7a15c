// Shared steps for the browser tests: reading what the page shows and pressing controls.
const path = require('node:path');
const fs = require('node:fs');
const base = require('@playwright/test');

const { expect } = base;

// UR_WEB_DIR=path/to/web serves the page's files from there instead of the binary (to see a
// new test fail on an older page, e.g. `git archive HEAD web | tar -x -C /tmp/old`).
async function serveWebDir(context, directory) {
  await context.route(
    (url) => !url.pathname.startsWith('/api/'),
    async (route) => {
      const name = new URL(route.request().url()).pathname.replace(/^\/$/, '/index.html');
      const file = path.join(directory, path.normalize(name));
      if (!file.startsWith(path.resolve(directory)) || !fs.existsSync(file)) return route.fulfill({ status: 404 });
      const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
      return route.fulfill({ body: fs.readFileSync(file), contentType: types[path.extname(file)] ?? 'application/octet-stream' });
    },
  );
}

// Every test fails if the page throws an uncaught error.
const test = base.test.extend({
  context: async ({ context }, use) => {
    if (process.env.UR_WEB_DIR) await serveWebDir(context, path.resolve(process.env.UR_WEB_DIR));
    await use(context);
  },
  page: async ({ page }, use) => {
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});

const screenshotDir =
  process.env.UR_SCREENSHOTS || path.resolve(__dirname, '../../../build/e2e-screenshots');

// Where the pictures in docs/ are taken: build/e2e-screenshots/ unless UR_UPDATE_DOCS=1 asks to
// refresh docs/ itself, so an ordinary test run leaves the checkout as it was.
const docsShotDir = process.env.UR_UPDATE_DOCS === '1' ? path.resolve(__dirname, '../../../docs') : screenshotDir;

function docsShotPath(name) {
  fs.mkdirSync(docsShotDir, { recursive: true });
  return path.join(docsShotDir, name);
}

async function screenshot(page, name) {
  fs.mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

// Opens the page on a fresh game and waits until the first state is drawn.
async function openFreshGame(page) {
  await page.goto('/');
  await expect(page.locator('#player-light .player-name')).not.toBeEmpty();
  await expect(page.locator('#game')).toHaveAttribute('aria-busy', 'false');
}

// Chooses settings in the dialog by clicking, then starts a new game with them.
async function chooseSettings(page, { ruleSet, opponent, pieces, bearOff, starts, autoPlay, speed, sound = false }) {
  await page.click('#settings-button');
  const dialog = page.locator('#settings-dialog');
  await expect(dialog).toBeVisible();
  // The set first: choosing it resets the pieces and bear-off to the set's own.
  if (ruleSet) {
    await dialog.locator(`input[name=rule_set][value=${ruleSet}]`).check();
    await expect(dialog.locator(`.rule-set-summary[data-rule-set=${ruleSet}]`)).not.toBeEmpty();
  }
  if (opponent) await dialog.locator(`input[name=opponent][value=${opponent}]`).check();
  if (pieces) await dialog.locator(`input[name=pieces][value="${pieces}"]`).check();
  if (bearOff) await dialog.locator(`input[name=bear_off][value=${bearOff}]`).check();
  if (starts) await dialog.locator(`input[name=starts][value=${starts}]`).check();
  if (autoPlay !== undefined) await dialog.locator('input[name=auto_play]').setChecked(autoPlay);
  await dialog.locator('input[name=sound]').setChecked(sound);
  if (speed) await dialog.locator(`input[name=speed][value=${speed}]`).check();
  await dialog.locator('#settings-save-new').click();
  await expect(dialog).toBeHidden();
  await waitSettled(page);
}

// What the player can do now, read from the page.
async function readControls(page) {
  return page.evaluate(() => {
    const throwButton = document.getElementById('throw-button');
    return {
      busy: document.getElementById('game').getAttribute('aria-busy') === 'true',
      canThrow: !throwButton.hidden && throwButton.getAttribute('aria-disabled') === 'false',
      canPass: !document.getElementById('pass-button').hidden,
      movable: document.querySelectorAll('#board .cell.movable').length,
      gameOver: document.getElementById('game-over-dialog').open,
    };
  });
}

// Waits until the page waits for the player (or the game is over).
async function waitSettled(page, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const controls = await readControls(page);
    if (!controls.busy && (controls.canThrow || controls.canPass || controls.movable > 0 || controls.gameOver)) {
      return controls;
    }
    if (Date.now() > deadline) throw new Error(`page never became ready: ${JSON.stringify(controls)}`);
    await page.waitForTimeout(40);
  }
}

async function gameId(page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('ur.gameId')));
}

// The seat token the page holds for the game in play (localStorage `ur.seats`).
async function seatToken(page, id = null) {
  return page.evaluate((gameId) => {
    const game = gameId ?? JSON.parse(localStorage.getItem('ur.gameId'));
    return JSON.parse(localStorage.getItem('ur.seats') ?? '{}')[game] ?? null;
  }, id);
}

// An intent on the game in play as the page's seat, sent by the test (not by pressing).
async function postIntent(page, action, body = {}) {
  const id = await gameId(page);
  const token = await seatToken(page);
  return page.request.post(`/api/games/${id}/${action}`, { data: body, headers: { Authorization: `Bearer ${token}` } });
}

async function serverState(page) {
  const id = await gameId(page);
  const response = await page.request.get(`/api/games/${id}`);
  expect(response.ok()).toBeTruthy();
  return (await response.json()).game;
}

// Prepared states: the server's answers replaced with page.route (see controls.spec.js).
const GAME_ID = 'g-00000000000e2e01';
const PREPARED_TOKEN = 'e2e0'.repeat(16);

// Finkel's geometry as GET /api/rule-sets sent it (the page draws every board from one).
const FINKEL_GEOMETRY = JSON.parse(fs.readFileSync(path.join(__dirname, 'finkel-geometry.json'), 'utf8'));

// A prepared game state (docs/web-api.md GameState) with `overrides` applied.
function state(overrides) {
  const base = {
    id: GAME_ID,
    version: 1000,
    settings: { opponent: 'easy', pieces: 7, bear_off: 'exact', starts: 'alternate', auto_play: false, auto_pass: false, seat: 'light' },
    next_settings: null,
    rules: { pieces: 7, bear_off: 'exact' },
    geometry: FINKEL_GEOMETRY,
    position: { turn: 'light', light: { start: 7, home: 0, board: [] }, dark: { start: 7, home: 0, board: [] } },
    position_text: 'L:7/-/0:7/-/0',
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
  // The page holds the prepared game's seat, so it plays instead of watching.
  await page.addInitScript(
    ([id, token]) => {
      localStorage.setItem('ur.gameId', JSON.stringify(id));
      localStorage.setItem('ur.seats', JSON.stringify({ [id]: token }));
    },
    [GAME_ID, PREPARED_TOKEN],
  );
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

// A browser context of its own (a second person), with the page's files as `context` has them.
async function newPersonContext(browser, options = {}) {
  const context = await browser.newContext({ reducedMotion: 'reduce', ...options });
  if (process.env.UR_WEB_DIR) await serveWebDir(context, path.resolve(process.env.UR_WEB_DIR));
  return context;
}

// Quick settings for a person of the online specs: no sound, no animations, one press moves a
// piece; games of 3 pieces that bear off with any throw, so that a whole game is short.
const QUICK_PREFS = { sound: false, speed: 'off', one_press: true };
const QUICK_SETTINGS = { opponent: 'easy', pieces: 3, bear_off: 'any', starts: 'alternate', rules: { name: 'finkel' } };

// A person: a page in a browser context of their own (their own localStorage, so their own
// seats), with the quick settings unless they have chosen others; `page.errors` collects the
// page's uncaught errors.
async function newPerson(browser, baseURL, options = {}) {
  const context = await newPersonContext(browser, { baseURL, ...options });
  await context.addInitScript(
    ([prefs, settings]) => {
      if (!localStorage.getItem('ur.prefs')) localStorage.setItem('ur.prefs', JSON.stringify(prefs));
      if (!localStorage.getItem('ur.settings')) localStorage.setItem('ur.settings', JSON.stringify(settings));
    },
    [QUICK_PREFS, QUICK_SETTINGS],
  );
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(error.message));
  return page;
}

// The host opens the page and invites a friend, from the Play online dialog or from the
// settings: answers the invite link.
async function hostGame(page, name, via = 'online') {
  await page.goto('/');
  await expect(page.locator('#game')).toHaveAttribute('aria-busy', 'false');
  if (via === 'settings') {
    await page.click('#settings-button');
    await expect(page.locator('#settings-name-field')).toBeHidden();
    await page.locator('input[name=opponent][value=online]').check();
    await page.fill('#settings-name', name);
    await page.click('#settings-save');
  } else {
    await page.click('#online-button');
    await page.fill('#online-name', name);
    await page.click('#online-invite');
  }
  const dialog = page.locator('#link-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.locator('#link-title')).toHaveText('Invite a friend');
  await expect(page.locator('#link-waiting')).toHaveText('Waiting for your friend to join…');
  await expect(page.locator('#link-qr svg')).toBeVisible();
  const link = await page.locator('#link-url').inputValue();
  expect(link).toMatch(/#join=[0-9a-f]{32}$/);
  return link;
}

// The game as the server has it once every one of `pages` shows that position (the last
// click's request may still be on its way when a test stops acting): `read` fetches the game
// state (with its position_text); polls for up to 30 s.
async function stateShownOn(pages, read) {
  const spaced = (text) => (text || '').replace(/\s+/g, ' ').trim();
  let game;
  await expect
    .poll(async () => {
      game = await read();
      const shown = await Promise.all(pages.map((page) => page.locator('#position-text').textContent()));
      return shown.every((text) => spaced(text) === spaced(game.position_text));
    }, { timeout: 30_000 })
    .toBe(true);
  return game;
}

// One action of whoever of `pages` may act now: answers true when someone acted.
async function actOnce(pages) {
  for (const page of pages) {
    const controls = await readControls(page);
    if (controls.busy || controls.gameOver) continue;
    if (controls.canPass) await page.click('#pass-button', { timeout: 15_000 });
    else if (controls.canThrow) await page.click('#throw-button', { timeout: 15_000 });
    else if (controls.movable > 0) await page.locator('#board .cell.movable').last().click({ timeout: 15_000 });
    else continue;
    return true;
  }
  return false;
}

// Plays on until both players see the game over (or `untilActions` actions were taken).
module.exports = {
  GAME_ID,
  QUICK_PREFS,
  QUICK_SETTINGS,
  newPerson,
  newPersonContext,
  test,
  expect,
  screenshot,
  docsShotPath,
  openFreshGame,
  chooseSettings,
  readControls,
  hostGame,
  actOnce,
  stateShownOn,
  waitSettled,
  gameId,
  seatToken,
  postIntent,
  serverState,
  state,
  serve,
};
