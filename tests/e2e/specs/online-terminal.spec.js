// The terminal and the page as two real clients of one server (issue 16): `ur play --host`
// runs in a private tmux server, the browser joins through the invite link read off the
// terminal's screen, and each side sees a move of the other. Every wait is bounded.
const { execFileSync } = require('node:child_process');
const { test, expect, waitSettled } = require('./helpers');

const socket = `ur-online-terminal-${process.pid}`;
const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const pane = () => tmux('capture-pane', '-p', '-J', '-t', 'host');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function hasTmux() {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// Waits until the terminal shows `pattern`; answers the match.
async function paneShows(pattern, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = pane();
    const match = text.match(pattern);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`the terminal never showed ${pattern}:\n${text}`);
    await sleep(100);
  }
}

// Waits until the game's version passes `version`; answers the new state.
async function changed(page, id, version, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const game = (await (await page.request.get(`/api/games/${id}`)).json()).game;
    if (game.version > version) return game;
    if (Date.now() > deadline) throw new Error(`game ${id} stayed at version ${version}:\n${pane()}`);
    await sleep(100);
  }
}

test.afterEach(() => {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
});

test('a game hosted by ur play --host is joined from the browser, and each side sees the other move', async ({ page }) => {
  test.skip(!hasTmux(), 'tmux is not installed');
  test.skip(!process.env.UR_BINARY, 'UR_BINARY is not set (scripts/run-e2e.sh sets it)');
  test.setTimeout(180_000);
  const base = process.env.UR_BASE_URL;
  const command = `'${process.env.UR_BINARY}' play --host ${base}/ --name Ann --no-color; sleep 30`;
  tmux('new-session', '-d', '-x', '100', '-y', '30', '-s', 'host', command);

  const [link] = await paneShows(/http:\/\/\S+\/#join=[0-9a-f]{32}/);
  expect(link.startsWith(`${base}/#join=`)).toBeTruthy();
  const [, id] = await paneShows(/#watch=(g-[0-9a-f]+)/);

  await page.goto(link);
  const dialog = page.locator('#join-dialog');
  await expect(dialog).toBeVisible();
  await page.fill('#join-name', 'Bob');
  await page.click('#join-button');
  await expect(dialog).toBeHidden();
  await paneShows(/Bitumen — Bob · connected/);

  // Ann (Shell, light) opens game 1 with keys in the terminal; Bob plays in the page.
  let game = (await (await page.request.get(`/api/games/${id}`)).json()).game;
  let annMoved = false;
  let bobMoved = false;
  for (let step = 0; step < 80 && !(annMoved && bobMoved) && game.phase !== 'game_over'; step += 1) {
    if (game.to_move === 'light') {
      if (game.phase === 'throw') {
        await paneShows(/Your turn: throw the dice/);
        tmux('send-keys', '-t', 'host', 't');
      } else if (game.phase === 'move') {
        await paneShows(/\(Enter to move\)/);
        tmux('send-keys', '-t', 'host', 'Enter');
        if (!annMoved) {
          // The page shows Ann's move.
          await expect(page.locator('#log')).toContainText(/(Shell|Ann) (entered a piece|moved \d+ to|bore a piece)/);
        }
        annMoved = true;
      } else {
        await paneShows(/press p or Enter to pass/);
        tmux('send-keys', '-t', 'host', 'p');
      }
    } else {
      const controls = await waitSettled(page);
      if (controls.canThrow) {
        await page.click('#throw-button');
      } else if (controls.movable > 0) {
        await page.locator('#board .cell.movable').first().click();
        await page.locator('#board .cell.target').click();
        // The terminal narrates Bob's move.
        if (!bobMoved) await paneShows(/Bob moved/);
        bobMoved = true;
      } else if (controls.canPass) {
        await page.click('#pass-button');
      }
    }
    game = await changed(page, id, game.version);
  }
  expect(annMoved && bobMoved, `moves: Ann ${annMoved}, Bob ${bobMoved}`).toBeTruthy();

  // q leaves the terminal's seat and prints the way back.
  tmux('send-keys', '-t', 'host', 'q');
  await paneShows(/Come back with: ur play --join http:\/\/\S+#seat=g-[0-9a-f]+\.[0-9a-f]{64}/);
});
