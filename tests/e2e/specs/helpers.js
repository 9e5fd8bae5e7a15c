// Shared steps for the browser tests: reading what the page shows and pressing controls.
const path = require('node:path');
const fs = require('node:fs');
const base = require('@playwright/test');

const { expect } = base;

// Every test fails if the page throws an uncaught error.
const test = base.test.extend({
  page: async ({ page }, use) => {
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});

const screenshotDir =
  process.env.UR_SCREENSHOTS || path.resolve(__dirname, '../../../build/e2e-screenshots');

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
async function chooseSettings(page, { opponent, pieces, bearOff, starts, autoPlay, sound = false }) {
  await page.click('#settings-button');
  const dialog = page.locator('#settings-dialog');
  await expect(dialog).toBeVisible();
  if (opponent) await dialog.locator(`input[name=opponent][value=${opponent}]`).check();
  if (pieces) await dialog.locator(`input[name=pieces][value="${pieces}"]`).check();
  if (bearOff) await dialog.locator(`input[name=bear_off][value=${bearOff}]`).check();
  if (starts) await dialog.locator(`input[name=starts][value=${starts}]`).check();
  if (autoPlay !== undefined) await dialog.locator('input[name=auto_play]').setChecked(autoPlay);
  await dialog.locator('input[name=sound]').setChecked(sound);
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

async function serverState(page) {
  const id = await gameId(page);
  const response = await page.request.get(`/api/games/${id}`);
  expect(response.ok()).toBeTruthy();
  return (await response.json()).game;
}

module.exports = { test, expect, screenshot, openFreshGame, chooseSettings, readControls, waitSettled, gameId, serverState };
