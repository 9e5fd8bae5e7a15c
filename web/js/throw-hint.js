// The dimmed throw control's reason, shown on hover, on focus and on press-and-hold.

const $ = (id) => document.getElementById(id);

export class ThrowHint {
  constructor() {
    this.timer = null;
    this.wire();
  }

  show() {
    const hint = $('throw-hint');
    if (!hint.textContent) return;
    hint.hidden = false;
  }

  hide() {
    clearTimeout(this.timer);
    $('throw-hint').hidden = true;
  }

  // Shows the reason for a while, as after a press on the dimmed control.
  flash(ms = 2500) {
    this.show();
    this.timer = setTimeout(() => this.hide(), ms);
  }

  wire() {
    const button = $('throw-button');
    const dimmed = () => button.getAttribute('aria-disabled') === 'true';
    const show = () => dimmed() && this.show();
    const hide = () => this.hide();
    button.addEventListener('mouseenter', show);
    button.addEventListener('mousemove', show);
    button.addEventListener('mouseleave', hide);
    button.addEventListener('focus', show);
    button.addEventListener('blur', hide);
    button.addEventListener('pointerdown', (event) => {
      if (event.pointerType === 'mouse' || !dimmed()) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.show(), 350);
    });
    button.addEventListener('pointerup', () => {
      clearTimeout(this.timer);
      if (!$('throw-hint').hidden) this.timer = setTimeout(hide, 2200);
    });
    button.addEventListener('contextmenu', (event) => dimmed() && event.preventDefault());
  }
}
