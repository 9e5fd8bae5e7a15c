// Opening a game record and replaying it ply by ply, with its review when the server has the
// solved table. The replay has a board of its own and hides the game, which keeps running
// untouched underneath, so Close returns to it exactly as it was.

import { ApiError, api } from './api.js';
import { Board } from './board.js';
import { CLASS_MARK, definitionList, lossAndLuckRows, moveWords, percent } from './review.js';
import { Geometry, SIDE_NAME, geometry } from './rules.js';

const $ = (id) => document.getElementById(id);


// The server's body limit for POST /api/records: a larger request would be cut off unread.
const MAX_RECORD_BYTES = 1024 * 1024;

const RESULT_TEXT = { '1-0': 'Shell won', '0-1': 'Bitumen won', '*': 'unfinished' };

// The position before any ply, as the server gives it with the record (its Position tag's,
// for a game begun from a given position, as Play from here writes them; else the opening).
function startPosition(record) {
  if (record.start) return record.start;
  const pieces = record.rules.pieces;
  const empty = () => ({ start: pieces, home: 0, board: [] });
  return { turn: record.plies[0]?.side ?? 'light', light: empty(), dark: empty() };
}

const NO_HIGHLIGHTS = { movable: new Set(), selected: null, targets: new Set(), activeSide: 'light', lastMove: null };

export class Replay {
  // `onOpen()` and `onClose()` let the game page step aside and come back;
  // `onPlayFrom(settings, record, ply)` starts a game from the record (it throws the server's
  // refusal); `settings()` is the game's settings, for the choices the dialog starts with.
  constructor({ onOpen, onClose, onPlayFrom, settings }) {
    this.onOpen = onOpen;
    this.onClose = onClose;
    this.onPlayFrom = onPlayFrom;
    this.settings = settings;
    this.board = new Board($('replay-board'), () => {});
    this.games = [];
    this.record = null;
    this.review = null;
    this.ply = 0; // 0 is the start; k the position after ply k
    this.request = 0; // drops review answers for a game no longer shown
    this.wire();
  }

  isOpen() {
    return !$('replay').hidden;
  }

  wire() {
    $('record-button').addEventListener('click', () => this.openDialog());
    $('record-file').addEventListener('change', () => this.readFile());
    $('record-form').addEventListener('submit', (event) => {
      if (event.submitter?.value !== 'open') return;
      event.preventDefault();
      this.openText($('record-text').value);
    });
    $('replay-close').addEventListener('click', () => this.close());
    $('replay-first').addEventListener('click', () => this.go(0));
    $('replay-back').addEventListener('click', () => this.go(this.ply - 1));
    $('replay-next').addEventListener('click', () => this.go(this.ply + 1));
    $('replay-last').addEventListener('click', () => this.go(this.record.plies.length));
    $('replay-game').addEventListener('change', (event) => this.showGame(Number(event.target.value)));
    $('replay-play').addEventListener('click', () => this.openPlayFrom());
    $('play-from-form').addEventListener('change', () => this.showPlayFromChoices());
    $('play-from-form').addEventListener('submit', (event) => {
      if (event.submitter?.value !== 'play') return;
      event.preventDefault();
      this.playFrom();
    });
    document.addEventListener('keydown', (event) => this.onKey(event));
  }

  openDialog() {
    this.showError('');
    const dialog = $('record-dialog');
    if (!dialog.open) dialog.showModal();
  }

  async readFile() {
    const file = $('record-file').files?.[0];
    if (!file) return;
    try {
      $('record-text').value = await file.text();
      this.showError('');
    } catch {
      this.showError(`The file ${file.name} cannot be read.`);
    }
  }

  showError(text) {
    $('record-error').textContent = text;
    $('record-error').hidden = !text;
  }

  async openText(text) {
    if (!text.trim()) {
      this.showError('Choose a record file or paste a record first.');
      return;
    }
    if (new Blob([JSON.stringify({ text })]).size > MAX_RECORD_BYTES) {
      this.showError('The record is larger than 1 MiB, the most the server reads at once.');
      return;
    }
    let games;
    try {
      ({ games } = await api.readRecords(text));
    } catch (error) {
      this.showError(error instanceof ApiError ? error.message : String(error));
      return;
    }
    if (!Array.isArray(games) || games.length === 0) {
      this.showError('The text holds no game.');
      return;
    }
    $('record-dialog').close();
    this.games = games;
    const picker = $('replay-game');
    picker.replaceChildren(
      ...games.map((game, index) => {
        const option = document.createElement('option');
        option.value = String(index);
        option.textContent = `${index + 1}. ${this.playersText(game)}`;
        return option;
      }),
    );
    $('replay-game-line').hidden = games.length < 2;
    if (!this.isOpen()) {
      this.onOpen();
      $('replay').hidden = false;
    }
    this.showGame(0);
    $('replay-close').focus();
  }

