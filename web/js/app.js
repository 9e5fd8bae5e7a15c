// The web game: keeps the server's game state, animates its events, and turns presses into
// intents. The server is the referee (docs/web-api.md); the page only explains and shows.

import { ApiError, GameSocket, api } from './api.js';
import { Board } from './board.js';
import { DiceTray, marksForRoll } from './dice.js';
import { drawRouteDiagram } from './route-diagram.js';
import {
  HOME,
  SIDE_NAME,
  applyMove,
  canApply,
  cellOf,
  describeCell,
  otherSide,
  pieceAt,
  squareName,
  whyIllegal,
} from './rules.js';
import { Replay } from './replay.js';
import { setSoundEnabled, sounds } from './sound.js';
import { TableBuildOffer } from './table-build.js';

const STORAGE_GAME = 'ur.gameId';
const STORAGE_SETTINGS = 'ur.settings';
const STORAGE_PREFS = 'ur.prefs';

const $ = (id) => document.getElementById(id);

const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

// Durations in milliseconds for the chosen speed of play ("normal", "fast" or "off"). With
// reduced motion nothing moves, but the turn still plays step by step, briefly.
function timing() {
  const speed = state.prefs.speed;
  if (speed === 'off') return { dice: 0, hop: 0, capture: 0, step: 0, label: 900 };
  if (reducedMotion.matches) return { dice: 0, hop: 0, capture: 0, step: speed === 'fast' ? 60 : 120, label: 900 };
  if (speed === 'fast') return { dice: 200, hop: 50, capture: 160, step: 160, label: 900 };
  return { dice: 480, hop: 120, capture: 380, step: 420, label: 1300 };
}

const SPEEDS = ['normal', 'fast', 'off'];

const state = {
  gameId: null, // id of the game the page follows
  game: null, // the server's state whose events have all been shown
  latestVersion: -1, // newest version accepted into the queue
  shown: null, // the position on screen (differs from game.position while animating)
  shownDice: null, // dice on screen
  queue: [], // updates waiting to be animated: {game, events}
  animating: false,
  inFlight: 0, // intents sent over HTTP and not answered yet
  deferred: [], // socket updates held while an intent is in flight
  selected: null, // route square of the chosen piece, or null
  lastMove: null,
  extraThrowFor: null, // side that just landed on a rosette
  notice: null, // {text, kind} shown instead of the prompt until the next change
  gameOverShownFor: null,
  // Preferences of this browser, not of the game (localStorage): sound, speed of play, and
  // whether a press on a movable piece moves it at once.
  prefs: { sound: true, speed: 'normal', one_press: false },
};

let board;
let dice;
let socket;
let tableBuild;
let replay;
let tableBuildChoice = 'save'; // how to save the settings once the offered table is built

