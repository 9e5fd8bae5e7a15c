#include "play/screen.h"

#include <algorithm>

#include "core/notation.h"
#include "core/rule_sets.h"
#include "play/board_view.h"
#include "play/record_file.h"
#include "tables/solve_progress.h"
#include "tables/table_store.h"

namespace ur::play {
namespace {

using namespace layout;
constexpr int kSettingsRow = kStatusRow;
constexpr std::string_view kTitle = "ur · the Royal Game of Ur";
constexpr std::string_view kShortTitle = "ur";

// The rule set's title for the title line: "Masters", or "Custom" (pieces and bear-off are
// in the settings line).
std::string set_title(const Rules& rules) {
  const NamedRuleSet* set = find_rule_set(rule_set_name(rules));
  return set ? std::string(set->title) : "Custom";
}

std::string capitalized(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 32);
  return text;
}

// "you win" / "dark wins".
std::string wins(const PlaySession& game, Side side) {
  const std::string label = game.side_label(side);
  return label + (label == "you" ? " win" : " wins");
}

std::string tally_text(const PlaySession& game) {
  const auto& tally = game.tally();
  return game.side_label(Side::Light) + " " + std::to_string(tally[0]) + " – " +
         std::to_string(tally[1]) + " " + game.side_label(Side::Dark);
}

// "1 piece", "7 pieces".
std::string counted(int count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string opener_name(session::StartRule opener) {
  return opener == session::StartRule::Alternate ? "alternate" : "higher throw";
}

void draw_side_label(Canvas& canvas, int x, int y, const PlaySession& game, Side side) {
  const bool to_move = game.phase() != Phase::Over && game.position().turn == side;
  canvas.put(x, y, to_move ? "▶" : " ", palette::kTitle);
  int at = canvas.put(x + 2, y, piece_glyph(side), piece_style(side));
  at = canvas.put(at + 1, y, side_name(side), piece_style(side));
  std::string role;
  if (game.against_computer()) {
    role = side == kComputerSide ? "computer, " + game.opponent_name() : "you";
  }
  if (!role.empty()) at = canvas.put(at, y, " — " + role, palette::kHint);
  if (game.winner() == side) canvas.put(at + 2, y, "★ winner", palette::kTarget);
}

struct Headline {
  std::string first;
  std::string second;
};

Headline headline(const PlaySession& game) {
  const Side mover = game.position().turn;
  const std::string who = capitalized(game.side_label(mover));
  const std::string roll = std::to_string(game.roll());
  switch (game.phase()) {
    case Phase::Over:
      return {capitalized(wins(game, *game.winner())) + "!", "n new game · r review · q quit"};
    case Phase::Throw:
      if (game.computer_to_act()) return {who + " is about to throw", "any key skips the pause"};
      return {game.against_computer() ? "Your turn: throw the dice" : who + " to throw",
              "press t or space to throw"};
    case Phase::Move:
      if (game.computer_to_act()) return {who + " threw " + roll, "choosing a move…"};
      return {who + " threw " + roll, "← → and Enter, or type a square (s = new)"};
    case Phase::Pass:
      if (game.computer_to_act()) return {who + " threw " + roll + ": no move", "passing…"};
      return {who + " threw " + roll + ": no move", "press p or Enter to pass"};
  }
  return {};
}

std::string detail(const PlaySession& game, const UiState& ui) {
  if (game.phase() == Phase::Pass) return game.pass_reason();
  if (const auto last = last_move_to_mark(game)) {
    const std::string glyph(piece_glyph(last->side));
    return "‹ › ‹" + glyph + "› mark " + game.side_label(last->side) +
           "'s last move: " + game.move_squares(last->move);
  }
  if (game.phase() != Phase::Move || game.computer_to_act()) return "";
  if (typed_waits(ui.typed, game.rules(), game.legal())) return typed_waiting_text(ui.typed);
  std::string text;
  if (!ui.typed.empty()) text = "typed " + ui.typed + ": ";
  if (ui.cursor) {
    if (const Move* move = find_move(game.legal(), *ui.cursor)) {
      return text + "» " + game.describe_move(*move) + "   (Enter to move)";
    }
  }
  return text;
}

std::string keys_help(const PlaySession& game, const UiState& ui) {
  if (game.phase() == Phase::Over)
    return "n new game · r review · m menu · l log · v numbers · ? rules · q quit";
  if (game.computer_to_act() || ui.waiting) return "any key skips the pause · q quit";
  const std::string common = " · h hints · v numbers · m menu · n new · r resign · ? help · q quit";
  switch (game.phase()) {
    case Phase::Throw:
      return "t throw" + common;
    case Phase::Move:
      return "←→ ⏎ move" + common;
    case Phase::Pass:
      return "p/⏎ pass" + common;
    case Phase::Over:
      break;
  }
  return common;
}

std::string menu_value(const UiState& ui, MenuRow row) {
  const Settings& draft = ui.draft;
  switch (row) {
    case MenuRow::Opponent:
      return draft.opponent;
    case MenuRow::RuleSet:
      return std::string(rule_set_name(draft.rules));
    case MenuRow::Pieces:
      return std::to_string(draft.rules.pieces);
    case MenuRow::BearOff:
      return draft.rules.bear_off == BearOff::Exact ? "exact throw" : "any throw";
    case MenuRow::Opener:
      return opener_name(draft.opener);
    case MenuRow::AutoPlay:
      return draft.auto_play ? "on" : "off";
    case MenuRow::AutoPass:
      return draft.auto_pass ? "on" : "off";
    case MenuRow::TakeBack:
      return draft.opponent == kFriend ? "off (friends)" : draft.take_back ? "on" : "off";
    case MenuRow::Seed:
      return ui.seed_text;
    case MenuRow::Start:
    case MenuRow::Back:
      break;
  }
  return "";
}

void draw_menu(Canvas& canvas, int ox, int oy, const UiState& ui) {
  const int x = ox + 12, width = 56;
  static constexpr const char* kLabels[kMenuRows] = {"Opponent",
                                                     "Rule set",
                                                     "Pieces",
                                                     "Bear-off",
                                                     "Who starts",
                                                     "Auto-play forced move",
                                                     "Auto-pass",
                                                     "Take-back (u)",
                                                     "Seed",
                                                     "Start a new game with these settings",
                                                     "Back to the game"};
  // The hints, or in their place (in red) why the last change was refused.
  std::vector<std::string> notes = {"↑↓ choose · ←→/Enter change · digits type the seed",
                                    "Auto-play and auto-pass apply at once before the",
                                    "first throw, else from the next game, like the rest.",
                                    "Esc or m closes, dropping the other changes."};
  // On the rule set's row: what the chosen set is, in its one-line summary.
  if (ui.menu_row == static_cast<int>(MenuRow::RuleSet)) {
    const NamedRuleSet* set = find_rule_set(rule_set_name(ui.draft.rules));
    notes = wrap(set ? std::string(set->summary) : rule_set_title(ui.draft.rules), width - 4);
    notes.push_back("Pieces, bear-off and the rest stay as they are.");
  }
  Style note_style = palette::kHint;
  if (ui.message_is_error && !ui.message.empty()) {
    notes = wrap("✗ " + ui.message, width - 4);
    note_style = palette::kError;
  }
  // Four lines of notes; a longer refusal makes the box taller, up to the screen's height.
  constexpr int kNoteRow = 15;
  const int note_rows = std::clamp(static_cast<int>(notes.size()), 4, kMinHeight - kNoteRow - 1);
  const int height = kNoteRow + note_rows + 1;
  const int y = oy + std::min(2, (kMinHeight - height) / 2);
  draw_box(canvas, x, y, width, height, "Settings");
  for (int row = 0; row < kMenuRows; ++row) {
    const bool selected = row == ui.menu_row;
    const int line = y + 2 + row + (row >= static_cast<int>(MenuRow::Start) ? 1 : 0);
    Style style = selected ? Style{-1, true, false, true} : palette::kPlain;
    canvas.put(x + 2, line, selected ? "▸" : " ", palette::kTitle);
    const std::string label = kLabels[row];
    if (row >= static_cast<int>(MenuRow::Start)) {
      canvas.put(x + 4, line, "[ " + label + " ]", style);
      continue;
    }
    canvas.put(x + 4, line, label, palette::kPlain);
    const std::string value = menu_value(ui, static_cast<MenuRow>(row));
    const bool is_seed = row == static_cast<int>(MenuRow::Seed);
    canvas.put(x + 28, line, is_seed ? value + (selected ? "_" : "") : "‹ " + value + " ›", style);
  }
  for (int i = 0; i < note_rows && i < static_cast<int>(notes.size()); ++i) {
    canvas.put(x + 2, y + kNoteRow + i, notes[i], note_style);
  }
}

void draw_rules(Canvas& canvas, int ox, int oy, const Rules& rules) {
  // A custom set's long title is shortened, so that how to leave the page stays in sight.
  const std::string keys = ": rules and keys (any key returns)";
  std::string title = rule_set_title(rules);
  const int room = kMinWidth - 6 - text_width(keys);  // a corner, a dash and a blank each side
  if (text_width(title) > room) title = std::string(first_cells(title, room - 1)) + "…";
  draw_box(canvas, ox, oy, kMinWidth, kMinHeight, title + keys);
  int line = oy + 1;
  for (const std::string& text : rules_text(rules)) {
    if (line < oy + kMinHeight - 1) canvas.put(ox + 2, line++, text);
  }
}

void draw_log(Canvas& canvas, int ox, int oy, const PlaySession& game, const UiState& ui) {
  // The position text rides in the title, where it can be copied from (docs/notation.md).
  draw_box(canvas, ox, oy, kMinWidth, kMinHeight,
           "Log of this session · position " + to_text(game.position()));
  const std::vector<std::string> rows = log_rows(game);
  const int total = static_cast<int>(rows.size());
  const int top = std::clamp(ui.log_top, 0, std::max(0, total - kLogRows));
  const int shown = std::min(kLogRows, total - top);
  for (int i = 0; i < shown; ++i) canvas.put(ox + 2, oy + 1 + i, rows[top + i]);
  const std::string place = total <= kLogRows
                                ? "all " + counted(total, "row")
                                : std::to_string(top + 1) + "–" + std::to_string(top + shown) +
                                      " of " + std::to_string(total);
  canvas.put_centered(ox, oy + kMinHeight - 1, kMinWidth,
                      " " + place + " · ↑↓ PgUp PgDn Home End scroll · other keys return ",
                      palette::kHint);
}

void draw_game_over(Canvas& canvas, int ox, int oy, const PlaySession& game, const UiState& ui) {
  // Over the board only: the side labels around it keep "★ winner" in sight.
  const int x = ox + 10, y = oy + kBoardRow + 1, width = 60, height = kBoardHeight - 2;
  draw_box(canvas, x, y, width, height, "Game " + std::to_string(game.game_number()) + " over");
  const Side won = *game.winner();
  std::string result = capitalized(wins(game, won)) + "!";
  if (game.resigned()) result += " (" + game.side_label(opponent(won)) + " resigned)";
  canvas.put_centered(x, y + 2, width, result, piece_style(won));
  canvas.put_centered(x, y + 3, width, "Session: " + tally_text(game));
  canvas.put_centered(x, y + 5, width, "n new · r review · m menu · l log · Esc board · q quit",
                      palette::kHint);
  // A record that could not be written must be seen where the player is looking.
  if (ui.message_is_error && !ui.message.empty()) {
    canvas.put(x + 2, y + 6, wrap("✗ " + ui.message, width - 4)[0], palette::kError);
  }
}

void draw_confirm(Canvas& canvas, int ox, int oy, const UiState& ui) {
  const int x = ox + 18, y = oy + 7, width = 44, height = 5;
  draw_box(canvas, x, y, width, height, "Confirm");
  const std::string question =
      ui.pending == Pending::Resign ? "Resign this game?" : "Abandon this game for a new one?";
  canvas.put_centered(x, y + 2, width, question + "  y / n", palette::kTitle);
}

// The save prompt: a file name for the records, or Enter for the default one.
void draw_save(Canvas& canvas, int ox, int oy, const UiState& ui, const std::string& fallback) {
  const int x = ox + 8, y = oy + 7, width = 64, height = 7;
  draw_box(canvas, x, y, width, height, "Save the records of this session (RGN)");
  // A long name shows its end, where the typing is; typed names are printable ASCII.
  constexpr std::size_t kShown = 54;
  const std::string& typed = ui.save_text;
  const std::string shown =
      typed.size() > kShown ? "…" + typed.substr(typed.size() - kShown + 1) : typed;
  canvas.put(x + 2, y + 2, "File: " + shown + "_", palette::kTitle);
  canvas.put(x + 2, y + 4, "Enter saves (empty: " + fallback + ")", palette::kHint);
  canvas.put(x + 2, y + 5, "Esc cancels", palette::kHint);
}

// The question before a long table build: what is missing, what building costs, y / N.
// The note under the question (the command that builds it later, or why the build failed)
// is wrapped inside the box, however long the rules make it.
void draw_build_offer(Canvas& canvas, int ox, int oy, const UiState& ui) {
  const TableRequest& request = *ui.table;
  const int x = ox + 7, width = 66;
  std::vector<std::string> lines = wrap(request.offer.missing, width - 4);
  const auto cost = wrap(request.offer.cost, width - 4);
  lines.insert(lines.end(), cost.begin(), cost.end());
  const bool failed = !ui.message.empty() && ui.message_is_error;
  std::vector<std::string> note;
  if (failed) {
    note = wrap("✗ " + ui.message, width - 4);
  } else {
    // The command on a line of its own when the note needs two, so that it is not cut
    // mid-argument (a lone "4)" on the last line).
    std::string lead =
        request.use == TableUse::Game ? "(or later, outside the game:" : "(n: estimated; later:";
    std::string command = request.offer.command;
    command += ")";
    note = wrap(lead + " " + command, width - 4);
    if (note.size() > 1) {
      note = wrap(lead, width - 4);
      const std::vector<std::string> rest = wrap(command, width - 4);
      note.insert(note.end(), rest.begin(), rest.end());
    }
  }
  const int height = static_cast<int>(lines.size() + note.size()) + 6;
  const int y = oy + std::max(1, (kMinHeight - height) / 2);
  const char* title = request.use == TableUse::Hints    ? "The hints need a solved table"
                      : request.use == TableUse::Review ? "The review needs a solved table"
                                                        : "The perfect opponent needs its table";
  draw_box(canvas, x, y, width, height, title);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    canvas.put(x + 2, y + 2 + static_cast<int>(i), lines[i]);
  }
  const int question = y + 3 + static_cast<int>(lines.size());
  canvas.put_centered(x, question, width, "Build it now?  y / N", palette::kTitle);
  for (std::size_t i = 0; i < note.size(); ++i) {
    const int row = question + 1 + static_cast<int>(i);
    if (failed) {
      canvas.put(x + 2, row, note[i], palette::kError);
    } else {
      canvas.put_centered(x, row, width, note[i], palette::kHint);
    }
  }
}

// A table build under way: bar, share, layer pair, residual, time so far and left.
void draw_building(Canvas& canvas, int ox, int oy, const UiState& ui) {
  const TableRequest& request = *ui.table;
  const BuildStatus& status = request.status;
  const int x = ox + 6, y = oy + 6, width = 68, height = 10;
  const Rules& rules = request.settings.rules;
  // The rules in the offer's words: "Masters, 4 pieces (exact bear-off)".
  draw_box(canvas, x, y, width, height, "Building the table: " + tables::rules_text(rules));
  const int percent = static_cast<int>(status.fraction * 100);
  canvas.put(x + 2, y + 2, tables::progress_bar(status.fraction, width - 12), palette::kTarget);
  std::string share = std::to_string(percent) + "%";
  if (share.size() < 4) share.insert(0, 4 - share.size(), ' ');  // "  7%" to "100%"
  canvas.put(x + width - 8, y + 2, share, palette::kTitle);
  if (status.layers.empty()) {
    canvas.put(x + 2, y + 3, "starting…", palette::kHint);
  } else {
    canvas.put(x + 2, y + 3, status.layers + "   residual " + status.residual);
    canvas.put(
        x + 2, y + 4,
        "elapsed " + status.elapsed + " · " +
            (status.eta.empty() ? "estimating the time left" : "about " + status.eta + " left"),
        palette::kHint);
  }
  if (request.cancelling) {
    canvas.put(x + 2, y + 6, "Cancelling at the end of this sweep…", palette::kError);
  } else {
    canvas.put(x + 2, y + 6,
               request.use == TableUse::Hints    ? "The hints are exact when it is done."
               : request.use == TableUse::Review ? "The review opens when it is done."
                                                 : "The game against the perfect opponent "
                                                   "starts when it is done.");
  }
  canvas.put(x + 2, y + 7, "Esc, q or Ctrl-C cancels; nothing is saved then.", palette::kHint);
}

// Everything of a game under way: status line, board, dice, messages, log, keys.
void draw_game(Canvas& canvas, int ox, int oy, const PlaySession& game, const UiState& ui) {
  const std::string status = "game " + std::to_string(game.game_number()) + " · seed " +
                             std::to_string(game.settings().seed) + " · " + tally_text(game);
  const int status_x = kMinWidth - 1 - text_width(status);
  // The title names the rule set; a long seed and tally leave no room for the full title:
  // then it shrinks to "ur · Masters".
  const std::string rules_word = " · " + set_title(game.rules());
  std::string title = std::string(kTitle) + rules_word;
  if (status_x < 1 + text_width(title) + 2) title = std::string(kShortTitle) + rules_word;
  canvas.fill(ox + 1, oy + kTitleRow, kMinWidth - 1, 1);
  canvas.put(ox + 1, oy + kTitleRow, title, palette::kTitle);
  canvas.put(ox + status_x, oy + kTitleRow, status, palette::kHint);

  draw_side_label(canvas, ox + kLeft, oy + kDarkLabelRow, game, Side::Dark);
  BoardOptions options;
  options.route_numbers = ui.route_numbers;
  options.viewer = game.viewer();
  draw_board(canvas, ox + kLeft, oy + kBoardRow, game.rules(), game.position(), marks_for(game, ui),
             options);
  draw_side_label(canvas, ox + kLeft, oy + kLightLabelRow, game, Side::Light);

  const bool fresh = game.phase() == Phase::Move || game.phase() == Phase::Pass;
  draw_dice(canvas, ox + kLeft, oy + kDiceRow, game.dice(), game.dice_roll(), game.rules().dice,
            fresh);
  const Headline lines = headline(game);
  canvas.put(ox + kHeadlineColumn, oy + kDiceRow, lines.first, palette::kTitle);
  canvas.put(ox + kHeadlineColumn, oy + kDiceRow + 1, lines.second, palette::kHint);

  const auto detail_lines = wrap(detail(game, ui), kMinWidth - 2 * kLeft);
  const int detail_top = detail_lines.size() > 2 ? kDetailRow - 1 : kDetailRow;
  for (std::size_t i = 0; i < detail_lines.size() && i < 3; ++i) {
    canvas.put(ox + kLeft, oy + detail_top + static_cast<int>(i), detail_lines[i],
               palette::kTarget);
  }
  // Hints: both chances in the row above the preview, every move's in the row below it.
  if (ui.hints) {
    if (detail_lines.size() <= 2) {
      canvas.put(ox + kLeft, oy + kDetailRow - 1,
                 hint_chances_line(game, *ui.hints, kMinWidth - 2 * kLeft), palette::kHint);
    }
    if (detail_lines.size() <= 1 && !ui.hints->moves.empty()) {
      canvas.put(ox + kLeft, oy + kDetailRow + 1,
                 hint_moves_line(game, *ui.hints, kMinWidth - 2 * kLeft), palette::kPlain);
    }
  }
  if (!ui.message.empty() && ui.overlay == Overlay::None) {
    canvas.put(ox + kLeft, oy + kMessageRow, (ui.message_is_error ? "✗ " : "") + ui.message,
               ui.message_is_error ? palette::kError : palette::kPlain);
  }
  const auto& log = game.log();
  const std::size_t shown = std::min<std::size_t>(2, log.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const std::string& line = log[log.size() - shown + i];
    const bool latest = i + 1 == shown;
    canvas.put(ox + kLeft, oy + kLogRow + static_cast<int>(i), (latest ? "› " : "  ") + line,
               latest ? palette::kPlain : palette::kHint);
  }
  canvas.put(ox + kLeft, oy + kSettingsRow, settings_summary(game.settings()), palette::kHint);
  canvas.put(ox + kLeft, oy + kKeysRow, keys_help(game, ui), palette::kHint);
}

}  // namespace

