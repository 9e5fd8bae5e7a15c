// The web game: draws the server's game state, animates its events, and turns presses into
// intents. The server is the referee (docs/web-api.md); the page only explains and shows.
// sync.js keeps the page in step with the server, events.js plays its events out on the board,
// narration.js words what happens, dialogs.js holds the dialogs and log-panel.js the log; this
// file draws the game and wires the rest.

import { ApiError, api } from './api.js';
import { Board } from './board.js';
import { Dialogs, STORAGE_PREFS } from './dialogs.js';
import { DiceTray } from './dice.js';
import { EventPlayer } from './events.js';
import { LiveHints } from './hints.js';
import { LogPanel } from './log-panel.js';
import { announce, canAct, isFriendGame, isHuman, isWatching, pressRefusal, promptFor, sideToMove, throwBlockedReason } from './narration.js';
import { Online } from './online.js';
import { SIDE_NAME, geometry } from './rules.js';
import { Replay } from './replay.js';
import { ReviewView } from './review.js';
import { seatName } from './seats.js';
import { setSoundEnabled, sounds, unlockSound } from './sound.js';
import { STORAGE_SETTINGS, Sync, createState, loadJson, sanitizeSettings } from './sync.js';
import { ThrowHint } from './throw-hint.js';

const $ = (id) => document.getElementById(id);

const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

const SPEEDS = ['normal', 'fast', 'off'];

const state = createState();

let board;
let dice;
let sync;
let dialogs;
let replay;
let hint;
let logPanel;
let player;
let review;
let hints;
let online;

// ---------------------------------------------------------------------------------------------
// Updates from the server

// The sync's view of the page: what it calls to draw, animate and report.
const view = {
  playEvents: (events, game) => player.play(events, game),
  render,
  settled() {
    if (state.game && !state.notice) announce(prompt(state.game));
    online.settled();
    const game = state.game;
    if (game?.phase !== 'game_over') return;
    const key = `${game.id}:${game.game_number}`;
    if (state.gameOverShownFor !== key) {
      state.gameOverShownFor = key;
      dialogs.showGameOver(game);
    }
  },
  setBusy(busy) {
    $('game').setAttribute('aria-busy', busy ? 'true' : 'false');
  },
  setNotice,
  onConnection(connected) {
    $('connection').hidden = connected;
    $('connection').textContent = connected ? '' : 'Reconnecting to the server…';
    // Back in touch: "cannot be reached" is no longer true.
    if (connected && state.notice?.offline) {
      state.notice = null;
      render();
    }
  },
  onPresence: (before) => online?.onPresence(before),
  onInvite: (game, code) => online.showInvite(game, code),
  offerTableBuild: (...args) => dialogs.offerTableBuild(...args),
  refuseSettings: (notice) => dialogs.refuseSettings(notice),
  fillSettingsForm: (settings) => dialogs.fillSettingsForm(settings),
};

// ---------------------------------------------------------------------------------------------
// Rendering

function showing() {
  return state.animating || state.queue.length > 0;
}

function humanToAct(game) {
  return game.phase !== 'game_over' && canAct(game, sideToMove(game)) && !showing() && state.inFlight === 0;
}

function prompt(game) {
  return promptFor(game, state);
}

function blockedReason(game) {
  return throwBlockedReason(game, { showing: showing(), inFlight: state.inFlight > 0 });
}

function boardView(game) {
  const side = sideToMove(game);
  const acting = humanToAct(game) && game.phase === 'move';
  const movable = new Set(acting ? game.legal_moves.map((move) => move.from) : []);
  const targets = new Set();
  const captures = new Set();
  if (acting && state.selected !== null) {
    const move = game.legal_moves.find((m) => m.from === state.selected);
    if (move) targets.add(Math.min(move.to, geometry().home));
    if (move?.capture) captures.add(move.to);
  }
  return { movable, selected: acting ? state.selected : null, targets, captures, activeSide: side, lastMove: state.lastMove };
}

// Redraws the board and the players during an animation (no highlights: nobody may act).
function renderBoardOnly(game) {
  board.render(state.shown, boardView(game));
  hints.clearBoard();
  renderPlayers(game, state.shown);
}

function render() {
  const game = state.game;
  if (!game) return;
  board.render(state.shown, boardView(game));
  hints.update(game, humanToAct(game));
  renderPlayers(game, state.shown);
  renderControls(game);
  renderMessage(game);
  logPanel.render(game);
  online.render();
  // The rules page follows the set being played (it may open before the first state).
  const geo = geometry();
  if ($('rules-dialog').open && geo && $('route-diagram').dataset.ruleSet !== geo.name) dialogs.fillRules(geo);
}