function loadJson(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

function saveJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing may refuse storage; the game still works without resuming.
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function sideToMove(game) {
  return game.to_move ?? game.position.turn;
}

function isHuman(game, side) {
  return game.human_sides.includes(side);
}

function isFriendGame(game) {
  return game.human_sides.length === 2;
}

// "You" against the computer, the side's name when two people share the device.
function who(game, side) {
  if (!isFriendGame(game) && isHuman(game, side)) return 'You';
  if (!isHuman(game, side)) return `The computer (${SIDE_NAME[side]})`;
  return SIDE_NAME[side];
}

function whoLower(game, side) {
  const name = who(game, side);
  return name === 'You' ? 'you' : name.replace(/^The /, 'the ');
}

// ---------------------------------------------------------------------------------------------
// Updates from the server

function acceptUpdate(game, events, source) {
  if (source === 'socket' && state.inFlight > 0) {
    state.deferred.push({ game, events });
    return;
  }
  const sameGame = state.gameId === game.id;
  if (sameGame && game.version <= state.latestVersion) return;
  if (!sameGame) {
    // Another game (the first one, or a replacement): draw it as it is, without animation.
    state.gameId = game.id;
    state.queue = [];
  }
  state.latestVersion = game.version;
  state.queue.push({ game, events, snap: !sameGame });
  saveJson(STORAGE_SETTINGS, game.settings);
  saveJson(STORAGE_GAME, game.id);
  socket.connect(game.id);
  pump();
}

async function pump() {
  if (state.animating) return;
  state.animating = true;
  $('game').setAttribute('aria-busy', 'true');
  try {
    while (state.queue.length > 0) {
      const { game, events, snap } = state.queue.shift();
      if (snap) {
        state.game = game;
        state.shown = game.position;
        state.shownDice = game.dice;
        state.selected = null;
        state.lastMove = null;
        render();
        continue;
      }
      await playEvents(events, game);
      state.game = game;
      state.shown = game.position;
      state.shownDice = game.dice ?? state.shownDice;
      state.selected = null;
      render();
    }
  } finally {
    state.animating = false;
    $('game').setAttribute('aria-busy', 'false');
  }
  render();
  if (state.game && !state.notice) announce(promptFor(state.game));
  afterSettled();
}

function afterSettled() {
  const game = state.game;
  if (!game) return;
  if (game.phase === 'game_over') {
    const key = `${game.id}:${game.game_number}`;
    if (state.gameOverShownFor !== key) {
      state.gameOverShownFor = key;
      showGameOver(game);
    }
  }
}

async function playEvents(events, finalGame) {
  const t = timing();
  // The sentence of a throw, while the same side's automatic move or pass that follows it in
  // this update is told: both stay on the message line, in order.
  let thrown = null;
  for (const event of events) {
    const after = thrown && thrown.side === event.side ? `${thrown.text} ` : '';
    thrown = null;
    switch (event.type) {
      case 'new_game': {
        const pieces = finalGame.rules.pieces;
        const fresh = { start: pieces, home: 0, board: [] };
        state.shown = {
          turn: event.starting_side ?? 'light',
          light: { ...fresh, board: [] },
          dark: { ...fresh, board: [] },
        };
        state.shownDice = null;
        state.lastMove = null;
        state.extraThrowFor = null;
        closeGameOver();
        board.clearFlashes();
        // Under the higher-throw rule the opening throws that follow say who starts.
        const opening = events.some((e) => e.type === 'opening');
        announce(
          opening
            ? `Game ${event.game_number ?? ''} begins: both sides throw to decide who starts.`
            : `Game ${event.game_number ?? ''} begins. ${SIDE_NAME[event.starting_side] ?? ''} starts.`,
        );
        renderBoardOnly(finalGame);
        break;
      }
      case 'opening': {
        const light = event.light;
        const dark = event.dark;
        const text =
          light === dark
            ? `Opening throws: Shell ${light}, Bitumen ${dark}. A tie: both throw again.`
            : `Opening throws: Shell ${light}, Bitumen ${dark}. ${light > dark ? 'Shell' : 'Bitumen'} starts.`;
        narrate(text);
        await dice.roll(marksForRoll(Math.max(light, dark)), t.dice);
        await sleep(t.step);
        break;
      }
      case 'throw': {
        const marks = event.dice ?? marksForRoll(event.roll);
        state.extraThrowFor = null;
        playSound('dice');
        showTurnMarker(finalGame, event.side);
        await dice.roll(marks, t.dice);
        state.shownDice = marks;
        const text = `${who(finalGame, event.side)} threw ${event.roll}.`;
        narrate(text);
        thrown = { side: event.side, text };
        if (!isHuman(finalGame, event.side)) await sleep(t.step);
        break;
      }
      case 'move':
        await playMove(event, finalGame, t, after);
        break;
      case 'pass': {
        playSound('pass');
        const text = `${who(finalGame, event.side)} ${event.side && isHuman(finalGame, event.side) && !isFriendGame(finalGame) ? 'pass' : 'passes'}${event.reason ? `: ${event.reason}` : '.'}`;
        narrate(after + text);
        await sleep(t.step);
        break;
      }
      case 'game_over':
        break;
      default:
        break;
    }
  }
}

async function playMove(event, finalGame, t, before = '') {
  const { side, from, to } = event;
  if (!canApply(state.shown, side, from)) return; // already on screen (e.g. a repeated update)
  const victim = otherSide(side);
  const captured = event.capture ?? (to < HOME && state.shown[victim].board.includes(to));
  narrate(`${before}${moveSentence(finalGame, event, captured)}.`);
  board.clearFlashes();
  await board.animateMove(side, from, to, t.hop);
  state.shown = applyMove(state.shown, side, from, to);
  state.lastMove = { side, from, to };
  renderBoardOnly(finalGame);
  const cell = cellOf(side, to);
  if (captured) {
    playSound('capture');
    board.flashLabel(cell.row, cell.col, 'Captured!', 'capture', t.label + 400);
    await board.animateCapture(victim, to, t.capture);
  } else if (to >= HOME) {
    playSound('home');
  } else {
    playSound('move');
  }
  if (event.extra_throw) {
    playSound('rosette');
    board.flashLabel(cell.row, cell.col, 'Throw again!', 'rosette', t.label);
    state.extraThrowFor = side;
  }
  await sleep(isHuman(finalGame, side) ? t.step / 3 : t.step);
}

// "The computer (Bitumen) moved from 5 to 7, capturing your piece", and the like.
function moveSentence(game, event, captured) {
  const { side, from, to } = event;
  const name = who(game, side);
  let text = `${name} moved from ${from} to square ${to}`;
  if (from === 0) text = `${name} entered a piece on square ${to}`;
  if (to >= HOME) text = `${name} bore a piece off from square ${from}`;
  if (captured) {
    const victim = otherSide(side);
    text += `, capturing ${isHuman(game, victim) && !isFriendGame(game) ? 'your' : `a ${SIDE_NAME[victim]}`} piece`;
  }
  if (event.extra_throw) {
    const plural = !(isHuman(game, side) && !isFriendGame(game));
    text += `. Rosette: ${whoLower(game, side)} throw${plural ? 's' : ''} again`;
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// Rendering

function humanToAct(game) {
  return (
    game.phase !== 'game_over' &&
    isHuman(game, sideToMove(game)) &&
    !state.animating &&
    state.queue.length === 0 &&
    state.inFlight === 0
  );
}

function boardView(game) {
  const side = sideToMove(game);
  const acting = humanToAct(game) && game.phase === 'move';
  const movable = new Set(acting ? game.legal_moves.map((move) => move.from) : []);
  const targets = new Set();
  const captures = new Set();
  if (acting && state.selected !== null) {
    const move = game.legal_moves.find((m) => m.from === state.selected);
    if (move) targets.add(Math.min(move.to, HOME));
    if (move?.capture) captures.add(move.to);
  }
  return { movable, selected: acting ? state.selected : null, targets, captures, activeSide: side, lastMove: state.lastMove };
}

// Redraws the board and the players during an animation (no highlights: nobody may act).
function renderBoardOnly(game) {
  board.render(state.shown, boardView(game));
  renderPlayers(game, state.shown);
}

function render() {
  const game = state.game;
  if (!game) return;
  board.render(state.shown, boardView(game));
  renderPlayers(game, state.shown);
  renderControls(game);
  renderMessage(game);
  renderLog(game);
}

function renderPlayers(game, position) {
  for (const side of ['light', 'dark']) {
    const strip = $(`player-${side}`);
    let name;
    if (isFriendGame(game)) name = `${SIDE_NAME[side]} · ${side === 'light' ? 'player 1' : 'player 2'}`;
    else if (isHuman(game, side)) name = `${SIDE_NAME[side]} · you`;
    else name = `${SIDE_NAME[side]} · computer (${game.settings.opponent})`;
    strip.querySelector('.player-name').textContent = name;
    strip.querySelector('.player-home').textContent =
      `home ${position[side].home}/${game.rules.pieces} · wins ${game.tally?.[side] ?? 0}`;
    strip.classList.toggle('to-move', game.phase !== 'game_over' && sideToMove(game) === side);
  }
}

function showTurnMarker(game, side) {
  for (const s of ['light', 'dark']) $(`player-${s}`).classList.toggle('to-move', s === side);
}

// Why the throw control is dimmed, or null when it can be pressed.
function throwBlockedReason(game) {
  const side = sideToMove(game);
  if (state.animating || state.queue.length > 0) {
    return isHuman(game, side) && game.phase !== 'game_over'
      ? 'Wait a moment: the last move is still being shown.'
      : 'Wait: the computer is playing its turn.';
  }
  if (state.inFlight > 0) return 'Wait: the server is answering.';
  if (game.phase === 'game_over') return 'The game is over. Start a new game to play again.';
  if (!isHuman(game, side)) return 'Wait: the computer is playing its turn.';
  if (game.phase === 'move') {
    const holder = isFriendGame(game) ? `${SIDE_NAME[side]}'s` : 'Your';
    return `${holder} throw of ${game.roll} is waiting: move a glowing piece first.`;
  }
  return null;
}

function renderControls(game) {
  const throwButton = $('throw-button');
  const passButton = $('pass-button');
  const passReason = $('pass-reason');
  const canPass = game.phase === 'pass' && humanToAct(game);
  throwButton.hidden = canPass;
  passButton.hidden = !canPass;
  passReason.hidden = !canPass;
  if (canPass) {
    passReason.textContent = game.pass_reason ?? 'No piece can use this throw.';
    hideHint();
  }
  const blocked = canPass ? null : throwBlockedReason(game);
  throwButton.setAttribute('aria-disabled', blocked ? 'true' : 'false');
  throwButton.classList.toggle('dimmed', Boolean(blocked));
  $('throw-hint').textContent = blocked ?? '';
  if (!blocked) hideHint();
  const side = sideToMove(game);
  throwButton.textContent =
    isFriendGame(game) && game.phase === 'throw' ? `Throw the dice (${SIDE_NAME[side]})` : 'Throw the dice';
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
  // While a turn plays out, the message line narrates it (showTransient) instead.
  if (state.animating || state.queue.length > 0) return;
  message.dataset.kind = 'prompt';
  message.textContent = promptFor(game);
}

function promptFor(game) {
  const side = sideToMove(game);
  const name = who(game, side);
  if (game.phase === 'game_over') {
    return `${who(game, game.winner)} ${who(game, game.winner) === 'You' ? 'win' : 'wins'}! Press New game to play again.`;
  }
  if (!isHuman(game, side)) return 'The computer is playing…';
  const prefix = isFriendGame(game) ? `${SIDE_NAME[side]}: ` : '';
  switch (game.phase) {
    case 'throw':
      if (state.extraThrowFor === side) return `${prefix}Rosette! Throw again.`;
      return `${prefix}${isFriendGame(game) ? 'throw the dice.' : 'Your turn: throw the dice.'}`;
    case 'move':
      if (state.selected !== null) {
        const move = game.legal_moves.find((m) => m.from === state.selected);
        if (move) {
          const capture = move.capture ? `, which captures the ${SIDE_NAME[otherSide(side)]} piece there` : '';
          return `${prefix}Now press the highlighted square: ${squareName(move.to)}${capture}.`;
        }
      }
      // The sentence names the thrower already: no "Bitumen: Bitumen threw".
      return `${name} threw ${game.roll}. Press a glowing piece${game.legal_moves.some((m) => m.from === 0) ? ' (or the start tray)' : ''}, then its highlighted square.`;
    case 'pass':
      return `${prefix}No move with a throw of ${game.roll}: press “No move — pass”.`;
    default:
      return '';
  }
}

// The position as text (docs/notation.md), for `ur hints`, `ur engine` and bug reports.
function renderPosition(game) {
  $('position-text').textContent = game.position_text ?? '';
}

async function copyPosition() {
  const text = $('position-text').textContent;
  const status = $('copy-status');
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'Copied.';
  } catch {
    // Without clipboard access, select the text so that the system's copy works.
    window.getSelection().selectAllChildren($('position-text'));
    status.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
  }
}

function renderLog(game) {
  renderPosition(game);
  const list = $('log');
  list.replaceChildren(
    ...(game.log ?? []).map((line) => {
      const item = document.createElement('li');
      item.textContent = line;
      return item;
    }),
  );
}

// `offline`: the notice says the server cannot be reached, so a reconnect clears it.
function setNotice(text, kind = 'error', offline = false) {
  state.notice = { text, kind, offline };
  if (state.game) renderMessage(state.game);
  announce(text);
}

function showTransient(text) {
  const message = $('message');
  message.textContent = text;
  message.dataset.kind = 'event';
}

// Says what just happened, on screen and to screen readers.
function narrate(text) {
  showTransient(text);
  announce(text);
}

function announce(text) {
  const announcer = $('announcer');
  announcer.textContent = text;
}

function playSound(name) {
  if (state.prefs.sound) sounds[name]?.();
}

// ---------------------------------------------------------------------------------------------
// The dimmed throw control's reason: on hover, focus, and press-and-hold.

let hintTimer = null;

function showHint() {
  const hint = $('throw-hint');
  if (!hint.textContent) return;
  hint.hidden = false;
}

function hideHint() {
  clearTimeout(hintTimer);
  $('throw-hint').hidden = true;
}

function wireThrowHint() {
  const button = $('throw-button');
  const dimmed = () => button.getAttribute('aria-disabled') === 'true';
  button.addEventListener('mouseenter', () => dimmed() && showHint());
  button.addEventListener('mousemove', () => dimmed() && showHint());
  button.addEventListener('mouseleave', hideHint);
  button.addEventListener('focus', () => dimmed() && showHint());
  button.addEventListener('blur', hideHint);
  button.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse' || !dimmed()) return;
    clearTimeout(hintTimer);
    hintTimer = setTimeout(showHint, 350);
  });
  button.addEventListener('pointerup', () => {
    if (!$('throw-hint').hidden) {
      clearTimeout(hintTimer);
      hintTimer = setTimeout(hideHint, 2200);
    } else {
      clearTimeout(hintTimer);
    }
  });
  button.addEventListener('contextmenu', (event) => dimmed() && event.preventDefault());
}

