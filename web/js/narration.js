// The page's sentences: what the message line says and what screen readers hear, from the
// server's game state and events. Nothing here decides anything; it only puts it into words.

import { SIDE_NAME, geometry, homeSquare, otherSide } from './rules.js';
import { seatName } from './seats.js';

const $ = (id) => document.getElementById(id);

export function sideToMove(game) {
  return game.to_move ?? game.position.turn;
}

export function isHuman(game, side) {
  return game.human_sides.includes(side);
}

// Two people sharing this device (an online game is two people on two devices).
export function isFriendGame(game) {
  return game.human_sides.length === 2 && !game.online;
}

// The sides this browser may play: sync.js sets `my_sides` from the seat token it holds
// (none: watching); a state without it (a test's prepared state) is played as it says.
export function mySides(game) {
  return game.my_sides ?? game.human_sides;
}

export function canAct(game, side) {
  return mySides(game).includes(side);
}

export function isWatching(game) {
  return mySides(game).length === 0;
}

// "You" for this browser's side, the side's name when two people share the device, the
// player's name in an online game or to a watcher.
export function who(game, side) {
  if (!isHuman(game, side)) return `The computer (${SIDE_NAME[side]})`;
  if (isFriendGame(game)) return SIDE_NAME[side];
  if (canAct(game, side)) return 'You';
  return seatName(game, side);
}

function isYou(game, side) {
  return who(game, side) === 'You';
}

// What a side waiting for another player is waiting for, as a short sentence.
function waitingFor(game, side) {
  if (game.waiting_for_opponent) {
    return isWatching(game) ? 'Waiting for the second player to join…' : 'Waiting for your friend to join…';
  }
  const name = who(game, side);
  const doing = game.phase === 'move' ? `to move (threw ${game.roll})` : game.phase === 'pass' ? 'to pass' : 'to throw';
  return isWatching(game) ? `${name} ${doing}.` : `Waiting for ${name} ${doing}…`;
}

function whoLower(game, side) {
  const name = who(game, side);
  return name === 'You' ? 'you' : name.replace(/^The /, 'the ');
}

// ---------------------------------------------------------------------------------------------
// Events

// Under the higher-throw rule the opening throws that follow say who starts.
export function newGameSentence(event, opening) {
  return opening
    ? `Game ${event.game_number ?? ''} begins: both sides throw to decide who starts.`
    : `Game ${event.game_number ?? ''} begins. ${SIDE_NAME[event.starting_side] ?? ''} starts.`;
}

export function openingSentence(event) {
  const { light, dark } = event;
  return light === dark
    ? `Opening throws: Shell ${light}, Bitumen ${dark}. A tie: both throw again.`
    : `Opening throws: Shell ${light}, Bitumen ${dark}. ${light > dark ? 'Shell' : 'Bitumen'} starts.`;
}

export function throwSentence(game, event) {
  return `${who(game, event.side)} threw ${event.roll}.`;
}

export function passSentence(game, event) {
  const verb = event.side && isYou(game, event.side) ? 'pass' : 'passes';
  return `${who(game, event.side)} ${verb}${event.reason ? `: ${event.reason}` : '.'}`;
}

// "The computer (Bitumen) moved from 5 to 7, capturing your piece", and the like.
export function moveSentence(game, event, captured) {
  const { side, from, to } = event;
  const name = who(game, side);
  let text = `${name} moved from ${from} to square ${to}`;
  if (from === 0) text = `${name} entered a piece on square ${to}`;
  if (to >= homeSquare()) text = `${name} bore a piece off from square ${from}`;
  if (captured) {
    const victim = otherSide(side);
    text += `, capturing ${isYou(game, victim) ? 'your' : `a ${SIDE_NAME[victim]}`} piece`;
  }
  if (event.extra_throw) {
    const plural = !isYou(game, side);
    text += `. Rosette: ${whoLower(game, side)} throw${plural ? 's' : ''} again`;
  }
  return text;
}

// A move taken back: the position and the throw are as they were before it.
export function takeBackSentence(game, event) {
  const name = who(game, event.side);
  const taken = `${name} took back ${name === 'You' ? 'your' : 'a'} move`;
  return game.phase === 'move' ? `${taken}: the throw of ${game.roll} waits again.` : `${taken}.`;
}

export function resignSentence(game, event) {
  return `${who(game, event.side)} resigned.`;
}

// ---------------------------------------------------------------------------------------------
// Prompts and refusals

