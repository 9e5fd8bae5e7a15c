// Opening a game record (pasted or from a file), stepping through it on the replay board,
// the error of a bad record, the review's figures and its absence without a solved table.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const AxeBuilder = require('@axe-core/playwright').default;
const { test, expect, openFreshGame, screenshot, serverState, waitSettled } = require('./helpers');

// Written by hand: light enters on its rosette and throws again, a pass on 0, dark's extra throw.
const RECORD = '[Light Ann]\n[Dark Bob]\n\n1. A@A1 * A1B2 / C@C3\n2. 0 -- / C3C1 * C@C2\n';
const TWO_GAMES = `${RECORD}\n[Rules "Finkel with Two Pieces"]\n[Light Cy]\n[Dark Di]\n\n1. A@A2 / C@C2\n`;

async function readRecords(page, text) {
  const response = await page.request.post('/api/records', { data: { text } });
  expect(response.ok()).toBeTruthy();
  return (await response.json()).games;
}

// What the replay board shows: "side:route" for every piece on a square, and the trays' counts.
async function boardPieces(page, id = 'replay-board') {
  return page.evaluate((id) => {
    const board = document.getElementById(id);
    const cell = (key) => {
      const [row, col] = key.split('-');
      return board.querySelector(`.cell[data-row="${row}"][data-col="${col}"]`);
    };
    const squares = [...board.querySelectorAll('.piece[data-cell]')].map((piece) => {
      const side = piece.classList.contains('piece-light') ? 'light' : 'dark';
      return `${side}:${cell(piece.dataset.cell).dataset.route}`;
    });
    const trays = {};
    for (const tray of board.querySelectorAll('.tray-pieces[data-cell]')) {
      const { kind, side } = cell(tray.dataset.cell).dataset;
      trays[`${side}-${kind}`] = Number(tray.dataset.count);
    }
    return { squares: squares.sort(), trays };
  }, id);
}

function expectedPieces(position) {
  const squares = [];
  const trays = {};
  for (const side of ['light', 'dark']) {
    for (const route of position[side].board) squares.push(`${side}:${route}`);
    trays[`${side}-start`] = position[side].start;
    trays[`${side}-home`] = position[side].home;
  }
  return { squares: squares.sort(), trays };
}

async function expectPly(page, games, ply) {
  const status = page.locator('#replay-status');
  if (ply === 0) {
    await expect(status).toContainText('The start');
    await expect(page.locator('.replay-ply[aria-current="step"]')).toHaveCount(0);
    return;
  }
  await expect(status).toContainText(`Ply ${ply} of`);
  await expect(page.locator('.replay-ply[aria-current="step"]')).toHaveAttribute('data-ply', String(ply));
  expect(await boardPieces(page)).toEqual(expectedPieces(games[0].plies[ply - 1].position));
}

async function openPasted(page, text) {
  await page.click('#record-button');
  await expect(page.locator('#record-dialog')).toBeVisible();
  await page.fill('#record-text', text);
  await page.click('#record-open');
}

test('a pasted record replays ply by ply with the keys, the list and Close', async ({ page }) => {
  await openFreshGame(page);
  await page.click('#throw-button');
  await waitSettled(page);
  const before = await serverState(page);
  const games = await readRecords(page, RECORD);
  expect(games[0].plies.map((ply) => ply.rgn)).toEqual(['A@A1 *', 'A1B2', 'C@C3', '0 --', 'C3C1 *', 'C@C2']);

  await openPasted(page, RECORD);
  await expect(page.locator('#record-dialog')).toBeHidden();
  await expect(page.locator('#replay')).toBeVisible();
  await expect(page.locator('#game')).toBeHidden();
  await expect(page.locator('#replay-players')).toContainText('Shell: Ann · Bitumen: Bob');
  await expect(page.locator('#replay-game-line')).toBeHidden();
  await expect(page.locator('.replay-ply')).toHaveCount(6);
  await expect(page.locator('.replay-ply').nth(3)).toHaveText(/^2\. Shell threw 0: 0 --/);
  await expectPly(page, games, 0);
  expect(await boardPieces(page)).toEqual(expectedPieces({ light: { start: 7, home: 0, board: [] }, dark: { start: 7, home: 0, board: [] } }));

  await page.keyboard.press('ArrowRight');
  await expectPly(page, games, 1);
  await page.keyboard.press('ArrowRight');
  await expectPly(page, games, 2);
  await page.keyboard.press('End');
  await expectPly(page, games, 6);
  await page.keyboard.press('ArrowLeft');
  await expectPly(page, games, 5);
  await page.locator('.replay-ply[data-ply="3"]').click();
  await expectPly(page, games, 3);
  await page.keyboard.press('Home');
  await expectPly(page, games, 0);

  // The server has no solved table here: said once, and the replay goes on without figures.
  await expect(page.locator('#replay-note')).toHaveText(
    'No solved table for these rules: the review needs ur solve --pieces 7.',
  );
  await expect(page.locator('.review-class')).toHaveCount(0);

  await page.click('#replay-close');
  await expect(page.locator('#replay')).toBeHidden();
  await expect(page.locator('#game')).toBeVisible();
  const after = await serverState(page);
  expect(after.version).toBe(before.version);
  expect(after.phase).toBe(before.phase);
  await expect(page.locator('#position-text')).toHaveText(before.position_text);
  await expect(page.locator('#roll-count')).toHaveText(String(before.roll ?? '–'));
});

