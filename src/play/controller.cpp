// The game keys and the dispatch: which screen a key goes to, the keys of the board (throw,
// choose, move, pass, take back, save, resign), and the computer's paced steps.
#include "play/controller.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <utility>

#include "core/explain.h"
#include "play/build_flow.h"
#include "play/feedback.h"
#include "play/menu.h"
#include "play/record_file.h"

namespace ur::play {
namespace {

// Moves the cursor to the next (step +1) or previous (-1) movable piece, in route order.
void cycle_cursor(const PlaySession& game, UiState& ui, int step) {
  const MoveList& legal = game.legal();
  if (legal.empty()) return;
  ui.cursor = next_movable(legal, ui.cursor, step);
  ui.typed.clear();
  ui.message.clear();
}

// Selects the piece on `square` (0 = start pile) or says why it cannot move; a refused
// number leaves the preview.
void pick_square(const PlaySession& game, UiState& ui, Square square) {
  if (find_move(game.legal(), square) != nullptr) {
    ui.cursor = square;
    ui.message.clear();
    return;
  }
  ui.typed.clear();
  const IllegalReason reason = why_illegal(game.rules(), game.position(), game.roll(), square);
  set_error(ui, describe(reason, game.rules(), game.roll(), square));
}

// A number that may still grow into a movable piece's square waits for its next digit.
void type_digit(const PlaySession& game, UiState& ui, char digit) {
  ui.typed = typed_with(ui.typed, digit, game.rules());
  if (typed_waits(ui.typed, game.rules(), game.legal())) {
    ui.message.clear();
    return;
  }
  pick_square(game, ui, std::stoi(ui.typed));
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

// r once the game is over: the review, after the offer to build its table when it has none.
void review_or_offer(const PlaySession& game, UiState& ui) {
  const auto records = game.records();
  if (!records.empty() && offer_values_table(game, ui, records.back().rules, TableUse::Review)) {
    return;
  }
  open_review(game, ui);
}

// A key in the review: ur replay's keys, Esc and q back to the game-over screen.
void handle_review(UiState& ui, const Key& key) {
  GameReview& review = *ui.review;
  review.state.screen_width = ui.screen_width;
  review.state.screen_height = ui.screen_height;
  handle_replay_key(review.game, review.state, key);
  if (review.state.quit) {
    ui.review.reset();
    ui.overlay = Overlay::GameOver;
  }
}

void start_new_game(PlaySession& game, UiState& ui) {
  const Settings before = game.settings();
  game.new_game();
  ui.cursor.reset();
  ui.typed.clear();
  // Auto-play or auto-pass switched during the last game take effect now.
  set_info(ui, new_game_note(before, game.settings()));
  ui.overlay = Overlay::None;
}

// A new game under `settings` (the menu's, through the table-build flow), else the game's own.
void start_game(PlaySession& game, UiState& ui, const std::optional<Settings>& settings) {
  if (settings) {
    request_game(game, ui, *settings);
  } else {
    start_new_game(game, ui);
  }
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
      // Enter ends a number still waiting for a digit: it names no movable piece.
      if (typed_waits(ui.typed, game.rules(), game.legal())) {
        pick_square(game, ui, std::stoi(ui.typed));
        return;
      }
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
  if (is_char(key, 'h')) {
    if (game.hints()) {
      game.set_hints(false);
      set_info(ui, "Hints off.");
      return;
    }
    // Without a solved table: first the offer to build it (once per rules).
    if (offer_values_table(game, ui, game.rules(), TableUse::Hints)) return;
    game.set_hints(true);
    if (perfect_play_unavailable(game.rules())) {
      set_info(ui, "Hints on, " + estimated_note(game.rules()) + ".");  // one message line
    } else {
      set_info(ui, "Hints on: the chance to win of both sides and of every move.");
    }
    return;
  }
  if (is_char(key, 'v')) {
    ui.route_numbers = !ui.route_numbers;
    set_info(ui, ui.route_numbers ? "Route numbers on." : "Route numbers off.");
    return;
  }
  if (is_char(key, 'n')) {
    new_game_or_ask(game, ui);
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
      review_or_offer(game, ui);
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
        refuse_key(ui, key, "the game is over: n new game, r review, q quit.");
      }
      return;
  }
}

void handle_confirm(PlaySession& game, UiState& ui, const Key& key) {
  const Pending pending = ui.pending;
  const std::optional<Settings> settings = std::exchange(ui.pending_settings, std::nullopt);
  ui.pending = Pending::None;
  ui.overlay = Overlay::None;
  if (!is_char(key, 'y') && !is_char(key, 'Y')) {
    if (settings) {
      // Asked from the menu: back to it, its choices as they were left.
      ui.overlay = Overlay::Menu;
      ui.message.clear();
      return;
    }
    set_info(ui, pending == Pending::Resign ? "Not resigned." : "The game goes on.");
    return;
  }
  if (pending == Pending::Resign) {
    report(ui, game.resign());
  } else {
    start_game(game, ui, settings);
  }
}

// The hints for the person's throw or move, computed once per position and throw.
void refresh_hints(const PlaySession& game, UiState& ui) {
  const bool shown = game.hints() && !game.computer_to_act() &&
                     (game.phase() == Phase::Throw || game.phase() == Phase::Move);
  if (!shown) {
    ui.hints.reset();
    return;
  }
  if (ui.hints && ui.hints->position == game.position() && ui.hints->roll == game.roll()) return;
  if (!ui.hint_values) ui.hint_values = std::make_shared<HintValues>(ui.make_values);
  const MoveList none;
  ui.hints = compute_hints(ui.hint_values->values(game.rules()), game.rules(), game.position(),
                           game.roll(), game.phase() == Phase::Move ? game.legal() : none);
}

}  // namespace

// Opens the review of the game just finished: ur replay's view on its record, reviewed with
// the table when there is one, else estimated (attach_review, as ur replay does).
void open_review(const PlaySession& game, UiState& ui) {
  const auto records = game.records();
  if (records.empty()) return;
  std::string problem;
  auto reviewed = reviewed_game(records.back(), &problem, ui.make_values);
  if (!reviewed) {
    set_error(ui, "No review: " + problem + ".");
    return;
  }
  ReplayState state;
  state.after_game = true;
  state.screen_width = ui.screen_width;
  state.screen_height = ui.screen_height;
  // It opens on the summaries and the graph; any key shows the plies.
  state.overlay = ReplayOverlay::Summary;
  ui.review = GameReview{std::move(*reviewed), state};
  ui.overlay = Overlay::Review;
  ui.message.clear();
}

void new_game_or_ask(PlaySession& game, UiState& ui, std::optional<Settings> settings) {
  if (!game.started() || game.phase() == Phase::Over) {
    start_game(game, ui, settings);
    return;
  }
  // No question about a game that would be refused anyway.
  if (settings) {
    if (auto why = cannot_start(*settings)) {
      back_to_menu(ui, *settings, *why);
      return;
    }
  }
  ui.pending = Pending::NewGame;
  ui.pending_settings = std::move(settings);
  ui.overlay = Overlay::Confirm;
}

void handle_key(PlaySession& game, UiState& ui, const Key& key) {
  if (ui.overlay == Overlay::Review && ui.review) {
    // Its own view asks for room when small; q and Esc go back to the game-over screen.
    handle_review(ui, key);
    return;
  }
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
      } else if (is_char(key, 'r')) {
        review_or_offer(game, ui);
      } else if (is_char(key, 'm')) {
        open_menu(game, ui);
      } else if (is_char(key, '?')) {
        ui.overlay = Overlay::Rules;
      } else if (is_char(key, 'l')) {
        open_log(game, ui);
      } else if (key.code == KeyCode::Escape) {
        ui.overlay = Overlay::None;
      } else {
        refuse_key(ui, key, "n new game, r review, m menu, l log, Esc shows the board, q quits.");
      }
      break;
    case Overlay::Menu:
      handle_menu(game, ui, key);
      break;
    case Overlay::BuildOffer:
      handle_build_offer(game, ui, key);
      break;
    case Overlay::Building:
    case Overlay::Review:
      break;
    case Overlay::None:
      handle_game_keys(game, ui, key);
      break;
  }
  sync_ui(game, ui);
}

void sync_ui(const PlaySession& game, UiState& ui) {
  if (!game.started()) return;
  refresh_hints(game, ui);
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