// ---------------------------------------------------------------------------------------------
// Intents

// Intents on the game in play carry the version on screen, so that the server can tell when
// another window has moved the game on meanwhile.
const VERSIONED = ['throw', 'move', 'pass'];

async function sendIntent(action, body = {}) {
  const game = state.game;
  if (!game) return;
  if (VERSIONED.includes(action)) body = { ...body, version: game.version };
  state.inFlight += 1;
  state.notice = null;
  render();
  try {
    const result = await api.intent(game.id, action, body);
    state.inFlight -= 1;
    acceptUpdate(result.game, result.events, 'http');
    return result.game;
  } catch (error) {
    state.inFlight -= 1;
    if (error instanceof ApiError && error.code === 'unknown_game') {
      setNotice('This game is no longer on the server; a new one has started.', 'info');
      await startNewGame();
    } else if (error instanceof ApiError && error.code === 'bad_settings' && body.settings?.opponent === 'perfect') {
      if (error.details?.table_missing) {
        offerTableBuild(error.details.table_missing, action === 'new' ? 'new' : 'save');
      } else {
        setNotice('The Perfect level needs the solved table, which this server does not have. Nothing was changed.');
      }
    } else if (error instanceof ApiError && error.code === 'moved_on') {
      setNotice(error.message, 'info');
      refresh();
    } else {
      setNotice(error.message, 'error', error instanceof ApiError && error.code === 'offline');
      refresh();
    }
    return null;
  } finally {
    const deferred = state.deferred.splice(0);
    for (const update of deferred) acceptUpdate(update.game, update.events, 'socket');
    render();
  }
}

