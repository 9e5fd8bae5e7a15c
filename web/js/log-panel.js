// The game log and the position as text (docs/notation.md), for `ur hints`, `ur engine` and
// bug reports.

const $ = (id) => document.getElementById(id);

export class LogPanel {
  constructor() {
    $('copy-position').addEventListener('click', () => this.copyPosition());
  }

  render(game) {
    $('position-text').textContent = game.position_text ?? '';
    const list = $('log');
    list.replaceChildren(
      ...(game.log ?? []).map((line) => {
        const item = document.createElement('li');
        item.textContent = line;
        return item;
      }),
    );
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
}