test('a record file with two games offers a picker', async ({ page }) => {
  await openFreshGame(page);
  await page.click('#record-button');
  await page.setInputFiles('#record-file', {
    name: 'two.rgn',
    mimeType: 'text/plain',
    buffer: Buffer.from(TWO_GAMES),
  });
  await expect(page.locator('#record-text')).toHaveValue(TWO_GAMES);
  await page.click('#record-open');
  await expect(page.locator('#replay-game-line')).toBeVisible();
  await page.selectOption('#replay-game', '1');
  await expect(page.locator('#replay-players')).toContainText('Shell: Cy · Bitumen: Di');
  await expect(page.locator('.replay-ply')).toHaveCount(2);
  // Tables of up to 4 pieces are solved on first use: this 2-piece game has its review.
  await expect(page.locator('.replay-ply .review-class')).toHaveCount(2);
  await expect(page.locator('#replay-note')).toBeHidden();
  await page.keyboard.press('End');
  const games = await readRecords(page, TWO_GAMES);
  await expect(page.locator('#replay-status')).toContainText('Ply 2 of 2');
  expect(await boardPieces(page)).toEqual(expectedPieces(games[1].plies[1].position));
});

// A game begun from a given position, as every game of Play from here is: its Position tag
// names the start (Shell: one piece waiting and one on 5), which the replay starts from.
const FROM_POSITION = '[Rules "Finkel with Two Pieces"]\n[Position "L:1/5/0:2/-/0"]\n\n1. B1B2 / C@C3\n2. B2B3\n';

test('a record begun from a given position replays from that position', async ({ page }) => {
  await openFreshGame(page);
  const games = await readRecords(page, FROM_POSITION);
  await openPasted(page, FROM_POSITION);
  await expectPly(page, games, 0);
  await expect(page.locator('#replay-status')).toHaveText('The start: the position the game began in, as the record gives it, before ply 1 of 3.');
  const start = { turn: 'light', light: { start: 1, home: 0, board: [5] }, dark: { start: 2, home: 0, board: [] } };
  expect(await boardPieces(page)).toEqual(expectedPieces(start));
  await page.keyboard.press('ArrowRight');
  await expectPly(page, games, 1);
  await page.keyboard.press('Home');
  expect(await boardPieces(page)).toEqual(expectedPieces(start));
  // Play from here at the start offers the side to move there.
  await page.click('#replay-play');
  await expect(page.locator('#play-from-side')).toHaveValue('light');
  await page.locator('#play-from-dialog').getByRole('button', { name: 'Cancel' }).click();

  // A record of the position alone, no ply played yet.
  const alone = '[Rules "Finkel with Two Pieces"]\n[Position "D:0/7/1:1/9/0"]\n';
  await openPasted(page, alone);
  await expect(page.locator('#replay-status')).toHaveText('The start: the position the game began in, as the record gives it; the record holds no ply.');
  expect(await boardPieces(page)).toEqual(
    expectedPieces({ light: { start: 0, home: 1, board: [7] }, dark: { start: 1, home: 0, board: [9] } }),
  );
  await page.click('#replay-play');
  await expect(page.locator('#play-from-side')).toHaveValue('dark');
  await page.locator('#play-from-dialog').getByRole('button', { name: 'Cancel' }).click();

  // The review shows the same board before the first throw.
  await openPasted(page, FROM_POSITION);
  await page.click('#replay-review-button');
  await expect(page.locator('#review-content')).toBeVisible({ timeout: 60_000 });
  await page.locator('.review-ply[data-index="0"]').click();
  expect(await boardPieces(page, 'review-board')).toEqual(expectedPieces(start));
});

// Murray's path crosses itself: no solved table can exist for it, only the search's estimate.
const MURRAY = '[Rules Custom]\n[Board standard]\n[Path murray]\n[Dice "1"]\n[ZeroRoll pass]\n[SafeRosettes yes]\n' +
  '[RosetteExtraThrow yes]\n[CaptureExtraThrow no]\n[Pieces "3"]\n\n1. A@A4 / C@C4\n';

test('a record of a set with no exact review says what the page offers instead', async ({ page }) => {
  await openFreshGame(page);
  await openPasted(page, MURRAY);
  const note = page.locator('#replay-note');
  await expect(note).toBeVisible();
  await expect(note).toContainText('its path crosses itself');
  await expect(note).toContainText('Review shows the expert search’s estimate instead.');
  // Never the API's own words.
  await expect(note).not.toContainText('"estimate"');
  await expect(page.locator('.review-class')).toHaveCount(0);
});