function renderPlayers(game, position) {
  for (const side of ['light', 'dark']) {
    const strip = $(`player-${side}`);
    let name;
    let presence = '';
    if (isFriendGame(game)) name = `${SIDE_NAME[side]} · ${side === 'light' ? 'player 1' : 'player 2'}`;
    else if (!isHuman(game, side)) name = `${SIDE_NAME[side]} · computer (${game.settings.opponent})`;
    else if (game.online) {
      // Both names, and whether each is there.
      const seat = state.seats?.[side];
      const own = seatName(game, side);
      name = own === SIDE_NAME[side] ? SIDE_NAME[side] : `${own} · ${SIDE_NAME[side]}`;
      if (canAct(game, side)) name += ' · you';
      if (!seat?.taken) presence = 'not joined yet';
      else if (seat.connected) presence = 'connected';
      else if (seat.left_at) presence = 'has left';
      else presence = 'not connected';
    } else if (canAct(game, side) || isWatching(game)) name = `${SIDE_NAME[side]} · ${isWatching(game) ? 'player' : 'you'}`;
    else name = SIDE_NAME[side];
    strip.querySelector('.player-name').textContent = name;
    const presenceSpan = strip.querySelector('.player-presence');
    presenceSpan.textContent = presence;
    presenceSpan.dataset.presence = presence.replace(/ /g, '-');
    strip.querySelector('.player-home').textContent =
      `home ${position[side].home}/${game.rules.pieces} · wins ${game.tally?.[side] ?? 0}`;
    strip.classList.toggle('to-move', game.phase !== 'game_over' && sideToMove(game) === side);
  }
}

function showTurnMarker(side) {
  for (const s of ['light', 'dark']) $(`player-${s}`).classList.toggle('to-move', s === side);
}

function renderControls(game) {
  const throwButton = $('throw-button');
  const passButton = $('pass-button');
  const passReason = $('pass-reason');
  const canPass = game.phase === 'pass' && humanToAct(game);
  // A watcher has no controls: only the board, the log and the links.
  const watching = isWatching(game);
  throwButton.hidden = canPass || watching;
  passButton.hidden = !canPass;
  passReason.hidden = !canPass;
  if (canPass) {
    passReason.textContent = game.pass_reason ?? 'No piece can use this throw.';
    hint.hide();
  }
  const blocked = canPass ? null : blockedReason(game);
  throwButton.setAttribute('aria-disabled', blocked ? 'true' : 'false');
  throwButton.classList.toggle('dimmed', Boolean(blocked));
  $('throw-hint').textContent = blocked ?? '';
  if (!blocked) hint.hide();
  const side = sideToMove(game);
  throwButton.textContent =
    isFriendGame(game) && game.phase === 'throw' ? `Throw the dice (${SIDE_NAME[side]})` : 'Throw the dice';
  // Fairness: while an online game runs, no hints, take-back or record (the review is
  // offered when it ends).
  const fair = Boolean(game.online) && game.phase !== 'game_over';
  $('hints-button').hidden = fair || watching;
  $('download-record').hidden = fair;
  // Take back: only when the server says a person's seat may (never in a friend game).
  const takeBack = $('take-back-button');
  takeBack.hidden = !game.can_take_back || watching || fair;
  takeBack.disabled = !game.can_take_back || showing() || state.inFlight > 0;
  const resign = $('resign-button');
  resign.hidden = game.phase === 'game_over' || watching || Boolean(game.waiting_for_opponent);
  resign.disabled = showing() || state.inFlight > 0;
  if (!dice.rolling) dice.show(state.shownDice);
  $('dice-tray').classList.toggle('stale', game.phase === 'throw' || game.phase === 'game_over');
}

function renderMessage(game) {
  const message = $('message');
  if (state.notice) {
    message.textContent = state.notice.text;
    message.dataset.kind = state.notice.kind;
    return;
  }
  // While a turn plays out, the message line narrates it (narrate) instead.
  if (showing()) return;
  message.dataset.kind = 'prompt';
  message.textContent = prompt(game);
}

// `offline`: the notice says the server cannot be reached, so a reconnect clears it.
function setNotice(text, kind = 'error', offline = false) {
  state.notice = { text, kind, offline };
  if (state.game) renderMessage(state.game);
  announce(text);
}

