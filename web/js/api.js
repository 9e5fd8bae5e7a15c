// Talking to `ur serve` (docs/web-api.md): HTTP intents and a WebSocket for pushed updates.

export class ApiError extends Error {
  // `details`: the whole error body, for members beyond "error" and "code" (table_missing).
  constructor(message, code, status, details = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

function badAnswer() {
  return new ApiError('The server sent an answer the page does not understand.', 'bad_answer', 0);
}

// The JSON object the server answered; ApiError for a refusal or no answer. A body always
// goes as application/json: the server refuses any other type (415), which is what keeps
// other sites' forms out (docs/deploying.md).
// `token`: the seat token, sent as `Authorization: Bearer` (docs/web-api.md: every action on a
// game needs the token of a seat it holds).
async function requestJson(method, path, body, token = null) {
  let response;
  const headers = body === undefined ? {} : { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError('The server cannot be reached. Is `ur serve` still running?', 'offline', 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data?.error ?? `The server answered ${response.status}.`;
    throw new ApiError(message, data?.code ?? 'http_error', response.status, data ?? {});
  }
  if (!data || typeof data !== 'object') {
    throw badAnswer();
  }
  return data;
}

// A game's state and events, with the members beyond them (token, invite, side) in `extra`.
async function request(method, path, body, token = null) {
  const data = await requestJson(method, path, body, token);
  if (!data.game) {
    throw badAnswer();
  }
  return { game: data.game, events: Array.isArray(data.events) ? data.events : [], token: data.token ?? null, extra: data };
}

const gamePath = (id) => `api/games/${encodeURIComponent(id)}`;

export const api = {
  create: (settings) => request('POST', 'api/games', { settings }),
  // A new series whose first game is a record's game after its first `from.ply` plies.
  createFrom: (settings, from) => request('POST', 'api/games', { settings, from }),
  get: (id) => request('GET', gamePath(id)),
  intent: (id, action, body = {}, token = null) => request('POST', `${gamePath(id)}/${action}`, body, token),
  // An old game stored before seats: its seat token, once.
  claim: (id) => request('POST', `${gamePath(id)}/claim`, {}),
  // Online games: the host's invite again, a friend's join, the QR code of a link.
  invite: (id, token) => requestJson('GET', `${gamePath(id)}/invite`, undefined, token),
  join: (invite, name) => request('POST', 'api/join', { invite, name }),
  qr: (text) => requestJson('POST', 'api/qr', { text }),
  // Quick match: a ticket in the queue for the same rules, polled about once a second.
  enqueue: (rules, name) => requestJson('POST', 'api/queue', rules ? { rules, name } : { name }),
  queueState: (ticket) => requestJson('GET', `api/queue/${encodeURIComponent(ticket)}`),
  leaveQueue: (ticket) => requestJson('DELETE', `api/queue/${encodeURIComponent(ticket)}`),
  // The perfect opponent's table build: each answers the build's state.
  // `build`: a table_missing offer's `build` member, {rules: {...}}.
  startTableBuild: (build) => requestJson('POST', 'api/tables/build', build),
  tableBuildState: () => requestJson('GET', 'api/tables/build'),
  cancelTableBuild: () => requestJson('DELETE', 'api/tables/build'),
  // The record of a game's series: {file_name, rgn, records}.
  record: (id) => requestJson('GET', `${gamePath(id)}/record`),
  // Records: every game of a record file's text as JSON records, and the review of one.
  readRecords: (text) => requestJson('POST', 'api/records', { text }),
  review: (record, estimate = false) =>
    requestJson('POST', 'api/review', estimate ? { record, estimate: true } : { record }),
  // The named rule sets with their titles, one-line summaries and geometry.
  ruleSets: () => requestJson('GET', 'api/rule-sets'),
  // Live hints: both sides' chances now and every legal move's (GET), the switch (POST).
  hints: (id, token = null) => requestJson('GET', `${gamePath(id)}/hints`, undefined, token),
};

// Completes an update against the socket's previous one (docs/web-api.md, "Updates carry what
// changed"): the geometry comes only when the rules change, and `log_kept` says how many of
// the previous log's lines come before the new ones. Answers null when `previous` cannot
// supply what was left out.
export function completeUpdate(game, previous) {
  const kept = game.log_kept;
  if (game.geometry && kept === undefined) return game;
  if (!previous) return null;
  const whole = { ...game, geometry: game.geometry ?? previous.geometry };
  if (kept !== undefined) {
    const before = previous.log ?? [];
    if (!Number.isInteger(kept) || kept < 0 || kept > before.length || !Array.isArray(game.log)) {
      return null;
    }
    whole.log = before.slice(0, kept).concat(game.log);
    delete whole.log_kept;
  }
  return whole.geometry ? whole : null;
}

// A WebSocket to one game that reconnects with growing pauses; `handlers.update(game, events)`
// receives each pushed update (completed: a whole GameState), `handlers.presence(message)`
// each change of who is connected, `handlers.state(connected)` reports the connection. Right after each (re)connection it says
// hello with the seat token, which marks this seat connected for as long as the socket is open.
export class GameSocket {
  constructor(handlers) {
    this.handlers = handlers;
    this.socket = null;
    this.gameId = null;
    this.token = null;
    this.retryMs = 500;
    this.retryTimer = null;
    this.failures = 0;
    this.lastGame = null;  // the socket's latest update, completed: the next one's base
  }

  connect(gameId, token = null) {
    if (this.gameId === gameId && this.token === token && this.socket) return;
    this.close();
    this.gameId = gameId;
    this.token = token;
    this.open();
  }

  // Every message carries the token (a watcher's carries none).
  send(message) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(this.token ? { ...message, token: this.token } : message));
    return true;
  }

  open() {
    if (!this.gameId || typeof WebSocket === 'undefined') return;
    const url = new URL(`api/games/${encodeURIComponent(this.gameId)}/ws`, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    this.lastGame = null;  // a new socket's first update is whole
    socket.addEventListener('open', () => {
      if (this.socket !== socket) return;
      this.retryMs = 500;
      this.failures = 0;
      if (this.token) this.send({ action: 'hello' });
      this.handlers.state(true);
    });
    socket.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message?.type === 'update' && message.game) {
        const game = completeUpdate(message.game, this.lastGame);
        if (!game) {
          // Something left out that this socket never had: start over with a whole state.
          socket.close();
          return;
        }
        this.lastGame = game;
        this.handlers.update(game, Array.isArray(message.events) ? message.events : []);
      } else if (message?.type === 'presence' && message.seats) {
        this.handlers.presence(message);
      }
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.failures += 1;
      // One failed attempt is routine (a server restart); say so only when it persists.
      if (this.failures >= 2) this.handlers.state(false);
      this.retryTimer = setTimeout(() => this.open(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 4000);
    });
  }

  close() {
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    this.gameId = null;
    this.token = null;
    if (socket) socket.close();
  }
}
