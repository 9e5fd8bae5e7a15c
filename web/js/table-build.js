// The offer to build a solved table: in the settings dialog when the server refuses "perfect"
// because the table for the chosen rules is missing, and in the review and the hints when
// they can only be estimated (docs/web-game.md). The build runs on the server; this polls its
// state, shows a progress bar with the time left, and cancels it on request.

import { ApiError, api } from './api.js';

const POLL_MS = 500;

const $ = (id) => document.getElementById(id);

// "12 s", "2 min 05 s".
function durationText(seconds) {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `${total} s`;
  return `${Math.floor(total / 60)} min ${String(total % 60).padStart(2, '0')} s`;
}

// "Masters, 5 pieces (exact bear-off)"; Finkel's, the usual rules, go by their pieces alone.
function rulesText({ rules, pieces, bear_off: bearOff }) {
  const set = rules && rules !== 'finkel' ? `${rules[0].toUpperCase()}${rules.slice(1)} rules, ` : '';
  return `${set}${pieces} pieces (${bearOff === 'any' ? 'any throw bears off' : 'exact bear-off'})`;
}

export class TableBuildOffer {
  // `onReady()` runs once the table for the offered rules is there (the page then saves the
  // settings again, or asks for the review again). `options.prefix` names the offer's
  // elements (`${prefix}-start` and so on). The offer's text is "This server has no solved
  // table for ... yet, " then `options.consequence`, then `options.offer` where this player
  // may build, else the command for the server's operator and `options.otherwise`.
  // `options.dialog` is a dialog whose closing stops watching the build.
  constructor(onReady, options = {}) {
    this.onReady = onReady;
    this.prefix = options.prefix ?? 'table-build';
    this.consequence = options.consequence ?? 'so the Perfect level cannot play these rules.';
    this.offer = options.offer ?? 'It can build the table now; it is saved for next time.';
    this.otherwise = options.otherwise ?? '';
    this.missing = null;
    this.canBuild = true; // whether this player may start (and cancel) the build
    this.pollTimer = null;
    this.polling = false;
    this.announced = '';
    this.el('start').addEventListener('click', () => this.start());
    this.el('cancel').addEventListener('click', () => this.cancel());
    // Closing the dialog stops watching; a running build carries on and is found again
    // when the offer is shown for the same rules.
    if (options.dialog) $(options.dialog).addEventListener('close', () => this.stopPolling());
  }

  // One of the offer's elements: el('start') is #table-build-start in the settings dialog.
  el(name) {
    return $(name ? `${this.prefix}-${name}` : this.prefix);
  }

  // Shows the offer for `missing` ({pieces, bear_off, estimate, command, can_build}); `focus`
  // moves the focus to its button. Where the server lets this player build nothing
  // (`can_build` false: `ur serve --table-builds`), the offer names the command that builds
  // the table on the server instead of a button that would be refused.
  async show(missing, focus = true) {
    this.missing = missing;
    this.canBuild = missing.can_build !== false;
    this.el().hidden = false;
    const command = missing.command ? `\`${missing.command}\`` : '`ur solve`';
    const tail = this.canBuild
      ? this.offer
      : `Only whoever runs this server can build it, with ${command} there.${this.otherwise ? ` ${this.otherwise}` : ''}`;
    this.el('text').textContent = `This server has no solved table for ${rulesText(missing)} yet, ${this.consequence} ${tail}`;
    this.el('start').textContent = `Build the table now (${missing.estimate})`;
    this.showIdle();
    if (focus && this.canBuild) this.el('start').focus();
    try {
      const state = await api.tableBuildState();
      if (state.state === 'running' && this.isOffered(state)) {
        this.render(state);
        this.poll();
      }
    } catch {
      // Nothing known about a build: the offer stands as it is.
    }
  }

  hide() {
    this.stopPolling();
    this.missing = null;
    this.el().hidden = true;
  }

  isOffered(state) {
    return (
      this.missing !== null &&
      (state.rules ?? 'finkel') === (this.missing.rules ?? 'finkel') &&
      state.pieces === this.missing.pieces &&
      state.bear_off === this.missing.bear_off
    );
  }

  showIdle(message = '') {
    this.el('progress').hidden = message === '';
    this.el('detail').textContent = message;
    this.el('bar').hidden = true;
    this.el('start').hidden = !this.canBuild;
    this.el('cancel').hidden = true;
  }

  async start() {
    if (!this.missing) return;
    try {
      const state = await api.startTableBuild(
        this.missing.build ?? { pieces: this.missing.pieces, bear_off: this.missing.bear_off },
      );
      this.render(state);
      this.el('cancel').focus();
      this.poll();
    } catch (error) {
      this.showIdle(error instanceof ApiError ? error.message : String(error));
    }
  }

  async cancel() {
    this.el('detail').textContent = 'Cancelling…';
    try {
      this.render(await api.cancelTableBuild());
    } catch (error) {
      this.el('detail').textContent = error.message;
    }
  }

  poll() {
    if (this.polling) return;
    this.polling = true;
    const tick = async () => {
      if (!this.polling) return;
      let state = null;
      try {
        state = await api.tableBuildState();
      } catch (error) {
        this.el('detail').textContent = error.message;
      }
      if (!this.polling) return;
      if (state) this.render(state);
      if (!state || state.state === 'running') this.pollTimer = setTimeout(tick, POLL_MS);
    };
    this.pollTimer = setTimeout(tick, POLL_MS);
  }

  stopPolling() {
    this.polling = false;
    clearTimeout(this.pollTimer);
  }

  // Tells screen readers about a change of the build's state (not every percent).
  announceState(state) {
    const key = `${state.state}:${state.message}`;
    if (key === this.announced) return;
    this.announced = key;
    this.el('status').textContent = state.message ?? '';
  }

  // Shows a state from GET/POST/DELETE /api/tables/build.
  render(state) {
    this.announceState(state);
    const startHadFocus = document.activeElement === this.el('start');
    const cancelHadFocus = document.activeElement === this.el('cancel');
    if (state.state === 'running') {
      const percent = Math.floor((state.fraction ?? 0) * 100);
      const left =
        typeof state.eta_s === 'number' ? `about ${durationText(state.eta_s)} left` : 'estimating the time left';
      this.el('progress').hidden = false;
      this.el('bar').hidden = false;
      this.el('bar').value = percent;
      this.el('bar').textContent = `${percent}%`;
      this.el('detail').textContent = state.cancelling
        ? state.message
        : `${percent}% · ${left} · ${state.layers || 'starting'}`;
      this.el('start').hidden = true;
      this.el('cancel').hidden = !this.canBuild;
      if (startHadFocus && this.canBuild) this.el('cancel').focus();
      return;
    }
    this.stopPolling();
    if (state.state === 'done' && this.isOffered(state)) {
      this.hide();
      this.onReady();
      return;
    }
    this.showIdle(state.message ?? '');
    if (this.canBuild && (cancelHadFocus || document.activeElement === document.body)) this.el('start').focus();
  }
}
