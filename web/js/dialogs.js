// The game's dialogs: settings (with the offer to build the Perfect level's table), the
// question before a new game replaces one in progress, the end of a game, and the rules.

import { api } from './api.js';
import { announce, canAct, isFriendGame, isHuman, isWatching } from './narration.js';
import { drawRouteDiagram, routeCaption } from './route-diagram.js';
import { SIDE_NAME, geometry, otherSide } from './rules.js';
import { setSoundEnabled } from './sound.js';
import { cleanName, defaultName, seatName } from './seats.js';
import { STORAGE_SETTINGS, saveJson } from './sync.js';
import { TableBuildOffer } from './table-build.js';

export const STORAGE_PREFS = 'ur.prefs';

const $ = (id) => document.getElementById(id);

// True once anything has happened in the game and it is not over.
function gameInProgress(game) {
  const pieces = game.rules.pieces;
  const { light, dark } = game.position;
  const moved = light.start < pieces || dark.start < pieces;
  return game.phase !== 'game_over' && (moved || game.roll !== null);
}

export class Dialogs {
  // `page`: {setNotice(text, kind), playSound(name), newGame()} of the game page.
  constructor(state, sync, page) {
    this.state = state;
    this.sync = sync;
    this.page = page;
    this.tableBuild = new TableBuildOffer(() => this.onTableReady(), { dialog: 'settings-dialog' });
    this.tableBuildChoice = 'save'; // how to save the settings once the offered table is built
    this.wire();
  }

  wire() {
    $('new-game-button').addEventListener('click', () => this.onNewGameButton());
    $('confirm-new-dialog').addEventListener('close', () => {
      if ($('confirm-new-dialog').returnValue === 'new') this.page.newGame();
    });
    $('settings-button').addEventListener('click', () => this.openSettings());
    // Choosing a set starts from its own piece count and bear-off.
    for (const input of $('settings-form').elements.rule_set) {
      input.addEventListener('change', () => this.onRuleSetChosen(input.value));
    }
    $('settings-dialog').addEventListener('close', () => this.onSettingsClosed());
    $('settings-form').addEventListener('change', () => this.showTakeBackSetting());
    $('rules-button').addEventListener('click', () => this.openRules());
    $('rules-close').addEventListener('click', () => $('rules-dialog').close());
    $('rules-dialog').addEventListener('close', () => {
      if (window.location.hash === '#rules') history.replaceState(null, '', window.location.pathname);
    });
    $('game-over-new').addEventListener('click', () => this.page.newGame());
    $('game-over-close').addEventListener('click', () => this.closeGameOver());
    if (window.location.hash === '#rules') this.openRules();
    window.addEventListener('hashchange', () => {
      if (window.location.hash === '#rules') this.openRules();
    });
  }

  // -------------------------------------------------------------------------------------------
  // New game

  onNewGameButton() {
    const game = this.state.game;
    if (game && gameInProgress(game)) {
      this.confirm('confirm-new-dialog');
      return;
    }
    this.page.newGame();
  }

  // Asks a question whose answer the dialog's `close` listener reads from its returnValue.
  confirm(id) {
    const dialog = $(id);
    dialog.returnValue = '';
    if (!dialog.open) dialog.showModal();
  }

  // -------------------------------------------------------------------------------------------
  // Settings

  // The named sets' summaries from the server, once: {name: {title, summary, geometry}}, and
  // the custom columns' choices (the selects of the custom section).
  async loadRuleSets() {
    if (!this.ruleSets) {
      this.ruleSets = api
        .ruleSets()
        .then((answer) => {
          this.fillCustomChoices(answer.columns);
          return Object.fromEntries(answer.rule_sets.map((set) => [set.name, set]));
        })
        .catch(() => ({}));
    }
    const sets = await this.ruleSets;
    for (const span of document.querySelectorAll('.rule-set-summary')) {
      const set = sets[span.dataset.ruleSet];
      if (set) span.textContent = `— ${set.summary}`;
    }
    return sets;
  }