  close() {
    if (!this.isOpen()) return;
    $('replay').hidden = true;
    this.request += 1;
    this.onClose();
    $('record-button').focus();
  }

  playersText(game) {
    const tags = game.tags ?? {};
    const result = tags.Result ?? '*';
    return `Shell: ${tags.Light ?? 'Human'} · Bitumen: ${tags.Dark ?? 'Human'} · ${RESULT_TEXT[result] ?? result}`;
  }

  showGame(index) {
    this.record = this.games[index];
    // The record's own board (the server sends its geometry with every record).
    this.geo = this.record.geometry ? new Geometry(this.record.geometry) : geometry();
    this.board.useGeometry(this.geo, true);
    $('replay-game').value = String(index);
    $('replay-players').textContent =
      `${this.playersText(this.record)} · ${this.geo?.title ?? `${this.record.rules.pieces} pieces each, bear-off ${this.record.rules.bear_off}`}`;
    this.review = null;
    $('replay-note').hidden = true;
    this.renderMoves();
    this.go(0);
    this.loadReview();
  }

  // The review needs only the moves: positions are left out to keep the request small.
  async loadReview() {
    const request = (this.request += 1);
    const record = {
      rules: this.record.rules,
      tags: this.record.tags,
      plies: this.record.plies.map(({ side, roll, move }) => ({ side, roll, move })),
      result: this.record.result,
    };
    let review = null;
    let note = [];
    try {
      review = await api.review(record);
    } catch (error) {
      // The server's sentences name API members ("estimate"): the page says it in its own words.
      const unavailable = error instanceof ApiError ? error.details?.perfect_play : null;
      if (unavailable) {
        note = [`${unavailable} Review shows the expert search’s estimate instead.`];
      } else if (/no solved table/i.test(error.message)) {
        const command = document.createElement('code');
        command.textContent = `ur solve --pieces ${this.record.rules.pieces}`;
        note = ['No solved table for these rules: the review needs ', command, '.'];
      } else {
        note = [`The review is not available: ${error.message}`];
      }
    }
    if (request !== this.request) return;
    this.review = Array.isArray(review?.throws) ? review : null;
    $('replay-note').replaceChildren(...note);
    $('replay-note').hidden = note.length === 0;
    this.renderMoves();
    this.render();
  }

  renderMoves() {
    const list = $('replay-moves');
    list.replaceChildren(
      ...this.record.plies.map((ply, index) => {
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'replay-ply';
        button.dataset.ply = String(index + 1);
        const entry = this.review?.throws[index];
        const text = `${ply.turn}. ${SIDE_NAME[ply.side]} threw ${ply.roll}: ${ply.rgn}`;
        button.append(text);
        if (entry) {
          const mark = document.createElement('span');
          mark.className = `review-class class-${entry.class}`;
          mark.textContent = `${CLASS_MARK[entry.class] ?? ''} ${entry.class}`;
          button.append(' ', mark);
        }
        button.addEventListener('click', () => this.go(index + 1));
        item.append(button);
        return item;
      }),
    );
  }

  go(ply) {
    if (!this.record) return;
    this.ply = Math.max(0, Math.min(ply, this.record.plies.length));
    this.render();
  }

  render() {
    const plies = this.record.plies;
    const current = plies[this.ply - 1];
    const position = current ? current.position : startPosition(this.record);
    const lastMove =
      current?.move ? { side: current.side, from: current.move.from, to: current.move.to } : null;
    this.board.render(position, { ...NO_HIGHLIGHTS, lastMove });
    $('replay-status').textContent = current
      ? `Ply ${this.ply} of ${plies.length}: turn ${current.turn}, ${SIDE_NAME[current.side]} threw ${current.roll}, ${moveWords(current.move, this.geo?.home)}${current.capture ? ', a capture' : ''}${current.extra_throw ? ', throws again' : ''}.`
      : this.startText();
    for (const button of $('replay-moves').querySelectorAll('.replay-ply')) {
      const here = Number(button.dataset.ply) === this.ply;
      button.classList.toggle('current', here);
      if (here) {
        button.setAttribute('aria-current', 'step');
        button.scrollIntoView?.({ block: 'nearest' });
      } else button.removeAttribute('aria-current');
    }
    $('replay-first').disabled = $('replay-back').disabled = this.ply === 0;
    $('replay-play').disabled = this.isOverAt(position);
    $('replay-next').disabled = $('replay-last').disabled = this.ply === plies.length;
    this.renderReview(current);
  }

