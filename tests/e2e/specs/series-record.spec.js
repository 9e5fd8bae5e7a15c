// The record of the game in play and games from a record: Download record (the file the page
// saves reads back to the server's records), Play from here in the replay against the computer
// and against a friend, and the new buttons on a 360 px wide phone. All against the real server.
const fs = require('node:fs');
const { test, expect, openFreshGame, chooseSettings, screenshot, serverState, waitSettled, gameId } = require('./helpers');

// Written by hand: light enters on its rosette and throws again, a pass on 0, dark's extra throw.
const RECORD = '[Light Ann]\n[Dark Bob]\n\n1. A@A1 * A1B2 / C@C3\n2. 0 -- / C3C1 * C@C2\n';

async function readRecords(page, text) {
  const response = await page.request.post('/api/records', { data: { text } });
  expect(response.ok()).toBeTruthy();
  return (await response.json()).games;
}

// The position as text (docs/notation.md) from its JSON form.
function positionText(position) {
  const side = ({ start, board, home }) => `${start}/${board.length ? board.join(',') : '-'}/${home}`;
  return `${position.turn === 'light' ? 'L' : 'D'}:${side(position.light)}:${side(position.dark)}`;
}

// Plays the person's side by clicking (the first movable piece) until `done(controls)`.
async function playUntil(page, done, limit = 200) {
  for (let step = 0; step < limit; step += 1) {
    const controls = await waitSettled(page);
    if (done(controls)) return controls;
    if (controls.gameOver) throw new Error('the game ended first');
    if (controls.canPass) await page.click('#pass-button');
    else if (controls.canThrow) await page.click('#throw-button');
    else if (controls.movable > 0) {
      await page.locator('#board .cell.movable').first().click();
      await page.locator('#board .cell.target').click();
    }
  }
  throw new Error('the game never reached the state wanted');
}

async function openRecord(page, text) {
  await page.click('#record-button');
  await page.fill('#record-text', text);
  await page.click('#record-open');
  await expect(page.locator('#replay')).toBeVisible();
}

test('Download record saves the series as RGN that reads back to the same plies', async ({ page }) => {
  await openFreshGame(page);
  await playUntil(page, (controls) => controls.movable > 0);
  await page.locator('#board .cell.movable').first().click();
  await page.locator('#board .cell.target').click();
  await playUntil(page, (controls) => controls.canThrow);

  const answer = await page.request.get(`/api/games/${await gameId(page)}/record`);
  expect(answer.ok()).toBeTruthy();
  const served = await answer.json();
  expect(served.file_name).toMatch(/^ur-.*\.rgn$/);

  const saving = page.waitForEvent('download');
  await page.click('#download-record');
  const download = await saving;
  expect(download.suggestedFilename()).toBe(served.file_name);
  const text = fs.readFileSync(await download.path(), 'utf8');
  expect(text).toMatch(/^\[\w+ [^\]\n]*\]\n/);
  expect(text).toMatch(/^\[Rules [^\]\n]+\]$/m);
  await expect(page.locator('#download-status')).toHaveText(`Saved as ${served.file_name}.`);

  // The file holds the games the server keeps: the same plies, positions included.
  const games = await readRecords(page, text);
  expect(games.length).toBe(served.records.length);
  expect(games.map((game) => game.plies)).toEqual(served.records.map((record) => record.plies));
  expect(games[0].plies.length).toBeGreaterThan(0);
});