  // The Perfect level says when the chosen set has no perfect play yet.
  async notePerfectPlay(name) {
    const sets = await this.loadRuleSets();
    const unavailable = sets[name]?.geometry?.perfect_play ?? null;
    const perfect = [...$('settings-form').elements.opponent].find((input) => input.value === 'perfect');
    const label = perfect?.parentElement;
    if (!label) return;
    label.querySelector('.perfect-note')?.remove();
    if (unavailable) {
      const note = document.createElement('span');
      note.className = 'perfect-note';
      note.textContent = ` — not available for ${sets[name].title}`;
      label.append(note);
    }
  }

  fillCustomChoices(columns) {
    if (!columns) return;
    const form = $('settings-form');
    const options = (select, values) => {
      select.replaceChildren(
        ...values.map((value) => {
          const option = document.createElement('option');
          option.value = String(value);
          option.textContent = String(value);
          return option;
        }),
      );
    };
    options(form.elements.custom_board, columns.board);
    options(form.elements.custom_path, columns.path);
    const dice = [];
    for (let count = columns.dice.min; count <= columns.dice.max; count += 1) dice.push(count);
    options(form.elements.custom_dice, dice);
    this.fillCustomColumns(this.customRules ?? {});
  }

  // The custom section shows `rules` (a rules object; missing columns are Finkel's).
  fillCustomColumns(rules) {
    const form = $('settings-form');
    if (form.elements.custom_board.options.length === 0) return;
    form.elements.custom_board.value = rules.board ?? 'standard';
    form.elements.custom_path.value = rules.path ?? 'finkel';
    form.elements.custom_dice.value = String(rules.dice ?? 4);
    form.elements.custom_zero_roll.value = rules.zero_roll ?? 'pass';
    form.elements.custom_safe_rosettes.checked = rules.safe_rosettes ?? true;
    form.elements.custom_rosette_extra_throw.checked = rules.rosette_extra_throw ?? true;
    form.elements.custom_capture_extra_throw.checked = rules.capture_extra_throw ?? false;
  }

  readCustomColumns() {
    const form = $('settings-form');
    return {
      name: 'custom',
      board: form.elements.custom_board.value,
      path: form.elements.custom_path.value,
      dice: Number(form.elements.custom_dice.value),
      zero_roll: form.elements.custom_zero_roll.value,
      safe_rosettes: form.elements.custom_safe_rosettes.checked,
      rosette_extra_throw: form.elements.custom_rosette_extra_throw.checked,
      capture_extra_throw: form.elements.custom_capture_extra_throw.checked,
    };
  }

  async onRuleSetChosen(name) {
    $('custom-rules').hidden = name !== 'custom';
    this.notePerfectPlay(name);
    if (name === 'custom') return;
    const sets = await this.loadRuleSets();
    const geometry = sets[name]?.geometry;
    if (!geometry) return;
    const form = $('settings-form');
    for (const input of form.elements.pieces) input.checked = input.value === String(geometry.pieces);
    for (const input of form.elements.bear_off) input.checked = input.value === geometry.bear_off;
  }

  // Shows `settings` (a game's settings object) in the settings dialog's form.
  fillSettingsForm(settings) {
    const form = $('settings-form');
    const choose = (name, value) => {
      for (const input of form.elements[name]) input.checked = input.value === String(value ?? '');
    };
    // A custom set's columns show in the custom section.
    const ruleSet = settings.rules?.name ?? 'finkel';
    this.customRules = ruleSet === 'custom' ? settings.rules : null;
    $('custom-rules').hidden = ruleSet !== 'custom';
    this.fillCustomColumns(this.customRules ?? {});
    choose('rule_set', ruleSet);
    this.notePerfectPlay(ruleSet);
    for (const name of ['opponent', 'pieces', 'bear_off', 'starts', 'seat']) choose(name, settings[name]);
    form.elements.auto_play.checked = Boolean(settings.auto_play);
    form.elements.auto_pass.checked = Boolean(settings.auto_pass);
    form.elements.take_back.checked = settings.take_back ?? true;
    this.showTakeBackSetting();
    form.elements.sound.checked = this.state.prefs.sound;
    choose('speed', this.state.prefs.speed);
    form.elements.one_press.checked = this.state.prefs.one_press;
    form.elements.name.value = defaultName();
  }