function onThrow() {
  const game = state.game;
  if (!game) return;
  const blocked = throwBlockedReason(game);
  if (blocked) {
    setNotice(blocked, 'info');
    showHint();
    hintTimer = setTimeout(hideHint, 2500);
    return;
  }
  if (game.phase === 'pass') {
    onPass();
    return;
  }
  sendIntent('throw', { side: sideToMove(game) });
}

function onPass() {
  const game = state.game;
  if (!game || game.phase !== 'pass' || !humanToAct(game)) return;
  sendIntent('pass', { side: sideToMove(game) });
}

// A press on the board: choose a piece, or move the chosen one; otherwise say why not.
function onPress(row, col, viaKeyboard) {
  const game = state.game;
  if (!game) return;
  const info = describeCell(row, col);
  const side = sideToMove(game);
  state.notice = null;
  if (game.phase === 'game_over') {
    setNotice('The game is over. Press New game to play again.', 'info');
    return;
  }
  if (state.animating || state.inFlight > 0 || state.queue.length > 0) {
    setNotice(
      isHuman(game, side) ? 'Wait a moment: the last move is still being shown.' : 'Wait: the computer is playing its turn.',
      'info',
    );
    return;
  }
  if (!isHuman(game, side)) {
    setNotice('It is not your turn: the computer is playing.', 'error');
    return;
  }
  const position = state.shown;
  const own = info.side === null || info.side === side;
  // A press on the highlighted square completes the move.
  if (state.selected !== null && own && game.phase === 'move') {
    const move = game.legal_moves.find((m) => m.from === state.selected);
    if (move && Math.min(move.to, HOME) === info.route) {
      sendIntent('move', { from: move.from, side });
      state.selected = null;
      return;
    }
  }
  if (!own) {
    const piece = pieceAt(position, row, col);
    if (piece || info.kind !== 'square') {
      setNotice(`That is ${SIDE_NAME[info.side]}'s ${info.kind === 'square' ? 'row' : info.kind === 'start' ? 'start pile' : 'home'}: it is ${SIDE_NAME[side]}'s turn.`);
    } else {
      setNotice(`That square is on ${SIDE_NAME[info.side]}'s row: ${SIDE_NAME[side]} pieces never go there.`);
    }
    return;
  }
  const piece = info.kind === 'square' ? pieceAt(position, row, col) : null;
  if (info.kind === 'square' && piece && piece.side !== side) {
    setNotice(`That is a ${SIDE_NAME[piece.side]} piece: it is ${SIDE_NAME[side]}'s turn, so move one of ${isFriendGame(game) ? 'the' : 'your'} ${SIDE_NAME[side]} pieces.`);
    return;
  }
  if (info.kind === 'home') {
    setNotice('Pieces at home have finished their run.');
    return;
  }
  if (info.kind === 'square' && !piece) {
    if (game.phase === 'move' && state.selected !== null) {
      setNotice(`You cannot move there. Press the highlighted square, or choose another piece.`);
    } else {
      setNotice(`Square ${info.route} is empty: ${game.phase === 'move' ? 'press one of the glowing pieces' : 'press a square with one of your pieces'}.`);
    }
    return;
  }
  if (info.kind === 'start' && position[side].start === 0) {
    setNotice('No pieces are waiting to enter.');
    return;
  }
  if (game.phase === 'throw') {
    setNotice('Throw the dice first.');
    return;
  }
  if (game.phase === 'pass') {
    setNotice(`${game.pass_reason ?? 'No piece can use this throw.'} Press “No move — pass”.`);
    return;
  }
  const from = info.route;
  const legal = game.legal_moves.find((m) => m.from === from);
  if (!legal) {
    const reason = whyIllegal({ ...position, turn: side }, game.rules, game.roll, from);
    setNotice(reason ?? `That piece cannot move ${game.roll} with this throw.`);
    state.selected = null;
    render();
    return;
  }
  if (state.prefs.one_press) {
    // Every piece has exactly one square to go to: with this preference, the press moves it.
    sendIntent('move', { from, side });
    state.selected = null;
    return;
  }
  state.selected = state.selected === from ? null : from;
  render();
  announce(promptFor(game));
  // From the keyboard, go straight to the square the piece can reach.
  if (viaKeyboard && state.selected !== null) {
    const target = cellOf(side, Math.min(legal.to, HOME));
    board.focusCell(target.row, target.col);
  }
}