test('Resign ends the game; the game-over dialog downloads its record too', async ({ page }) => {
  await openFreshGame(page);
  await page.click('#throw-button');
  await waitSettled(page);
  await page.click('#resign-button');
  const confirm = page.locator('#confirm-resign-dialog');
  await expect(confirm).toBeVisible();
  await confirm.locator('button[value=resign]').click();
  const dialog = page.locator('#game-over-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.locator('#game-over-title')).toHaveText('The computer wins');
  await expect(page.locator('#game-over-detail')).toHaveText('Shell resigned.');
  const game = await serverState(page);
  expect(game.phase).toBe('game_over');
  expect(game.resigned).toBe(true);
  expect(game.winner).toBe('dark');

  const saving = page.waitForEvent('download');
  await page.click('#game-over-download');
  const download = await saving;
  expect(download.suggestedFilename()).toMatch(/^ur-.*\.rgn$/);
  const text = fs.readFileSync(await download.path(), 'utf8');
  const games = await readRecords(page, text);
  expect(games.at(-1).result).toEqual({ winner: 'dark', resigned: 'light' });
  await expect(page.locator('#game-over-download-status')).toContainText('Saved as');
  await page.click('#game-over-close');
  await expect(page.locator('#resign-button')).toBeHidden();
});

for (const against of ['computer', 'friend']) {
  test(`Play from here against ${against === 'computer' ? 'the computer' : 'a friend'} goes on from the ply shown`, async ({
    page,
  }) => {
    await openFreshGame(page);
    const before = await gameId(page);
    const games = await readRecords(page, RECORD);
    await openRecord(page, RECORD);
    // After ply 3 (C@C3) Shell is to throw.
    for (let i = 0; i < 3; i += 1) await page.click('#replay-next');
    await expect(page.locator('#replay-status')).toContainText('Ply 3 of');
    const position = games[0].plies[2].position;
    expect(position.turn).toBe('light');

    await page.click('#replay-play');
    const dialog = page.locator('#play-from-dialog');
    await expect(dialog).toBeVisible();
    await expect(page.locator('#play-from-text')).toContainText('After ply 3 of 6');
    await dialog.locator(`input[name=against][value=${against}]`).check();
    if (against === 'computer') {
      await expect(page.locator('#play-from-computer')).toBeVisible();
      await page.selectOption('#play-from-level', 'easy');
      await expect(page.locator('#play-from-side')).toHaveValue('light');
    } else {
      await expect(page.locator('#play-from-computer')).toBeHidden();
    }
    await page.click('#play-from-start');
    await expect(dialog).toBeHidden();
    await expect(page.locator('#replay')).toBeHidden();
    await expect(page.locator('#game')).toBeVisible();
    await waitSettled(page);

    // A new game, followed by the page as any other: its id is the one stored.
    const id = await gameId(page);
    expect(id).not.toBe(before);
    const game = await serverState(page);
    expect(game.id).toBe(id);
    expect(game.position_text).toBe(positionText(position));
    await expect(page.locator('#position-text')).toHaveText(positionText(position));
    expect(game.human_sides).toEqual(against === 'computer' ? ['light'] : ['light', 'dark']);
    if (against === 'computer') expect(game.settings.opponent).toBe('easy');
    expect(game.phase).toBe('throw');

    // And it plays on: a throw works.
    await page.click('#throw-button');
    await waitSettled(page);
    const thrown = await serverState(page);
    expect(thrown.version).toBeGreaterThan(game.version);
    expect(thrown.log.join('\n')).toMatch(/Shell threw \d/);
  });
}

test("a refused Play from here shows the server's sentence and keeps the game", async ({ page }) => {
  await openFreshGame(page);
  const before = await gameId(page);
  await openRecord(page, RECORD);
  await page.click('#replay-last');
  await page.click('#replay-play');
  // Perfect needs the solved table of the record's rules (7 pieces), which this server lacks.
  await page.locator('#play-from-dialog input[name=against][value=computer]').check();
  await page.selectOption('#play-from-level', 'perfect');
  await page.click('#play-from-start');
  await expect(page.locator('#play-from-error')).toBeVisible();
  await expect(page.locator('#play-from-error')).toContainText(/table/i);
  await expect(page.locator('#play-from-dialog')).toBeVisible();
  expect(await gameId(page)).toBe(before);
  await page.click('#play-from-dialog button[value=cancel]');
  await expect(page.locator('#replay')).toBeVisible();
});

test('the log holds the whole game and follows its end unless scrolled up', async ({ page }) => {
  test.setTimeout(120_000);
  await openFreshGame(page);
  await chooseSettings(page, { opponent: 'friend', autoPlay: true });
  await page.click('.log-panel summary');
  const list = page.locator('#log');
  const atEnd = () => list.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight < 4);
  // One step of the friend game, and the log as the server has it afterwards.
  const playOne = async () => {
    const before = (await serverState(page)).version;
    await playUntil(page, (controls) => controls.canThrow || controls.canPass);
    await page.click((await waitSettled(page)).canPass ? '#pass-button' : '#throw-button');
    await waitSettled(page);
    const game = await serverState(page);
    expect(game.version).toBeGreaterThan(before);
    await expect(list.locator('li')).toHaveCount(game.log.length);
    return game;
  };
  // More than 20 lines, the old limit.
  let game = await serverState(page);
  for (let step = 0; step < 100 && game.log.length <= 24; step += 1) game = await playOne();
  expect(game.log.length).toBeGreaterThan(20);
  await expect(list.locator('li').last()).toHaveText(game.log.at(-1));
  expect(await list.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
  expect(await atEnd()).toBe(true);

  // Scrolled up to read, the list stays where it is while the game goes on.
  await list.evaluate((element) => {
    element.scrollTop = 0;
  });
  await page.waitForTimeout(100);
  await playOne();
  expect(await list.evaluate((element) => element.scrollTop)).toBe(0);
  // Back at the end, it follows again.
  await list.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  await page.waitForTimeout(100);
  await playOne();
  expect(await atEnd()).toBe(true);
});

test.describe('on a 360 px wide phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test('the new buttons fit without horizontal scrolling', async ({ page }) => {
    await openFreshGame(page);
    const inView = async (selector) => {
      const box = await page.locator(selector).boundingBox();
      expect(box, selector).not.toBeNull();
      expect(box.x, selector).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, selector).toBeLessThanOrEqual(360);
    };
    const noSideways = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await inView('#download-record');
    await noSideways();
    // Take back shows after a choice between two or more moves.
    await playUntil(page, (controls) => controls.movable >= 2);
    await page.locator('#board .cell.movable').first().click();
    await page.locator('#board .cell.target').click();
    await waitSettled(page);
    await expect(page.locator('#take-back-button')).toBeVisible();
    await inView('#take-back-button');
    await inView('#download-record');
    await noSideways();
    await screenshot(page, 'take-back-360');

    await openRecord(page, RECORD);
    await inView('#replay-play');
    await noSideways();
    await page.click('#replay-play');
    await inView('#play-from-start');
    await inView('#play-from-level');
    await noSideways();
    await screenshot(page, 'play-from-360');
  });
});
