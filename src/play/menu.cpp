// The settings menu's keys: ↑↓ choose a row, ←→ (Enter, Space) change its value, digits
// type the seed, Start begins a game through the table-build flow (asking first during a
// game, as n does), Esc goes back saying when it drops changes.
#include "play/menu.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <vector>

#include "core/rule_sets.h"
#include "play/controller.h"
#include "play/feedback.h"

namespace ur::play {
namespace {

// The piece counts the menu offers, as the web game's settings do.
const std::vector<int> kPieceChoices = {7, 5, 3};

template <typename T>
T cycled(const std::vector<T>& choices, const T& current, int step) {
  const auto found = std::find(choices.begin(), choices.end(), current);
  const int size = static_cast<int>(choices.size());
  const int index =
      found == choices.end() ? (step > 0 ? -1 : 0) : static_cast<int>(found - choices.begin());
  return choices[((index + step) % size + size) % size];
}

// Changes the value on the current menu row by one step.
void change_menu_value(PlaySession& game, UiState& ui, int step) {
  Settings& draft = ui.draft;
  switch (static_cast<MenuRow>(ui.menu_row)) {
    case MenuRow::Opponent: {
      const bool was_friend = draft.opponent == kFriend;
      draft.opponent = cycled(opponent_choices(), draft.opponent, step);
      // Take-back is on by default against the computer and never between friends.
      if (was_friend != (draft.opponent == kFriend)) draft.take_back = draft.opponent != kFriend;
      break;
    }
    case MenuRow::RuleSet: {
      // The named sets in turn, then the custom set the session met (so the player can come
      // back to it); pieces and bear-off are the player's and stay.
      std::vector<std::string_view> names;
      for (const NamedRuleSet& set : named_rule_sets()) names.push_back(set.name);
      if (ui.custom_rules) names.push_back(rule_set_name(*ui.custom_rules));
      const std::string_view name = cycled(names, rule_set_name(draft.rules), step);
      const NamedRuleSet* named = find_rule_set(name);
      Rules rules = named ? Rules(named->spec) : *ui.custom_rules;
      rules.pieces = draft.rules.pieces;
      rules.bear_off = draft.rules.bear_off;
      draft.rules = rules;
      break;
    }
    case MenuRow::Pieces: {
      std::vector<int> counts = kPieceChoices;
      if (ui.other_pieces) {
        counts.push_back(*ui.other_pieces);
        std::sort(counts.begin(), counts.end(), std::greater<>());
      }
      draft.rules.pieces = cycled(counts, draft.rules.pieces, step);
      break;
    }
    case MenuRow::BearOff:
      draft.rules.bear_off = draft.rules.bear_off == BearOff::Exact ? BearOff::Any : BearOff::Exact;
      break;
    case MenuRow::Opener:
      draft.opener = draft.opener == session::StartRule::Alternate ? session::StartRule::HigherThrow
                                                                   : session::StartRule::Alternate;
      break;
    case MenuRow::AutoPlay:
      draft.auto_play = !draft.auto_play;
      if (game.started()) {
        report(ui, game.set_automation(draft.auto_play, game.next_settings().auto_pass));
      }
      break;
    case MenuRow::AutoPass:
      draft.auto_pass = !draft.auto_pass;
      if (game.started()) {
        report(ui, game.set_automation(game.next_settings().auto_play, draft.auto_pass));
      }
      break;
    case MenuRow::TakeBack:
      if (draft.opponent == kFriend) {
        set_error(ui, "Take-back is only for games against the computer.");
      } else {
        draft.take_back = !draft.take_back;
      }
      break;
    case MenuRow::Seed:
    case MenuRow::Start:
    case MenuRow::Back:
      break;
  }
}

void apply_menu(PlaySession& game, UiState& ui) {
  std::uint64_t seed = 0;
  const std::string& text = ui.seed_text;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    set_error(ui, "The seed must be a whole number from 0 to 18446744073709551615.");
    return;
  }
  Settings settings = ui.draft;
  settings.seed = seed;
  new_game_or_ask(game, ui, settings);
}

// Closing the menu leaves for the game; before the first game there is none to go back to.
// Changes not started with are dropped (auto-play and auto-pass took effect as switched),
// and the message line says so rather than losing them unsaid.
void close_menu(const PlaySession& game, UiState& ui) {
  if (game.game_number() == 0) {
    set_error(ui, "No game yet: choose the settings and start a game, or press q to quit.");
    return;
  }
  ui.overlay = Overlay::None;
  const Settings kept = game.next_settings();
  if (ui.draft != kept || ui.seed_text != std::to_string(kept.seed)) {
    set_info(ui, "Settings unchanged: your changes were discarded.");
  } else {
    ui.message.clear();
  }
}

// The menu edits `settings`. A custom rule set or another piece count (--pieces 4) among
// them stays on its row for the rest of the session: once cycled away from, it could not be
// chosen again otherwise.
void edit(UiState& ui, const Settings& settings) {
  ui.draft = settings;
  ui.seed_text = std::to_string(settings.seed);
  if (!find_rule_set(rule_set_name(settings.rules))) ui.custom_rules = settings.rules;
  const int pieces = settings.rules.pieces;
  if (std::find(kPieceChoices.begin(), kPieceChoices.end(), pieces) == kPieceChoices.end()) {
    ui.other_pieces = pieces;
  }
}

}  // namespace

void handle_menu(PlaySession& game, UiState& ui, const Key& key) {
  const auto row = static_cast<MenuRow>(ui.menu_row);
  if (key.code == KeyCode::Escape || is_char(key, 'm')) {
    close_menu(game, ui);
    return;
  }
  switch (key.code) {
    case KeyCode::Up:
    case KeyCode::BackTab:
      ui.menu_row = (ui.menu_row + kMenuRows - 1) % kMenuRows;
      return;
    case KeyCode::Down:
    case KeyCode::Tab:
      ui.menu_row = (ui.menu_row + 1) % kMenuRows;
      return;
    case KeyCode::Left:
      change_menu_value(game, ui, -1);
      return;
    case KeyCode::Right:
      change_menu_value(game, ui, +1);
      return;
    case KeyCode::Enter:
      if (row == MenuRow::Start) {
        apply_menu(game, ui);
      } else if (row == MenuRow::Back) {
        close_menu(game, ui);
      } else {
        change_menu_value(game, ui, +1);
      }
      return;
    case KeyCode::Backspace:
      if (row == MenuRow::Seed && !ui.seed_text.empty()) ui.seed_text.pop_back();
      return;
    default:
      break;
  }
  if (row == MenuRow::Seed && is_digit(key)) {
    if (ui.seed_text.size() >= 20) {
      set_error(ui, "A seed has at most 20 digits.");
    } else {
      ui.seed_text += key.character;
      ui.message.clear();
    }
    return;
  }
  if (is_char(key, ' ')) {
    change_menu_value(game, ui, +1);
    return;
  }
  refuse_key(ui, key, "↑↓ choose a setting, ←→ change it, Esc closes the menu.");
}

void open_menu(const PlaySession& game, UiState& ui) {
  ui.overlay = Overlay::Menu;
  ui.menu_row = 0;
  edit(ui, game.next_settings());
  ui.message.clear();
}

// The settings menu on `settings` (not the game's), with `why` in red under it.
void back_to_menu(UiState& ui, const Settings& settings, const std::string& why) {
  if (ui.overlay != Overlay::Menu) ui.menu_row = static_cast<int>(MenuRow::Opponent);
  ui.overlay = Overlay::Menu;
  edit(ui, settings);
  set_error(ui, why);
}

}  // namespace ur::play
