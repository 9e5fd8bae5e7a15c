// Rendering snapshots: known positions drawn as plain text (the no-colour rendering) and
// pinned here, so any change to the board's look is a deliberate one.
#include "play/board_view.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/notation.h"
#include "core/rule_sets.h"
#include "play/controller.h"
#include "play/play_test_support.h"
#include "play/screen.h"
#include "tables/table_store.h"

namespace ur::play {
namespace {

Position parse(const std::string& text, const Rules& rules = finkel_rules()) {
  return std::get<Position>(parse_text(text, rules));
}

Rules named(std::string_view name) {
  return Rules(find_rule_set(name)->spec);
}

// Raw-string snapshots start with a newline so that the board lines up in the source.
std::string pinned(const char* text) {
  return std::string(text + 1);
}

TEST(BoardView, TheCursorStepsThroughTheMovablePiecesAndWraps) {
  const Rules rules = finkel_rules();
  const auto parsed = parse_text("L:5/2,6/0:7/-/0", rules);
  ASSERT_TRUE(std::holds_alternative<Position>(parsed));
  const MoveList legal = legal_moves(rules, std::get<Position>(parsed), 1);
  ASSERT_EQ(legal.size(), 3);  // enter, 2 -> 3, 6 -> 7
  EXPECT_EQ(next_movable(legal, legal[0].from, +1), legal[1].from);
  EXPECT_EQ(next_movable(legal, legal[2].from, +1), legal[0].from);
  EXPECT_EQ(next_movable(legal, legal[0].from, -1), legal[2].from);
  // No cursor yet, or one on a piece that cannot move: from the first.
  EXPECT_EQ(next_movable(legal, std::nullopt, +1), legal[1].from);
  EXPECT_EQ(next_movable(legal, 13, -1), legal[2].from);
}

TEST(BoardView, OpeningPositionWithRouteNumbers) {
  EXPECT_EQ(board_text(finkel_rules(), starting_position(finkel_rules()), {}, {}), pinned(R"(
┌┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┐ ╭start╮ ╭home─╮ ┌┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┐
┆✿     4┆      3┆      2┆      1┆ │ ● ×7│ │ ● ×0│ ┆✿    14┆     13┆
┆       ┆       ┆       ┆       ┆ ╰─────╯ ╰─────╯ ┆       ┆       ┆
├───────┼───────┼───────┼───────┼────────┬────────┼───────┼───────┤
│      5│      6│      7│✿     8│       9│      10│     11│     12│
│       │       │       │       │        │        │       │       │
├───────┼───────┼───────┼───────┼────────┴────────┼───────┼───────┤
│✿     4│      3│      2│      1│ ╭start╮ ╭home─╮ │✿    14│     13│
│       │       │       │       │ │ ○ ×7│ │ ○ ×0│ │       │       │
└───────┴───────┴───────┴───────┘ ╰─────╯ ╰─────╯ └───────┴───────┘
)"));
}

TEST(BoardView, MovablePiecesSelectionAndLandingPreview) {
  BoardMarks marks;
  marks.movable = square_bit(0) | square_bit(2) | square_bit(5) | square_bit(9);
  marks.selected = 5;
  marks.target = 8;
  EXPECT_EQ(board_text(finkel_rules(), parse("L:3/2,5,9/1:5/7,14/0"), marks, {}), pinned(R"(
┌┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┐ ╭start╮ ╭home─╮ ┌┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┐
┆✿     4┆      3┆      2┆      1┆ │ ● ×5│ │ ● ×0│ ┆✿    14┆     13┆
┆       ┆       ┆       ┆       ┆ ╰─────╯ ╰─────╯ ┆   ●   ┆       ┆
├───────┼───────┼───────┼───────┼────────┬────────┼───────┼───────┤
│      5│      6│      7│✿     8│       9│      10│     11│     12│
│ »(○)« │       │   ●   │  [◌]  │  (○)   │        │       │       │
├───────┼───────┼───────┼───────┼────────┴────────┼───────┼───────┤
│✿     4│      3│      2│      1│ ╭start╮ ╭home─╮ │✿    14│     13│
│       │       │  (○)  │       │ │(○)×3│ │ ○ ×1│ │       │       │
└───────┴───────┴───────┴───────┘ ╰─────╯ ╰─────╯ └───────┴───────┘
)"));
}

TEST(BoardView, CapturePreviewWithoutRouteNumbers) {
  BoardMarks marks;
  marks.movable = square_bit(5);
  marks.selected = 5;
  marks.target = 7;  // dark stands there: the preview frames the piece to be captured
  BoardOptions options;
  options.route_numbers = false;
  EXPECT_EQ(board_text(finkel_rules(), parse("L:3/2,5,9/1:5/7,14/0"), marks, options), pinned(R"(
┌───────┬───────┬───────┬───────┐ ╭start╮ ╭home─╮ ┌───────┬───────┐
│✿      │       │       │       │ │ ● ×5│ │ ● ×0│ │✿      │       │
│       │       │       │       │ ╰─────╯ ╰─────╯ │   ●   │       │
├───────┼───────┼───────┼───────┼────────┬────────┼───────┼───────┤
│       │       │       │✿      │        │        │       │       │
│ »(○)« │       │  [●]  │       │   ○    │        │       │       │
├───────┼───────┼───────┼───────┼────────┴────────┼───────┼───────┤
│✿      │       │       │       │ ╭start╮ ╭home─╮ │✿      │       │
│       │       │   ○   │       │ │ ○ ×3│ │ ○ ×1│ │       │       │
└───────┴───────┴───────┴───────┘ ╰─────╯ ╰─────╯ └───────┴───────┘
)"));
}

TEST(BoardView, DarksViewDashesLightsPrivateSquaresAndPreviewsBearingOff) {
  BoardMarks marks;
  marks.movable = square_bit(14);
  marks.selected = 14;
  marks.target = 15;
  BoardOptions options;
  options.viewer = Side::Dark;
  EXPECT_EQ(board_text(finkel_rules(), parse("D:0/-/7:0/13,14/5"), marks, options), pinned(R"(
┌───────┬───────┬───────┬───────┐ ╭start╮ ╭home─╮ ┌───────┬───────┐
│✿     4│      3│      2│      1│ │ ● ×0│ │[●]×5│ │✿    14│     13│
│       │       │       │       │ ╰─────╯ ╰─────╯ │ »(●)« │   ●   │
├───────┼───────┼───────┼───────┼────────┬────────┼───────┼───────┤
│      5│      6│      7│✿     8│       9│      10│     11│     12│
│       │       │       │       │        │        │       │       │
├───────┼───────┼───────┼───────┼────────┴────────┼───────┼───────┤
┆✿     4┆      3┆      2┆      1┆ ╭start╮ ╭home─╮ ┆✿    14┆     13┆
┆       ┆       ┆       ┆       ┆ │ ○ ×0│ │ ○ ×7│ ┆       ┆       ┆
└┄┄┄┄┄┄┄┴┄┄┄┄┄┄┄┴┄┄┄┄┄┄┄┴┄┄┄┄┄┄┄┘ ╰─────╯ ╰─────╯ └┄┄┄┄┄┄┄┴┄┄┄┄┄┄┄┘
)"));
}

TEST(BoardView, LastMoveMarksItsFromAndToSquaresInGlyphs) {
  BoardMarks marks;
  marks.last_from = 7;
  marks.last_to = 10;
  marks.last_side = Side::Dark;
  EXPECT_EQ(board_text(finkel_rules(), parse("L:3/2,5,9/1:5/10,14/0"), marks, {}), pinned(R"(
┌┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┐ ╭start╮ ╭home─╮ ┌┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┐
┆✿     4┆      3┆      2┆      1┆ │ ● ×5│ │ ● ×0│ ┆✿    14┆     13┆
┆       ┆       ┆       ┆       ┆ ╰─────╯ ╰─────╯ ┆   ●   ┆       ┆
├───────┼───────┼───────┼───────┼────────┬────────┼───────┼───────┤
│      5│      6│      7│✿     8│       9│      10│     11│     12│
│   ○   │       │  ‹ ›  │       │   ○    │  ‹●›   │       │       │
├───────┼───────┼───────┼───────┼────────┴────────┼───────┼───────┤
│✿     4│      3│      2│      1│ ╭start╮ ╭home─╮ │✿    14│     13│
│       │       │   ○   │       │ │ ○ ×3│ │ ○ ×1│ │       │       │
└───────┴───────┴───────┴───────┘ ╰─────╯ ╰─────╯ └───────┴───────┘
)"));
  // Entering marks the start tray; bearing off marks the home tray.
  marks.last_from = 0;
  marks.last_to = 2;
  const std::string entered = board_text(finkel_rules(), parse("L:7/-/0:6/2/0"), marks, {});
  EXPECT_NE(entered.find("│‹●›×6│"), std::string::npos) << entered;
  EXPECT_NE(entered.find("┆  ‹●›  ┆"), std::string::npos) << entered;
  marks.last_from = 13;
  marks.last_to = 15;
  const std::string borne = board_text(finkel_rules(), parse("L:7/-/0:6/-/1"), marks, {});
  EXPECT_NE(borne.find("│‹●›×1│"), std::string::npos) << borne;
  EXPECT_NE(borne.find("┆  ‹ ›  ┆"), std::string::npos) << borne;
}

TEST(BoardView, MastersPiecesStandOnTheOpponentsRowEndsUnderTheirOwnNumbers) {
  const Rules masters = named("masters");
  // Light on 12 (C7) and 14 (B8); dark on 12 (A7) and 5 (B1): each side's 12 is the other
  // side's 16, on the far end of the opponent's row.
  BoardMarks marks;
  marks.movable = square_bit(12);
  marks.selected = 12;
  marks.target = 15;  // A8, light's own row end
  EXPECT_EQ(board_text(masters, parse("L:5/12,14/0:5/5,12/0", masters), marks, {}), pinned(R"(
┌┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┐ ╭start╮ ╭home─╮ ┌───────┬───────┐
┆✿     4┆      3┆      2┆      1┆ │ ● ×5│ │ ● ×0│ │✿ 12/16│  13/15│
┆       ┆       ┆       ┆       ┆ ╰─────╯ ╰─────╯ │ »(○)« │       │
├───────┼───────┼───────┼───────┼────────┬────────┼───────┼───────┤
│      5│      6│      7│✿     8│       9│      10│     11│     14│
│   ●   │       │       │       │        │        │       │   ○   │
├───────┼───────┼───────┼───────┼────────┴────────┼───────┼───────┤
│✿     4│      3│      2│      1│ ╭start╮ ╭home─╮ │✿ 16/12│  15/13│
│       │       │       │       │ │ ○ ×5│ │ ○ ×0│ │   ●   │  [◌]  │
└───────┴───────┴───────┴───────┘ ╰─────╯ ╰─────╯ └───────┴───────┘
)"));
  // Dark's view: its own numbers first.
  BoardOptions dark;
  dark.viewer = Side::Dark;
  const std::string seen = board_text(masters, parse("D:5/12,14/0:5/5,12/0", masters), {}, dark);
  EXPECT_NE(seen.find("│✿ 16/12│"), std::string::npos) << seen;
  EXPECT_NE(seen.find("│✿ 12/16│"), std::string::npos) << seen;
}

TEST(BoardView, CellLabelsNameBothSidesWhereTheyNumberATileDifferently) {
  const Rules masters = named("masters");
  EXPECT_EQ(cell_label(masters, Cell{2, 7}, Side::Light), "12/16");
  EXPECT_EQ(cell_label(masters, Cell{2, 7}, Side::Dark), "16/12");
  EXPECT_EQ(cell_label(masters, Cell{1, 8}, Side::Light), "14") << "B8 is 14 for both";
  EXPECT_EQ(cell_label(masters, Cell{2, 1}, Side::Light), "4") << "dark's own row";
  EXPECT_EQ(cell_label(finkel_rules(), Cell{0, 7}, Side::Dark), "14") << "light's own row";
  EXPECT_EQ(cell_label(named("aseb"), Cell{1, 12}, Side::Light), "16");
}

// Murray's path crosses B7 twice, as squares 11 and 17: the tile shows both, with a comma
// that keeps apart from the "/" between the two sides' numbers (C1 is light's 24, dark's 4).
// A piece there shows which visit it is on.
TEST(BoardView, ATileThePathCrossesTwiceShowsBothSquaresAndThePiecesVisit) {
  RuleSpec spec = find_rule_set("masters")->spec;
  spec.path = PathKind::Murray;
  const Rules murray(spec);
  EXPECT_EQ(cell_label(murray, Cell{1, 7}, Side::Light), "11,17");
  EXPECT_EQ(cell_label(murray, Cell{1, 7}, Side::Dark), "11,17");
  EXPECT_EQ(cell_label(murray, Cell{2, 1}, Side::Light), "24/4");
  const Position late = parse("L:6/17/0:7/-/0", murray);
  EXPECT_EQ(cell_label(murray, Cell{1, 7}, Side::Light, late), "17");
  const Position early = parse("D:7/-/0:6/11/0", murray);
  EXPECT_EQ(cell_label(murray, Cell{1, 7}, Side::Light, early), "11");
  EXPECT_EQ(cell_label(murray, Cell{2, 1}, Side::Light, early), "24/4");
  const std::string board = board_text(murray, late, {}, {});
  EXPECT_NE(board.find("    17│"), std::string::npos) << board;
  EXPECT_NE(board.find(" 10,18│"), std::string::npos) << board;
}

TEST(BoardView, AsebBoardIsThreeByTwelveWithItsFiveRosettes) {
  const Rules aseb = named("aseb");
  BoardMarks marks;
  marks.movable = square_bit(0) | square_bit(16);
  marks.selected = 16;
  marks.target = 17;  // bears off from B12
  const Position position = parse("L:3/3,16/0:3/4,8/0", aseb);
  const std::string text = board_text(aseb, position, marks, {});
  EXPECT_EQ(text, pinned(R"(
┌┄┄┄┄┄┬┄┄┄┄┄┬┄┄┄┄┄┬┄┄┄┄┄┐ ╭start╮ ╭home─╮
┆✿   4┆    3┆    2┆    1┆ │ ● ×3│ │ ● ×0│
┆  ●  ┆     ┆     ┆     ┆ ╰─────╯ ╰─────╯
├─────┼─────┼─────┼─────┼─────┬─────┬─────┬─────┬─────┬─────┬─────┬─────┐
│    5│    6│    7│✿   8│    9│   10│   11│✿  12│   13│   14│   15│✿  16│
│     │     │     │  ●  │     │     │     │     │     │     │     │»(○)«│
├─────┼─────┼─────┼─────┼─────┴─────┴─────┴─────┴─────┴─────┴─────┴─────┘
│✿   4│    3│    2│    1│ ╭start╮ ╭home─╮
│     │  ○  │     │     │ │(○)×3│ │[○]×0│
└─────┴─────┴─────┴─────┘ ╰─────╯ ╰─────╯
)"));
  EXPECT_LE(board_width(aseb), kMinWidth - 4) << "fits the 80-column screen with its margins";
}

TEST(BoardView, AsebBoardNarrowsForTheReplaysMoveList) {
  const Rules aseb = named("aseb");
  BoardMarks marks;
  marks.movable = square_bit(16);
  marks.selected = 16;
  BoardOptions options;
  options.max_width = kBoardWidth;
  const std::string text = board_text(aseb, parse("L:3/3,16/0:3/4,8/0", aseb), marks, options);
  EXPECT_EQ(text, pinned(R"(
┌┄┄┄┄┬┄┄┄┄┬┄┄┄┄┬┄┄┄┄┐ ╭start╮ ╭home─╮
┆✿  4┆   3┆   2┆   1┆ │ ● ×3│ │ ● ×0│
┆ ●  ┆    ┆    ┆    ┆ ╰─────╯ ╰─────╯
├────┼────┼────┼────┼────┬────┬────┬────┬────┬────┬────┬────┐
│   5│   6│   7│✿  8│   9│  10│  11│✿ 12│  13│  14│  15│✿ 16│
│    │    │    │ ●  │    │    │    │    │    │    │    │»○« │
├────┼────┼────┼────┼────┴────┴────┴────┴────┴────┴────┴────┘
│✿  4│   3│   2│   1│ ╭start╮ ╭home─╮
│    │ ○  │    │    │ │ ○ ×3│ │ ○ ×0│
└────┴────┴────┴────┘ ╰─────╯ ╰─────╯
)"));
  EXPECT_LE(board_width(aseb, kBoardWidth), kBoardWidth);
}

// Every square of both sides in every named set is drawn in its own cell, once.
TEST(BoardView, EverySquareOfEverySetIsDrawnOnItsTile) {
  for (const NamedRuleSet& set : named_rule_sets()) {
    Rules rules(set.spec);
    EXPECT_LE(board_width(rules), kMinWidth - 4) << set.name;
    for (Side side : {Side::Light, Side::Dark}) {
      for (Square square = 1; square <= rules.route_length; ++square) {
        Position position = starting_position(rules);
        position.board[index_of(side)] = square_bit(square);
        BoardMarks marks;
        marks.chooser = side;
        marks.selected = square;
        const std::string text = board_text(rules, position, marks, {});
        EXPECT_NE(text.find("»(" + std::string(piece_glyph(side)) + ")«"), std::string::npos)
            << set.name << " " << side_name(side) << " " << square << "\n"
            << text;
      }
    }
  }
}

// After the computer's move the board marks it until the player acts (throws).
TEST(Screen, TheComputersLastMoveIsMarkedUntilThePlayerThrows) {
  // Seed 17: the series' third and fourth throws, the computer's, are 4 and 1.
  PlaySession game = testing::make_game("first", 17);
  ASSERT_FALSE(game.force_roll(4));
  ASSERT_FALSE(game.move(0));  // light on 4, throws again
  ASSERT_FALSE(game.force_roll(1));
  ASSERT_FALSE(game.move(4));  // light on 5
  UiState ui;
  EXPECT_FALSE(marks_for(game, ui).last_to) << "the player's own move is not marked";
  ASSERT_FALSE(game.computer_step());  // dark throws 4
  ASSERT_FALSE(game.computer_step());  // dark enters on 4: rosette, throws again
  ASSERT_FALSE(game.computer_step());  // dark throws 1
  ASSERT_FALSE(game.computer_step());  // dark 4 → 5, capturing light
  ASSERT_EQ(game.position().turn, Side::Light);
  const BoardMarks marks = marks_for(game, ui);
  EXPECT_EQ(marks.last_from, 4);
  EXPECT_EQ(marks.last_to, 5);
  EXPECT_EQ(marks.last_side, Side::Dark);
  const std::string screen = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(screen.find("│  ‹●›  │"), std::string::npos) << screen;
  EXPECT_NE(screen.find("┆  ‹ ›  ┆"), std::string::npos) << screen;
  EXPECT_NE(screen.find("‹ › ‹●› mark dark's last move: 4 → 5"), std::string::npos)
      << "the marks are explained in words\n"
      << screen;
  ASSERT_FALSE(game.throw_dice());
  EXPECT_FALSE(marks_for(game, ui).last_to) << "gone once the player acts";
  EXPECT_FALSE(marks_for(game, ui).last_from);
}

TEST(Screen, BetweenFriendsTheOpponentsLastMoveIsMarked) {
  PlaySession game = testing::make_game();
  ASSERT_FALSE(game.force_roll(2));
  ASSERT_FALSE(game.move(0));
  UiState ui;
  EXPECT_EQ(marks_for(game, ui).last_from, 0);
  EXPECT_EQ(marks_for(game, ui).last_to, 2);
  EXPECT_EQ(marks_for(game, ui).last_side, Side::Light);
  ASSERT_FALSE(game.force_roll(0));
  EXPECT_FALSE(marks_for(game, ui).last_to);
}

TEST(Screen, StatusLinesFitIn80ColumnsWithEveryOptionOn) {
  PlaySession game(&make_agent);
  Settings settings;
  settings.opponent = std::string(kFriend);
  settings.rules.bear_off = BearOff::Any;
  settings.opener = session::StartRule::HigherThrow;
  settings.auto_play = true;
  settings.auto_pass = true;
  settings.seed = 18446744073709551615ULL;
  ASSERT_FALSE(game.configure(settings));
  for (int i = 0; i < 11; ++i) {  // two-digit game number and tally
    ASSERT_FALSE(game.resign());
    game.new_game();
  }
  UiState ui;
  sync_ui(game, ui);
  const auto lines = compose_screen(game, ui, kMinWidth, kMinHeight).lines(false);
  const std::string status = "game 12 · seed 18446744073709551615 · light ";
  EXPECT_NE(lines[0].find(status), std::string::npos) << lines[0];
  EXPECT_TRUE(lines[0].ends_with(" dark")) << lines[0];
  // The title, full or shortened, stops before the status with a gap: nothing overlaps.
  const std::string title = lines[0].substr(0, lines[0].find(status));
  EXPECT_TRUE(title.starts_with(" ur ")) << lines[0];
  const std::string full = " ur · the Royal Game of Ur · Finkel", brief = " ur · Finkel";
  EXPECT_TRUE(title.starts_with(full) || title.starts_with(brief)) << lines[0];
  const std::string rest = title.substr(title.starts_with(full) ? full.size() : brief.size());
  EXPECT_EQ(rest.find_first_not_of(' '), std::string::npos) << lines[0];
  for (const std::string& line : lines) EXPECT_LE(text_width(line), kMinWidth - 1) << line;
  const std::string summary = settings_summary(game.settings());
  for (const char* part :
       {"7 pieces", "any-throw bear-off", "higher throw starts", "auto-play", "auto-pass"}) {
    EXPECT_NE(summary.find(part), std::string::npos) << part;
  }
  EXPECT_EQ(lines[kMinHeight - 2], "  " + summary);
}

// The rows of the screen below the dice that hold `text` wrapped, joined with spaces.
std::string shown_below_dice(const std::vector<std::string>& lines, const std::string& first) {
  std::string joined;
  for (std::size_t row = 16; row < 19; ++row) {
    const std::string line = lines[row].substr(std::min<std::size_t>(2, lines[row].size()));
    if (joined.empty() && !line.starts_with(first)) continue;
    if (line.empty()) break;
    joined += (joined.empty() ? "" : " ") + line;
  }
  return joined;
}

TEST(Screen, PassNamesTheBlockersInFull) {
  PlaySession game = testing::make_game();
  for (const auto& [roll, from] : {std::pair{4, 0}, {0, -1}, {4, 0}, {4, 4}, {0, -1}}) {
    ASSERT_FALSE(game.force_roll(roll));  // light enters on 4; dark enters, goes on to 8
    ASSERT_FALSE(from < 0 ? game.pass() : game.move(from));
  }
  ASSERT_FALSE(game.force_roll(4));
  ASSERT_EQ(game.phase(), Phase::Pass);
  const std::string reason =
      "No piece can move 4 squares: start → 4 would land on your own piece; 4 → 8 would land "
      "on the opponent's piece, safe on its rosette.";
  ASSERT_EQ(game.pass_reason(), reason);
  UiState ui;
  sync_ui(game, ui);
  const auto lines = compose_screen(game, ui, kMinWidth, kMinHeight).lines(false);
  EXPECT_EQ(shown_below_dice(lines, "No piece"), reason);
}

TEST(Screen, ALongPassReasonAndTheKeyMessageAreNotCut) {
  PlaySession game = testing::make_game();
  // Light fills 1..7, dark reaches the safe 8; -1 passes.
  for (const auto& [roll, from] :
       {std::pair{4, 0}, {3, 4},  {0, -1}, {4, 0},  {2, 4},  {0, -1}, {4, 0},
        {1, 4},          {0, -1}, {4, 0},  {0, -1}, {0, -1}, {3, 0},  {0, -1},
        {2, 0},          {0, -1}, {1, 0},  {4, 0},  {4, 4},  {0, -1}}) {
    ASSERT_FALSE(game.force_roll(roll));
    ASSERT_FALSE(from < 0 ? game.pass() : game.move(from)) << roll << " " << from;
  }
  ASSERT_FALSE(game.force_roll(1));
  ASSERT_EQ(game.phase(), Phase::Pass);
  UiState ui;
  sync_ui(game, ui);
  handle_key(game, ui, char_key('5'));
  const auto lines = compose_screen(game, ui, kMinWidth, kMinHeight).lines(false);
  EXPECT_EQ(shown_below_dice(lines, "No piece"), game.pass_reason());
  EXPECT_GT(text_width(game.pass_reason()), 2 * (kMinWidth - 4)) << "needs three lines";
  EXPECT_EQ(lines[19], "  ✗ " + ui.message);
  for (const std::string& line : lines) EXPECT_LE(text_width(line), kMinWidth - 1) << line;
}

// Refusing a pass while a move exists: the whole sentence fits the message row, and names
// the example move as the rest of the screen does ("start → 1").
TEST(Screen, ThePassRefusalIsWholeAndNamesItsMoveAsTheScreenDoes) {
  PlaySession game = testing::make_game(std::string(kFriend), 4, named_rules("masters", 2));
  ASSERT_FALSE(game.force_roll(1));
  UiState ui;
  sync_ui(game, ui);
  handle_key(game, ui, char_key('p'));
  ASSERT_TRUE(ui.message_is_error);
  EXPECT_NE(ui.message.find("start → 1"), std::string::npos) << ui.message;
  const auto lines = compose_screen(game, ui, kMinWidth, kMinHeight).lines(false);
  EXPECT_EQ(lines[layout::kMessageRow], "  ✗ " + ui.message);
  EXPECT_LE(text_width(lines[layout::kMessageRow]), kMinWidth - 1) << lines[layout::kMessageRow];
}

// A word wider than the line (a table's file name) is cut over lines, never past the edge.
TEST(Screen, WrapCutsAWordWiderThanTheLine) {
  EXPECT_EQ(wrap("at /a/very/long/name.table now", 10),
            (std::vector<std::string>{"at", "/a/very/lo", "ng/name.ta", "ble now"}));
  EXPECT_EQ(wrap("→→→→→", 2), (std::vector<std::string>{"→→", "→→", "→"}));
  EXPECT_EQ(wrap("two words", 9), std::vector<std::string>{"two words"});
}

TEST(Screen, OnePieceIsSingular) {
  PlaySession game = testing::make_game(std::string(kFriend), 7, finkel_rules(1));
  UiState ui;
  ui.overlay = Overlay::Building;
  ui.table = TableRequest{};
  ui.table->settings.rules = finkel_rules(1);
  const std::string building = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(building.find("Building the table: 1 piece (exact bear-off)"), std::string::npos)
      << building;
  EXPECT_EQ(settings_summary(game.settings()), "1 piece · exact bear-off · alternate starts");
}

// After a new game the message line says what changed from the game before, in the status
// line's words; more changes than the line holds are counted, not cut.
TEST(Screen, TheNewGameNoteSaysWhatChangedWithinTheMessageLine) {
  const Settings before;
  Settings after = before;
  EXPECT_EQ(new_game_note(before, after), "New game with the same settings.");
  after.rules.bear_off = BearOff::Any;
  after.opener = session::StartRule::HigherThrow;
  after.opponent = std::string(kFriend);
  after.take_back = false;  // between friends it is always off: not news
  EXPECT_EQ(new_game_note(before, after),
            "New game: now any-throw bear-off, against a friend, higher throw starts.");
  after = before;
  after.rules = named_rules("blitz", 3);
  after.auto_pass = true;
  after.take_back = false;
  after.seed = 9;
  EXPECT_EQ(new_game_note(before, after),
            "New game: now Blitz, 3 pieces, auto-pass on, take-back off, seed 9.");

  // Everything changed at once, to a custom set (its long title stands in the title line).
  RuleSpec murray = find_rule_set("masters")->spec;
  murray.path = PathKind::Murray;
  after.rules = Rules(murray);
  after.rules.pieces = 3;
  after.rules.bear_off = BearOff::Any;
  after.opponent = "expert";
  after.opener = session::StartRule::HigherThrow;
  after.auto_play = true;
  after.seed = 18446744073709551615ULL;
  const std::string note = new_game_note(before, after);
  EXPECT_EQ(note, "New game: now Custom, 3 pieces, any-throw bear-off and 6 more changes.");
  EXPECT_LE(text_width(note), kMinWidth - 2 * layout::kLeft) << note;
}

// The build's progress names the rules as the offer before it did: "Masters, 4 pieces".
TEST(Screen, TheBuildingBoxNamesTheRulesAsTheOfferDoes) {
  for (const auto& [rules, named] :
       {std::pair{named_rules("masters", 4), "Masters, 4 pieces (exact bear-off)"},
        {named_rules("aseb", 4), "Aseb, 4 pieces (exact bear-off)"},
        {finkel_rules(5), "5 pieces (exact bear-off)"}}) {
    PlaySession game = testing::make_game(std::string(kFriend), 7, rules);
    UiState ui;
    ui.overlay = Overlay::Building;
    ui.table = TableRequest{};
    ui.table->settings.rules = rules;
    const std::string building = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
    EXPECT_EQ(tables::rules_text(rules), named);
    EXPECT_NE(building.find(std::string(" Building the table: ") + named + " "), std::string::npos)
        << building;
  }
}

TEST(Screen, FriendGameAfterAThrow) {
  PlaySession game = testing::make_game(std::string(kFriend), 5);
  ASSERT_FALSE(game.force_roll(3));
  UiState ui;
  sync_ui(game, ui);
  EXPECT_EQ(compose_screen(game, ui, kMinWidth, kMinHeight).text(false), pinned(R"(
 ur · the Royal Game of Ur · Finkel          game 1 · seed 5 · light 0 – 0 dark
    ● dark
  ┌┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┐ ╭start╮ ╭home─╮ ┌┄┄┄┄┄┄┄┬┄┄┄┄┄┄┄┐
  ┆✿     4┆      3┆      2┆      1┆ │ ● ×7│ │ ● ×0│ ┆✿    14┆     13┆
  ┆       ┆       ┆       ┆       ┆ ╰─────╯ ╰─────╯ ┆       ┆       ┆
  ├───────┼───────┼───────┼───────┼────────┬────────┼───────┼───────┤
  │      5│      6│      7│✿     8│       9│      10│     11│     12│
  │       │       │       │       │        │        │       │       │
  ├───────┼───────┼───────┼───────┼────────┴────────┼───────┼───────┤
  │✿     4│      3│      2│      1│ ╭start╮ ╭home─╮ │✿    14│     13│
  │       │  [◌]  │       │       │ │»○«×7│ │ ○ ×0│ │       │       │
  └───────┴───────┴───────┴───────┘ ╰─────╯ ╰─────╯ └───────┴───────┘
  ▶ ○ light

   ╱•╲   ╱•╲   ╱•╲   ╱ ╲          Light threw 3
  ╱___╲ ╱___╲ ╱___╲ ╱___╲ = 3     ← → and Enter, or type a square (s = new)

  » start → 3, enters a new piece   (Enter to move)


    Game 1: light starts.
  › Light threw 3.
  7 pieces · exact bear-off · alternate starts
  ←→ ⏎ move · h hints · v numbers · m menu · n new · r resign · ? help · q quit
)"));
}

std::vector<std::string> screen_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  for (std::size_t end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1) {
    lines.push_back(text.substr(begin, end - begin));
  }
  return lines;
}

// True when `inner` stands in `line` between two box borders, with only blanks between.
bool between_borders(const std::string& line, const std::string& inner) {
  const std::size_t at = line.find(inner);
  if (at == std::string::npos) return false;
  const std::string before = line.substr(0, line.find_last_not_of(' ', at - 1) + 1);
  const std::size_t after = line.find_first_not_of(' ', at + inner.size());
  return before.ends_with("│") && after != std::string::npos &&
         line.compare(after, std::string("│").size(), "│") == 0;
}

TEST(Screen, GameOverBoxKeepsItsBordersAndTheWinnerMark) {
  for (const auto& [width, height] : {std::pair{80, 24}, std::pair{120, 40}}) {
    PlaySession game = testing::make_game();
    ASSERT_FALSE(game.force_roll(0));
    ASSERT_FALSE(game.pass());
    ASSERT_FALSE(game.resign());  // dark, to move, gives up: light wins
    UiState ui;
    sync_ui(game, ui);
    ASSERT_EQ(ui.overlay, Overlay::GameOver);
    const std::string text = compose_screen(game, ui, width, height).text(false);
    // The box's lines: its keys (the headline below the dice has others) and its tally.
    for (const std::string inner :
         {"n new · r review · m menu · l log · Esc board · q quit", "Session: light 1 – 0 dark"}) {
      int seen = 0;
      for (const std::string& line : screen_lines(text)) {
        if (line.find(inner) == std::string::npos) continue;
        ++seen;
        EXPECT_TRUE(between_borders(line, inner)) << width << "x" << height << "\n" << text;
      }
      EXPECT_EQ(seen, 1) << inner << "\n" << text;
    }
    EXPECT_NE(text.find("○ light  ★ winner"), std::string::npos) << text;
  }
}

// The offer to build a table names the command that builds it later, wrapped inside the
// box however long the rules make it, and so does a long error in its place.
TEST(Screen, TheBuildOfferWrapsItsSolveCommandInsideTheBox) {
  RuleSpec custom = find_rule_set("masters")->spec;
  custom.dice = 2;
  custom.capture_gives_extra_throw = true;
  custom.pieces = 4;
  for (const Rules& rules : {named_rules("masters", 4), Rules(custom)}) {
    PlaySession game = testing::make_game(std::string(kFriend), 7, rules);
    UiState ui;
    ui.overlay = Overlay::BuildOffer;
    ui.table = TableRequest{};
    ui.table->offer.rules = rules;
    ui.table->offer.missing = "No solved table for " + tables::rules_text(rules) + " yet.";
    ui.table->offer.cost = "Building it takes about 10 seconds and about 200 MB of memory.";
    ui.table->offer.command = tables::solve_command_line(rules);
    const Canvas offer = compose_screen(game, ui, kMinWidth, kMinHeight);
    const std::string inside = testing::box_text(offer, 7, 66);
    EXPECT_NE(inside.find("(or later, outside the game: " + ui.table->offer.command + ")"),
              std::string::npos)
        << offer.text(false);
    EXPECT_NE(inside.find("Build it now? y / N"), std::string::npos) << offer.text(false);
    // Too long for one line, the command gets a line of its own, whole where it fits.
    if (ui.table->offer.command.size() + 1 <= 62) {
      EXPECT_NE(offer.text(false).find(ui.table->offer.command + ")"), std::string::npos)
          << offer.text(false);
    }

    ui.message = "the table could not be built: " + ui.table->offer.command +
                 " would need more memory than this machine has";
    ui.message_is_error = true;
    const Canvas refused = compose_screen(game, ui, kMinWidth, kMinHeight);
    EXPECT_NE(testing::box_text(refused, 7, 66).find("✗ " + ui.message), std::string::npos)
        << refused.text(false);
  }
}

TEST(Screen, TheRulesPageIsTheChosenSetsProseAndTheKeys) {
  for (const NamedRuleSet& set : named_rule_sets()) {
    const Rules rules(set.spec);
    PlaySession game = testing::make_game(std::string(kFriend), 5, rules);
    UiState ui;
    ui.overlay = Overlay::Rules;
    const std::string text = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
    // The core's prose, whole: the screen's lines inside the box, joined, hold it.
    std::string prose, shown;
    for (const std::string& sentence : rules_prose(rules))
      prose += (prose.empty() ? "" : " ") + sentence;
    for (const std::string& line : rules_text(rules)) {
      if (line.starts_with("t, space")) break;  // the keys
      if (!line.empty()) shown += (shown.empty() ? "" : " ") + line;
    }
    EXPECT_EQ(shown, prose) << set.name;
    EXPECT_NE(text.find(rule_set_title(rules) + ": rules and keys"), std::string::npos) << text;
    EXPECT_NE(text.find("0-" + std::to_string(rules.route_length) + " "), std::string::npos)
        << text;
    EXPECT_NE(text.find("h          hints on/off"), std::string::npos) << set.name << "\n" << text;
    EXPECT_LE(rules_text(rules).size(), static_cast<std::size_t>(kMinHeight - 2)) << set.name;
  }
}

// A custom set's title is too long for the rules page's top border: it is shortened with
// "…", so the border keeps its corners and "any key returns" stays readable.
TEST(Screen, TheRulesPageShortensALongTitleWithinItsBorder) {
  RuleSpec custom;
  custom.dice = 3;
  custom.zero_counts_as_max = true;
  custom.safe_rosettes = false;
  custom.pieces = 3;
  const Rules rules(custom);
  ASSERT_GT(text_width(rule_set_title(rules)), kMinWidth / 2) << rule_set_title(rules);
  PlaySession game = testing::make_game(std::string(kFriend), 5, rules);
  UiState ui;
  ui.overlay = Overlay::Rules;
  const Canvas canvas = compose_screen(game, ui, kMinWidth, kMinHeight);
  const std::string top = canvas.lines(false)[0];
  EXPECT_EQ(canvas.glyph_at(0, 0), "┌") << top;
  EXPECT_EQ(canvas.glyph_at(kMinWidth - 1, 0), "┐") << top;
  EXPECT_TRUE(top.starts_with("┌─ Custom (")) << top;
  EXPECT_TRUE(top.ends_with("…: rules and keys (any key returns) ─┐")) << top;
}

TEST(Screen, MastersThrowsThreeDice) {
  PlaySession game =
      testing::make_game(std::string(kFriend), 5, Rules(find_rule_set("masters")->spec));
  ASSERT_FALSE(game.force_roll(2));
  UiState ui;
  sync_ui(game, ui);
  const auto lines = compose_screen(game, ui, kMinWidth, kMinHeight).lines(false);
  EXPECT_EQ(lines[14], "   ╱•╲   ╱•╲   ╱ ╲                Light threw 2");
  EXPECT_TRUE(lines[15].starts_with("  ╱___╲ ╱___╲ ╱___╲ = 2     ")) << lines[15];
  EXPECT_NE(lines[0].find("ur · the Royal Game of Ur · Masters"), std::string::npos) << lines[0];
}

TEST(Screen, TooSmallTerminalAsksForRoom) {
  PlaySession game = testing::make_game();
  const std::string text = compose_screen(game, UiState{}, 60, 20).text(false);
  EXPECT_NE(text.find("ur play needs a terminal of at least 80×24."), std::string::npos);
  EXPECT_NE(text.find("This one is 60×20."), std::string::npos);
  EXPECT_NE(text.find("Other keys wait until the game shows."), std::string::npos) << text;
}

TEST(Screen, ColourIsOnlyInTheColouredRendering) {
  PlaySession game = testing::make_game();
  const Canvas canvas = compose_screen(game, UiState{}, kMinWidth, kMinHeight);
  EXPECT_EQ(canvas.text(false).find('\x1b'), std::string::npos);
  EXPECT_NE(canvas.text(true).find("\x1b[0;1;38;5;45m○"), std::string::npos) << "light in colour";
}

TEST(Canvas, BoxLinesMergeIntoJunctionsAndDashesStayStraight) {
  Canvas canvas(5, 3);
  canvas.horizontal_line(0, 4, 0, false, palette::kFrame);
  canvas.horizontal_line(0, 4, 2, true, palette::kFrame);
  canvas.vertical_line(0, 0, 2, false, palette::kFrame);
  canvas.vertical_line(2, 0, 2, true, palette::kFrame);
  canvas.commit_lines();
  EXPECT_EQ(canvas.text(false), "┌─┬──\n│ ┆\n└┄┴┄┄\n");
}

RC_GTEST_PROP(Canvas, AnyTextAnywhereIsClippedSafely, (std::string text, int x, int y)) {
  Canvas canvas(10, 4);
  canvas.put(x % 20 - 5, y % 8 - 2, text);
  canvas.put_centered(x % 20 - 5, 1, 6, text, palette::kError);
  RC_ASSERT(canvas.lines(true).size() == 4u);
  RC_ASSERT(canvas.lines(false).size() == 4u);
}

}  // namespace
}  // namespace ur::play