// The set's dice with their marked corners, and the roll beside them ("no marks" above it
// where a throw of none moves the most, as in Masters). Dice of a throw already spent
// (`fresh` false) stay visible, dimmed, until the next throw. More than four dice are drawn
// narrow so that the headline keeps its column.
void draw_dice(Canvas& canvas, int x, int y, const std::optional<Dice>& dice, Roll roll, int count,
               bool fresh) {
  const Style body = dice && fresh ? palette::kPlain : palette::kTray;
  const bool narrow = count > 4;
  const int step = narrow ? 4 : 6;
  for (int i = 0; i < count; ++i) {
    const int left = x + i * step;
    canvas.put(left, y, narrow ? "   " : " ╱ ╲", body);
    canvas.put(left, y + 1, narrow ? "╱_╲" : "╱___╲", body);
    if (dice && dice->die(i))
      canvas.put(left + (narrow ? 1 : 2), y, "•", fresh ? palette::kMark : body);
  }
  if (dice) {
    const int text_x = x + count * step;
    const Style style = fresh ? palette::kTitle : palette::kTray;
    if (dice->marked() != roll) canvas.put(text_x, y, "no marks", style);
    canvas.put(text_x, y + 1, (fresh ? "= " : "last ") + std::to_string(roll), style);
  }
}

