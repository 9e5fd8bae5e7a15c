// Online play (issue 16) between browser contexts, each one person: the invite link, presence,
// a whole game to its end and a rematch, a spectator who sees every move and cannot act, a
// copied game id without its seat token, quick match, and prepared states for claiming the
// win (its 2 minutes are not waited for here).
const AxeBuilder = require('@axe-core/playwright').default;
const { test, expect, newPerson, hostGame, actOnce, screenshot, state, serve, stateShownOn } = require('./helpers');

const BASE = process.env.UR_BASE_URL || 'http://127.0.0.1:8080';

// A person: a browser context of their own (their own localStorage, so their own seats).
function person(browser, baseURL = BASE, options = {}) {
  return newPerson(browser, baseURL, options);
}

async function closeAll(...pages) {
  for (const page of pages) {
    expect(page.errors, 'uncaught errors in the page').toEqual([]);
    await page.context().close();
  }
}

async function joinGame(page, link, name) {
  await page.goto(link);
  await expect(page.locator('#join-dialog')).toBeVisible();
  await page.fill('#join-name', name);
  await page.click('#join-button');
  await expect(page.locator('#join-dialog')).toBeHidden();
  // The invite leaves the address bar.
  await expect.poll(() => new URL(page.url()).hash).toBe('');
  await expect(page.locator('#online-status')).toBeVisible();
}

async function gameIdOf(page) {
  return page.evaluate(() => JSON.parse(localStorage.getItem('ur.gameId')));
}

async function apiState(page, id) {
  const answer = await page.request.get(`/api/games/${id}`);
  expect(answer.ok()).toBeTruthy();
  return (await answer.json()).game;
}

async function playOn(pages, { untilActions = Infinity, timeout = 120_000 } = {}) {
  const deadline = Date.now() + timeout;
  let actions = 0;
  while (actions < untilActions) {
    const over = await Promise.all(pages.map((page) => page.locator('#game-over-dialog').evaluate((d) => d.open)));
    if (over.every(Boolean)) return actions;
    if (Date.now() > deadline) throw new Error(`the game did not end in time (${actions} actions)`);
    if (await actOnce(pages)) actions += 1;
    else await pages[0].waitForTimeout(40);
  }
  return actions;
}

