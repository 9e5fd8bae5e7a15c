// The server is killed (SIGKILL) and restarted mid-game: both players' pages reconnect by
// themselves and play on, with nothing lost. This test runs its own `ur serve` (UR_BINARY) on
// a free port with its own data directory, so the suite's server is not disturbed.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { test, expect, newPerson, readControls, hostGame, actOnce } = require('./helpers');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startServer(port, dataDir) {
  const child = spawn(process.env.UR_BINARY, ['serve', '--host', '127.0.0.1', '--port', String(port), '--data', dataDir, '--quiet'], {
    env: { ...process.env, XDG_DATA_HOME: dataDir },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('ur serve did not answer /api/health within 20 s');
}

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
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ur-e2e-restart.'));
  const base = `http://127.0.0.1:${port}`;
  let server = await startServer(port, dataDir);
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
    const before = await (await fetch(`${base}/api/games/${id}`)).json();
    await expect(ann.locator('#position-text')).toHaveText(before.game.position_text);
    await expect(bob.locator('#position-text')).toHaveText(before.game.position_text);

    await killed(server);
    await expect(ann.locator('#connection')).toHaveText('Reconnecting to the server…', { timeout: 15_000 });
    server = await startServer(port, dataDir);
    // Both pages are back by themselves, with the same game, seats and names.
    await expect(ann.locator('#connection')).toBeHidden({ timeout: 15_000 });
    await expect(bob.locator('#connection')).toBeHidden({ timeout: 15_000 });
    const after = await (await fetch(`${base}/api/games/${id}`)).json();
    expect(after.game.version).toBe(before.game.version);
    expect(after.game.position_text).toBe(before.game.position_text);
    expect(after.game.log).toEqual(before.game.log);
    await expect(ann.locator('#online-banner')).toHaveText('Bob is connected.', { timeout: 15_000 });
    await expect(bob.locator('#online-banner')).toHaveText('Ann is connected.', { timeout: 15_000 });
    await expect(ann.locator('#player-dark .player-name')).toHaveText('Bob · Bitumen');

    // And they play on.
    await actions([ann, bob], 6);
    const later = await (await fetch(`${base}/api/games/${id}`)).json();
    expect(later.game.version).toBeGreaterThan(before.game.version);
    expect(later.game.log.slice(0, before.game.log.length)).toEqual(before.game.log);
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
