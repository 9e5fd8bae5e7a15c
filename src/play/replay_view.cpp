#include "play/replay_view.h"

#include <algorithm>

#include "analysis/review_text.h"
#include "cli/printable.h"
#include "core/notation.h"
#include "core/rule_sets.h"
#include "play/board_view.h"
#include "play/play_session.h"
#include "play/screen.h"
#include "records/rgn.h"
#include "tables/solve_progress.h"
#include "tables/table_store.h"

namespace ur::play {
namespace {

// Rows of the 80 x 24 layout. The board is flush left so the move list fits beside it.
constexpr int kTagsRow = 0;
constexpr int kPlyRow = 1;
constexpr int kDarkLabelRow = 2;
constexpr int kBoardRow = 3;
constexpr int kLightLabelRow = kBoardRow + kBoardHeight;
constexpr int kMarksRow = kLightLabelRow + 1;
constexpr int kReviewRow = kMarksRow + 1;  // up to four lines
constexpr int kPositionRow = 21;
constexpr int kMessageRow = 22;
constexpr int kKeysRow = 23;
constexpr int kListColumn = kBoardWidth + 1;  // 12 columns to the right edge
constexpr int kPageStep = 10;

std::string player_name(const records::GameRecord& record, Side side) {
  const std::string key(side == Side::Light ? "Light" : "Dark");
  const std::string* name = record.tag(key);
  std::string text = name ? cli::printable(*name) : std::string(side_name(side));
  if (const std::string* level = record.tag(key + "Level")) {
    text += " (" + cli::printable(*level) + ")";
  }
  return text;
}

const records::PlayedPly* played_at(const ReplayGame& game, int ply) {
  if (ply < 1 || ply > game.plies()) return nullptr;
  return &game.replay.plies[static_cast<std::size_t>(ply - 1)];
}

const analysis::ThrowReview* review_at(const ReplayGame& game, int ply) {
  if (!game.review || ply < 1 || ply > static_cast<int>(game.review->throws.size())) return nullptr;
  return &game.review->throws[static_cast<std::size_t>(ply - 1)];
}

// The best move when the played one was not (a tie with the played move is not pointed out).
std::optional<Move> better_move(const analysis::ThrowReview& entry) {
  if (entry.forced || entry.move_class == analysis::MoveClass::Best || entry.moves.empty())
    return std::nullopt;
  return entry.moves.front().move;
}

std::string move_words(const Rules& rules, Side side, Roll roll, const std::optional<Move>& move) {
  const std::string rgn = records::action_text(rules, records::Ply{side, roll, move});
  if (!move) return rgn + " (pass)";
  return rgn + " (" + move_squares_text(rules, *move) + ")";
}

// How an estimated review of `rules` becomes exact: the command that builds the table and what
// it costs, as ur review words it. Nothing for a table solved on the spot (an estimate then
// means no table could be had) or one the solver cannot build.
std::vector<std::string> build_table_lines(const Rules& rules) {
  if (tables::solves_on_the_fly(rules) || solver::unsupported_rules(rules)) return {};
  const std::string time =
      tables::rough_duration(tables::estimated_solve_cost(rules).cpu_seconds / 2);
  const std::string command = tables::solve_command_line(rules);
  return {"build the table for exact chances (" + time + " on two cores):", "`" + command + "`"};
}

void draw_side_label(Canvas& canvas, int x, int y, const ReplayGame& game, const Position& position,
                     bool over, Side side) {
  canvas.put(x, y, !over && position.turn == side ? "▶" : " ", palette::kTitle);
  int at = canvas.put(x + 2, y, piece_glyph(side), piece_style(side));
  at = canvas.put(at + 1, y, side_name(side), piece_style(side));
  at = canvas.put(at, y, " — " + player_name(game.record, side), palette::kHint);
  if (over && game.replay.winner == side) canvas.put(at + 2, y, "★ winner", palette::kTarget);
}

void draw_move_list(Canvas& canvas, int x, int y, const ReplayGame& game,
                    const ReplayState& state) {
  for (int row = 0; row < kMoveListRows; ++row) {
    const int ply = state.list_top + row;
    if (ply > game.plies()) break;
    const bool current = ply == state.ply;
    // The ▸ carries the highlight without colour; reverse video adds it in colour.
    canvas.put(x, y + row, move_list_row(game, ply, current),
               current ? Style{-1, true, false, true} : palette::kPlain);
  }
}

void draw_help(Canvas& canvas, int ox, int oy) {
  draw_box(canvas, ox, oy, kMinWidth, kMinHeight, "Replay: keys (any key returns)");
  static const std::vector<std::string> text = {
      "← →          one ply back or forward",
      "Home End     the start, the last ply",
      "PgUp PgDn    ten plies back or forward",
      "r            the review: both players' summaries and light's chance",
      "p            play from here: on against the computer (c) or a friend (f)",
      "?            this screen",
      "q            quit",
      "",
      "The board shows the position after the current ply (ply 0 is the start).",
      "‹ › ‹○›      where the ply's move came from and where it landed",
      "»(○)« [◌]    the best move, when the move played was not the best",
      "▸            the current ply in the move list",
      "",
      "With a solved table for the record's rules every chance is exact: the chance",
      "before the throw, the best move's and the played move's, the loss and its",
      "class, and the luck of the throw (docs/review.md).",
  };
  int line = oy + 2;
  for (const std::string& row : text) canvas.put(ox + 2, line++, row);
}

void draw_summary(Canvas& canvas, int ox, int oy, const ReplayGame& game) {
  // A set the solver cannot solve yet says so in a shorter title that still fits.
  const Rules& rules = game.record.rules;
  const std::string head = perfect_play_unavailable(rules) ? "Review · " : "Review of the game · ";
  draw_box(canvas, ox, oy, kMinWidth, kMinHeight,
           game.review->exact ? "Review of the game (any key returns)"
                              : head + estimated_note(rules) + " (any key returns)");
  int line = oy + 1;
  for (Side side : {Side::Light, Side::Dark}) {
    for (const std::string& text : analysis::summary_lines(*game.review, side)) {
      // Only a line too long is wrapped, so the indented ones keep their indent.
      if (text_width(text) <= kMinWidth - 4) {
        canvas.put(ox + 2, line++, text);
        continue;
      }
      for (const std::string& row : wrap(text, kMinWidth - 4)) canvas.put(ox + 2, line++, row);
    }
  }
  ++line;
  for (const std::string& row : analysis::chance_graph_lines(*game.review, kMinWidth - 12)) {
    canvas.put(ox + 2, line++, row);
  }
}

std::string keys_help(const ReplayState& state) {
  if (state.after_game) {
    if (state.overlay != ReplayOverlay::None) return "any key returns · Esc or q back to the game";
    return "←→ ply · Home End ends · PgUp PgDn ±10 · r review · ? help · Esc/q back";
  }
  if (state.overlay != ReplayOverlay::None) return "any key returns · q quit";
  // The question stands where the keys do: the move list reaches the message row.
  if (state.asking_play) return kPlayFromQuestion;
  return "←→ ply · Home End ends · PgUp PgDn ±10 · r review · p play · ? help · q quit";
}

}  // namespace

void go_to_ply(const ReplayGame& game, ReplayState& state, int ply) {
  state.ply = std::clamp(ply, 0, game.plies());
  if (state.ply < state.list_top) state.list_top = state.ply;
  if (state.ply >= state.list_top + kMoveListRows) state.list_top = state.ply - kMoveListRows + 1;
  state.list_top = std::clamp(state.list_top, 0, std::max(0, game.plies() + 1 - kMoveListRows));
}

void attach_review(ReplayGame& game, const ValuesMaker& make_values) {
  const std::unique_ptr<analysis::PositionValues> values = make_values(game.record.rules);
  game.review = analysis::review(game.record, game.replay, *values);
  game.no_review.clear();
}

std::optional<ReplayGame> reviewed_game(records::GameRecord record, std::string* problem,
                                        const ValuesMaker& make_values) {
  auto replayed = records::replay(record);
  if (auto* error = std::get_if<records::ReplayError>(&replayed)) {
    if (problem) *problem = error->message;
    return std::nullopt;
  }
  ReplayGame game{
      std::move(record), std::get<records::Replay>(std::move(replayed)), std::nullopt, {}};
  attach_review(game, make_values);
  return game;
}

void handle_replay_key(const ReplayGame& game, ReplayState& state, const Key& key) {
  if (key.code == KeyCode::Char && (key.character == 'q' || key.character == 'Q')) {
    state.quit = true;
    return;
  }
  if (state.after_game && key.code == KeyCode::Escape) {
    state.quit = true;
    return;
  }
  if (state.screen_width < kMinWidth || state.screen_height < kMinHeight) return;
  state.message.clear();
  if (state.overlay != ReplayOverlay::None) {
    state.overlay = ReplayOverlay::None;
    return;
  }
  if (state.asking_play) {
    if (is_char(key, 'c') || is_char(key, 'C') || is_char(key, 'f') || is_char(key, 'F')) {
      state.asking_play = false;
      state.play_from =
          is_char(key, 'c') || is_char(key, 'C') ? PlayFrom::Computer : PlayFrom::Friend;
    } else if (key.code == KeyCode::Escape) {
      state.asking_play = false;
    } else {
      state.message = describe_key(key) + " does nothing here: press c, f or Esc";
    }
    return;
  }
  const int last = game.plies();
  switch (key.code) {
    case KeyCode::Left:
      if (state.ply == 0) state.message = "This is the start: no ply before it.";
      go_to_ply(game, state, state.ply - 1);
      return;
    case KeyCode::Right:
      if (state.ply == last) state.message = "This is the last ply.";
      go_to_ply(game, state, state.ply + 1);
      return;
    case KeyCode::Home:
      go_to_ply(game, state, 0);
      return;
    case KeyCode::End:
      go_to_ply(game, state, last);
      return;
    case KeyCode::PageUp:
      go_to_ply(game, state, state.ply - kPageStep);
      return;
    case KeyCode::PageDown:
      go_to_ply(game, state, state.ply + kPageStep);
      return;
    case KeyCode::Char:
      if (key.character == '?') {
        state.overlay = ReplayOverlay::Help;
        return;
      }
      if (key.character == 'p') {
        if (state.after_game) {
          state.message = "Playing on from a ply is ur replay's: n starts a new game here.";
        } else if (state.ply == last && game.replay.winner) {
          state.message = "The game is over here: choose an earlier ply to play from.";
        } else {
          state.asking_play = true;
        }
        return;
      }
      if (key.character == 'r') {
        if (game.review) {
          state.overlay = ReplayOverlay::Summary;
        } else {
          state.message = "No review: " + game.no_review;
        }
        return;
      }
      break;
    default:
      break;
  }
  state.message = describe_key(key) + " does nothing here: ? shows the keys";
}

std::string replay_tags_line(const ReplayGame& game, int width) {
  const records::GameRecord& record = game.record;
  const std::string* result_tag = record.tag("Result");
  std::string result = result_tag ? *result_tag : std::string("*");
  if (game.replay.winner) {
    result += " (" + std::string(side_name(*game.replay.winner)) + " won";
    if (record.resigned) result += ", " + std::string(side_name(*record.resigned)) + " resigned";
    result += ")";
  }
  // rules_text names another set than Finkel's: "Aseb, 5 pieces (exact bear-off)".
  std::string rules = tables::rules_text(record.rules);
  const std::string text = player_name(record, Side::Light) + " – " +
                           player_name(record, Side::Dark) + " · " + rules + " · " + result;
  if (text_width(text) <= width) return text;
  // The players give way first, as the labels beside the board name them; then the rules, so
  // the result always shows.
  const std::string tail = " · " + result;
  const int room = width - text_width(tail);
  if (text_width(rules) > room) rules = std::string(first_cells(rules, room - 1)) + "…";
  return rules + tail;
}

std::string replay_ply_line(const ReplayGame& game, int ply) {
  const std::string head = "ply " + std::to_string(ply) + " of " + std::to_string(game.plies());
  const records::PlayedPly* played = played_at(game, ply);
  if (!played) {
    return head + " · the start · " + std::string(side_name(game.record.first)) + " throws first";
  }
  const records::Ply& move = played->ply;
  std::string text = head + " · turn " + std::to_string(played->turn) + " · " +
                     std::string(side_name(move.side)) + " · roll " + std::to_string(move.roll) +
                     " · " + move_words(game.record.rules, move.side, move.roll, move.move);
  if (move.move && move.move->capture) text += " · capture";
  if (move.move && move.move->extra_throw) text += " · extra throw";
  return text;
}

std::vector<std::string> replay_review_lines(const ReplayGame& game, int ply) {
  if (!game.review) {
    // The reason, then what to do about it, each on its own line.
    const std::size_t colon = game.no_review.find(": ");
    if (colon == std::string::npos) return {game.no_review};
    return {game.no_review.substr(0, colon + 1), game.no_review.substr(colon + 2)};
  }
  // Estimated values say so on every ply, the start included.
  std::vector<std::string> lines;
  if (!game.review->exact) lines.push_back(game.review->source);
  const analysis::ThrowReview* entry = review_at(game, ply);
  if (!entry) {
    // Said once, at the start where the replay opens: a ply's review leaves no room for it.
    if (!game.review->exact && ply == 0) {
      for (std::string& line : build_table_lines(game.record.rules))
        lines.push_back(std::move(line));
    }
    return lines;
  }
  using analysis::loss_text;
  using analysis::percent_text;
  using analysis::points_text;
  const Rules& rules = game.record.rules;
  std::string before = "chance before " + percent_text(entry->win_before) + " · luck " +
                       points_text(entry->luck) + " pp";
  if (entry->luck_mark != analysis::Luck::Neutral)
    before += " (" + std::string(to_string(entry->luck_mark)) + ")";
  std::string played = "played " + move_words(rules, entry->side, entry->roll, entry->move) + " " +
                       percent_text(entry->win_played);
  if (entry->forced) {
    played += " · forced";
  } else {
    played += " · loss " + loss_text(entry->loss) + " pp · " +
              std::string(to_string(entry->move_class)) + (entry->only_move ? " (only move)" : "");
  }
  lines.push_back(before);
  lines.push_back(played);
  if (const auto best = better_move(*entry)) {
    lines.push_back("best   " + move_words(rules, entry->side, entry->roll, best) + " " +
                    percent_text(entry->win_best));
  }
  return lines;
}

std::string move_list_row(const ReplayGame& game, int ply, bool current) {
  std::string number = std::to_string(ply);
  number.insert(0, number.size() < 3 ? 3 - number.size() : 0, ' ');
  std::string text = std::string(current ? "▸" : " ") + number;
  const records::PlayedPly* played = played_at(game, ply);
  if (!played) return text + "  start";
  return text + std::string(piece_glyph(played->ply.side)) + " " +
         records::action_text(game.record.rules, played->ply);
}

BoardMarks replay_marks(const ReplayGame& game, int ply) {
  BoardMarks marks;
  const records::PlayedPly* played = played_at(game, ply);
  if (!played) return marks;
  if (played->ply.move) {
    marks.last_from = played->ply.move->from;
    marks.last_to = played->ply.move->to;
    marks.last_side = played->ply.side;
  }
  if (const analysis::ThrowReview* entry = review_at(game, ply)) {
    if (const auto best = better_move(*entry)) {
      marks.chooser = entry->side;
      marks.selected = best->from;
      marks.target = best->to;
    }
  }
  return marks;
}

Position replay_position(const ReplayGame& game, int ply) {
  if (const records::PlayedPly* played = played_at(game, ply)) return played->after;
  return game.replay.start;  // the opening, or a Position tag's start
}

Canvas compose_replay(const ReplayGame& game, const ReplayState& state, int width, int height) {
  Canvas canvas(std::max(width, 1), std::max(height, 1));
  if (width < kMinWidth || height < kMinHeight) {
    const std::vector<std::string> lines = {
        "ur replay needs a terminal of at least " + std::to_string(kMinWidth) + "×" +
            std::to_string(kMinHeight) + ".",
        "This one is " + std::to_string(width) + "×" + std::to_string(height) + ".",
        "Enlarge it, or press q to quit."};
    int y = std::max(0, height / 2 - 1);
    for (const std::string& line : lines) canvas.put(0, y++, line);
    return canvas;
  }
  const int ox = (width - kMinWidth) / 2, oy = (height - kMinHeight) / 2;
  const Position position = replay_position(game, state.ply);
  const bool over = state.ply == game.plies() && game.replay.winner.has_value();

  canvas.put(ox, oy + kTagsRow, replay_tags_line(game, width - ox), palette::kTitle);
  canvas.put(ox, oy + kPlyRow, replay_ply_line(game, state.ply));
  draw_side_label(canvas, ox, oy + kDarkLabelRow, game, position, over, Side::Dark);
  const BoardMarks marks = replay_marks(game, state.ply);
  BoardOptions options;
  options.max_width = kBoardWidth;  // the move list stands to its right
  draw_board(canvas, ox, oy + kBoardRow, game.record.rules, position, marks, options);
  draw_side_label(canvas, ox, oy + kLightLabelRow, game, position, over, Side::Light);
  if (marks.last_to || marks.selected) {
    std::string legend;
    if (marks.last_to) {
      const std::string glyph(piece_glyph(marks.last_side));
      legend = "‹ › ‹" + glyph + "› the move played";
    }
    if (marks.selected) {
      const std::string glyph(piece_glyph(*marks.chooser));
      legend += (legend.empty() ? "" : " · ") + ("»(" + glyph + ")« [◌] the best move");
    }
    canvas.put(ox + 2, oy + kMarksRow, legend, palette::kHint);
  }
  int line = oy + kReviewRow;
  for (const std::string& text : replay_review_lines(game, state.ply)) {
    for (const std::string& row : wrap(text, kBoardWidth - 2)) {
      if (line < oy + kPositionRow) canvas.put(ox + 2, line++, row);
    }
  }
  draw_move_list(canvas, ox + kListColumn, oy + kDarkLabelRow, game, state);
  // The position text, to copy or to compare (docs/notation.md).
  canvas.put(ox + 2, oy + kPositionRow, "position " + to_text(position), palette::kHint);
  if (!state.message.empty()) {
    // A long message (a refusal and the command that fixes it) takes the rows above its own,
    // over the move list and the review, rather than being cut at the screen's edge.
    // Its text starts past "✗ " and stops two columns short of the right edge, as on the left.
    const std::vector<std::string> rows = wrap(state.message, width - ox - 6);
    const int top = oy + kMessageRow + 1 - static_cast<int>(rows.size());
    canvas.fill(0, top, width, static_cast<int>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      canvas.put(ox + 2, top + static_cast<int>(i), (i == 0 ? "✗ " : "  ") + rows[i],
                 palette::kError);
    }
  }
  canvas.put(ox + 2, oy + kKeysRow, keys_help(state),
             state.asking_play ? palette::kTitle : palette::kHint);

  // The overlays fill the 80 x 24 layout; on a wider screen the header reaches past them (a
  // resignation's result is long), so they are drawn on a cleared screen.
  const bool covered = state.overlay == ReplayOverlay::Help ||
                       (state.overlay == ReplayOverlay::Summary && game.review);
  if (covered) canvas.fill(0, 0, canvas.width(), canvas.height());
  switch (state.overlay) {
    case ReplayOverlay::None:
      break;
    case ReplayOverlay::Help:
      draw_help(canvas, ox, oy);
      break;
    case ReplayOverlay::Summary:
      if (game.review) draw_summary(canvas, ox, oy, game);
      break;
  }
  return canvas;
}

}  // namespace ur::play
