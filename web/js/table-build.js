// The offer to build the perfect opponent's table, shown in the settings dialog when the
// server refuses "perfect" because the table for the chosen rules is missing
// (docs/web-game.md). The build runs on the server; this polls its state, shows a progress
// bar with the time left, and cancels it on request.

import { ApiError, api } from './api.js';

const POLL_MS = 500;

const $ = (id) => document.getElementById(id);

// "12 s", "2 min 05 s".
function durationText(seconds) {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `${total} s`;
  return `${Math.floor(total / 60)} min ${String(total % 60).padStart(2, '0')} s`;
}

function rulesText(pieces, bearOff) {
  return `${pieces} pieces (${bearOff === 'any' ? 'any throw bears off' : 'exact bear-off'})`;
}

export class TableBuildOffer {
  // `onReady()` runs once the table for the offered rules is there (the page then saves the
  // settings again).
  constructor(onReady) {
    this.onReady = onReady;
    this.missing = null;
    this.pollTimer = null;
    this.polling = false;
    this.announced = '';
    $('table-build-start').addEventListener('click', () => this.start());
    $('table-build-cancel').addEventListener('click', () => this.cancel());
    // Closing the dialog stops watching; a running build carries on and is found again
    // when the offer is shown for the same rules.
    $('settings-dialog').addEventListener('close', () => this.stopPolling());
  }

  // Shows the offer for `missing` ({pieces, bear_off, estimate}) in the open settings dialog.
  async show(missing) {
    this.missing = missing;
    $('table-build').hidden = false;
    $('table-build-text').textContent =
      `This server has no solved table for ${rulesText(missing.pieces, missing.bear_off)} yet, ` +
      'so the Perfect level cannot play these rules. It can build the table now; ' +
      'it is saved for next time.';
    $('table-build-start').textContent = `Build the table now (${missing.estimate})`;
    this.showIdle();
    $('table-build-start').focus();
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
    $('table-build').hidden = true;
  }

  isOffered(state) {
    return (
      this.missing !== null &&
      state.pieces === this.missing.pieces &&
      state.bear_off === this.missing.bear_off
    );
  }

  showIdle(message = '') {
    $('table-build-progress').hidden = message === '';
    $('table-build-detail').textContent = message;
    $('table-build-bar').hidden = true;
    $('table-build-start').hidden = false;
    $('table-build-cancel').hidden = true;
  }

  async start() {
    if (!this.missing) return;
    try {
      const state = await api.startTableBuild(this.missing.pieces, this.missing.bear_off);
      this.render(state);
      $('table-build-cancel').focus();
      this.poll();
    } catch (error) {
      this.showIdle(error instanceof ApiError ? error.message : String(error));
    }
  }

  async cancel() {
    $('table-build-detail').textContent = 'Cancelling…';
    try {
      this.render(await api.cancelTableBuild());
    } catch (error) {
      $('table-build-detail').textContent = error.message;
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
        $('table-build-detail').textContent = error.message;
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
    $('table-build-status').textContent = state.message ?? '';
  }

  // Shows a state from GET/POST/DELETE /api/tables/build.
  render(state) {
    this.announceState(state);
    const startHadFocus = document.activeElement === $('table-build-start');
    const cancelHadFocus = document.activeElement === $('table-build-cancel');
    if (state.state === 'running') {
      const percent = Math.floor((state.fraction ?? 0) * 100);
      const left =
        typeof state.eta_s === 'number' ? `about ${durationText(state.eta_s)} left` : 'estimating the time left';
      $('table-build-progress').hidden = false;
      $('table-build-bar').hidden = false;
      $('table-build-bar').value = percent;
      $('table-build-bar').textContent = `${percent}%`;
      $('table-build-detail').textContent = state.cancelling
        ? state.message
        : `${percent}% · ${left} · ${state.layers || 'starting'}`;
      $('table-build-start').hidden = true;
      $('table-build-cancel').hidden = false;
      if (startHadFocus) $('table-build-cancel').focus();
      return;
    }
    this.stopPolling();
    if (state.state === 'done' && this.isOffered(state)) {
      this.hide();
      this.onReady();
      return;
    }
    this.showIdle(state.message ?? '');
    if (cancelHadFocus || document.activeElement === document.body) $('table-build-start').focus();
  }
}