  // True when the server's settings have the take_back member (servers before it refuse it).
  hasTakeBack() {
    return 'take_back' in (this.state.game?.settings ?? {});
  }

  // Take back is for games against the computer: friends never take back.
  showTakeBackSetting() {
    const opponent = $('settings-form').elements.opponent.value;
    $('take-back-setting').hidden = !this.hasTakeBack() || opponent === 'friend' || opponent === 'online';
    $('settings-name-field').hidden = opponent !== 'online';
  }

  // An online game (or one this browser watches) is not this browser's to change.
  notMine() {
    const game = this.state.game;
    return Boolean(game && (game.online || isWatching(game)));
  }

  openSettings() {
    const game = this.state.game;
    this.fillSettingsForm({ ...(game?.settings ?? {}), ...(game?.next_settings ?? {}) });
    $('settings-note').textContent = this.notMine()
      ? 'This game’s rules are its host’s: your settings apply to your next game.'
      : game?.next_settings
        ? 'Some changes are waiting for the next game.'
        : 'Changes apply at once if nothing has been thrown yet, otherwise from the next game.';
    this.tableBuild.hide();
    // Escape closes without a button: no stale choice may count as "save".
    $('settings-dialog').returnValue = '';
    $('settings-dialog').showModal();
  }

  // The settings the player chose need a table the server lacks: reopen the dialog with their
  // choices kept and offer the build; once the table is ready, save them again as `choice`.
  offerTableBuild(
    missing,
    choice,
    notice = 'The Perfect level needs the solved table for these rules, which this server has not built yet. Nothing was changed.',
  ) {
    this.page.setNotice(notice, 'info');
    const dialog = $('settings-dialog');
    dialog.returnValue = '';
    if (!dialog.open) dialog.showModal();
    this.tableBuildChoice = choice;
    this.tableBuild.show(missing);
  }

  // The server refused the settings the player chose (custom columns that make no playable
  // set): reopen the dialog with their choices kept and the reason in it, to be corrected.
  refuseSettings(notice) {
    this.page.setNotice(notice);
    $('settings-note').textContent = notice;
    const dialog = $('settings-dialog');
    dialog.returnValue = '';
    if (!dialog.open) dialog.showModal();
  }

  onTableReady() {
    this.page.setNotice('The table is ready. Saving your settings…', 'info');
    $('settings-dialog').close(this.tableBuildChoice);
  }

  readSettingsForm() {
    const form = $('settings-form');
    const value = (name) => form.elements[name].value;
    const takeBack = this.hasTakeBack() ? { take_back: form.elements.take_back.checked } : {};
    const ruleSet = value('rule_set') || 'finkel';
    const rules = ruleSet === 'custom' ? this.readCustomColumns() : { name: ruleSet };
    const name = value('opponent') === 'online' ? { name: cleanName(value('name')) } : {};
    return {
      ...name,
      opponent: value('opponent'),
      rules,
      pieces: Number(value('pieces')),
      bear_off: value('bear_off'),
      starts: value('starts'),
      seat: value('seat'),
      auto_play: form.elements.auto_play.checked,
      auto_pass: form.elements.auto_pass.checked,
      ...takeBack,
    };
  }