// What the player should do now. `view`: {selected, extraThrowFor} of the page.
export function promptFor(game, view) {
  const side = sideToMove(game);
  const name = who(game, side);
  if (game.phase === 'game_over') {
    const again = isWatching(game) ? '' : game.online ? ' Press Rematch to play again.' : ' Press New game to play again.';
    return `${who(game, game.winner)} ${isYou(game, game.winner) ? 'win' : 'wins'}!${again}`;
  }
  if (!isHuman(game, side)) return 'The computer is playing…';
  if (!canAct(game, side) || game.waiting_for_opponent) return waitingFor(game, side);
  const prefix = isFriendGame(game) ? `${SIDE_NAME[side]}: ` : '';
  switch (game.phase) {
    case 'throw':
      if (view.extraThrowFor === side) return `${prefix}Rosette! Throw again.`;
      return `${prefix}${isFriendGame(game) ? 'throw the dice.' : 'Your turn: throw the dice.'}`;
    case 'move':
      if (view.selected !== null) {
        const move = game.legal_moves.find((m) => m.from === view.selected);
        if (move) {
          const capture = move.capture ? `, which captures the ${SIDE_NAME[otherSide(side)]} piece there` : '';
          return `${prefix}Now press the highlighted square: ${geometry().squareName(move.to)}${capture}.`;
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

// Why the throw control is dimmed, or null when it can be pressed. `busy`: {showing, inFlight}
// (a turn is still being shown; intents wait for the server's answer).
export function throwBlockedReason(game, busy) {
  const side = sideToMove(game);
  if (isWatching(game)) return 'You are watching this game: only its players can throw.';
  if (busy.showing) {
    return canAct(game, side) && game.phase !== 'game_over'
      ? 'Wait a moment: the last move is still being shown.'
      : 'Wait: the computer is playing its turn.';
  }
  if (busy.inFlight) return 'Wait: the server is answering.';
  if (game.phase === 'game_over') {
    return game.online ? 'The game is over. Press Rematch to play again.' : 'The game is over. Start a new game to play again.';
  }
  if (!isHuman(game, side)) return 'Wait: the computer is playing its turn.';
  if (!canAct(game, side) || game.waiting_for_opponent) return waitingFor(game, side);
  if (game.phase === 'move') {
    const holder = isFriendGame(game) ? `${SIDE_NAME[side]}'s` : 'Your';
    return `${holder} throw of ${game.roll} is waiting: move a glowing piece first.`;
  }
  return null;
}

// Why a press on a board cell does nothing: {text, kind, deselect} or null when it may choose
// a piece. `info`: describeCell of the cell; `piece`: the piece on it; `press`: {busy, selected}.
export function pressRefusal(game, position, info, piece, press) {
  const side = sideToMove(game);
  const refuse = (text, kind = 'error') => ({ text, kind, deselect: false });
  if (isWatching(game)) return refuse('You are watching this game: only its players can move.', 'info');
  if (game.phase === 'game_over') {
    return refuse(game.online ? 'The game is over. Press Rematch to play again.' : 'The game is over. Press New game to play again.', 'info');
  }
  if (press.busy) {
    return refuse(
      canAct(game, side) ? 'Wait a moment: the last move is still being shown.' : 'Wait: the computer is playing its turn.',
      'info',
    );
  }
  if (!isHuman(game, side)) return refuse('It is not your turn: the computer is playing.');
  if (!canAct(game, side)) return refuse(`It is not your turn. ${waitingFor(game, side)}`, 'info');
  const own = info.side === null || info.side === side;
  if (!own) {
    if (piece || info.kind !== 'square') {
      return refuse(`That is ${SIDE_NAME[info.side]}'s ${info.kind === 'square' ? 'row' : info.kind === 'start' ? 'start pile' : 'home'}: it is ${SIDE_NAME[side]}'s turn.`);
    }
    return refuse(`That square is on ${SIDE_NAME[info.side]}'s row: ${SIDE_NAME[side]} pieces never go there.`);
  }
  if (info.kind === 'square' && piece && piece.side !== side) {
    return refuse(`That is a ${SIDE_NAME[piece.side]} piece: it is ${SIDE_NAME[side]}'s turn, so move one of ${isFriendGame(game) ? 'the' : 'your'} ${SIDE_NAME[side]} pieces.`);
  }
  if (info.kind === 'home') return refuse('Pieces at home have finished their run.');
  if (info.kind === 'square' && !piece) {
    if (game.phase === 'move' && press.selected !== null) {
      return refuse(`You cannot move there. Press the highlighted square, or choose another piece.`);
    }
    // A tile the path crosses twice is both of its squares.
    const visits = info.routes[side] ?? [];
    const what = visits.length > 1 ? `The tile of squares ${visits.join(' and ')} is` : `Square ${info.route} is`;
    return refuse(`${what} empty: ${game.phase === 'move' ? 'press one of the glowing pieces' : 'press a square with one of your pieces'}.`);
  }
  if (info.kind === 'start' && position[side].start === 0) return refuse('No pieces are waiting to enter.');
  if (game.phase === 'throw') return refuse('Throw the dice first.');
  if (game.phase === 'pass') return refuse(`${game.pass_reason ?? 'No piece can use this throw.'} Press “No move — pass”.`);
  if (!game.legal_moves.some((m) => m.from === info.route)) {
    // The server words why, from the same explanation the terminal uses.
    const reason = game.illegal_reasons?.[String(info.route)];
    return { text: reason ?? `That piece cannot move ${game.roll} with this throw.`, kind: 'error', deselect: true };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The message line and the screen reader's announcements

export function showTransient(text) {
  const message = $('message');
  message.textContent = text;
  message.dataset.kind = 'event';
}

export function announce(text) {
  $('announcer').textContent = text;
}

// Says what just happened, on screen and to screen readers.
export function narrate(text) {
  showTransient(text);
  announce(text);
}
