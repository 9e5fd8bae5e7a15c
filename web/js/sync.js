// Keeping the page in step with the server (docs/web-api.md): intents over HTTP, updates
// pushed over the WebSocket, versions, and the queue of updates the page animates in order.

import { ApiError, GameSocket, api } from './api.js';
import { setGeometry } from './rules.js';
import { refusalText, saveSeat, sideFor, tokenFor } from './seats.js';

export const STORAGE_GAME = 'ur.gameId';
export const STORAGE_SETTINGS = 'ur.settings';

// Intents that depend on the position on screen carry its version, so that the server can tell
// when another window has moved the game on meanwhile (moved_on). The hints switch is about the
// player, not the position, so it is not refused for a page one step behind.
const VERSIONED = ['throw', 'move', 'pass', 'take_back'];

// The settings members the server knows; anything else stored in the browser is dropped.
const SETTINGS_MEMBERS = ['opponent', 'name', 'rules', 'pieces', 'bear_off', 'starts', 'auto_play', 'auto_pass', 'seat', 'take_back'];

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
    token: null, // this browser's seat token for the game in play, or null (watching)
    seats: null, // the game's seats (online games): names and who is connected
    claimWinAfter: null, // UTC ms from which the side not to move may claim the win
    clockOffset: 0, // the server's clock minus this one's (ms), from server_time
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
//   offerTableBuild(missing, choice, notice), refuseSettings(notice), fillSettingsForm(settings)
export class Sync {
  constructor(state, view) {
    this.state = state;
    this.view = view;
    this.socket = new GameSocket({
      update: (game, events) => this.accept(game, events, 'socket'),
      presence: (message) => this.presence(message),
      state: (connected) => {
        view.onConnection(connected);
        if (connected) this.refresh();
      },
    });
  }

  // The sides this browser may play in `game`: none without its seat token (watching); an
  // online token holds one side, any other token every person's side.
  mySides(game) {
    if (!tokenFor(game.id)) return [];
    if (!game.online) return game.human_sides;
    const side = sideFor(game.id);
    return side ? [side] : [];
  }

  // Presence and the clock, from a state or a presence message.
  takeSeats(message) {
    const state = this.state;
    if (message.seats) state.seats = message.seats;
    state.claimWinAfter = message.claim_win_after ?? null;
    if (typeof message.server_time === 'number') state.clockOffset = message.server_time - Date.now();
  }

  presence(message) {
    const state = this.state;
    if (!state.game || (message.game_id && message.game_id !== state.game.id)) return;
    const before = state.seats;
    this.takeSeats(message);
    this.view.onPresence(before);
  }

  // The seat this browser now holds in game `id` (from a join, a link, a claim or a match).
  holdSeat(id, token, side = null) {
    saveSeat(id, token, side);
    if (this.state.gameId === id) {
      this.state.token = token;
      this.socket.connect(id, token);
    }
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
      state.seats = null;
    }
    game.my_sides = this.mySides(game);
    state.token = tokenFor(game.id);
    const before = state.seats;
    this.takeSeats(game);
    state.latestVersion = game.version;
    state.queue.push({ game, events, snap: !sameGame });
    // An online game's settings are the host's and its own: the next game here starts from
    // this browser's last settings of its own.
    if (!game.online && state.token) saveJson(STORAGE_SETTINGS, game.settings);
    saveJson(STORAGE_GAME, game.id);
    this.socket.connect(game.id, state.token);
    if (sameGame) this.view.onPresence(before);
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
      const result = await api.intent(game.id, action, body, state.token);
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
          // A set the solver cannot solve (a path that crosses itself): the server's sentence says so.
          this.view.setNotice(`${error.message} Nothing was changed.`);
        } else {
          this.view.setNotice('The Perfect level needs the solved table, which this server does not have. Nothing was changed.');
        }
      } else if (error instanceof ApiError && error.code === 'bad_settings' && error.details?.rules_refused) {
        // The dialog's custom columns make no playable set: the reason, not the API's words.
        const reason = error.details.rules_refused;
        this.view.refuseSettings(`${reason.charAt(0).toUpperCase()}${reason.slice(1)}. Nothing was changed.`);
      } else if (error instanceof ApiError && error.code === 'moved_on') {
        this.view.setNotice(error.message, 'info');
        this.refresh();
      } else if (error instanceof ApiError && error.code === 'rate_limited') {
        this.view.setNotice(refusalText(error), 'info');
      } else if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        this.view.setNotice(refusalText(error), 'error');
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
    // A stored online choice hosts a game only when asked for, not on every start-up.
    if (!settings && stored.opponent === 'online') delete stored.opponent;
    try {
      const result = await this.create(stored);
      return result.game;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'bad_settings') {
        const result = await this.create({});
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
    saveSeat(result.game.id, result.token, result.game.settings?.seat ?? null);
    this.accept(result.game, result.events, 'http');
    return result.game;
  }

  // A new game (POST /api/games) whose seat token this browser keeps; an online game's host
  // holds the seat of its settings.
  async create(settings) {
    const result = await api.create(settings);
    // The server keeps no "seat" in an online game's settings: the host's is the one asked for.
    saveSeat(result.game.id, result.token, result.game.online ? (settings.seat === 'dark' ? 'dark' : 'light') : null);
    // The host's invite first, so that the page does not ask the server for it again.
    if (result.extra.invite) this.view.onInvite(result.game, result.extra.invite);
    this.accept(result.game, result.events, 'http');
    return result;
  }

  // Follows game `id`: with the seat `token` when one is given (a link, a join), else with
  // the token this browser holds, else as a watcher. Answers the game, or null when the
  // server does not have it (the notice says so).
  async open(id, token = null, side = null) {
    if (token) saveSeat(id, token, side);
    try {
      const result = await api.get(id);
      this.accept(result.game, [], 'http');
      if (result.game.online && tokenFor(id) && !sideFor(id)) await this.learnSide(result.game);
      return result.game;
    } catch (error) {
      this.view.setNotice(error instanceof ApiError && error.code === 'unknown_game' ? 'That game is not on this server (any more).' : error.message);
      return null;
    }
  }

  // An online seat token whose side this browser does not know (a link without it): the
  // host's token is the one the server shows the invite to, so the host's side is its seat.
  async learnSide(game) {
    const hostSide = game.settings?.seat ?? 'light';
    let side = hostSide === 'light' ? 'dark' : 'light';
    try {
      await api.invite(game.id, tokenFor(game.id));
      side = hostSide;
    } catch {
      // Not the host's token.
    }
    saveSeat(game.id, tokenFor(game.id), side);
    if (this.state.game?.id === game.id) {
      this.state.game.my_sides = [side];
      this.view.render();
    }
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
        let result = await api.get(id);
        // A game from before seats: this browser played it, so it takes its seat now.
        if (result.game.claimable && !tokenFor(id)) {
          try {
            result = await api.claim(id);
            saveSeat(id, result.token);
          } catch (error) {
            this.view.setNotice(refusalText(error), 'info');
          }
        }
        this.accept(result.game, [], 'http');
        if (result.game.online && tokenFor(id) && !sideFor(id)) await this.learnSide(result.game);
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
