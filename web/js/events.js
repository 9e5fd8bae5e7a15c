// Playing the server's events out on the board: the dice rolling, the hops, captures and
// rosettes, with the message line telling each as it happens (narration.js).

import { marksForRoll } from './dice.js';
import {
  announce,
  canAct,
  moveSentence,
  narrate,
  newGameSentence,
  openingSentence,
  passSentence,
  resignSentence,
  takeBackSentence,
  throwSentence,
} from './narration.js';
import { geometry, otherSide } from './rules.js';

const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class EventPlayer {
  // `page`: {renderBoardOnly(game), showTurnMarker(side), playSound(name), closeGameOver()}.
  constructor(state, board, dice, page) {
    this.state = state;
    this.board = board;
    this.dice = dice;
    this.page = page;
  }

  // Durations in milliseconds for the chosen speed of play ("normal", "fast" or "off"). With
  // reduced motion nothing moves, but the turn still plays step by step, briefly.
  timing() {
    const speed = this.state.prefs.speed;
    if (speed === 'off') return { dice: 0, hop: 0, capture: 0, step: 0, label: 900 };
    if (reducedMotion.matches) return { dice: 0, hop: 0, capture: 0, step: speed === 'fast' ? 60 : 120, label: 900 };
    if (speed === 'fast') return { dice: 200, hop: 50, capture: 160, step: 160, label: 900 };
    return { dice: 480, hop: 120, capture: 380, step: 420, label: 1300 };
  }

  async play(events, finalGame) {
    const t = this.timing();
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
          this.state.shown = {
            turn: event.starting_side ?? 'light',
            light: { ...fresh, board: [] },
            dark: { ...fresh, board: [] },
          };
          this.state.shownDice = null;
          this.state.lastMove = null;
          this.state.extraThrowFor = null;
          this.page.closeGameOver();
          this.board.clearFlashes();
          announce(newGameSentence(event, events.some((e) => e.type === 'opening')));
          this.page.renderBoardOnly(finalGame);
          break;
        }
        case 'opening': {
          narrate(openingSentence(event));
          await this.dice.roll(marksForRoll(Math.max(event.light, event.dark)), t.dice);
          await sleep(t.step);
          break;
        }
        case 'throw': {
          const marks = event.dice ?? marksForRoll(event.roll);
          this.state.extraThrowFor = null;
          this.page.playSound('dice');
          this.page.showTurnMarker(event.side);
          await this.dice.roll(marks, t.dice);
          this.state.shownDice = marks;
          const text = throwSentence(finalGame, event);
          narrate(text);
          thrown = { side: event.side, text };
          if (!canAct(finalGame, event.side)) await sleep(t.step);
          break;
        }
        case 'move':
          await this.playMove(event, finalGame, t, after);
          break;
        case 'pass': {
          this.page.playSound('pass');
          narrate(after + passSentence(finalGame, event));
          await sleep(t.step);
          break;
        }
        case 'take_back':
          // The server has put the position and the throw back: show them as they are.
          this.board.clearFlashes();
          this.state.shown = finalGame.position;
          this.state.shownDice = finalGame.dice;
          this.state.lastMove = null;
          this.state.extraThrowFor = null;
          narrate(takeBackSentence(finalGame, event));
          this.page.renderBoardOnly(finalGame);
          break;
        case 'resign':
          narrate(resignSentence(finalGame, event));
          break;
        default:
          break;
      }
    }
  }

  async playMove(event, finalGame, t, before = '') {
    const { side, from, to } = event;
    const geo = geometry();
    const own = this.state.shown[side];
    if (from === 0 ? own.start === 0 : !own.board.includes(from)) return; // already on screen (e.g. a repeated update)
    const victim = otherSide(side);
    const captured = event.capture ?? (to < geo.home && geo.captures(this.state.shown, side, to));
    narrate(`${before}${moveSentence(finalGame, event, captured)}.`);
    this.board.clearFlashes();
    await this.board.animateMove(side, from, to, t.hop);
    this.state.shown = geo.applyMove(this.state.shown, side, from, to);
    this.state.lastMove = { side, from, to };
    this.page.renderBoardOnly(finalGame);
    const cell = geo.cellOf(side, to);
    if (captured) {
      this.page.playSound('capture');
      this.board.flashLabel(cell.row, cell.col, 'Captured!', 'capture', t.label + 400);
      await this.board.animateCapture(victim, geo.opposite(side, to) ?? to, t.capture);
    } else if (to >= geo.home) {
      this.page.playSound('home');
    } else {
      this.page.playSound('move');
    }
    if (event.extra_throw) {
      this.page.playSound('rosette');
      this.board.flashLabel(cell.row, cell.col, 'Throw again!', 'rosette', t.label);
      this.state.extraThrowFor = side;
    }
    await sleep(canAct(finalGame, side) ? t.step / 3 : t.step);
  }
}
