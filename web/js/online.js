// Online play (docs/web-game.md "Playing online"): the invite, spectator and "continue on
// another device" links with their QR codes, joining from a link, presence, claiming the win
// from a player who left, the rematch, quick match, and the signals for a background tab.
// The server is the referee; this only shows what it says and sends what the player asks.

import { ApiError, api } from './api.js';
import { canAct, isWatching, sideToMove } from './narration.js';
import { SIDE_NAME, otherSide } from './rules.js';
import { clearFragment, cleanName, defaultName, links, readFragment, refusalText, saveSeat, seatName, tokenFor } from './seats.js';
import { STORAGE_SETTINGS, loadJson, sanitizeSettings } from './sync.js';

const $ = (id) => document.getElementById(id);

const POLL_MS = 1000;

// "1:05". A wait rounds up (0.2 s left is "0:01"); time already spent rounds down (pass Math.floor).
function minutesAndSeconds(ms, round = Math.ceil) {
  const total = Math.max(0, round(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

function rulesWords(settings) {
  const name = settings?.rules?.name ?? 'finkel';
  const title = name.charAt(0).toUpperCase() + name.slice(1);
  const pieces = settings?.pieces ? `, ${settings.pieces} pieces each` : '';
  return `Rules: ${title}${pieces} (change them in Settings).`;
}

export class Online {
  // `page`: {setNotice(text, kind), playSound(name), render(), startComputerGame()}.
  constructor(state, sync, page) {
    this.state = state;
    this.sync = sync;
    this.page = page;
    this.inviteShownFor = null; // the game whose invite was shown since the page opened
    this.keepWaitingFor = null; // claim_win_after the player chose to keep waiting past
    this.turnSignalledFor = null; // the game whose turns are being signalled
    this.wasMyTurn = false;
    this.ticket = null; // quick match: the ticket while in the queue
    this.pollTimer = null;
    this.clock = null;
    this.title = document.title;
    this.wire();
  }

  wire() {
    $('online-button').addEventListener('click', () => this.openOnlineDialog());
    $('online-dialog').addEventListener('close', () => this.onOnlineDialogClosed());
    $('link-close').addEventListener('click', () => $('link-dialog').close());
    $('link-copy').addEventListener('click', () => this.copyLink());
    $('link-share').addEventListener('click', () => this.shareLink());
    $('link-watch').addEventListener('click', () => this.showWatchLink());
    $('invite-button').addEventListener('click', () => this.showInviteAgain());
    $('watch-link-button').addEventListener('click', () => this.showWatchLink());
    $('seat-link-button').addEventListener('click', () => this.showSeatLink());
    $('join-dialog').addEventListener('close', () => this.onJoinClosed());
    $('claim-win-button').addEventListener('click', () => this.claimWin());
    $('keep-waiting-button').addEventListener('click', () => {
      this.keepWaitingFor = this.state.claimWinAfter;
      this.render();
    });
    $('rematch-button').addEventListener('click', () => this.rematch());
    $('game-over-rematch').addEventListener('click', () => this.rematch());
    $('queue-cancel').addEventListener('click', () => this.leaveQueue());
    $('queue-status-cancel').addEventListener('click', () => this.leaveQueue());
    $('queue-computer').addEventListener('click', () => this.playComputerWhileWaiting());
    window.addEventListener('hashchange', () => this.handleFragment());
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) document.title = this.title;
    });
  }

  // -------------------------------------------------------------------------------------------
  // Links in the address bar

  // Acts on #join=, #watch= or #seat= in the address bar; answers true when it did (the page
  // then does not resume its last game).
  handleFragment() {
    const link = readFragment();
    if (!link) return false;
    if (link.bad) {
      clearFragment();
      const what = { join: 'invite', watch: 'spectator', seat: 'seat' }[link.kind];
      this.page.setNotice(`This ${what} link is damaged (part of it is missing or changed): ask for it again.`);
      return false;
    }
    if (link.kind === 'join') {
      this.joinCode = link.code;
      $('join-name').value = defaultName();
      $('join-error').hidden = true;
      $('join-dialog').returnValue = '';
      if (!$('join-dialog').open) $('join-dialog').showModal();
      return true;
    }
    clearFragment();
    if (link.kind === 'watch') {
      this.sync.open(link.id).then((game) => {
        if (game && isWatching(game)) this.page.setNotice('You are watching this game.', 'info');
      });
    } else {
      this.sync.open(link.id, link.token, link.side).then((game) => {
        if (game) this.page.setNotice('This device now holds your seat in this game: play on.', 'info');
      });
    }
    return true;
  }

  async onJoinClosed() {
    const code = this.joinCode;
    if ($('join-dialog').returnValue !== 'join' || !code) {
      this.joinCode = null;
      clearFragment();
      if (!this.state.game) this.sync.resume();
      return;
    }
    const name = cleanName($('join-name').value);
    try {
      const result = await api.join(code, name);
      this.joinCode = null;
      clearFragment();
      saveSeat(result.game.id, result.token, result.extra.side);
      this.sync.accept(result.game, result.events, 'http');
      const host = seatName(result.game, otherSide(result.extra.side));
      this.page.setNotice(`You joined ${host}’s game: you play ${SIDE_NAME[result.extra.side]}.`, 'info');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invite_used' && error.details?.game_id) {
        this.joinCode = null;
        clearFragment();
        const id = error.details.game_id;
        const mine = Boolean(tokenFor(id));
        const game = await this.sync.open(id);
        if (game && !mine) this.page.setNotice(refusalText(error), 'info');
        if (game && mine) this.page.setNotice('You joined this game already: play on.', 'info');
      } else if (error instanceof ApiError && error.code === 'unknown_invite') {
        this.joinCode = null;
        clearFragment();
        if (!this.state.game) await this.sync.resume();
        this.page.setNotice(refusalText(error));
      } else {
        // A name the server refuses, or no answer: ask again with the reason.
        $('join-error').textContent = refusalText(error);
        $('join-error').hidden = false;
        $('join-dialog').returnValue = '';
        $('join-dialog').showModal();
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Link dialogs: invite, spectator, continue on another device

  async showLink({ title, text, url, waiting = false, watchOffer = false }) {
    $('link-title').textContent = title;
    $('link-text').textContent = text;
    $('link-url').value = url;
    $('link-status').textContent = '';
    $('link-share').hidden = typeof navigator.share !== 'function';
    $('link-waiting').hidden = !waiting;
    $('link-extra').hidden = !watchOffer;
    $('link-dialog').dataset.kind = waiting ? 'invite' : 'link';
    const qr = $('link-qr');
    qr.replaceChildren();
    const dialog = $('link-dialog');
    if (!dialog.open) dialog.showModal();
    try {
      const { svg } = await api.qr(url);
      if ($('link-url').value !== url) return;
      const parsed = new DOMParser().parseFromString(String(svg), 'image/svg+xml').documentElement;
      if (parsed?.nodeName === 'svg') {
        const image = document.importNode(parsed, true);
        // The box around it is the image, named "QR code of the link".
        image.setAttribute('aria-hidden', 'true');
        qr.replaceChildren(image);
      }
    } catch (error) {
      qr.textContent = `No QR code: ${refusalText(error)}`;
    }
  }

  async copyLink() {
    const url = $('link-url').value;
    try {
      await navigator.clipboard.writeText(url);
      $('link-status').textContent = 'Copied.';
    } catch {
      $('link-url').select();
      $('link-status').textContent = 'Select the link and copy it (this browser did not let the page copy).';
    }
  }

  async shareLink() {
    try {
      await navigator.share({ title: 'Royal Game of Ur', text: $('link-title').textContent, url: $('link-url').value });
    } catch {
      // Closing the share sheet is not an error.
    }
  }

  showInvite(game, code) {
    this.inviteShownFor = game.id;
    this.showLink({
      title: 'Invite a friend',
      text: 'Send this link to your friend (or let them scan the code). It seats one person; after that it only lets people watch.',
      url: links.join(code),
      waiting: Boolean(game.waiting_for_opponent),
      watchOffer: true,
    });
  }

  // The host after a reload: the invite again from the server.
  async showInviteAgain() {
    const game = this.state.game;
    if (!game) return;
    try {
      const { invite, used } = await api.invite(game.id, this.state.token);
      if (used) {
        this.page.setNotice('Your friend has used the invite already.', 'info');
        return;
      }
      this.showInvite(game, invite);
    } catch (error) {
      this.page.setNotice(refusalText(error));
    }
  }

  showWatchLink() {
    const game = this.state.game;
    if (!game) return;
    this.showLink({
      title: 'Spectator link',
      text: 'Anyone with this link sees the game live; they cannot throw or move.',
      url: links.watch(game.id),
    });
  }

  showSeatLink() {
    const game = this.state.game;
    if (!game || !this.state.token) return;
    const side = game.online ? (game.my_sides?.[0] ?? null) : null;
    this.showLink({
      title: 'Continue on another device',
      text: 'Open this link on your other device to play on there. It holds your seat: do not give it to anyone else.',
      url: links.seat(game.id, this.state.token, side),
    });
  }

  // -------------------------------------------------------------------------------------------
  // Play online: a friend by invite, or someone from the queue

  openOnlineDialog() {
    $('online-name').value = defaultName();
    $('online-rules').textContent = rulesWords(loadJson(STORAGE_SETTINGS, {}));
    $('online-dialog').returnValue = '';
    $('online-dialog').showModal();
  }

  // The settings an online game starts from: this browser's own, with its name.
  ownSettings(name) {
    const settings = sanitizeSettings(loadJson(STORAGE_SETTINGS, {}));
    if (settings.opponent === 'friend' || settings.opponent === 'online' || !settings.opponent) settings.opponent = 'easy';
    return { ...settings, name };
  }

  async onOnlineDialogClosed() {
    const choice = $('online-dialog').returnValue;
    if (choice !== 'invite' && choice !== 'queue') return;
    const name = cleanName($('online-name').value);
    if (choice === 'invite') await this.hostGame(name);
    else await this.joinQueue(name);
  }

  async hostGame(name, settings = null) {
    const base = settings ?? this.ownSettings(name);
    const chosen = { ...base, opponent: 'online', name, seat: base.seat === 'dark' ? 'dark' : 'light' };
    await this.sync.startNewGame(chosen);
  }

  async joinQueue(name) {
    this.stopQueue();
    const settings = this.ownSettings(name);
    $('queue-rules').textContent = rulesWords(settings);
    $('queue-time').textContent = 'Waiting for another player…';
    let answer;
    try {
      answer = await api.enqueue(settings.rules ?? { name: 'finkel' }, name);
    } catch (error) {
      this.page.setNotice(refusalText(error));
      return;
    }
    if (answer.game_id) {
      await this.paired(answer);
      return;
    }
    this.ticket = answer.ticket;
    this.queueStarted = Date.now() - (answer.waiting_ms ?? 0);
    if (!$('queue-dialog').open) $('queue-dialog').showModal();
    this.showQueueTime(answer.waiting_ms ?? 0);
    this.pollTimer = setTimeout(() => this.pollQueue(), POLL_MS);
  }

  showQueueTime(waitingMs) {
    const text = `Waiting for another player… ${minutesAndSeconds(waitingMs, Math.floor)}`;
    $('queue-time').textContent = text;
    $('queue-status-text').textContent = `Still looking for an opponent online (${minutesAndSeconds(waitingMs, Math.floor)}).`;
  }

  async pollQueue() {
    const ticket = this.ticket;
    if (!ticket) return;
    let answer = null;
    try {
      answer = await api.queueState(ticket);
    } catch (error) {
      if (this.ticket !== ticket) return;
      if (error instanceof ApiError && error.code === 'unknown_ticket') {
        this.stopQueue();
        this.page.setNotice(refusalText(error));
        return;
      }
      // No answer (a restart): keep asking.
    }
    if (this.ticket !== ticket) return;
    if (answer?.game_id) {
      await this.paired(answer);
      return;
    }
    this.showQueueTime(answer?.waiting_ms ?? Date.now() - this.queueStarted);
    this.pollTimer = setTimeout(() => this.pollQueue(), POLL_MS);
  }

  async paired(answer) {
    const whileComputer = !$('queue-status').hidden;
    this.stopQueue();
    saveSeat(answer.game_id, answer.token, answer.side);
    const game = await this.sync.open(answer.game_id);
    if (!game) return;
    const other = seatName(game, otherSide(answer.side));
    const left = whileComputer ? ' Your game against the computer was left where it was.' : '';
    this.page.setNotice(`Matched: you play ${SIDE_NAME[answer.side]} against ${other}.${left}`, 'info');
    this.page.playSound('join');
    this.signalBackground(`Matched · ur`);
  }

  stopQueue() {
    clearTimeout(this.pollTimer);
    this.pollTimer = null;
    this.ticket = null;
    if ($('queue-dialog').open) $('queue-dialog').close();
    $('queue-status').hidden = true;
  }

  async leaveQueue() {
    const ticket = this.ticket;
    this.stopQueue();
    if (!ticket) return;
    try {
      await api.leaveQueue(ticket);
      this.page.setNotice('You left the queue.', 'info');
    } catch {
      // Gone already: nothing to cancel.
    }
  }

  playComputerWhileWaiting() {
    $('queue-dialog').close();
    $('queue-status').hidden = false;
    this.page.startComputerGame();
  }

  // -------------------------------------------------------------------------------------------
  // Claiming the win, the rematch

  async claimWin() {
    const game = this.state.game;
    if (!game?.my_sides?.length) return;
    // The server knows the seat from the token.
    await this.sync.intent('claim_win');
  }

  async rematch() {
    const game = this.state.game;
    if (!game?.my_sides?.length) return;
    // The server knows the seat from the token.
    await this.sync.intent('rematch');
  }

  // -------------------------------------------------------------------------------------------
  // Presence and signals

  // A presence change or a new state: the friend joining or coming back is worth a sound.
  onPresence(before) {
    const game = this.state.game;
    const seats = this.state.seats;
    if (game?.online && seats && !isWatching(game)) {
      const other = otherSide(game.my_sides[0]);
      const was = before?.[other];
      const now = seats[other];
      if (was && now && !was.taken && now.taken) {
        this.page.setNotice(`${seatName(game, other)} joined: the game begins.`, 'info');
        this.page.playSound('join');
        this.signalBackground(`${seatName(game, other)} joined · ur`);
        if ($('link-dialog').open && $('link-dialog').dataset.kind === 'invite') $('link-dialog').close();
      }
    }
    // The player strips show presence too.
    this.page.render();
  }

  // Called when the page has shown the newest state: the turn passing to this browser's
  // side in an online game is signalled (not the page's first state: the player is looking).
  settled() {
    const game = this.state.game;
    if (!game) return;
    const myTurn =
      Boolean(game.online) && !isWatching(game) && game.phase !== 'game_over' && !game.waiting_for_opponent && canAct(game, sideToMove(game));
    const key = game.id;
    if (myTurn && this.turnSignalledFor === key && !this.wasMyTurn) {
      this.page.playSound('turn');
      this.signalBackground('Your turn · ur');
    }
    this.turnSignalledFor = key;
    this.wasMyTurn = myTurn;
  }

  // A hidden tab shows it in its title until the player looks again.
  signalBackground(title) {
    if (document.hidden) document.title = title;
  }

  // -------------------------------------------------------------------------------------------
  // Drawing

  presenceWords(game, side) {
    const seat = this.state.seats?.[side];
    const name = seatName(game, side);
    if (!seat) return '';
    if (seat.player === 'computer') return '';
    if (!seat.taken) return `${name} has not joined yet`;
    if (seat.connected) return `${name} is connected`;
    if (seat.left_at) return `${name} has left`;
    return `${name} is not connected`;
  }

  render() {
    const game = this.state.game;
    const box = $('online-status');
    if (!game) return;
    const watching = isWatching(game);
    const online = Boolean(game.online);
    const running = game.phase !== 'game_over';
    box.hidden = !online && !watching;
    box.classList.toggle('watching', watching);
    // The banner: who is there.
    const parts = [];
    if (watching) parts.push('You are watching this game.');
    if (online) {
      const sides = watching ? ['light', 'dark'] : [otherSide(game.my_sides[0])];
      if (game.waiting_for_opponent && !watching) parts.push('Waiting for your friend to join…');
      else for (const side of sides) {
        const words = this.presenceWords(game, side);
        if (words) parts.push(`${words}.`);
      }
    }
    $('online-banner').textContent = parts.join(' ');
    this.renderClaim(game, watching);
    this.renderRematch(game, watching);
    // The links: the host's invite while nobody joined, the spectator link for online games,
    // the seat for another device wherever this browser holds one.
    const host = online && !watching && game.my_sides[0] === (game.settings?.seat ?? 'light');
    $('invite-button').hidden = !(host && game.waiting_for_opponent);
    $('watch-link-button').hidden = !online;
    $('seat-link-button').hidden = !this.state.token || !online;
    // The host after a reload gets the invite back once.
    if (host && game.waiting_for_opponent && this.inviteShownFor !== game.id && !document.querySelector('dialog[open]')) {
      this.inviteShownFor = game.id;
      this.showInviteAgain();
    }
    if (!online || !running) this.keepWaitingFor = null;
  }

  // The seat not to move may claim the win from a player gone for 2 minutes on their turn.
  renderClaim(game, watching) {
    const box = $('claim-win');
    const after = this.state.claimWinAfter;
    const toMove = sideToMove(game);
    const eligible =
      game.online && !watching && game.phase !== 'game_over' && after !== null && !canAct(game, toMove) && !game.waiting_for_opponent;
    box.hidden = !eligible || this.keepWaitingFor === after;
    if (box.hidden) {
      this.stopClock();
      return;
    }
    const now = Date.now() + this.state.clockOffset;
    const name = seatName(game, toMove);
    const left = after - now;
    if (left > 0) {
      $('claim-win-text').textContent = `${name} has left on their turn. If they are not back in ${minutesAndSeconds(left)}, you may claim the win.`;
      $('claim-win-buttons').hidden = true;
    } else {
      const leftAt = this.state.seats?.[toMove]?.left_at;
      const minutes = Math.max(2, Math.floor((now - (leftAt ?? after - 120000)) / 60000));
      $('claim-win-text').textContent = `${name} has been gone for ${minutes} minutes on their turn.`;
      $('claim-win-buttons').hidden = false;
    }
    this.startClock();
  }

  startClock() {
    if (!this.clock) this.clock = setInterval(() => this.render(), 1000);
  }

  stopClock() {
    clearInterval(this.clock);
    this.clock = null;
  }

  renderRematch(game, watching) {
    const over = game.online && !watching && game.phase === 'game_over';
    const mine = game.my_sides?.[0];
    const offer = game.rematch_offer ?? null;
    let text = '';
    let button = 'Rematch';
    if (over && offer && offer === mine) text = `Waiting for ${seatName(game, otherSide(mine))} to accept the rematch…`;
    else if (over && offer) {
      text = `${seatName(game, offer)} asks for a rematch.`;
      button = 'Accept';
    }
    $('rematch-offer').hidden = !over;
    $('rematch-text').textContent = text;
    $('rematch-text').hidden = !text;
    for (const id of ['rematch-button', 'game-over-rematch']) {
      $(id).textContent = button;
      $(id).disabled = Boolean(offer && offer === mine);
    }
    $('game-over-rematch').hidden = !over;
    $('game-over-new').hidden = over;
    $('game-over-rematch-text').textContent = text;
    $('game-over-rematch-text').hidden = !text;
  }
}