function playSound(name) {
  if (state.prefs.sound) sounds[name]?.();
}

// ---------------------------------------------------------------------------------------------
// Presses

function onThrow() {
  const game = state.game;
  if (!game) return;
  const blocked = blockedReason(game);
  if (blocked) {
    setNotice(blocked, 'info');
    hint.flash();
    return;
  }
  if (game.phase === 'pass') {
    onPass();
    return;
  }
  if (!canAct(game, sideToMove(game))) return;
  sync.intent('throw', { side: sideToMove(game) });
}

function onPass() {
  const game = state.game;
  if (!game || game.phase !== 'pass' || !humanToAct(game)) return;
  sync.intent('pass', { side: sideToMove(game) });
}

// A press on the board: choose a piece, or move the chosen one; otherwise say why not.
function onPress(row, col, viaKeyboard) {
  const game = state.game;
  if (!game) return;
  const geo = geometry();
  const side = sideToMove(game);
  const info = geo.describeCell(row, col, side, state.shown);
  state.notice = null;
  // A press on the highlighted square completes the move (on either visit of a tile the path
  // crosses twice).
  const own = info.side === null || info.side === side;
  if (humanToAct(game) && state.selected !== null && own && game.phase === 'move') {
    const move = game.legal_moves.find((m) => m.from === state.selected);
    if (move && info.routes[side]?.includes(Math.min(move.to, geo.home))) {
      sync.intent('move', { from: move.from, side });
      state.selected = null;
      return;
    }
  }
  const piece = info.kind === 'square' ? geo.pieceAt(state.shown, row, col) : null;
  const press = { busy: showing() || state.inFlight > 0, selected: state.selected };
  const refusal = pressRefusal(game, state.shown, info, piece, press);
  if (refusal) {
    setNotice(refusal.text, refusal.kind);
    if (refusal.deselect) {
      state.selected = null;
      render();
    }
    return;
  }
  const from = info.route;
  const legal = game.legal_moves.find((m) => m.from === from);
  if (state.prefs.one_press) {
    // Every piece has exactly one square to go to: with this preference, the press moves it.
    sync.intent('move', { from, side });
    state.selected = null;
    return;
  }
  state.selected = state.selected === from ? null : from;
  render();
  announce(prompt(game));
  // From the keyboard, go straight to the square the piece can reach.
  if (viaKeyboard && state.selected !== null) {
    const target = geo.cellOf(side, Math.min(legal.to, geo.home));
    board.focusCell(target.row, target.col);
  }
}

function onTakeBack() {
  const game = state.game;
  if (!game?.can_take_back || showing() || state.inFlight > 0) return;
  // Against the computer the person's seat takes back; the server picks it when not named.
  const side = game.human_sides.length === 1 ? { side: game.human_sides[0] } : {};
  sync.intent('take_back', side);
}

// Play from here in the replay: a new series from the record's game after `ply` plies, with
// this game's other settings. Throws the server's refusal for the replay's dialog to show.
async function playFromRecord(choice, record, ply) {
  const base = sanitizeSettings(state.game?.settings ?? loadJson(STORAGE_SETTINGS, {}));
  const settings = { ...base, ...choice, rules: record.rules, pieces: record.rules.pieces, bear_off: record.rules.bear_off };
  await sync.startFromRecord(settings, record, ply);
  state.notice = null;
  state.extraThrowFor = null;
  dialogs.closeGameOver();
}

function onResignClosed() {
  const game = state.game;
  if ($('confirm-resign-dialog').returnValue !== 'resign' || !game || game.phase === 'game_over') return;
  // In a friend game the side to move resigns; against the computer, the person; online,
  // this browser's side.
  sync.intent('resign', game.online ? { side: game.my_sides[0] } : {});
}

function onNewGame() {
  // An online or watched game is not this browser's to restart: a new game of its own.
  if (!state.game || state.game.online || isWatching(state.game)) {
    dialogs.closeGameOver();
    sync.startNewGame();
    return;
  }
  dialogs.closeGameOver();
  state.extraThrowFor = null;
  sync.intent('new');
}

// Keys that press a control of their own (buttons, links, the log's summary, form fields)
// or a board square keep that meaning; elsewhere Space and Enter throw or pass like T.
function ownsEnterAndSpace(target) {
  return Boolean(target?.closest?.('button, a, input, select, textarea, summary, dialog, #board, [contenteditable]'));
}

