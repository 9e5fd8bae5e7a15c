// Live hints (docs/web-game.md): with the Hints switch on, while a person must act, the page
// asks GET /api/games/{id}/hints after each update and shows each legal move's chance on the
// square it reaches, and both sides' chances in a bar. The switch itself is the server's
// (POST /api/games/{id}/hints, GameState.hints_on), so a reload keeps it.

import { ApiError, api } from './api.js';
import { percent, moveWords } from './review.js';
import { SIDE_NAME, homeSquare } from './rules.js';
import { TableBuildOffer } from './table-build.js';

const $ = (id) => document.getElementById(id);

// A failed ask that may work a moment later (no answer, the server busy or restarting, the
// action rate) is asked again after RETRY_MS, up to RETRIES times for the same state.
const RETRY_MS = 1500;
const RETRIES = 5;

function transient(failure) {
  if (!(failure instanceof ApiError)) return true;
  return failure.status === 0 || failure.status === 429 || failure.status >= 500;
}

export class LiveHints {
  // `board` is the game's board; `toggle(on)` sends the switch to the server.
  constructor(board, toggle) {
    this.board = board;
    this.fetchedFor = null; // "id:version" of the state the hints were asked for
    this.hints = null; // the answer for `fetchedFor`
    this.error = '';
    this.retries = 0; // asks again for `fetchedFor` after a transient failure
    this.retryTimer = null;
    this.tableBuild = new TableBuildOffer(() => this.refetch(), {
      prefix: 'hints-build',
      consequence: 'so these hints come from the expert search’s estimate.',
      offer: 'The server can build the table now; it is saved for next time.',
    });
    $('hints-button').addEventListener('click', () => toggle(!this.on));
    this.on = false;
  }

  refetch() {
    this.fetchedFor = null;
    this.tableBuild.hide();
    if (this.game) this.update(this.game, this.acting);
  }

  // Called on every render: `acting` is true while a person must act on `game`.
  update(game, acting) {
    this.game = game;
    this.acting = acting;
    this.on = Boolean(game.hints_on);
    $('hints-button').setAttribute('aria-pressed', this.on ? 'true' : 'false');
    $('hints').hidden = !this.on;
    if (!this.on) {
      this.hints = null;
      this.fetchedFor = null;
      this.tableBuild.hide();
      this.clearBoard();
      return;
    }
    const key = `${game.id}:${game.version}`;
    if (acting && key !== this.fetchedFor) {
      this.fetchedFor = key;
      this.retries = 0;
      this.fetch(game, key);
    }
    this.draw();
  }

  async fetch(game, key) {
    let hints = null;
    let error = '';
    try {
      hints = await api.hints(game.id);
    } catch (failure) {
      error = failure.message;
      if (key === this.fetchedFor && transient(failure) && this.retries < RETRIES) {
        this.retries += 1;
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => {
          if (this.on && key === this.fetchedFor) this.fetch(game, key);
        }, RETRY_MS);
        return; // "Working out the chances…" stays until the next answer
      }
    }
    if (key !== this.fetchedFor) return;
    this.hints = hints ? { ...hints, key } : null;
    this.error = error;
    if (hints?.exact === false && hints.table_missing && this.tableBuild.missing === null) {
      this.tableBuild.show(hints.table_missing, false);
    }
    this.draw();
  }

  clearBoard() {
    this.board.showChances([]);
  }

  draw() {
    const hints = this.hints;
    if (!this.on) return;
    if (!hints) {
      $('hints-chances').textContent = this.error ? `Hints are not available: ${this.error}` : 'Working out the chances…';
      $('hints-moves').textContent = '';
      $('hints-estimated').hidden = true;
      this.clearBoard();
      return;
    }
    const light = hints.win?.light ?? 0.5;
    const dark = hints.win?.dark ?? 1 - light;
    $('hints-bar-light').style.width = `${(light * 100).toFixed(1)}%`;
    $('hints-chances').textContent = `Chance to win: Shell ${percent(light)} · Bitumen ${percent(dark)}`;
    $('hints-estimated').hidden = hints.exact !== false;
    // A set the solver cannot solve (a path that crosses itself): say so, rather than "no solved table".
    $('hints-estimated').textContent = hints.perfect_play
      ? `estimated by the search: ${hints.perfect_play}`
      : 'estimated: no solved table';
    // The moves' chances belong to the state they were asked for, and only while it waits.
    const game = this.game;
    const current = hints.key === `${game.id}:${game.version}`;
    const moves = current && this.acting && game.phase === 'move' ? (hints.moves ?? []) : [];
    const side = game.to_move ?? game.position.turn;
    if (moves.length === 0) {
      $('hints-moves').textContent = '';
      this.clearBoard();
      return;
    }
    $('hints-moves').textContent =
      `${SIDE_NAME[side]}’s chance after each move: ` +
      moves.map((move) => `${moveWords(move)} ${percent(move.win)}`).join(', ') + '.';
    // One label a square; several bear-offs share home, which shows the best of them.
    const best = new Map();
    for (const move of moves) {
      const to = Math.min(move.to, homeSquare());
      if (!best.has(to) || best.get(to) < move.win) best.set(to, move.win);
    }
    this.board.showChances(
      [...best.entries()].map(([to, win]) => ({ side, to, text: `${Math.round(win * 100)}%` })),
    );
  }
}
