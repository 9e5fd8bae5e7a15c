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
async function requestJson(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
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

async function request(method, path, body) {
  const data = await requestJson(method, path, body);
  if (!data.game) {
    throw badAnswer();
  }
  return { game: data.game, events: Array.isArray(data.events) ? data.events : [] };
}

export const api = {
  create: (settings) => request('POST', 'api/games', { settings }),
  // A new series whose first game is a record's game after its first `from.ply` plies.
  createFrom: (settings, from) => request('POST', 'api/games', { settings, from }),
  get: (id) => request('GET', `api/games/${encodeURIComponent(id)}`),
  intent: (id, action, body = {}) =>
    request('POST', `api/games/${encodeURIComponent(id)}/${action}`, body),
  // The perfect opponent's table build: each answers the build's state.
  startTableBuild: (pieces, bearOff) =>
    requestJson('POST', 'api/tables/build', { pieces, bear_off: bearOff }),
  tableBuildState: () => requestJson('GET', 'api/tables/build'),
  cancelTableBuild: () => requestJson('DELETE', 'api/tables/build'),
  // The record of a game's series: {file_name, rgn, records}.
  record: (id) => requestJson('GET', `api/games/${encodeURIComponent(id)}/record`),
  // Records: every game of a record file's text as JSON records, and the review of one.
  readRecords: (text) => requestJson('POST', 'api/records', { text }),
  review: (record, estimate = false) =>
    requestJson('POST', 'api/review', estimate ? { record, estimate: true } : { record }),
  // The named rule sets with their titles, one-line summaries and geometry.
  ruleSets: () => requestJson('GET', 'api/rule-sets'),
  // Live hints: both sides' chances now and every legal move's (GET), the switch (POST).
  hints: (id) => requestJson('GET', `api/games/${encodeURIComponent(id)}/hints`),
};

// A WebSocket to one game that reconnects with growing pauses; `onUpdate(game, events)`
// receives each pushed update, `onState(connected)` reports the connection.
export class GameSocket {
  constructor(onUpdate, onState) {
    this.onUpdate = onUpdate;
    this.onState = onState;
    this.socket = null;
    this.gameId = null;
    this.retryMs = 500;
    this.retryTimer = null;
    this.failures = 0;
  }

  connect(gameId) {
    if (this.gameId === gameId && this.socket) return;
    this.close();
    this.gameId = gameId;
    this.open();
  }

  open() {
    if (!this.gameId || typeof WebSocket === 'undefined') return;
    const url = new URL(`api/games/${encodeURIComponent(this.gameId)}/ws`, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.retryMs = 500;
      this.failures = 0;
      this.onState(true);
    });
    socket.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message?.type === 'update' && message.game) {
        this.onUpdate(message.game, Array.isArray(message.events) ? message.events : []);
      }
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.failures += 1;
      // One failed attempt is routine (a server restart); say so only when it persists.
      if (this.failures >= 2) this.onState(false);
      this.retryTimer = setTimeout(() => this.open(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 8000);
    });
  }

  close() {
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    this.gameId = null;
    if (socket) socket.close();
  }
}
