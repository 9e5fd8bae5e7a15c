// Two `ur serve` processes on one throwaway PostgreSQL cluster (issue 17): one player's
// browser on each server plays an online game to its end, and a spectator watches on the
// first. The spec starts its own cluster (scripts/pg-cluster.sh) and servers (UR_BINARY), so
// the suite's server is not involved; a missing PostgreSQL fails it.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test, expect, newPerson, hostGame, actOnce } = require('./helpers');
const { startServe } = require('./serve-process');

const PG_CLUSTER = path.resolve(__dirname, '../../../scripts/pg-cluster.sh');

// `ur serve --database URL` on a port it picks: { child, base }.
function startServer(databaseUrl, dataDir) {
  return startServe(dataDir, { extra: ['--database', databaseUrl] });
}

function stopped(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function stateOn(base, id) {
  const answer = await fetch(`${base}/api/games/${id}`);
  expect(answer.ok).toBeTruthy();
  return (await answer.json()).game;
}

test.describe('two servers on one PostgreSQL', () => {
  const clusterDir = `/tmp/ur-e2e-pg-${process.pid}`;
  const dataDirs = [];
  let servers = [];

  test.beforeAll(async () => {
    test.skip(!process.env.UR_BINARY, 'UR_BINARY is not set (scripts/run-e2e.sh sets it)');
    const url = execFileSync(PG_CLUSTER, ['start', clusterDir], { timeout: 60_000, encoding: 'utf8' }).trim();
    for (let i = 0; i < 2; i += 1) {
      dataDirs.push(fs.mkdtempSync(path.join('/tmp', 'ur-e2e-cluster.')));
      servers.push(await startServer(url, dataDirs[i]));
    }
  });

  test.afterAll(async () => {
    await Promise.all(servers.map(({ child }) => stopped(child)));
    servers = [];
    try {
      execFileSync(PG_CLUSTER, ['stop', clusterDir], { timeout: 60_000 });
    } finally {
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('one player on each server plays to the end; a spectator on the first sees every move', async ({ browser }) => {
    test.setTimeout(180_000);
    const [first, second] = servers.map((server) => server.base);
    const ann = await newPerson(browser, first);
    const bob = await newPerson(browser, second);
    // Bob opens the invite on the other server, as a balancer might send him there.
    const invite = new URL(await hostGame(ann, 'Ann')).hash;
    await bob.goto(`${second}/${invite}`);
    await expect(bob.locator('#join-dialog')).toBeVisible();
    await bob.fill('#join-name', 'Bob');
    await bob.click('#join-button');
    await expect(bob.locator('#join-dialog')).toBeHidden();
    // Presence crosses the servers.
    await expect(ann.locator('#online-banner')).toHaveText('Bob is connected.');
    await expect(bob.locator('#online-banner')).toHaveText('Ann is connected.');
    await expect(ann.locator('#link-dialog')).toBeHidden();
    const id = await ann.evaluate(() => JSON.parse(localStorage.getItem('ur.gameId')));
    expect(await bob.evaluate(() => JSON.parse(localStorage.getItem('ur.gameId')))).toBe(id);

    const eve = await newPerson(browser, first);
    await eve.goto(`${first}/#watch=${id}`);
    await expect(eve.locator('#online-banner')).toContainText('You are watching this game.');
    await expect(eve.locator('#online-banner')).toContainText('Ann is connected. Bob is connected.');

    // Action by action, the spectator's board follows, whichever server the move came through:
    // once an action is stored (the second server's version moved on), the spectator on the
    // first server shows that very position before anyone acts again.
    let actions = 0;
    let version = (await stateOn(second, id)).version;
    const deadline = Date.now() + 150_000;
    for (;;) {
      const over = await Promise.all([ann, bob].map((page) => page.locator('#game-over-dialog').evaluate((d) => d.open)));
      if (over.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error(`the game did not end in time (${actions} actions)`);
      if (!(await actOnce([ann, bob]))) {
        await ann.waitForTimeout(40);
        continue;
      }
      actions += 1;
      let stored = null;
      await expect
        .poll(async () => {
          stored = await stateOn(second, id);
          return stored.version;
        })
        .toBeGreaterThan(version);
      version = stored.version;
      await expect(eve.locator('#position-text')).toHaveText(stored.position_text);
    }
    expect(actions).toBeGreaterThan(5);
    const last = await stateOn(first, id);
    expect(last.phase).toBe('game_over');
    expect(await stateOn(second, id)).toMatchObject({ version: last.version, position_text: last.position_text, log: last.log });
    for (const page of [ann, bob, eve]) await expect(page.locator('#position-text')).toHaveText(last.position_text);
    await expect(eve.locator('#throw-button')).toBeHidden();
    for (const page of [ann, bob, eve]) {
      expect(page.errors, 'uncaught errors in the page').toEqual([]);
      await page.context().close();
    }
  });
});
