// Keeping the page in step with the server (docs/web-api.md): intents over HTTP, updates
// pushed over the WebSocket, versions, and the queue of updates the page animates in order.

import { ApiError, GameSocket, api } from './api.js';
import { setGeometry } from './rules.js';

export const STORAGE_GAME = 'ur.gameId';
export const STORAGE_SETTINGS = 'ur.settings';

// Intents on the game in play carry the version on screen, so that the server can tell when
// another window has moved the game on meanwhile.
const VERSIONED = ['throw', 'move', 'pass', 'take_back', 'hints'];

// The settings members the server knows; anything else stored in the browser is dropped.
const SETTINGS_MEMBERS = ['opponent', 'rules', 'pieces', 'bear_off', 'starts', 'auto_play', 'auto_pass', 'seat', 'take_back'];

export function loadJson(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

export function saveJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing may refuse storage; the game still works without resuming.
  }
}

export function sanitizeSettings(settings) {
  if (!settings || typeof settings !== 'object') return {};
  return Object.fromEntries(Object.entries(settings).filter(([key]) => SETTINGS_MEMBERS.includes(key)));
}

// The state the page shares between syncing and drawing.
export function createState() {
  return {
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
}

// The page's link to the server. `view` draws what the sync decides:
//   playEvents(events, game)  animates one update's events (state.shown follows them)
//   render()                  draws state.game
//   settled()                 the queue is empty: prompt, game-over dialog
//   setBusy(busy)             marks the game as changing
//   setNotice(text, kind, offline), onConnection(connected)
//   offerTableBuild(missing, choice, notice), fillSettingsForm(settings)
export class Sync {
  constructor(state, view) {
    this.state = state;
    this.view = view;
    this.socket = new GameSocket(
      (game, events) => this.accept(game, events, 'socket'),
      (connected) => {
        view.onConnection(connected);
        if (connected) this.refresh();
      },
    );
  }

  // Takes an update from the server into the queue, unless it is not newer than the last.
  accept(game, events, source) {
    const state = this.state;
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
    this.socket.connect(game.id);
    this.pump();
  }

  async pump() {
    const state = this.state;
    if (state.animating) return;
    state.animating = true;
    this.view.setBusy(true);
    try {
      while (state.queue.length > 0) {
        const { game, events, snap } = state.queue.shift();
        // The board follows the rule set the server plays (a new game may change it).
        setGeometry(game.geometry);
        if (snap) {
          state.game = game;
          state.shown = game.position;
          state.shownDice = game.dice;
          state.selected = null;
          state.lastMove = null;
          this.view.render();
          continue;
        }
        await this.view.playEvents(events, game);
        state.game = game;
        state.shown = game.position;
        state.shownDice = game.dice ?? state.shownDice;
        state.selected = null;
        this.view.render();
      }
    } finally {
      state.animating = false;
      this.view.setBusy(false);
    }
    this.view.render();
    this.view.settled();
  }

  // Sends an intent on the game in play; answers its new state, or null after a refusal
  // (which the message line reports).
  async intent(action, body = {}) {
    const state = this.state;
    const game = state.game;
    if (!game) return;
    if (VERSIONED.includes(action)) body = { ...body, version: game.version };
    state.inFlight += 1;
    state.notice = null;
    this.view.render();
    try {
      const result = await api.intent(game.id, action, body);
      state.inFlight -= 1;
      this.accept(result.game, result.events, 'http');
      return result.game;
    } catch (error) {
      state.inFlight -= 1;
      if (error instanceof ApiError && error.code === 'unknown_game') {
        this.view.setNotice('This game is no longer on the server; a new one has started.', 'info');
        await this.startNewGame();
      } else if (error instanceof ApiError && error.code === 'bad_settings' && body.settings?.opponent === 'perfect') {
        if (error.details?.table_missing) {
          this.view.offerTableBuild(error.details.table_missing, action === 'new' ? 'new' : 'save');
        } else if (error.details?.perfect_play) {
          // A set the solver cannot solve yet: the server's sentence says so.
          this.view.setNotice(`${error.message} Nothing was changed.`);
        } else {
          this.view.setNotice('The Perfect level needs the solved table, which this server does not have. Nothing was changed.');
        }
      } else if (error instanceof ApiError && error.code === 'moved_on') {
        this.view.setNotice(error.message, 'info');
        this.refresh();
      } else {
        this.view.setNotice(error.message, 'error', error instanceof ApiError && error.code === 'offline');
        this.refresh();
      }
      return null;
    } finally {
      const deferred = state.deferred.splice(0);
      for (const update of deferred) this.accept(update.game, update.events, 'socket');
      this.view.render();
    }
  }

  async startNewGame(settings) {
    const stored = sanitizeSettings(settings ?? loadJson(STORAGE_SETTINGS, {}));
    try {
      const result = await api.create(stored);
      this.accept(result.game, result.events, 'http');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'bad_settings') {
        const result = await api.create({});
        this.accept(result.game, result.events, 'http');
        if (error.details?.table_missing) {
          // The saved settings ask for Perfect, whose table is not built: play at the defaults
          // meanwhile, and offer the build with the saved choices kept in the dialog.
          this.view.fillSettingsForm({ ...result.game.settings, ...stored });
          this.view.offerTableBuild(
            error.details.table_missing,
            'new',
            'Your saved settings ask for the Perfect level, whose table this server has not built yet. A game with the default settings has started meanwhile.',
          );
        } else {
          this.view.setNotice(error.message, 'info');
        }
      } else {
        this.view.setNotice(error.message);
      }
    }
  }

  // A new series from a record's game after its first `ply` plies; throws ApiError when the
  // server refuses (its `error` sentence says why).
  async startFromRecord(settings, record, ply) {
    const result = await api.createFrom(sanitizeSettings(settings), { record, ply });
    this.accept(result.game, result.events, 'http');
    return result.game;
  }

  async refresh() {
    const game = this.state.game;
    if (!game) return;
    try {
      const result = await api.get(game.id);
      this.accept(result.game, [], 'http');
    } catch {
      // The error was already reported; a later action or the socket will resync.
    }
  }

  // Follows the game this browser played last, or starts one.
  async resume() {
    const id = loadJson(STORAGE_GAME, null);
    if (typeof id === 'string' && id) {
      try {
        const result = await api.get(id);
        this.accept(result.game, [], 'http');
        return;
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'unknown_game') {
          this.view.setNotice(error.message);
          setTimeout(() => this.resume(), 3000);
          return;
        }
      }
    }
    await this.startNewGame();
  }
}
