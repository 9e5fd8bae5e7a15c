// The server is killed (SIGKILL) and restarted mid-game: both players' pages reconnect by
// themselves and play on, with nothing lost. This test runs its own `ur serve` (UR_BINARY) on
// a port of its own with its own data directory, so the suite's server is not disturbed.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test, expect, newPerson, readControls, hostGame, actOnce, stateShownOn } = require('./helpers');
const { startServe } = require('./serve-process');

function killed(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const person = newPerson;

async function actions(pages, count) {
  let done = 0;
  const deadline = Date.now() + 60_000;
  while (done < count) {
    if (Date.now() > deadline) throw new Error(`only ${done} of ${count} actions were possible`);
    if (await actOnce(pages)) done += 1;
    else await pages[0].waitForTimeout(40);
    if ((await Promise.all(pages.map((p) => readControls(p)))).some((c) => c.gameOver)) return done;
  }
  return done;
}

test('the server is killed and restarted mid-game: both players reconnect and play on', async ({ browser }) => {
  test.skip(!process.env.UR_BINARY, 'UR_BINARY is not set (scripts/run-e2e.sh sets it)');
  test.setTimeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ur-e2e-restart.'));
  const started = await startServe(dataDir);
  const { base, port } = started;
  let server = started.child;
  try {
    const ann = await person(browser, base);
    const bob = await person(browser, base);
    const link = await hostGame(ann, 'Ann');
    await bob.goto(link);
    await expect(bob.locator('#join-dialog')).toBeVisible();
    await bob.fill('#join-name', 'Bob');
    await bob.click('#join-button');
    await expect(ann.locator('#online-banner')).toHaveText('Bob is connected.');
    await expect(ann.locator('#link-dialog')).toBeHidden();
    await actions([ann, bob], 10);
    const id = await ann.evaluate(() => JSON.parse(localStorage.getItem('ur.gameId')));
    const before = await stateShownOn([ann, bob], async () => (await (await fetch(`${base}/api/games/${id}`)).json()).game);

    await killed(server);
    await expect(ann.locator('#connection')).toHaveText('Reconnecting to the server…', { timeout: 15_000 });
    server = (await startServe(dataDir, { port })).child;
    // Both pages are back by themselves, with the same game, seats and names.
    await expect(ann.locator('#connection')).toBeHidden({ timeout: 15_000 });
    await expect(bob.locator('#connection')).toBeHidden({ timeout: 15_000 });
    const after = await (await fetch(`${base}/api/games/${id}`)).json();
    expect(after.game.version).toBe(before.version);
    expect(after.game.position_text).toBe(before.position_text);
    expect(after.game.log).toEqual(before.log);
    await expect(ann.locator('#online-banner')).toHaveText('Bob is connected.', { timeout: 15_000 });
    await expect(bob.locator('#online-banner')).toHaveText('Ann is connected.', { timeout: 15_000 });
    await expect(ann.locator('#player-dark .player-name')).toHaveText('Bob · Bitumen');

    // And they play on.
    await actions([ann, bob], 6);
    const later = await (await fetch(`${base}/api/games/${id}`)).json();
    expect(later.game.version).toBeGreaterThan(before.version);
    expect(later.game.log.slice(0, before.log.length)).toEqual(before.log);
    await expect(bob.locator('#position-text')).toHaveText(later.game.position_text);
    for (const page of [ann, bob]) {
      expect(page.errors, 'uncaught errors in the page').toEqual([]);
      await page.context().close();
    }
  } finally {
    await killed(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