// ---------------------------------------------------------------------------------------------
// Games, settings, dialogs

async function startNewGame(settings) {
  const stored = sanitizeSettings(settings ?? loadJson(STORAGE_SETTINGS, {}));
  try {
    const result = await api.create(stored);
    acceptUpdate(result.game, result.events, 'http');
  } catch (error) {
    if (error instanceof ApiError && error.code === 'bad_settings') {
      const result = await api.create({});
      acceptUpdate(result.game, result.events, 'http');
      if (error.details?.table_missing) {
        // The saved settings ask for Perfect, whose table is not built: play at the defaults
        // meanwhile, and offer the build with the saved choices kept in the dialog.
        fillSettingsForm({ ...result.game.settings, ...stored });
        offerTableBuild(
          error.details.table_missing,
          'new',
          'Your saved settings ask for the Perfect level, whose table this server has not built yet. A game with the default settings has started meanwhile.',
        );
      } else {
        setNotice(error.message, 'info');
      }
    } else {
      setNotice(error.message);
    }
  }
}

function sanitizeSettings(settings) {
  if (!settings || typeof settings !== 'object') return {};
  const known = ['opponent', 'pieces', 'bear_off', 'starts', 'auto_play', 'auto_pass', 'seat'];
  return Object.fromEntries(Object.entries(settings).filter(([key]) => known.includes(key)));
}