test('two people play a whole online game from the invite link, a spectator follows, then a rematch', async ({ browser }) => {
  test.setTimeout(180_000);
  const ann = await person(browser);
  const bob = await person(browser);
  const link = await hostGame(ann, 'Ann');
  await screenshot(ann, 'online-invite');
  const axe = await new AxeBuilder({ page: ann }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).include('#link-dialog').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  // Nothing can be played before the friend comes.
  await expect(ann.locator('#online-banner')).toContainText('Waiting for your friend to join…');
  await joinGame(bob, link, 'Bob');
  // The host's invite closes by itself; both see both names and that the other is there.
  await expect(ann.locator('#link-dialog')).toBeHidden();
  await expect(ann.locator('#online-banner')).toHaveText('Bob is connected.');
  await expect(bob.locator('#online-banner')).toHaveText('Ann is connected.');
  await expect(ann.locator('#player-light .player-name')).toHaveText('Ann · Shell · you');
  await expect(ann.locator('#player-dark .player-name')).toHaveText('Bob · Bitumen');
  await expect(bob.locator('#player-dark .player-name')).toHaveText('Bob · Bitumen · you');
  await expect(bob.locator('#player-light .player-presence')).toHaveText('connected');
  await screenshot(bob, 'online-game');
  // Fairness: no hints, take-back or record while the game runs.
  for (const page of [ann, bob]) {
    await expect(page.locator('#hints-button')).toBeHidden();
    await expect(page.locator('#take-back-button')).toBeHidden();
    await expect(page.locator('#download-record')).toBeHidden();
  }
  const id = await gameIdOf(ann);
  expect(await gameIdOf(bob)).toBe(id);
  const first = await apiState(ann, id);
  expect(first.online).toBe(true);
  expect(first.waiting_for_opponent).toBe(false);

  // A spectator from the spectator link: live, and without controls.
  await ann.click('#watch-link-button');
  const watchLink = await ann.locator('#link-url').inputValue();
  expect(watchLink).toBe(`${BASE}/#watch=${id}`);
  await ann.click('#link-close');
  const eve = await person(browser);
  await eve.goto(watchLink);
  await expect(eve.locator('#online-banner')).toContainText('You are watching this game.');
  await expect(eve.locator('#online-banner')).toContainText('Ann is connected. Bob is connected.');
  await expect(eve.locator('#throw-button')).toBeHidden();
  await expect(eve.locator('#resign-button')).toBeHidden();
  await screenshot(eve, 'online-watching');

  // A few actions, then the spectator's board is the players' board.
  await playOn([ann, bob], { untilActions: 12 });
  await expect.poll(async () => (await apiState(ann, id)).version).toBeGreaterThan(first.version);
  const mid = await stateShownOn([eve], () => apiState(ann, id));
  // The spectator's presses change nothing, and the server refuses its requests.
  await eve.locator('#board .cell').first().click();
  const refused = await eve.request.post(`/api/games/${id}/throw`, { data: { version: mid.version } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).code).toBe('seat_token_missing');
  // Bob's token cannot act for Ann.
  const bobToken = await bob.evaluate((gameId) => JSON.parse(localStorage.getItem('ur.seats'))[gameId], id);
  const wrongSeat = await bob.request.post(`/api/games/${id}/resign`, {
    data: { side: 'light' },
    headers: { Authorization: `Bearer ${bobToken}` },
  });
  expect(wrongSeat.status()).toBe(403);
  expect((await wrongSeat.json()).code).toBe('not_your_seat');

  await playOn([ann, bob]);
  const over = await apiState(ann, id);
  expect(over.phase).toBe('game_over');
  // The spectator saw every move: the same log to the end, line for line (its socket's updates
  // carry only the new lines).
  await expect(eve.locator('#log li')).toHaveText(await ann.locator('#log li').allTextContents());
  await expect(eve.locator('#position-text')).toHaveText(over.position_text);
  const winner = over.winner === 'light' ? ann : bob;
  await expect(winner.locator('#game-over-title')).toHaveText('You win!');
  await expect(eve.locator('#game-over-title')).toHaveText(`${over.winner === 'light' ? 'Ann' : 'Bob'} wins!`);
  // The review is offered now that the game is over.
  await expect(ann.locator('#game-over-review')).toBeVisible();

  // The rematch: Ann asks, Bob accepts, and the other player opens the next game.
  await expect(ann.locator('#game-over-rematch')).toBeVisible();
  await expect(ann.locator('#game-over-new')).toBeHidden();
  await ann.click('#game-over-rematch');
  await expect(ann.locator('#game-over-rematch-text')).toHaveText('Waiting for Bob to accept the rematch…');
  await expect(bob.locator('#game-over-rematch-text')).toHaveText('Ann asks for a rematch.');
  await expect(bob.locator('#game-over-rematch')).toHaveText('Accept');
  await bob.click('#game-over-rematch');
  await expect(ann.locator('#game-over-dialog')).toBeHidden();
  await expect(bob.locator('#game-over-dialog')).toBeHidden();
  const next = await apiState(ann, id);
  expect(next.game_number).toBe(over.game_number + 1);
  expect(next.starting_side).not.toBe(over.starting_side);
  expect(next.phase).not.toBe('game_over');

  // Bob leaves: Ann sees it.
  await bob.context().close();
  await expect(ann.locator('#online-banner')).toHaveText('Bob has left.');
  await expect(ann.locator('#player-dark .player-presence')).toHaveText('has left');
  bob.errors = [];
  await closeAll(ann, eve);
});