  async onSettingsClosed() {
    const choice = $('settings-dialog').returnValue;
    if (choice !== 'save' && choice !== 'new') return;
    const form = $('settings-form');
    const prefs = this.state.prefs;
    prefs.sound = form.elements.sound.checked;
    prefs.speed = form.elements.speed.value;
    prefs.one_press = form.elements.one_press.checked;
    setSoundEnabled(prefs.sound);
    saveJson(STORAGE_PREFS, prefs);
    const settings = this.readSettingsForm();
    // An online game is started only when asked for: the invite dialog follows.
    if (!this.state.game || this.notMine() || settings.opponent === 'online') {
      if (settings.opponent !== 'online') saveJson(STORAGE_SETTINGS, settings);
      if (choice === 'new' || !this.state.game || (settings.opponent === 'online' && !this.state.game.online)) {
        this.closeGameOver();
        await this.sync.startNewGame(settings);
      } else {
        this.page.setNotice('Saved for your next game.', 'info');
      }
      return;
    }
    this.closeGameOver();
    const game = await this.sync.intent(choice === 'new' ? 'new' : 'settings', { settings });
    if (choice === 'save' && game?.next_settings) {
      this.page.setNotice('Saved. The new settings apply from the next game.', 'info');
    }
  }

  // -------------------------------------------------------------------------------------------
  // The end of a game

  showGameOver(game) {
    const winner = game.winner;
    const friend = isFriendGame(game);
    const watching = isWatching(game);
    let title;
    if (friend) title = `${SIDE_NAME[winner]} wins!`;
    else if (canAct(game, winner)) title = 'You win!';
    else if (isHuman(game, winner)) title = `${seatName(game, winner)} wins!`;
    else title = 'The computer wins';
    $('game-over-title').textContent = title;
    $('game-over-detail').textContent = game.resigned
      ? `${SIDE_NAME[otherSide(winner)]} resigned.`
      : `${SIDE_NAME[winner]} brought all ${game.rules.pieces} pieces home.`;
    const tally = game.tally ?? { light: 0, dark: 0 };
    // Against the computer the sides get their players' names too; friends share the names.
    const label = (side) => {
      if (friend) return SIDE_NAME[side];
      if (!isHuman(game, side)) return `Computer (${SIDE_NAME[side]})`;
      if (canAct(game, side)) return `You (${SIDE_NAME[side]})`;
      const name = seatName(game, side);
      return name === SIDE_NAME[side] ? name : `${name} (${SIDE_NAME[side]})`;
    };
    $('game-over-tally').textContent = `Games won: ${label('light')} ${tally.light} – ${tally.dark} ${label('dark')}`;
    const nextStarter = game.starting_side ? otherSide(game.starting_side) : null;
    $('game-over-next').textContent =
      game.settings.starts === 'alternate' && nextStarter
        ? `Next game: ${SIDE_NAME[nextStarter]} starts.`
        : 'Next game: the higher throw starts.';
    this.page.playSound(friend || watching || canAct(game, winner) ? 'win' : 'lose');
    announce(`${title} ${$('game-over-tally').textContent}.`);
    const dialog = $('game-over-dialog');
    if (!dialog.open) dialog.showModal();
  }

  closeGameOver() {
    const dialog = $('game-over-dialog');
    if (dialog.open) dialog.close();
  }

  // -------------------------------------------------------------------------------------------
  // Rules

  // The rules page for the set on screen: the server's prose and the route diagram drawn
  // from its geometry; Finkel's longer explanation only where Finkel is played.
  fillRules(geo) {
    if (!geo) return;
    $('rules-set-title').textContent = `The rules of this game: ${geo.title}`;
    $('rules-set-prose').replaceChildren(
      ...geo.prose.map((sentence) => {
        const item = document.createElement('li');
        item.textContent = sentence;
        return item;
      }),
    );
    for (const part of document.querySelectorAll('#rules-dialog .finkel-only')) {
      part.hidden = geo.name !== 'finkel';
    }
    drawRouteDiagram($('route-diagram'), geo);
    $('route-caption').textContent = routeCaption(geo);
    $('route-legend-theirs').hidden = !geo.hasOwnSquares('dark');
  }

  openRules() {
    this.fillRules(geometry());
    const dialog = $('rules-dialog');
    if (!dialog.open) dialog.showModal();
    if (window.location.hash !== '#rules') history.replaceState(null, '', '#rules');
  }
}