async function refresh() {
  const game = state.game;
  if (!game) return;
  try {
    const result = await api.get(game.id);
    acceptUpdate(result.game, [], 'http');
  } catch {
    // The error was already reported; a later action or the socket will resync.
  }
}

async function resume() {
  const id = loadJson(STORAGE_GAME, null);
  if (typeof id === 'string' && id) {
    try {
      const result = await api.get(id);
      acceptUpdate(result.game, [], 'http');
      return;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'unknown_game') {
        setNotice(error.message);
        setTimeout(resume, 3000);
        return;
      }
    }
  }
  await startNewGame();
}

// True once anything has happened in the game and it is not over.
function gameInProgress(game) {
  const pieces = game.rules.pieces;
  const { light, dark } = game.position;
  const moved = light.start < pieces || dark.start < pieces;
  return game.phase !== 'game_over' && (moved || game.roll !== null);
}

function onNewGameButton() {
  const game = state.game;
  if (game && gameInProgress(game)) {
    $('confirm-new-dialog').returnValue = '';
    $('confirm-new-dialog').showModal();
    return;
  }
  onNewGame();
}

function onNewGame() {
  const game = state.game;
  if (!game) {
    startNewGame();
    return;
  }
  closeGameOver();
  state.extraThrowFor = null;
  sendIntent('new');
}