void draw_box(Canvas& canvas, int x, int y, int width, int height, const std::string& title) {
  canvas.fill(x - 1, y, width + 2, height);  // a blank column each side sets the box apart
  canvas.horizontal_line(x, x + width - 1, y, false, palette::kTitle);
  canvas.horizontal_line(x, x + width - 1, y + height - 1, false, palette::kTitle);
  canvas.vertical_line(x, y, y + height - 1, false, palette::kTitle);
  canvas.vertical_line(x + width - 1, y, y + height - 1, false, palette::kTitle);
  canvas.commit_lines();
  // A title too long for the edge is shortened: the corners and a dash each side stay.
  const int room = width - 6;
  const std::string shown =
      text_width(title) > room ? std::string(first_cells(title, room - 1)) + "…" : title;
  canvas.put_centered(x, y, width, " " + shown + " ", palette::kTitle);
}

std::vector<std::string> wrap(const std::string& text, int width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find(' ', begin);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(begin, end - begin);
    if (!line.empty() && text_width(line) + 1 + text_width(word) > width) {
      lines.push_back(line);
      line.clear();
    }
    // A word wider than a line (a long file name) is cut, rather than lost past the edge.
    while (line.empty() && width > 0 && text_width(word) > width) {
      const std::string_view head = first_cells(word, width);
      lines.emplace_back(head);
      word.erase(0, head.size());
    }
    line += (line.empty() ? "" : " ") + word;
    begin = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

std::optional<session::Moved> last_move_to_mark(const PlaySession& game) {
  const auto& last = game.last_move();
  if (!last) return std::nullopt;
  // Against the computer only its moves are pointed out; between friends, the other's.
  if (game.against_computer() && last->side != kComputerSide) return std::nullopt;
  const bool before_next_action =
      game.phase() == Phase::Throw && last->side != game.position().turn;
  if (!before_next_action && game.phase() != Phase::Over) return std::nullopt;
  return last;
}

BoardMarks marks_for(const PlaySession& game, const UiState& ui) {
  BoardMarks marks;
  if (const auto last = last_move_to_mark(game)) {
    marks.last_from = last->move.from;
    marks.last_to = last->move.to;
    marks.last_side = last->side;
  }
  if (game.phase() != Phase::Move || game.computer_to_act()) return marks;
  for (const Move& move : game.legal()) marks.movable |= square_bit(move.from);
  // A number being typed hides the cursor's choice: Enter does not move that piece then.
  if (ui.cursor && !typed_waits(ui.typed, game.rules(), game.legal())) {
    if (const Move* move = find_move(game.legal(), *ui.cursor)) {
      marks.selected = move->from;
      marks.target = move->to;
    }
  }
  return marks;
}

std::vector<std::string> log_rows(const PlaySession& game) {
  std::vector<std::string> rows;
  for (const std::string& entry : game.log()) {
    const auto lines = wrap(entry, kMinWidth - 4);
    rows.insert(rows.end(), lines.begin(), lines.end());
  }
  return rows;
}

std::string settings_summary(const Settings& settings) {
  // Auto-play and auto-pass are named only when on, so every setting fits in 80 columns.
  return counted(settings.rules.pieces, "piece") + " · " +
         (settings.rules.bear_off == BearOff::Exact ? "exact" : "any-throw") + " bear-off · " +
         opener_name(settings.opener) + " starts" + (settings.auto_play ? " · auto-play" : "") +
         (settings.auto_pass ? " · auto-pass" : "");
}

std::string new_game_note(const Settings& before, const Settings& after) {
  // The changes in the status line's words, the rule set first, as the menu lists them.
  std::vector<std::string> changes;
  Rules layout = before.rules;  // the set before, with the pieces and bear-off of after
  layout.pieces = after.rules.pieces;
  layout.bear_off = after.rules.bear_off;
  if (layout != after.rules) changes.push_back(set_title(after.rules));
  if (before.rules.pieces != after.rules.pieces) {
    changes.push_back(counted(after.rules.pieces, "piece"));
  }
  if (before.rules.bear_off != after.rules.bear_off) {
    changes.emplace_back(after.rules.bear_off == BearOff::Exact ? "exact bear-off"
                                                                : "any-throw bear-off");
  }
  if (before.opponent != after.opponent) {
    std::string opponent = "opponent ";
    opponent += after.opponent;
    changes.push_back(after.opponent == kFriend ? "against a friend" : opponent);
  }
  if (before.opener != after.opener) {
    changes.push_back(opener_name(after.opener) + " starts");
  }
  if (before.auto_play != after.auto_play) {
    changes.emplace_back(after.auto_play ? "auto-play on" : "auto-play off");
  }
  if (before.auto_pass != after.auto_pass) {
    changes.emplace_back(after.auto_pass ? "auto-pass on" : "auto-pass off");
  }
  // Between friends take-back is always off: no news.
  if (before.take_back != after.take_back && after.opponent != kFriend) {
    changes.emplace_back(after.take_back ? "take-back on" : "take-back off");
  }
  if (before.seed != after.seed) changes.push_back("seed " + std::to_string(after.seed));
  if (changes.empty()) return "New game with the same settings.";
  // As many as the message line holds, the rest counted.
  constexpr int kRoom = kMinWidth - 2 * kLeft;
  for (std::size_t shown = changes.size(); shown > 0; --shown) {
    std::string note = "New game: now ";
    for (std::size_t i = 0; i < shown; ++i) {
      if (i > 0) note += ", ";
      note += changes[i];
    }
    if (shown < changes.size()) {
      note += " and ";
      note += counted(static_cast<int>(changes.size() - shown), "more change");
    }
    note += ".";
    if (text_width(note) <= kRoom) return note;
  }
  std::string note = "New game with ";
  note += counted(static_cast<int>(changes.size()), "changed setting");
  return note + ".";
}

std::vector<std::string> rules_text(const Rules& rules) {
  // The rules in the core's words, then the keys: the set (pieces, throw, path) and the
  // play in two paragraphs where they fit, else in one (sentence by sentence they would
  // not leave room for the keys).
  const std::vector<std::string> sentences = rules_prose(rules);
  const auto paragraph = [&sentences](std::size_t begin, std::size_t end) {
    std::string joined;
    for (std::size_t i = begin; i < end && i < sentences.size(); ++i)
      joined += (joined.empty() ? "" : " ") + sentences[i];
    return wrap(joined, kMinWidth - 4);
  };
  constexpr std::size_t kSetSentences = 3;
  std::vector<std::string> text = paragraph(0, kSetSentences);
  const std::vector<std::string> play = paragraph(kSetSentences, sentences.size());
  std::string squares = "0-" + std::to_string(rules.route_length);
  squares.resize(11, ' ');
  const std::vector<std::string> keys = {
      "t, space   throw                    ← → ↑ ↓ Tab  choose a movable piece",
      squares + "pick a piece by square   s            pick the start tray",
      "Enter      move the chosen piece    p            pass when no move exists",
      "v          route numbers on/off     m            settings",
      "n          new game                 r            resign (game over: review)",
      "?          this screen              l            the log of this session",
      "u          take back your move      w            save the records (RGN)",
      "h          hints on/off             q            quit",
      "○ light, ● dark  (○) can move  »(○)« chosen  [◌] lands  ‹ › ‹●› last move",
  };
  // 22 lines inside the box; blank lines set the parts apart when there is room for them.
  const std::size_t inside = static_cast<std::size_t>(kMinHeight - 2);
  if (text.size() + play.size() + keys.size() + 2 <= inside) {
    text.push_back("");
    text.insert(text.end(), play.begin(), play.end());
  } else {
    text = paragraph(0, sentences.size());
  }
  if (text.size() + keys.size() < inside) text.push_back("");
  text.insert(text.end(), keys.begin(), keys.end());
  return text;
}

Canvas too_small_screen(int width, int height, const std::vector<std::string>& advice) {
  Canvas canvas(std::max(width, 1), std::max(height, 1));
  std::vector<std::string> lines = {
      "ur play needs a terminal of at least " + std::to_string(kMinWidth) + "×" +
          std::to_string(kMinHeight) + ".",
      "This one is " + std::to_string(width) + "×" + std::to_string(height) + "."};
  lines.insert(lines.end(), advice.begin(), advice.end());
  int y = std::max(0, height / 2 - 1);
  for (const std::string& line : lines) canvas.put(0, y++, line);
  return canvas;
}

Canvas compose_screen(const PlaySession& game, const UiState& ui, int width, int height) {
  // The review of the game just finished is ur replay's screen, the board included.
  if (ui.overlay == Overlay::Review && ui.review) {
    return compose_replay(ui.review->game, ui.review->state, width, height);
  }
  if (width < kMinWidth || height < kMinHeight) {
    return too_small_screen(
        width, height,
        {"Enlarge it, or press q to quit.", "Other keys wait until the game shows."});
  }
  Canvas canvas(width, height);
  const int ox = (width - kMinWidth) / 2, oy = (height - kMinHeight) / 2;

  canvas.put(ox + 1, oy + kTitleRow, kTitle, palette::kTitle);
  if (game.game_number() > 0) {
    draw_game(canvas, ox, oy, game, ui);
  } else {
    // Before the first game (its table is being asked about or built) there is no board yet.
    if (ui.overlay != Overlay::Building)
      canvas.put(ox + kLeft, oy + kKeysRow, "q quit", palette::kHint);
  }

  switch (ui.overlay) {
    case Overlay::None:
      break;
    case Overlay::Menu:
      draw_menu(canvas, ox, oy, ui);
      break;
    case Overlay::Rules:
      draw_rules(canvas, ox, oy, game.started() ? game.rules() : ui.draft.rules);
      break;
    case Overlay::Log:
      draw_log(canvas, ox, oy, game, ui);
      break;
    case Overlay::GameOver:
      draw_game_over(canvas, ox, oy, game, ui);
      break;
    case Overlay::Confirm:
      draw_confirm(canvas, ox, oy, ui);
      break;
    case Overlay::Save:
      draw_save(canvas, ox, oy, ui, default_record_name(game.now()));
      break;
    case Overlay::BuildOffer:
      if (ui.table) draw_build_offer(canvas, ox, oy, ui);
      break;
    case Overlay::Building:
      if (ui.table) draw_building(canvas, ox, oy, ui);
      break;
    case Overlay::Review:
      break;
  }
  return canvas;
}

}  // namespace ur::play