test('a copied game id without its token and a used invite only watch', async ({ browser }) => {
  const ann = await person(browser);
  const bob = await person(browser);
  const link = await hostGame(ann, 'Ann', 'settings');
  // After a reload the host gets the same invite back.
  await ann.reload();
  await expect(ann.locator('#link-dialog')).toBeVisible();
  await expect(ann.locator('#link-url')).toHaveValue(link);
  await expect(ann.locator('#link-waiting')).toBeVisible();
  await joinGame(bob, link, 'Bob');
  await expect(ann.locator('#link-dialog')).toBeHidden();
  const id = await gameIdOf(ann);

  // Mallory copied the id into her browser: she watches, and cannot act.
  const mallory = await person(browser);
  await mallory.addInitScript((gameId) => localStorage.setItem('ur.gameId', JSON.stringify(gameId)), id);
  await mallory.goto('/');
  await expect(mallory.locator('#online-banner')).toContainText('You are watching this game.');
  await expect(mallory.locator('#throw-button')).toBeHidden();
  const game = await apiState(mallory, id);
  const forged = await mallory.request.post(`/api/games/${id}/throw`, {
    data: { version: game.version },
    headers: { Authorization: `Bearer ${'0'.repeat(64)}` },
  });
  expect(forged.status()).toBe(403);
  expect((await forged.json()).code).toBe('wrong_seat_token');
  expect((await apiState(mallory, id)).version).toBe(game.version);

  // The invite again, after it seated Bob: it opens the game for watching, and says so.
  const late = await person(browser);
  await late.goto(link);
  await late.fill('#join-name', 'Carl');
  await late.click('#join-button');
  await expect(late.locator('#message')).toHaveText('This invite has been used already, so you are watching the game.');
  await expect(late.locator('#online-banner')).toContainText('You are watching this game.');
  expect(await gameIdOf(late)).toBe(id);

  // Continue on another device: Ann's seat link gives a second browser her seat.
  await ann.click('#seat-link-button');
  const seatLink = await ann.locator('#link-url').inputValue();
  expect(seatLink).toMatch(new RegExp(`#seat=${id}\\.[0-9a-f]{64}\\.light$`));
  await expect(ann.locator('#link-qr svg')).toBeVisible();
  // A phone, at that.
  const tablet = await person(browser, BASE, { viewport: { width: 360, height: 740 } });
  await tablet.goto(seatLink);
  await expect(tablet.locator('#message')).toHaveText('This device now holds your seat in this game: play on.');
  await expect.poll(() => new URL(tablet.url()).hash).toBe('');
  await expect(tablet.locator('#player-light .player-name')).toHaveText('Ann · Shell · you');
  await tablet.click('#seat-link-button');
  await expect(tablet.locator('#link-qr svg')).toBeVisible();
  // The dialog fits the phone's width.
  const box = await tablet.locator('#link-dialog').boundingBox();
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  await screenshot(tablet, 'online-seat-link-phone');
  await tablet.click('#link-close');
  await closeAll(ann, bob, mallory, late, tablet);
});