function onKeyDown(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (document.querySelector('dialog[open]') || replay.isOpen() || review.isOpen()) return;
  const tag = event.target?.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
  const throwKey = event.key === 't' || event.key === 'T';
  const pressKey = (event.key === ' ' || event.key === 'Enter') && !ownsEnterAndSpace(event.target);
  if (throwKey || pressKey) {
    event.preventDefault();
    if (event.repeat) return;
    if (state.game?.phase === 'pass') onPass();
    else onThrow();
  } else if (event.key === 'Escape' && state.selected !== null) {
    state.selected = null;
    render();
  }
}

// ---------------------------------------------------------------------------------------------
// Start-up

// The replay of a record takes the game's place on the screen; the game goes on underneath.
function showGameScreen(shown) {
  $('game').hidden = !shown;
  $('new-game-button').hidden = !shown;
  $('settings-button').hidden = !shown;
  if (shown) render();
}

// The review of the game just ended: its record from the server, the series' last game.
async function reviewFinishedGame() {
  const game = state.game;
  if (!game) return;
  const status = $('game-over-download-status');
  status.textContent = 'Fetching the record…';
  let records;
  try {
    ({ records } = await api.record(game.id));
  } catch (error) {
    status.textContent = error instanceof ApiError ? error.message : String(error);
    return;
  }
  if (!Array.isArray(records) || records.length === 0) {
    status.textContent = 'The server has no record of this game.';
    return;
  }
  status.textContent = '';
  dialogs.closeGameOver();
  review.open(records[records.length - 1], $('download-record'));
}

// The review takes the screen of the game or of the replay, and gives it back on Close.
function reviewScreen() {
  let under = 'game';
  return {
    onOpen() {
      under = replay.isOpen() ? 'replay' : 'game';
      $('replay').hidden = true;
      showGameScreen(false);
    },
    onClose() {
      if (under === 'replay') $('replay').hidden = false;
      else showGameScreen(true);
    },
  };
}

function init() {
  state.prefs = { ...state.prefs, ...loadJson(STORAGE_PREFS, {}) };
  if (!SPEEDS.includes(state.prefs.speed)) state.prefs.speed = 'normal';
  setSoundEnabled(state.prefs.sound);
  board = new Board($('board'), onPress);
  sync = new Sync(state, view);
  dialogs = new Dialogs(state, sync, { setNotice, playSound, newGame: onNewGame });
  review = new ReviewView(reviewScreen());
  replay = new Replay({
    onOpen: () => {
      review.dismiss();
      showGameScreen(false);
    },
    onClose: () => showGameScreen(true),
    onPlayFrom: playFromRecord,
    settings: () => state.game?.settings ?? null,
  });
  dice = new DiceTray($('dice'), $('roll-count'));
  player = new EventPlayer(state, board, dice, {
    renderBoardOnly,
    showTurnMarker,
    playSound,
    closeGameOver: () => dialogs.closeGameOver(),
  });
  hints = new LiveHints(board, (on) => sync.intent('hints', { on }));
  $('game-over-review').addEventListener('click', reviewFinishedGame);
  $('replay-review-button').addEventListener('click', () => {
    if (replay.record) review.open(replay.record, $('replay-review-button'));
  });
  $('throw-button').addEventListener('click', onThrow);
  $('pass-button').addEventListener('click', onPass);
  $('take-back-button').addEventListener('click', onTakeBack);
  $('resign-button').addEventListener('click', () => dialogs.confirm('confirm-resign-dialog'));
  $('confirm-resign-dialog').addEventListener('close', onResignClosed);
  document.addEventListener('keydown', onKeyDown);
  hint = new ThrowHint();
  logPanel = new LogPanel(() => state.game);
  online = new Online(state, sync, {
    setNotice,
    playSound,
    render,
    // Quick match: a computer game meanwhile (the one in play, if it is one of this browser's).
    startComputerGame() {
      const game = state.game;
      if (game && !game.online && !isWatching(game) && !isFriendGame(game) && game.phase !== 'game_over') return;
      sync.startNewGame();
    },
  });
  reducedMotion.addEventListener?.('change', () => render());
  // Browsers start sound only after a press; the first one unlocks it for background turns.
  const unlock = () => {
    if (state.prefs.sound) unlockSound();
  };
  document.addEventListener('pointerdown', unlock, { once: true, capture: true });
  document.addEventListener('keydown', unlock, { once: true, capture: true });
  if (!online.handleFragment()) sync.resume();
}

init();
