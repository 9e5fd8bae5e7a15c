// The game log, the position as text (docs/notation.md) for `ur hints`, `ur engine` and bug
// reports, and the download of the game's record.

import { api } from './api.js';

const $ = (id) => document.getElementById(id);

// Within a few pixels of the end: new lines keep the list scrolled to them.
function atEnd(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 4;
}

export class LogPanel {
  // `currentGame()`: the game the page shows, or null.
  constructor(currentGame) {
    this.currentGame = currentGame;
    this.lines = []; // the log lines in the list
    this.stuck = true; // the list follows its newest line (the user has not scrolled up)
    const list = $('log');
    list.addEventListener('scroll', () => {
      this.stuck = atEnd(list);
    });
    $('log').closest('details').addEventListener('toggle', () => this.follow());
    $('copy-position').addEventListener('click', () => this.copyPosition());
    $('download-record').addEventListener('click', () => this.download($('download-status')));
    $('game-over-download').addEventListener('click', () => this.download($('game-over-download-status')));
  }

  // The whole log of the current game, newest line at the bottom.
  render(game) {
    $('position-text').textContent = game.position_text ?? '';
    const lines = game.log ?? [];
    const list = $('log');
    const item = (line) => {
      const element = document.createElement('li');
      element.textContent = line;
      return element;
    };
    const grows = lines.length >= this.lines.length && this.lines.every((line, index) => lines[index] === line);
    if (grows) {
      list.append(...lines.slice(this.lines.length).map(item));
    } else {
      // Another game, or a move taken back: the list starts again, at its end.
      list.replaceChildren(...lines.map(item));
      this.stuck = true;
    }
    this.lines = [...lines];
    this.follow();
  }

  follow() {
    const list = $('log');
    if (this.stuck) list.scrollTop = list.scrollHeight;
  }

  async copyPosition() {
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

  // Saves the record of every game of this series (RGN, docs/notation.md) as a file.
  async download(status) {
    const game = this.currentGame();
    if (!game) return;
    status.textContent = 'Preparing the record…';
    let record;
    try {
      record = await api.record(game.id);
    } catch (error) {
      status.textContent = error.message;
      return;
    }
    const url = URL.createObjectURL(new Blob([record.rgn], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = record.file_name;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    status.textContent = `Saved as ${record.file_name}.`;
  }
}
