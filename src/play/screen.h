// The interactive screen: what the player sees for a game and the interface state around
// it (cursor, messages, overlays). Composing is pure, so screens can be pinned as text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "play/board_view.h"
#include "play/canvas.h"
#include "play/hints.h"
#include "play/play_session.h"
#include "play/replay_view.h"
#include "play/table_build.h"

namespace ur::play {

// The smallest terminal the game draws in.
inline constexpr int kMinWidth = 80;
inline constexpr int kMinHeight = 24;
// Log entries the log screen shows at a time (its box fills kMinHeight).
inline constexpr int kLogRows = kMinHeight - 2;

// Rows and columns of the 80 x 24 game screen, relative to its top-left corner; the local and
// the online game draw the same layout.
namespace layout {
inline constexpr int kTitleRow = 0;
inline constexpr int kDarkLabelRow = 1;
inline constexpr int kBoardRow = 2;
inline constexpr int kLightLabelRow = kBoardRow + kBoardHeight;
inline constexpr int kDiceRow = 14;
inline constexpr int kDetailRow = 17;  // the move preview or why the turn passes: two lines, or
                                       // three from the row above for a long pass reason
inline constexpr int kMessageRow = 19;
inline constexpr int kLogRow = 20;     // two lines: the latest log entries
inline constexpr int kStatusRow = 22;  // the settings (local game) or who is there (online)
inline constexpr int kKeysRow = 23;
inline constexpr int kLeft = 2;
inline constexpr int kHeadlineColumn = 34;  // right of the dice and their count
}  // namespace layout

enum class Overlay {
  None,
  Menu,        // settings
  Rules,       // the rules and keys screen ('?')
  Log,         // the session's log, latest last ('l')
  GameOver,    // result and session tally
  Confirm,     // a yes/no question before resigning or abandoning a game
  Save,        // the name of the file the session's records are saved to ('w')
  BuildOffer,  // the table the perfect opponent, hints or review need is missing: build it?
  Building,    // the table is being built: progress; Esc, q or Ctrl-C cancels
  Review,      // the review of the game just finished (r), in ur replay's view
};

// The review of a finished game (r on the game-over screen): ur replay's game and state.
struct GameReview {
  ReplayGame game;
  ReplayState state;
};

// What a yes/no confirmation will do.
enum class Pending { None, Resign, NewGame };

// Rows of the settings menu, in screen order.
enum class MenuRow {
  Opponent,
  RuleSet,
  Pieces,
  BearOff,
  Opener,
  AutoPlay,
  AutoPass,
  TakeBack,
  Seed,
  Start,
  Back
};
inline constexpr int kMenuRows = 11;

// The opponent choices the menu cycles through ("perfect" needs the solver's table).
inline const std::vector<std::string>& opponent_choices() {
  static const std::vector<std::string> choices = {"friend", "easy",   "medium",
                                                   "hard",   "expert", "perfect"};
  return choices;
}

// What a missing table is wanted for.
enum class TableUse {
  Game,    // the perfect opponent of the game to start
  Hints,   // hints (h), turned on once it is built or declined
  Review,  // the review of the game just finished (r), opened once built or declined
};

// A game, the hints or a review waiting for a table.
struct TableRequest {
  TableOffer offer;
  Settings settings;  // the game to start once the table is there
  BuildStatus status;
  bool cancelling = false;
  TableUse use = TableUse::Game;
};

struct UiState {
  std::optional<Square> cursor;  // the source under the cursor while a throw waits
  std::string typed;             // digits of a route square typed so far
  std::string message;           // feedback on the last key
  bool message_is_error = false;
  bool route_numbers = true;
  Overlay overlay = Overlay::None;
  Pending pending = Pending::None;
  // With Pending::NewGame from the menu: the settings the new game is to be played with.
  std::optional<Settings> pending_settings;
  // The latest custom rule set the menu opened on (the command line's), which the rule
  // set's row offers after the named sets.
  std::optional<Rules> custom_rules;
  // The same for a piece count the Pieces row does not offer (--pieces 4).
  std::optional<int> other_pieces;
  int menu_row = 0;
  Settings draft;            // settings being edited in the menu
  std::string seed_text;     // the menu's seed field while it is edited
  std::string save_text;     // the save prompt's file name while it is typed
  bool waiting = false;      // a computer step or an automatic action is about to happen
  int result_shown_for = 0;  // number of the last game whose game-over screen was opened
  bool quit = false;
  int log_top = 0;               // the first log row the log screen shows
  int screen_width = kMinWidth;  // the terminal's size, as last drawn
  int screen_height = kMinHeight;
  const TableBuilder* tables = nullptr;  // offers to build missing tables; null: never offers
  std::optional<TableRequest> table;     // while asking about, or building, a table
  // Rules whose table the hints or a review already offered to build in this run (once is
  // enough: declined, they stay estimated; built, the table is found).
  std::vector<Rules> values_offered;
  std::string record_path;  // --record FILE: rewritten after every game; empty: none
  int recorded_for = 0;     // number of the last game whose end was recorded
  // The values of hints and reviews (hints.h): values_for, or a stand-in in tests.
  ValuesMaker make_values = &values_for;
  std::shared_ptr<HintValues> hint_values;  // made from make_values at the first hint
  // While hints are on (PlaySession::hints) and the person is to throw or move: the
  // hints for that position and throw.
  std::optional<Hints> hints;
  std::optional<GameReview> review;  // while Overlay::Review shows
};

// True when the terminal is too small to show the game: then only q and resizing act.
inline bool board_hidden(const UiState& ui) {
  return ui.screen_width < kMinWidth || ui.screen_height < kMinHeight;
}

// The move the board points out (from and to): the other side's last move until the side
// to move acts (throws), against the computer only the computer's, and the last move once
// the game is over.
std::optional<session::Moved> last_move_to_mark(const PlaySession& game);

// The board marks for the game's current state and cursor.
BoardMarks marks_for(const PlaySession& game, const UiState& ui);

// The session's log as the log screen shows it: every entry, wrapped to the box's width.
std::vector<std::string> log_rows(const PlaySession& game);

// The whole screen for a terminal of width x height (at least kMinWidth x kMinHeight; a
// smaller terminal gets a message asking for more room).
Canvas compose_screen(const PlaySession& game, const UiState& ui, int width, int height);

// The screen for a terminal under kMinWidth x kMinHeight: its size, the size needed, and
// `advice` (what the player may do meanwhile), one line each.
Canvas too_small_screen(int width, int height, const std::vector<std::string>& advice);

// The set's `count` dice of a throw with their marked corners, and the roll beside them,
// from (x, y), two rows; dice already spent (`fresh` false) are dimmed. Also the online game's.
void draw_dice(Canvas& canvas, int x, int y, const std::optional<Dice>& dice, Roll roll, int count,
               bool fresh);

// A framed box with `title` centred in its top edge (shortened with "…" where it would
// reach the corners), its inside cleared, and a blank column each side to set it apart from
// what lies under it.
void draw_box(Canvas& canvas, int x, int y, int width, int height, const std::string& title);

// Splits `text` into lines of at most `width` cells, breaking at spaces (and inside a word
// wider than a line).
std::vector<std::string> wrap(const std::string& text, int width);

// One line about the rule and play settings (not the seed), at most 76 cells, e.g.
// "7 pieces · exact bear-off · alternate starts" or, with every option on,
// "7 pieces · any-throw bear-off · higher throw starts · auto-play · auto-pass".
std::string settings_summary(const Settings& settings);

// The message line after a new game under `after` that followed one under `before`: what
// changed, in the status line's words ("New game: now Masters, 3 pieces, opponent hard."),
// as many changes as the line holds and the rest counted.
std::string new_game_note(const Settings& before, const Settings& after);

// The rules screen text: the rules of `rules` in the core's words (rules_prose), then the
// keys, within the screen's 22 inside lines.
std::vector<std::string> rules_text(const Rules& rules);

}  // namespace ur::play