test('quick match pairs two people, one of them playing the computer meanwhile', async ({ browser }) => {
  const ann = await person(browser);
  const bob = await person(browser);
  await ann.goto('/');
  await expect(ann.locator('#game')).toHaveAttribute('aria-busy', 'false');
  // Cancelling leaves the queue.
  await ann.click('#online-button');
  await ann.fill('#online-name', 'Ann');
  await ann.click('#online-queue');
  await expect(ann.locator('#queue-dialog')).toBeVisible();
  await expect(ann.locator('#queue-time')).toHaveText(/Waiting for another player… 0:0\d/);
  await ann.click('#queue-cancel');
  await expect(ann.locator('#queue-dialog')).toBeHidden();
  await expect(ann.locator('#message')).toHaveText('You left the queue.');

  // Again, and a game against the computer while waiting.
  await ann.click('#online-button');
  await ann.click('#online-queue');
  await expect(ann.locator('#queue-dialog')).toBeVisible();
  await expect(ann.locator('#queue-time')).toHaveText(/0:0[1-9]/);
  await ann.click('#queue-computer');
  await expect(ann.locator('#queue-status')).toBeVisible();
  await expect(ann.locator('#queue-status-text')).toContainText('Still looking for an opponent online');
  await expect(ann.locator('#player-dark .player-name')).toContainText('computer');

  // Bob's tab is in the background, with sound on: his turn is heard and shown in the title.
  await bob.addInitScript(() => {
    localStorage.setItem('ur.prefs', JSON.stringify({ sound: true, speed: 'off', one_press: true }));
    Object.defineProperty(document, 'hidden', { get: () => true });
    window.tones = 0;
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () {
      window.tones += 1;
      return create.call(this);
    };
  });
  await bob.goto('/');
  await expect(bob.locator('#game')).toHaveAttribute('aria-busy', 'false');
  await bob.click('#online-button');
  await bob.fill('#online-name', 'Bob');
  await bob.click('#online-queue');
  // Bob is paired at once; Ann within about a second, with a notice.
  await expect(bob.locator('#message')).toHaveText('Matched: you play Bitumen against Ann.');
  await expect(ann.locator('#message')).toHaveText(
    'Matched: you play Shell against Bob. Your game against the computer was left where it was.',
  );
  await expect(ann.locator('#queue-status')).toBeHidden();
  expect(await gameIdOf(ann)).toBe(await gameIdOf(bob));
  await expect(ann.locator('#online-banner')).toHaveText('Bob is connected.');
  await expect(bob.locator('#online-banner')).toHaveText('Ann is connected.');
  // Ann (Shell) opens; once her turn is over, Bob's background tab says it is his.
  const tonesBefore = await bob.evaluate(() => window.tones);
  await expect.poll(async () => {
    await playOn([ann], { untilActions: 1, timeout: 5000 }).catch(() => 0);
    return bob.title();
  }, { timeout: 30_000 }).toBe('Your turn · ur');
  expect(await bob.evaluate(() => window.tones)).toBeGreaterThan(tonesBefore);
  await playOn([ann, bob], { untilActions: 4 });
  await closeAll(ann, bob);
});

// Prepared online states: Bob (dark) left on his turn.
const ONLINE = {
  online: true,
  waiting_for_opponent: false,
  rematch_offer: null,
  claimable: false,
  to_move: 'dark',
  position: { turn: 'dark', light: { start: 7, home: 0, board: [] }, dark: { start: 7, home: 0, board: [] } },
  human_sides: ['light', 'dark'],
  computer_sides: [],
  settings: { opponent: 'online', pieces: 7, bear_off: 'exact', starts: 'alternate', auto_play: false, auto_pass: false, seat: 'light' },
};

function seats(leftAt) {
  return {
    light: { name: 'Ann', player: 'person', taken: true, connected: true, left_at: null },
    dark: { name: 'Bob', player: 'person', taken: true, connected: false, left_at: leftAt },
  };
}

async function serveOnline(page, game, answers) {
  await page.addInitScript(() => {
    localStorage.setItem('ur.prefs', JSON.stringify({ sound: false, speed: 'off' }));
    localStorage.setItem('ur.sides', JSON.stringify({ 'g-00000000000e2e01': 'light' }));
  });
  return serve(page, game, answers);
}

test('a player gone on their turn: a countdown, then Claim the win or Keep waiting', async ({ page }) => {
  // The server's clock is an hour ahead of the page's: the countdown follows the server's.
  const serverNow = Date.now() + 3_600_000;
  const waiting = state({ ...ONLINE, seats: seats(serverNow - 60_000), claim_win_after: serverNow + 60_000, server_time: serverNow });
  await serveOnline(page, waiting);
  await expect(page.locator('#online-banner')).toHaveText('Bob has left.');
  await expect(page.locator('#claim-win-text')).toHaveText(/Bob has left on their turn\. If they are not back in 0:[56]\d, you may claim the win\./);
  await expect(page.locator('#claim-win-buttons')).toBeHidden();
  await expect(page.locator('#message')).toHaveText('Waiting for Bob to throw…');
});

