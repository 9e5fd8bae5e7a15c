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
async function boardPieces(page) {
  return page.evaluate(() => {
    const board = document.getElementById('replay-board');
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
  });
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
  await expect(panel).toContainText('Best move1 → 7: 56.0%');
  await expect(panel).toContainText('PlayedC@C3: 48.0%');
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
  await expect(panel).toContainText(/PlayedA@A2: \d+\.\d%/);
  await expect(panel).toContainText(/Loss\d+\.\d pp, (forced|best|excellent|good|inaccuracy|mistake|blunder)/);
  await expect(panel).toContainText(/Luck[+−]\d+\.\d pp/);
  await screenshot(page, 'records-review');
});
