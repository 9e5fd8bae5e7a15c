// Seats (docs/web-game.md "Playing online"): the seat tokens this browser holds, the player's
// default name, the links that carry a game to someone else, and the words for the server's
// refusals about seats. Storage only; nothing here talks to the server.

import { SIDE_NAME } from './rules.js';

// gameId → seat token (64 hex digits), and gameId → the side an online token holds.
export const STORAGE_SEATS = 'ur.seats';
export const STORAGE_SIDES = 'ur.sides';
export const STORAGE_NAME = 'ur.name';

const TOKEN = /^[0-9a-f]{64}$/;
const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
const INVITE = /^[0-9a-f]{32}$/;
// Tokens of games long gone are dropped beyond this many (the newest are kept).
const KEEP_SEATS = 200;

function read(key) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing may refuse storage: the seat lasts as long as the page.
  }
}

export function isToken(text) {
  return typeof text === 'string' && TOKEN.test(text);
}

export function tokenFor(gameId) {
  const token = read(STORAGE_SEATS)[gameId];
  return isToken(token) ? token : null;
}

// The side an online seat holds, when this browser learnt it (join, quick match, host).
export function sideFor(gameId) {
  const side = read(STORAGE_SIDES)[gameId];
  return side === 'light' || side === 'dark' ? side : null;
}

export function saveSeat(gameId, token, side = null) {
  if (!isToken(token)) return;
  const seats = read(STORAGE_SEATS);
  delete seats[gameId];
  seats[gameId] = token;
  const ids = Object.keys(seats);
  for (const old of ids.slice(0, Math.max(0, ids.length - KEEP_SEATS))) delete seats[old];
  write(STORAGE_SEATS, seats);
  const sides = read(STORAGE_SIDES);
  if (side === 'light' || side === 'dark') sides[gameId] = side;
  for (const old of Object.keys(sides)) if (!(old in seats)) delete sides[old];
  write(STORAGE_SIDES, sides);
}

export function defaultName() {
  try {
    return (localStorage.getItem(STORAGE_NAME) ?? '').slice(0, 24);
  } catch {
    return '';
  }
}

// A display name as the server takes it: trimmed, 1..24 printable characters, or '' (the
// side's own name).
export function cleanName(text) {
  const name = String(text ?? '')
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 24);
  try {
    localStorage.setItem(STORAGE_NAME, name);
  } catch {
    // The name is asked again next time.
  }
  return name;
}

// A seat's name, or the side's when the player gave none.
export function seatName(game, side) {
  const name = game?.seats?.[side]?.name;
  return name ? name : SIDE_NAME[side];
}

// ---------------------------------------------------------------------------------------------
// Links: #join=CODE (invite), #watch=ID (spectator), #seat=ID.TOKEN (continue elsewhere).

function pageUrl() {
  return `${window.location.origin}${window.location.pathname}`;
}

export const links = {
  join: (code) => `${pageUrl()}#join=${code}`,
  watch: (id) => `${pageUrl()}#watch=${encodeURIComponent(id)}`,
  // The side is the page's own addition, so the other device knows it without asking.
  seat: (id, token, side) => `${pageUrl()}#seat=${encodeURIComponent(id)}.${token}${side ? `.${side}` : ''}`,
};

// The link in the address bar: {kind: 'join'|'watch'|'seat', ...} or null; `bad` when the
// fragment names a link kind but its value is not one.
export function readFragment(hash = window.location.hash) {
  const match = /^#(join|watch|seat)=(.*)$/.exec(hash);
  if (!match) return null;
  const [, kind, raw] = match;
  let value = raw;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return { kind, bad: true };
  }
  if (kind === 'join') return INVITE.test(value) ? { kind, code: value } : { kind, bad: true };
  if (kind === 'watch') return GAME_ID.test(value) ? { kind, id: value } : { kind, bad: true };
  const [id, token, side] = value.split('.');
  if (!GAME_ID.test(id ?? '') || !isToken(token)) return { kind, bad: true };
  return { kind, id, token, side: side === 'light' || side === 'dark' ? side : null };
}

// Takes the link out of the address bar (a token must not stay in the history or be shared
// by copying the address).
export function clearFragment() {
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
}

// ---------------------------------------------------------------------------------------------
// Refusals: the server's codes in the page's words (the server's own sentence is kept when a
// code is not one of these).

const REFUSALS = {
  seat_token_missing: 'This browser holds no seat in this game, so it can only watch.',
  bad_seat_token: 'The seat token this browser holds for this game is damaged; it can only watch.',
  wrong_seat_token: 'This browser holds no seat in this game, so it can only watch.',
  not_your_seat: 'That is the other player’s side: you can only play your own.',
  waiting_for_opponent: 'Your friend has not joined yet: the game starts when they open the invite link.',
  invite_used: 'This invite has been used already, so you are watching the game.',
  unknown_invite: 'This invite link is not known to the server: ask your friend for a new one.',
  online_fairness: 'Hints, review, take-back and new settings are off while an online game runs; the review is offered when it ends.',
  claim_too_early: 'Not yet: the win can be claimed once the other player has been gone for 2 minutes on their turn.',
  opponent_present: 'The other player is connected again, so the game goes on.',
  unknown_ticket: 'The search for an opponent has ended (it was cancelled or timed out). Start it again to keep looking.',
  rate_limited: 'Too many actions at once: wait a moment and try again.',
  already_claimed: 'This game’s seat was taken by another browser already; this one can only watch.',
  game_running: 'A rematch can be asked for once this game is over.',
  not_their_turn: 'It is your turn: the win can be claimed only while the other player is gone on theirs.',
  not_online: 'Rematches and claiming the win are for online games; start the next game with New game.',
};

export function refusalText(error) {
  const words = REFUSALS[error?.code];
  if (!words) return error?.message ?? String(error);
  // The server's sentence says how long is left; keep it for claim_too_early.
  if (error.code === 'claim_too_early' && error.message) return error.message;
  return words;
}

export function isRefusal(code) {
  return code in REFUSALS;
}