// Shows `settings` (a game's settings object) in the settings dialog's form.
function fillSettingsForm(settings) {
  const form = $('settings-form');
  const choose = (name, value) => {
    for (const input of form.elements[name]) input.checked = input.value === String(value ?? '');
  };
  for (const name of ['opponent', 'pieces', 'bear_off', 'starts', 'seat']) choose(name, settings[name]);
  form.elements.auto_play.checked = Boolean(settings.auto_play);
  form.elements.auto_pass.checked = Boolean(settings.auto_pass);
  form.elements.sound.checked = state.prefs.sound;
  choose('speed', state.prefs.speed);
  form.elements.one_press.checked = state.prefs.one_press;
}

function openSettings() {
  const game = state.game;
  fillSettingsForm({ ...(game?.settings ?? {}), ...(game?.next_settings ?? {}) });
  $('settings-note').textContent = game?.next_settings
    ? 'Some changes are waiting for the next game.'
    : 'Changes apply at once if nothing has been thrown yet, otherwise from the next game.';
  tableBuild.hide();
  // Escape closes without a button: no stale choice may count as "save".
  $('settings-dialog').returnValue = '';
  $('settings-dialog').showModal();
}

// The settings the player chose need a table the server lacks: reopen the dialog with their
// choices kept and offer the build; once the table is ready, save them again as `choice`.
function offerTableBuild(
  missing,
  choice,
  notice = 'The Perfect level needs the solved table for these rules, which this server has not built yet. Nothing was changed.',
) {
  setNotice(notice, 'info');
  const dialog = $('settings-dialog');
  dialog.returnValue = '';
  if (!dialog.open) dialog.showModal();
  tableBuildChoice = choice;
  tableBuild.show(missing);
}

function onTableReady() {
  setNotice('The table is ready. Saving your settings…', 'info');
  $('settings-dialog').close(tableBuildChoice);
}

function readSettingsForm() {
  const form = $('settings-form');
  const value = (name) => form.elements[name].value;
  return {
    opponent: value('opponent'),
    pieces: Number(value('pieces')),
    bear_off: value('bear_off'),
    starts: value('starts'),
    seat: value('seat'),
    auto_play: form.elements.auto_play.checked,
    auto_pass: form.elements.auto_pass.checked,
  };
}

async function onSettingsClosed() {
  const choice = $('settings-dialog').returnValue;
  if (choice !== 'save' && choice !== 'new') return;
  const form = $('settings-form');
  state.prefs.sound = form.elements.sound.checked;
  state.prefs.speed = form.elements.speed.value;
  state.prefs.one_press = form.elements.one_press.checked;
  setSoundEnabled(state.prefs.sound);
  saveJson(STORAGE_PREFS, state.prefs);
  const settings = readSettingsForm();
  if (!state.game) {
    await startNewGame(settings);
    return;
  }
  closeGameOver();
  const game = await sendIntent(choice === 'new' ? 'new' : 'settings', { settings });
  if (choice === 'save' && game?.next_settings) {
    setNotice('Saved. The new settings apply from the next game.', 'info');
  }
}