test('claiming the win sends claim_win; keeping waiting hides the offer', async ({ page }) => {
  const serverNow = Date.now();
  const gone = state({ ...ONLINE, seats: seats(serverNow - 130_000), claim_win_after: serverNow - 10_000, server_time: serverNow });
  const won = state({ ...ONLINE, version: 1001, phase: 'game_over', winner: 'light', resigned: true, seats: seats(serverNow - 130_000), claim_win_after: null, server_time: serverNow });
  const intents = await serveOnline(page, gone, { claim_win: { json: { game: won, events: [{ type: 'resign', side: 'dark' }] } } });
  await expect(page.locator('#claim-win-text')).toHaveText('Bob has been gone for 2 minutes on their turn.');
  await expect(page.locator('#claim-win-button')).toBeVisible();
  await page.click('#keep-waiting-button');
  await expect(page.locator('#claim-win')).toBeHidden();
  await page.reload();
  await page.click('#claim-win-button');
  await expect(page.locator('#game-over-title')).toHaveText('You win!');
  expect(intents.map((intent) => intent.action)).toEqual(['claim_win']);
  expect(intents[0].body).toEqual({});
});

test('every refusal about seats is put in words', async ({ page }) => {
  const game = state({ ...ONLINE, to_move: 'light', position: { ...ONLINE.position, turn: 'light' }, seats: seats(null), claim_win_after: null, server_time: Date.now() });
  const codes = {
    wrong_seat_token: 'This browser holds no seat in this game, so it can only watch.',
    not_your_seat: 'That is the other player’s side: you can only play your own.',
    waiting_for_opponent: 'Your friend has not joined yet: the game starts when they open the invite link.',
    rate_limited: 'Too many actions at once: wait a moment and try again.',
    seat_token_missing: 'This browser holds no seat in this game, so it can only watch.',
    online_fairness: 'Hints, review, take-back and new settings are off while an online game runs; the review is offered when it ends.',
    opponent_present: 'The other player is connected again, so the game goes on.',
    // The server's sentence says how long is left.
    claim_too_early: 'The server’s sentence.',
  };
  let answer = null;
  const intents = await serveOnline(page, game, {
    get throw() {
      return answer;
    },
  });
  for (const [code, words] of Object.entries(codes)) {
    answer = { status: code === 'rate_limited' ? 429 : 403, json: { error: 'The server’s sentence.', code } };
    await page.click('#throw-button');
    await expect(page.locator('#message')).toHaveText(words);
  }
  expect(intents.length).toBe(Object.keys(codes).length);
});

test('a game stored before seats is claimed for the browser that played it', async ({ page }) => {
  const old = state({ claimable: true });
  const token = 'c1a1'.repeat(16);
  const claims = [];
  await page.addInitScript((id) => localStorage.setItem('ur.gameId', JSON.stringify(id)), old.id);
  await page.route('**/api/games/**', async (route) => {
    const action = new URL(route.request().url()).pathname.split('/')[4];
    if (!action) return route.fulfill({ json: { game: old } });
    if (action === 'claim') {
      claims.push(route.request().headers().authorization ?? null);
      return route.fulfill({ json: { game: { ...old, claimable: false, version: 1001 }, events: [], token } });
    }
    return route.fulfill({ status: 409, json: { error: 'Not in this test.', code: 'bad_request' } });
  });
  await page.goto('/');
  await expect(page.locator('#game')).toHaveAttribute('aria-busy', 'false');
  expect(claims).toEqual([null]);
  expect(await page.evaluate((id) => JSON.parse(localStorage.getItem('ur.seats'))[id], old.id)).toBe(token);
  await expect(page.locator('#online-status')).toBeHidden();
  await expect(page.locator('#throw-button')).toHaveAttribute('aria-disabled', 'false');
});