test('a bad record shows the error line and changes nothing', async ({ page }) => {
  await openFreshGame(page);
  const before = await serverState(page);
  await openPasted(page, '1. A@A2 / C@C2\n3. A2B1\n');
  const error = page.locator('#record-error');
  await expect(error).toBeVisible();
  await expect(error).toContainText('line 2, column 1: expected turn 2, found "3."');
  await expect(page.locator('#record-dialog')).toBeVisible();
  await page.fill('#record-text', 'x'.repeat(1_100_000));
  await page.click('#record-open');
  await expect(error).toHaveText('The record is larger than 1 MiB, the most the server reads at once.');
  await page.locator('#record-dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('#record-dialog')).toBeHidden();
  await expect(page.locator('#replay')).toBeHidden();
  await expect(page.locator('#game')).toBeVisible();
  expect((await serverState(page)).version).toBe(before.version);
});

// The figures with a review the server would give with a table (the e2e server has none):
// the page's drawing of them is what is tested here; hub_test checks the review itself.
test('the review figures show for the current ply and mark each move', async ({ page }) => {
  const classes = ['forced', 'best', 'mistake', 'forced', 'inaccuracy', 'blunder'];
  await page.route('**/api/review', (route) =>
    route.fulfill({
      json: {
        throws: classes.map((name, index) => ({
          ply: index + 1,
          forced: name === 'forced',
          win_before: 0.5,
          win_best: 0.56,
          win_played: name === 'mistake' ? 0.48 : 0.56,
          loss: name === 'mistake' ? 0.08 : 0,
          class: name,
          only_move: false,
          luck: index === 2 ? 0.06 : 0.01,
          luck_mark: index === 2 ? 'lucky' : null,
          moves: [{ from: 1, to: 7, win: 0.56 }],
        })),
        exact: true,
      },
    }),
  );
  await openFreshGame(page);
  await openPasted(page, RECORD);
  await expect(page.locator('.review-class')).toHaveCount(6);
  await expect(page.locator('.replay-ply[data-ply="3"] .review-class')).toHaveText('? mistake');
  await page.locator('.replay-ply[data-ply="3"]').click();
  const panel = page.locator('#replay-review');
  await expect(panel).toContainText('Chance before50.0% for Bitumen');
  // The moves in the board's route numbers, as the best move is; RGN stays in the move list.
  await expect(panel).toContainText('Best move1 → 7: 56.0%');
  await expect(panel).toContainText('Playedenter on 2: 48.0%');
  await expect(page.locator('#replay-status')).toHaveText('Ply 3 of 6: turn 1, Bitumen threw 2, enter on 2.');
  await expect(page.locator('.replay-ply[data-ply="3"]')).toContainText('C@C3');
  await expect(panel).toContainText('Loss8.0 pp, mistake');
  await expect(panel).toContainText('Luck+6.0 pp, lucky');
  await expect(page.locator('#replay-note')).toBeHidden();
});

test('the replay view passes axe and fits a phone', async ({ page }) => {
  await openFreshGame(page);
  await page.click('#record-button');
  const dialogViolations = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .include('#record-dialog')
    .analyze();
  expect(dialogViolations.violations.map((v) => v.id)).toEqual([]);
  await page.fill('#record-text', RECORD);
  await page.click('#record-open');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await screenshot(page, 'records-replay');

  await page.setViewportSize({ width: 360, height: 740 });
  const layout = await page.evaluate(() => {
    const texts = [...document.querySelectorAll('#replay *')].filter(
      // The board's own text is checked in board units by layout.spec.js.
      (element) =>
        !element.closest('svg') && element.childElementCount === 0 && element.textContent.trim() && element.getClientRects().length,
    );
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      smallest: Math.min(...texts.map((element) => parseFloat(getComputedStyle(element).fontSize))),
    };
  });
  expect(layout.overflow).toBeLessThanOrEqual(0);
  expect(layout.smallest).toBeGreaterThanOrEqual(11);
  await screenshot(page, 'records-replay-phone');
});

// Last in this file: from here on the server has the 2-piece table (solved in milliseconds).
test('with a solved table the review of a real record shows its figures', async ({ page }) => {
  const { UR_BINARY, UR_DATA_DIR } = process.env;
  test.skip(!UR_BINARY || !UR_DATA_DIR, 'needs scripts/run-e2e.sh, which names the server and its data directory');
  execFileSync(UR_BINARY, ['solve', '--pieces', '2', '--out', path.join(UR_DATA_DIR, 'ur-2p-exact.table')], { stdio: 'pipe' });
  await openFreshGame(page);
  await openPasted(page, '[Rules "Finkel with Two Pieces"]\n\n1. A@A2 / C@C2\n2. A2B1 / C2B1x\n');
  await expect(page.locator('.review-class')).toHaveCount(4);
  await expect(page.locator('#replay-note')).toBeHidden();
  await page.keyboard.press('ArrowRight');
  const panel = page.locator('#replay-review');
  await expect(panel).toContainText(/Chance before\d+\.\d% for Shell/);
  await expect(panel).toContainText(/Playedenter on 3: \d+\.\d%/);
  await expect(panel).toContainText(/Loss\d+\.\d pp, (forced|best|excellent|good|inaccuracy|mistake|blunder)/);
  await expect(panel).toContainText(/Luck[+−]\d+\.\d pp/);
  await screenshot(page, 'records-review');
});