function showGameOver(game) {
  const winner = game.winner;
  const friend = isFriendGame(game);
  let title;
  if (friend) title = `${SIDE_NAME[winner]} wins!`;
  else if (isHuman(game, winner)) title = 'You win!';
  else title = 'The computer wins';
  $('game-over-title').textContent = title;
  $('game-over-detail').textContent =
    `${SIDE_NAME[winner]} brought all ${game.rules.pieces} pieces home.`;
  const tally = game.tally ?? { light: 0, dark: 0 };
  // Against the computer the sides get their players' names too; friends share the names.
  const label = (side) =>
    friend ? SIDE_NAME[side] : `${isHuman(game, side) ? 'You' : 'Computer'} (${SIDE_NAME[side]})`;
  $('game-over-tally').textContent =
    `Games won: ${label('light')} ${tally.light} – ${tally.dark} ${label('dark')}`;
  const nextStarter = game.starting_side ? otherSide(game.starting_side) : null;
  $('game-over-next').textContent =
    game.settings.starts === 'alternate' && nextStarter
      ? `Next game: ${SIDE_NAME[nextStarter]} starts.`
      : 'Next game: the higher throw starts.';
  playSound(friend || isHuman(game, winner) ? 'win' : 'lose');
  announce(`${title} ${$('game-over-tally').textContent}.`);
  const dialog = $('game-over-dialog');
  if (!dialog.open) dialog.showModal();
}

function closeGameOver() {
  const dialog = $('game-over-dialog');
  if (dialog.open) dialog.close();
}

function openRules() {
  const dialog = $('rules-dialog');
  if (!dialog.open) dialog.showModal();
  if (window.location.hash !== '#rules') history.replaceState(null, '', '#rules');
}

function closeRules() {
  $('rules-dialog').close();
}

// ---------------------------------------------------------------------------------------------
// Start-up

// Keys that press a control of their own (buttons, links, the log's summary, form fields)
// or a board square keep that meaning; elsewhere Space and Enter throw or pass like T.
function ownsEnterAndSpace(target) {
  return Boolean(target?.closest?.('button, a, input, select, textarea, summary, dialog, #board, [contenteditable]'));
}

function onKeyDown(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (document.querySelector('dialog[open]') || replay.isOpen()) return;
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

// The replay of a record takes the game's place on the screen; the game goes on underneath.
function showGameScreen(shown) {
  $('game').hidden = !shown;
  $('new-game-button').hidden = !shown;
  $('settings-button').hidden = !shown;
  if (shown) render();
}

function init() {
  state.prefs = { ...state.prefs, ...loadJson(STORAGE_PREFS, {}) };
  if (!SPEEDS.includes(state.prefs.speed)) state.prefs.speed = 'normal';
  setSoundEnabled(state.prefs.sound);
  board = new Board($('board'), onPress);
  tableBuild = new TableBuildOffer(onTableReady);
  replay = new Replay({ onOpen: () => showGameScreen(false), onClose: () => showGameScreen(true) });
  dice = new DiceTray($('dice'), $('roll-count'));
  drawRouteDiagram($('route-diagram'));
  socket = new GameSocket(
    (game, events) => acceptUpdate(game, events, 'socket'),
    (connected) => {
      $('connection').hidden = connected;
      $('connection').textContent = connected ? '' : 'Reconnecting to the server…';
      if (connected) {
        // Back in touch: "cannot be reached" is no longer true.
        if (state.notice?.offline) {
          state.notice = null;
          render();
        }
        refresh();
      }
    },
  );
  $('throw-button').addEventListener('click', onThrow);
  $('copy-position').addEventListener('click', copyPosition);
  $('pass-button').addEventListener('click', onPass);
  $('new-game-button').addEventListener('click', onNewGameButton);
  $('confirm-new-dialog').addEventListener('close', () => {
    if ($('confirm-new-dialog').returnValue === 'new') onNewGame();
  });
  $('settings-button').addEventListener('click', openSettings);
  $('rules-button').addEventListener('click', openRules);
  $('rules-close').addEventListener('click', closeRules);
  $('rules-dialog').addEventListener('close', () => {
    if (window.location.hash === '#rules') history.replaceState(null, '', window.location.pathname);
  });
  $('settings-dialog').addEventListener('close', onSettingsClosed);
  $('game-over-new').addEventListener('click', onNewGame);
  $('game-over-close').addEventListener('click', closeGameOver);
  document.addEventListener('keydown', onKeyDown);
  wireThrowHint();
  reducedMotion.addEventListener?.('change', () => render());
  if (window.location.hash === '#rules') openRules();
  window.addEventListener('hashchange', () => {
    if (window.location.hash === '#rules') openRules();
  });
  resume();
}

init();