  startText() {
    const plies = this.record.plies.length;
    const given = this.record.tags?.Position ? ': the position the game began in, as the record gives it' : '';
    return plies ? `The start${given}, before ply 1 of ${plies}.` : `The start${given}; the record holds no ply.`;
  }

  // True when a side has every piece home: no game goes on from there.
  isOverAt(position) {
    const pieces = this.record.rules.pieces;
    return position.light.home === pieces || position.dark.home === pieces;
  }

  // -------------------------------------------------------------------------------------------
  // Play from here: a new game from the position shown.

  openPlayFrom() {
    if (!this.record) return;
    const plies = this.record.plies;
    const current = plies[this.ply - 1];
    const position = current ? current.position : startPosition(this.record);
    if (this.isOverAt(position)) return;
    const rules = this.record.rules;
    $('play-from-text').textContent =
      `${this.ply === 0 ? 'From the start' : `After ply ${this.ply} of ${plies.length}`}, with the record's rules: ${rules.pieces} pieces each, bear-off ${rules.bear_off}. ${SIDE_NAME[position.turn]} is to move.`;
    const settings = this.settings() ?? {};
    const form = $('play-from-form');
    const levels = [...$('play-from-level').options].map((option) => option.value);
    const friend = settings.opponent === 'friend';
    for (const input of form.elements.against) input.checked = input.value === (friend ? 'friend' : 'computer');
    $('play-from-level').value = levels.includes(settings.opponent) ? settings.opponent : 'medium';
    // The person takes over the side to move at this ply.
    $('play-from-side').value = position.turn;
    this.showPlayFromChoices();
    this.showPlayFromError('');
    const dialog = $('play-from-dialog');
    dialog.returnValue = '';
    if (!dialog.open) dialog.showModal();
  }

  showPlayFromChoices() {
    $('play-from-computer').hidden = $('play-from-form').elements.against.value !== 'computer';
  }

  showPlayFromError(text) {
    $('play-from-error').textContent = text;
    $('play-from-error').hidden = !text;
  }

  async playFrom() {
    const computer = $('play-from-form').elements.against.value === 'computer';
    const choice = computer
      ? { opponent: $('play-from-level').value, seat: $('play-from-side').value }
      : { opponent: 'friend' };
    const start = $('play-from-start');
    start.disabled = true;
    try {
      await this.onPlayFrom(choice, this.record, this.ply);
    } catch (error) {
      this.showPlayFromError(error instanceof ApiError ? error.message : String(error));
      return;
    } finally {
      start.disabled = false;
    }
    $('play-from-dialog').close('play');
    this.close();
  }

  renderReview(ply) {
    const panel = $('replay-review');
    const entry = ply && this.review?.throws[this.ply - 1];
    panel.hidden = !entry;
    if (!entry) {
      panel.replaceChildren();
      return;
    }
    const best = entry.moves?.[0] ?? null;
    const home = this.geo?.home;
    const rows = [
      ['Chance before', `${percent(entry.win_before)} for ${SIDE_NAME[ply.side]}`],
      ['Best move', `${moveWords(best, home)}: ${percent(entry.win_best)}`],
      ['Played', `${moveWords(ply.move, home)}: ${percent(entry.win_played)}`],
      ...lossAndLuckRows(entry),
    ];
    panel.replaceChildren(definitionList(rows));
  }

  // ← → step and Home/End jump while the replay is shown; keys inside form fields, on the
  // board (its own arrow-key focus) and in dialogs keep their meaning.
  onKey(event) {
    if (!this.isOpen() || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (document.querySelector('dialog[open]')) return;
    if (event.target?.closest?.('input, select, textarea, #replay-board')) return;
    const steps = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: this.record.plies.length };
    if (!(event.key in steps)) return;
    event.preventDefault();
    this.go(steps[event.key]);
  }
}
