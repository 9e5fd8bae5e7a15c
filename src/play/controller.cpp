#include "play/controller.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "core/explain.h"
#include "play/record_file.h"

namespace ur::play {
namespace {

constexpr char kEscape = '\x1b';

void set_error(UiState& ui, std::string message) {
  ui.message = std::move(message);
  ui.message_is_error = true;
}

void set_info(UiState& ui, std::string message) {
  ui.message = std::move(message);
  ui.message_is_error = false;
}

// Reports a refused action, or clears the message after a successful one.
void report(UiState& ui, const ActionError& error) {
  if (error) {
    set_error(ui, *error);
  } else {
    ui.message.clear();
  }
}

void refuse_key(UiState& ui, const Key& key, const std::string& hint) {
  set_error(ui, describe_key(key) + " does nothing now: " + hint);
}

bool is_char(const Key& key, char character) {
  return key.code == KeyCode::Char && key.character == character;
}

bool is_digit(const Key& key) {
  return key.code == KeyCode::Char && key.character >= '0' && key.character <= '9';
}

// Moves the cursor to the next (step +1) or previous (-1) movable piece, in route order.
void cycle_cursor(const PlaySession& game, UiState& ui, int step) {
  const MoveList& legal = game.legal();
  if (legal.empty()) return;
  int index = 0;
  for (int i = 0; i < legal.size(); ++i) {
    if (ui.cursor == legal[i].from) index = i;
  }
  index = (index + step + legal.size()) % legal.size();
  ui.cursor = legal[index].from;
  ui.typed.clear();
  ui.message.clear();
}

// Selects the piece on `square` (0 = start pile) or says why it cannot move.
void pick_square(const PlaySession& game, UiState& ui, Square square) {
  if (find_move(game.legal(), square) != nullptr) {
    ui.cursor = square;
    ui.message.clear();
    return;
  }
  const IllegalReason reason = why_illegal(game.rules(), game.position(), game.roll(), square);
  set_error(ui, describe(reason, game.rules(), game.roll(), square));
}

void type_digit(const PlaySession& game, UiState& ui, char digit) {
  std::string typed = ui.typed + digit;
  // A square has at most two digits and "0" is complete on its own.
  if (ui.typed == "0" || std::stoi(typed) > game.rules().route_length)
    typed = std::string(1, digit);
  ui.typed = typed;
  pick_square(game, ui, std::stoi(typed));
}

// The log screen opens on the latest entries.
void open_log(const PlaySession& game, UiState& ui) {
  ui.overlay = Overlay::Log;
  ui.log_top = std::max(0, static_cast<int>(log_rows(game).size()) - kLogRows);
}

// Moves the log screen for a scrolling key; false for any other key. A page keeps one row
// of the previous page in sight.
bool scroll_log(const PlaySession& game, UiState& ui, const Key& key) {
  const int last_top = std::max(0, static_cast<int>(log_rows(game).size()) - kLogRows);
  int top = std::clamp(ui.log_top, 0, last_top);
  switch (key.code) {
    case KeyCode::Up:
      --top;
      break;
    case KeyCode::Down:
      ++top;
      break;
    case KeyCode::PageUp:
      top -= kLogRows - 1;
      break;
    case KeyCode::PageDown:
      top += kLogRows - 1;
      break;
    case KeyCode::Home:
      top = 0;
      break;
    case KeyCode::End:
      top = last_top;
      break;
    default:
      return false;
  }
  ui.log_top = std::clamp(top, 0, last_top);
  return true;
}

void start_new_game(PlaySession& game, UiState& ui) {
  game.new_game();
  ui.cursor.reset();
  ui.typed.clear();
  set_info(ui, "New game.");
  ui.overlay = Overlay::None;
}

void handle_throw_phase(PlaySession& game, UiState& ui, const Key& key) {
  if (is_char(key, 't') || is_char(key, ' ') || key.code == KeyCode::Enter) {
    report(ui, game.throw_dice());
    return;
  }
  if (is_digit(key) || is_char(key, 's') || is_char(key, 'p')) {
    set_error(ui, "Throw the dice first (t or space).");
    return;
  }
  refuse_key(ui, key, "press t or space to throw, ? for all keys.");
}

void handle_move_phase(PlaySession& game, UiState& ui, const Key& key) {
  switch (key.code) {
    case KeyCode::Left:
    case KeyCode::Up:
    case KeyCode::BackTab:
      cycle_cursor(game, ui, -1);
      return;
    case KeyCode::Right:
    case KeyCode::Down:
    case KeyCode::Tab:
      cycle_cursor(game, ui, +1);
      return;
    case KeyCode::Enter:
      ui.typed.clear();
      if (!ui.cursor) {
        set_error(ui, "Choose a piece first.");
        return;
      }
      report(ui, game.move(*ui.cursor));
      return;
    default:
      break;
  }
  if (is_digit(key)) {
    type_digit(game, ui, key.character);
    return;
  }
  ui.typed.clear();
  if (is_char(key, 's')) {
    pick_square(game, ui, 0);
  } else if (is_char(key, 'p')) {
    report(ui, game.pass());
  } else if (is_char(key, 't') || is_char(key, ' ')) {
    set_error(ui, "You already threw " + std::to_string(game.roll()) + ": move a piece.");
  } else {
    refuse_key(ui, key, "choose a piece with ← → or its square, then Enter.");
  }
}

void handle_pass_phase(PlaySession& game, UiState& ui, const Key& key) {
  if (is_char(key, 'p') || is_char(key, ' ') || key.code == KeyCode::Enter) {
    report(ui, game.pass());
    return;
  }
  if (is_digit(key) || is_char(key, 's') || is_char(key, 't')) {
    // The reason stands above, in full; a message line could not hold it.
    set_error(ui, "No piece can use this throw (why: above): press p or Enter to pass.");
    return;
  }
  refuse_key(ui, key, "press p or Enter to pass.");
}

// Returns the person to their latest decision, the same throw waiting again.
void take_back(PlaySession& game, UiState& ui) {
  if (const ActionError refused = game.take_back()) {
    set_error(ui, *refused);
    return;
  }
  set_info(ui,
           "Taken back: your throw of " + std::to_string(game.roll()) + " waits for a move again.");
}

// Saves the records of the session where the prompt says, or under the default name.
void save_records(const PlaySession& game, UiState& ui) {
  ui.overlay = Overlay::None;
  const std::string path = ui.save_text.empty() ? default_record_name(game.now()) : ui.save_text;
  ui.save_text.clear();
  std::optional<std::string> problem = check_record_path(path);
  if (!problem) problem = write_records(game, path);
  if (problem) {
    set_error(ui, "Not saved: " + *problem + ".");
    return;
  }
  std::error_code error;
  const auto where = std::filesystem::absolute(path, error);
  const auto games = game.records().size();
  set_info(ui, "Saved " + std::to_string(games) + (games == 1 ? " game" : " games") + " to " +
                   (error ? path : where.string()) + ".");
}

// A key in the save prompt: printable characters type the name (q included), Backspace
// erases, Enter saves, Esc cancels.
void handle_save(PlaySession& game, UiState& ui, const Key& key) {
  constexpr std::size_t kMaxName = 4096;
  if (key.code == KeyCode::Escape) {
    ui.overlay = Overlay::None;
    ui.save_text.clear();
    set_info(ui, "Not saved.");
  } else if (key.code == KeyCode::Enter) {
    save_records(game, ui);
  } else if (key.code == KeyCode::Backspace) {
    if (!ui.save_text.empty()) ui.save_text.pop_back();
  } else if (key.code == KeyCode::Char && ui.save_text.size() < kMaxName) {
    ui.save_text += key.character;
  }
}

void handle_game_keys(PlaySession& game, UiState& ui, const Key& key) {
  if (is_char(key, '?')) {
    ui.overlay = Overlay::Rules;
    return;
  }
  if (is_char(key, 'm')) {
    open_menu(game, ui);
    return;
  }
  if (is_char(key, 'l')) {
    open_log(game, ui);
    return;
  }
  if (is_char(key, 'v')) {
    ui.route_numbers = !ui.route_numbers;
    set_info(ui, ui.route_numbers ? "Route numbers on." : "Route numbers off.");
    return;
  }
  if (is_char(key, 'n')) {
    if (game.phase() == Phase::Over) {
      start_new_game(game, ui);
    } else {
      ui.pending = Pending::NewGame;
      ui.overlay = Overlay::Confirm;
    }
    return;
  }
  if (is_char(key, 'u')) {
    take_back(game, ui);
    return;
  }
  if (is_char(key, 'w')) {
    ui.overlay = Overlay::Save;
    ui.save_text.clear();
    ui.message.clear();
    return;
  }
  if (is_char(key, 'r')) {
    if (game.phase() == Phase::Over) {
      set_error(ui, "The game is over: n starts a new one.");
    } else {
      ui.pending = Pending::Resign;
      ui.overlay = Overlay::Confirm;
    }
    return;
  }
  if (step_due(game, ui)) return;  // keys during the computer's pause only skip it
  switch (game.phase()) {
    case Phase::Throw:
      handle_throw_phase(game, ui, key);
      return;
    case Phase::Move:
      handle_move_phase(game, ui, key);
      return;
    case Phase::Pass:
      handle_pass_phase(game, ui, key);
      return;
    case Phase::Over:
      if (key.code == KeyCode::Enter) {
        ui.overlay = Overlay::GameOver;
      } else {
        refuse_key(ui, key, "the game is over: n new game, q quit.");
      }
      return;
  }
}

void handle_confirm(PlaySession& game, UiState& ui, const Key& key) {
  const Pending pending = ui.pending;
  ui.pending = Pending::None;
  ui.overlay = Overlay::None;
  if (!is_char(key, 'y') && !is_char(key, 'Y')) {
    set_info(ui, pending == Pending::Resign ? "Not resigned." : "The game goes on.");
    return;
  }
  if (pending == Pending::Resign) {
    report(ui, game.resign());
  } else {
    start_new_game(game, ui);
  }
}

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
    case MenuRow::Pieces:
      draft.rules.pieces = cycled(std::vector<int>{7, 5, 3}, draft.rules.pieces, step);
      break;
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
  request_game(game, ui, settings);
}

// The settings menu on `settings` (not the game's), with `why` in red under it.
void back_to_menu(UiState& ui, const Settings& settings, const std::string& why) {
  if (ui.overlay != Overlay::Menu) ui.menu_row = static_cast<int>(MenuRow::Opponent);
  ui.overlay = Overlay::Menu;
  ui.draft = settings;
  ui.seed_text = std::to_string(settings.seed);
  set_error(ui, why);
}

// Why the game cannot start until the table exists, and how to build it later.
std::string table_declined(const TableRequest& request, const std::string& what) {
  return what + " Choose another opponent or fewer pieces, or build the table later with `" +
         request.offer.command + "`.";
}

void handle_build_offer(UiState& ui, const Key& key) {
  if (is_char(key, 'y') || is_char(key, 'Y')) {
    ui.overlay = Overlay::Building;
    ui.message.clear();
    return;
  }
  if (is_char(key, 'n') || is_char(key, 'N') || key.code == KeyCode::Escape ||
      key.code == KeyCode::Enter) {
    const TableRequest request = std::move(*ui.table);
    ui.table.reset();
    back_to_menu(ui, request.settings, table_declined(request, "Not built."));
    return;
  }
  refuse_key(ui, key, "y builds the table now, n or Esc goes back to the settings.");
}

// Closing the menu leaves for the game; before the first game there is none to go back to.
bool can_close_menu(const PlaySession& game, UiState& ui) {
  if (game.game_number() > 0) return true;
  set_error(ui, "No game yet: choose the settings and start a game, or press q to quit.");
  return false;
}

void handle_menu(PlaySession& game, UiState& ui, const Key& key) {
  const auto row = static_cast<MenuRow>(ui.menu_row);
  if (key.code == KeyCode::Escape || is_char(key, 'm')) {
    if (!can_close_menu(game, ui)) return;
    ui.overlay = Overlay::None;
    ui.message.clear();
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
        if (!can_close_menu(game, ui)) return;
        ui.overlay = Overlay::None;
        ui.message.clear();
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

}  // namespace

std::string describe_key(const Key& key) {
  if (key.code == KeyCode::Char) {
    return key.character == ' ' ? "Space" : std::string("'") + key.character + "'";
  }
  switch (key.code) {
    case KeyCode::Enter:
      return "Enter";
    case KeyCode::Escape:
      return "Esc";
    case KeyCode::Up:
    case KeyCode::Down:
    case KeyCode::Left:
    case KeyCode::Right:
      return "That arrow";
    case KeyCode::Tab:
    case KeyCode::BackTab:
      return "Tab";
    case KeyCode::Backspace:
      return "Backspace";
    default:
      return "That key";
  }
}

std::vector<Key> decode_keys(std::string& bytes, bool flush) {
  std::vector<Key> keys;
  std::size_t i = 0;
  while (i < bytes.size()) {
    const char byte = bytes[i];
    if (byte == kEscape) {
      if (i + 1 >= bytes.size()) {
        if (!flush) break;
        keys.push_back({KeyCode::Escape});
        ++i;
        continue;
      }
      const char kind = bytes[i + 1];
      if (kind != '[' && kind != 'O') {
        keys.push_back({KeyCode::Escape});
        ++i;
        continue;
      }
      // CSI / SS3: parameters, then a final byte in 0x40..0x7E.
      std::size_t end = i + 2;
      while (end < bytes.size() && !(bytes[end] >= 0x40 && bytes[end] <= 0x7E)) ++end;
      if (end >= bytes.size()) {
        if (!flush) break;
        keys.push_back({KeyCode::Other});
        i = bytes.size();
        continue;
      }
      Key key{KeyCode::Other};
      const std::string_view parameter(bytes.data() + i + 2, end - i - 2);
      switch (bytes[end]) {
        case 'A':
          key.code = KeyCode::Up;
          break;
        case 'B':
          key.code = KeyCode::Down;
          break;
        case 'C':
          key.code = KeyCode::Right;
          break;
        case 'D':
          key.code = KeyCode::Left;
          break;
        case 'Z':
          key.code = KeyCode::BackTab;
          break;
        case 'H':
          key.code = KeyCode::Home;
          break;
        case 'F':
          key.code = KeyCode::End;
          break;
        case '~':  // VT220 editing keys: the parameter names the key
          if (parameter == "1" || parameter == "7") key.code = KeyCode::Home;
          if (parameter == "4" || parameter == "8") key.code = KeyCode::End;
          if (parameter == "5") key.code = KeyCode::PageUp;
          if (parameter == "6") key.code = KeyCode::PageDown;
          break;
        case 'M':
          if (kind == 'O') key.code = KeyCode::Enter;  // keypad Enter
          break;
        default:
          break;
      }
      keys.push_back(key);
      i = end + 1;
      continue;
    }
    const auto unsigned_byte = static_cast<unsigned char>(byte);
    if (byte == '\r' || byte == '\n') {
      keys.push_back({KeyCode::Enter});
    } else if (byte == '\t') {
      keys.push_back({KeyCode::Tab});
    } else if (byte == 0x7F || byte == 0x08) {
      keys.push_back({KeyCode::Backspace});
    } else if (unsigned_byte >= 0x20 && unsigned_byte < 0x7F) {
      keys.push_back(char_key(byte));
    } else {
      keys.push_back({KeyCode::Other});
    }
    ++i;
  }
  bytes.erase(0, i);
  return keys;
}

void open_menu(const PlaySession& game, UiState& ui) {
  ui.overlay = Overlay::Menu;
  ui.menu_row = 0;
  ui.draft = game.next_settings();
  ui.seed_text = std::to_string(ui.draft.seed);
  ui.message.clear();
}

void handle_key(PlaySession& game, UiState& ui, const Key& key) {
  if (board_hidden(ui)) {
    // The screen only asks for room: any other key would act unseen.
    if (is_char(key, 'q') || is_char(key, 'Q')) ui.quit = true;
    return;
  }
  if (ui.overlay == Overlay::Building) {
    // q cancels the build here rather than quitting, so no solve is cut off unawares.
    if (is_char(key, 'q') || is_char(key, 'Q') || key.code == KeyCode::Escape) {
      cancel_build(ui);
    } else {
      refuse_key(ui, key, "the table is being built; Esc, q or Ctrl-C cancels.");
    }
    return;
  }
  if ((is_char(key, 'q') || is_char(key, 'Q')) && ui.overlay != Overlay::Save) {
    ui.quit = true;
    return;
  }
  switch (ui.overlay) {
    case Overlay::Rules:
      ui.overlay = Overlay::None;
      break;
    case Overlay::Log:
      if (!scroll_log(game, ui, key)) ui.overlay = Overlay::None;
      break;
    case Overlay::Confirm:
      handle_confirm(game, ui, key);
      break;
    case Overlay::Save:
      handle_save(game, ui, key);
      break;
    case Overlay::GameOver:
      if (is_char(key, 'n') || key.code == KeyCode::Enter) {
        start_new_game(game, ui);
      } else if (is_char(key, 'm')) {
        open_menu(game, ui);
      } else if (is_char(key, '?')) {
        ui.overlay = Overlay::Rules;
      } else if (is_char(key, 'l')) {
        open_log(game, ui);
      } else if (key.code == KeyCode::Escape) {
        ui.overlay = Overlay::None;
      } else {
        refuse_key(ui, key, "n new game, m menu, l log, Esc shows the board, q quits.");
      }
      break;
    case Overlay::Menu:
      handle_menu(game, ui, key);
      break;
    case Overlay::BuildOffer:
      handle_build_offer(ui, key);
      break;
    case Overlay::Building:
      break;
    case Overlay::None:
      handle_game_keys(game, ui, key);
      break;
  }
  sync_ui(game, ui);
}

void request_game(PlaySession& game, UiState& ui, const Settings& settings) {
  if (ui.tables) {
    if (auto offer = ui.tables->offer(settings)) {
      const bool ask = offer->ask;
      ui.table = TableRequest{std::move(*offer), settings, {}, false};
      ui.overlay = ask ? Overlay::BuildOffer : Overlay::Building;
      ui.message.clear();
      return;
    }
  }
  if (const ActionError refused = game.configure(settings)) {
    back_to_menu(ui, settings, *refused);
    return;
  }
  ui.overlay = Overlay::None;
  ui.cursor.reset();
  ui.typed.clear();
  set_info(ui, "New game with the new settings.");
  sync_ui(game, ui);
}

void advance_build(PlaySession& game, UiState& ui, std::unique_ptr<BuildJob>& job) {
  if (ui.overlay != Overlay::Building || !ui.table || !ui.tables) {
    job.reset();
    return;
  }
  if (!job) job = std::make_unique<BuildJob>(*ui.tables, ui.table->offer.rules);
  if (ui.table->cancelling) job->cancel();
  ui.table->status = job->status();
  const std::optional<ActionError> ended = job->result();
  if (!ended) return;
  job.reset();
  const TableRequest request = std::move(*ui.table);
  ui.table.reset();
  if (*ended) {
    back_to_menu(ui, request.settings,
                 table_declined(request, request.cancelling
                                             ? "Cancelled: no table was written."
                                             : "The table could not be built: " + **ended + "."));
    return;
  }
  request_game(game, ui, request.settings);
  if (ui.overlay == Overlay::None) {
    set_info(ui, "The table is built: you play the perfect opponent.");
  }
}

void cancel_build(UiState& ui) {
  if (ui.overlay != Overlay::Building || !ui.table) return;
  ui.table->cancelling = true;
  set_info(ui, "Cancelling at the end of this sweep…");
}

void sync_ui(const PlaySession& game, UiState& ui) {
  if (!game.started()) return;
  if (game.phase() == Phase::Move && !game.computer_to_act()) {
    if (!ui.cursor || find_move(game.legal(), *ui.cursor) == nullptr) {
      // Start on the piece furthest along: usually the one a player looks at first.
      ui.cursor = game.legal()[game.legal().size() - 1].from;
    }
  } else {
    ui.cursor.reset();
    ui.typed.clear();
  }
  if (game.phase() == Phase::Over && ui.result_shown_for != game.game_number()) {
    ui.result_shown_for = game.game_number();
    ui.overlay = Overlay::GameOver;
  }
  if (game.phase() == Phase::Over && ui.recorded_for != game.game_number() &&
      !ui.record_path.empty()) {
    ui.recorded_for = game.game_number();
    if (auto problem = write_records(game, ui.record_path)) {
      set_error(ui, "The record was not written: " + *problem + ".");
    }
  }
}

bool step_due(const PlaySession& game, const UiState& ui) {
  return ui.overlay == Overlay::None && !board_hidden(ui) && game.computer_to_act();
}

int step_pause_ms(const PlaySession& game) {
  switch (game.phase()) {
    case Phase::Throw:
      return 450;
    case Phase::Move:
      return 900;
    case Phase::Pass:
      return 1400;
    case Phase::Over:
      break;
  }
  return 0;
}

void take_step(PlaySession& game, UiState& ui) {
  const std::size_t logged = game.log().size();
  if (game.computer_to_act()) {
    if (const ActionError error = game.computer_step()) set_error(ui, *error);
  }
  if (game.log().size() > logged) ui.message.clear();
  sync_ui(game, ui);
}

}  // namespace ur::play
