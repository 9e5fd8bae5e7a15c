// The replay viewer without a terminal: stepping, the ends, clamping, the header, the review
// line for a known game and the move list's highlight.
#include "play/replay_view.h"

#include <gtest/gtest.h>

#include <map>

#include "analysis/hand_values.h"
#include "core/notation.h"
#include "core/rule_sets.h"
#include "play/screen.h"

namespace ur::play {
namespace {

// Chances chosen by hand for the positions of a short two-piece game (mover's view).
using analysis::testing::HandValues;

ReplayGame replayed(const records::GameRecord& record) {
  return ReplayGame{record, std::get<records::Replay>(records::replay(record)), std::nullopt, {}};
}

ReplayGame short_game(bool reviewed) {
  records::GameRecord record;
  record.rules = finkel_rules(2);
  record.tags = {{"Light", "Ann"}, {"Dark", "Computer"}, {"DarkLevel", "hard"}, {"Result", "*"}};
  record.plies = {{Side::Light, 2, Move{0, 2, false, false}},
                  {Side::Dark, 1, Move{0, 1, false, false}},
                  {Side::Light, 3, Move{0, 3, false, false}},
                  {Side::Dark, 0, std::nullopt}};
  ReplayGame game = replayed(record);
  if (reviewed) {
    HandValues values;
    game.review = analysis::review(game.record, game.replay, values);
  } else {
    game.no_review = "no solved table for these rules: build it with `ur solve --pieces 2`";
  }
  return game;
}

// A long game for scrolling: both sides pass on zeros, 40 plies.
ReplayGame long_game() {
  records::GameRecord record;
  record.rules = finkel_rules(2);
  for (int i = 0; i < 40; ++i) {
    record.plies.push_back({i % 2 == 0 ? Side::Light : Side::Dark, 0, std::nullopt});
  }
  ReplayGame game = replayed(record);
  game.no_review = "none";
  return game;
}

Key key(KeyCode code) {
  return Key{code, 0};
}

// An Aseb record: the narrow 3 x 12 board leaves the move list its 12 columns.
TEST(Replay, AnAsebGameShowsItsBoardBesideTheMoveList) {
  records::GameRecord record;
  record.rules = Rules(find_rule_set("aseb")->spec);
  record.tags = {{"Result", "*"}};
  record.plies = {{Side::Light, 2, Move{0, 2, false, false}},
                  {Side::Dark, 4, Move{0, 4, false, true}},
                  {Side::Dark, 3, Move{4, 7, false, false}}};
  ReplayGame game = replayed(record);
  game.no_review = "none";
  ReplayState state;
  go_to_ply(game, state, 3);
  const auto lines = compose_replay(game, state, kMinWidth, kMinHeight).lines(false);
  EXPECT_NE(lines[0].find("Aseb, 5 pieces (exact bear-off)"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[0].find("Aseb, Aseb"), std::string::npos) << "named once\n" << lines[0];
  EXPECT_EQ(lines[7], "│   5│   6│   7│✿  8│   9│  10│  11│✿ 12│  13│  14│  15│✿ 16│")
      << "the board's middle row";
  EXPECT_TRUE(lines[5].ends_with("  " + move_list_row(game, 3, true))) << lines[5];
  EXPECT_TRUE(lines[5].starts_with("┆‹ › ┆")) << "dark left C1 (its 4)\n" << lines[5];
  EXPECT_NE(lines[8].find("│    │    │‹●› │"), std::string::npos) << lines[8];
  for (const std::string& line : lines) EXPECT_LE(text_width(line), kMinWidth) << line;
}

TEST(Replay, StepsAndJumpsToTheEndsAndClamps) {
  const ReplayGame game = short_game(false);
  ReplayState state;
  handle_replay_key(game, state, key(KeyCode::Right));
  EXPECT_EQ(state.ply, 1);
  handle_replay_key(game, state, key(KeyCode::End));
  EXPECT_EQ(state.ply, 4);
  handle_replay_key(game, state, key(KeyCode::Right));
  EXPECT_EQ(state.ply, 4);
  EXPECT_EQ(state.message, "This is the last ply.");
  handle_replay_key(game, state, key(KeyCode::PageUp));
  EXPECT_EQ(state.ply, 0);
  EXPECT_TRUE(state.message.empty());
  handle_replay_key(game, state, key(KeyCode::Left));
  EXPECT_EQ(state.ply, 0);
  EXPECT_EQ(state.message, "This is the start: no ply before it.");
  handle_replay_key(game, state, key(KeyCode::PageDown));
  EXPECT_EQ(state.ply, 4);
  handle_replay_key(game, state, key(KeyCode::Home));
  EXPECT_EQ(state.ply, 0);
  handle_replay_key(game, state, char_key('x'));
  EXPECT_EQ(state.message, "'x' does nothing here: ? shows the keys");
  EXPECT_EQ(state.ply, 0);
}

TEST(Replay, OverlaysHiddenBoardAndQuit) {
  const ReplayGame game = short_game(false);
  ReplayState state;
  handle_replay_key(game, state, char_key('?'));
  EXPECT_EQ(state.overlay, ReplayOverlay::Help);
  handle_replay_key(game, state, key(KeyCode::Right));  // closes the overlay only
  EXPECT_EQ(state.overlay, ReplayOverlay::None);
  EXPECT_EQ(state.ply, 0);
  handle_replay_key(game, state, char_key('r'));  // no review without a table
  EXPECT_EQ(state.overlay, ReplayOverlay::None);
  EXPECT_EQ(state.message, "No review: " + game.no_review);
  state.screen_width = 79;
  handle_replay_key(game, state, key(KeyCode::Right));
  EXPECT_EQ(state.ply, 0);
  handle_replay_key(game, state, char_key('q'));
  EXPECT_TRUE(state.quit);
}

TEST(Replay, PAsksWhomToPlayFromHereAndCOrFChooses) {
  const ReplayGame game = short_game(false);
  ReplayState state;
  handle_replay_key(game, state, key(KeyCode::Right));
  handle_replay_key(game, state, char_key('p'));
  EXPECT_TRUE(state.asking_play);
  std::string screen = compose_replay(game, state, 80, 24).text(false);
  EXPECT_NE(screen.find(kPlayFromQuestion), std::string::npos) << screen;
  handle_replay_key(game, state, key(KeyCode::Right));  // only c, f or Esc answer
  EXPECT_EQ(state.ply, 1);
  EXPECT_TRUE(state.asking_play);
  EXPECT_EQ(state.message, "That arrow does nothing here: press c, f or Esc");
  screen = compose_replay(game, state, 80, 24).text(false);
  EXPECT_NE(screen.find(kPlayFromQuestion), std::string::npos) << "still asked";
  handle_replay_key(game, state, key(KeyCode::Escape));
  EXPECT_FALSE(state.asking_play);
  EXPECT_EQ(state.play_from, PlayFrom::None);
  handle_replay_key(game, state, char_key('p'));
  handle_replay_key(game, state, char_key('c'));
  EXPECT_EQ(state.play_from, PlayFrom::Computer);
  EXPECT_FALSE(state.asking_play);
  state.play_from = PlayFrom::None;
  handle_replay_key(game, state, char_key('p'));
  handle_replay_key(game, state, char_key('f'));
  EXPECT_EQ(state.play_from, PlayFrom::Friend);
}

TEST(Replay, PRefusesTheEndOfAFinishedGame) {
  records::GameRecord record = short_game(false).record;
  record.resigned = Side::Dark;
  const ReplayGame game = replayed(record);
  ASSERT_EQ(game.replay.winner, Side::Light);
  ReplayState state;
  go_to_ply(game, state, game.plies());
  handle_replay_key(game, state, char_key('p'));
  EXPECT_FALSE(state.asking_play);
  EXPECT_EQ(state.message, "The game is over here: choose an earlier ply to play from.");
  handle_replay_key(game, state, key(KeyCode::Left));
  handle_replay_key(game, state, char_key('p'));
  EXPECT_TRUE(state.asking_play) << "one ply earlier the game goes on";
}

TEST(Replay, TheScreenShowsThePositionTextOfThePly) {
  const ReplayGame game = short_game(false);
  ReplayState state;
  go_to_ply(game, state, 2);
  const std::string screen = compose_replay(game, state, 80, 24).text(false);
  EXPECT_NE(screen.find("position " + to_text(replay_position(game, 2))), std::string::npos)
      << screen;
  EXPECT_EQ(replay_position(game, 2), game.replay.plies[1].after);
}

TEST(Replay, AGameThatBeganMidWayStartsAtItsPositionTag) {
  records::GameRecord record;
  record.rules = finkel_rules(2);
  const Position start = std::get<Position>(parse_text("D:1/4/0:2/-/0", record.rules));
  record.tags = {{std::string(records::kPositionTag), to_text(start)}};
  record.first = Side::Dark;
  record.plies = {{Side::Dark, 0, std::nullopt}};
  const ReplayGame game = replayed(record);
  EXPECT_EQ(replay_position(game, 0), start);
  ReplayState state;
  const std::string screen = compose_replay(game, state, 80, 24).text(false);
  EXPECT_NE(screen.find("position " + to_text(start)), std::string::npos) << screen;
}

TEST(Replay, TheMoveListScrollsWithTheCurrentPly) {
  const ReplayGame game = long_game();
  ReplayState state;
  go_to_ply(game, state, 30);
  EXPECT_EQ(state.list_top, 30 - kMoveListRows + 1);
  go_to_ply(game, state, 5);
  EXPECT_EQ(state.list_top, 5);
  go_to_ply(game, state, 1000);
  EXPECT_EQ(state.ply, 40);
  EXPECT_EQ(state.list_top, 41 - kMoveListRows);
  const std::string screen = compose_replay(game, state, 80, 24).text(false);
  EXPECT_NE(screen.find("▸ 40● 0 --"), std::string::npos) << screen;
  EXPECT_EQ(screen.find(" 19○"), std::string::npos) << screen;  // scrolled out of sight
  EXPECT_NE(screen.find(" 20● 0 --"), std::string::npos) << screen;
  EXPECT_EQ(screen.find("▸ 39"), std::string::npos) << screen;  // one ply highlighted
}

TEST(Replay, HeaderAndTags) {
  const ReplayGame game = short_game(false);
  EXPECT_EQ(replay_tags_line(game, kMinWidth),
            "Ann – Computer (hard) · 2 pieces (exact bear-off) · *");
  EXPECT_EQ(replay_ply_line(game, 0), "ply 0 of 4 · the start · light throws first");
  EXPECT_EQ(replay_ply_line(game, 1), "ply 1 of 4 · turn 1 · light · roll 2 · A@A3 (start → 2)");
  EXPECT_EQ(replay_ply_line(game, 4), "ply 4 of 4 · turn 2 · dark · roll 0 · 0 -- (pass)");
  EXPECT_EQ(move_list_row(game, 0, true), "▸  0  start");
  EXPECT_EQ(move_list_row(game, 3, false), "   3○ A@A2");
}

// Finkel's board with 3 dice and 4 pieces, from dark's last piece on 14: dark throws 1 and
// bears it off, and wins 0-1.
records::GameRecord custom_game_won_by_dark() {
  records::GameRecord record;
  RuleSpec spec = find_rule_set("finkel")->spec;
  spec.dice = 3;
  spec.pieces = 4;
  record.rules = Rules(spec);
  const Position start = std::get<Position>(parse_text("D:1/-/3:0/14/3", record.rules));
  record.tags = {{"Light", "A"},    {"LightLevel", "perfect"},
                 {"Dark", "B"},     {"DarkLevel", "greedy"},
                 {"Result", "0-1"}, {std::string(records::kPositionTag), to_text(start)}};
  record.first = Side::Dark;
  record.plies = {{Side::Dark, 1, Move{14, 15, false, false}}};
  return record;
}

// A custom set's title makes the header too wide for 80 columns: the players give way (the
// labels beside the board name them) so that the rules and the result show whole; a wider
// screen shows it all.
TEST(Replay, ALongHeaderKeepsTheRulesAndTheResultInSight) {
  const ReplayGame game = replayed(custom_game_won_by_dark());
  ASSERT_EQ(game.replay.winner, Side::Dark);
  const std::string rules_and_result =
      "Custom (finkel path, 3 dice), 4 pieces (exact bear-off) · 0-1 (dark won)";
  const std::string full = "A (perfect) – B (greedy) · " + rules_and_result;
  EXPECT_EQ(replay_tags_line(game, 200), full);
  EXPECT_EQ(replay_tags_line(game, kMinWidth), rules_and_result);
  ReplayState state;
  go_to_ply(game, state, 1);
  auto lines = compose_replay(game, state, kMinWidth, kMinHeight).lines(false);
  EXPECT_EQ(lines[0], rules_and_result);
  EXPECT_NE(lines[2].find("dark — B (greedy)"), std::string::npos) << lines[2];
  EXPECT_NE(lines[13].find("light — A (perfect)"), std::string::npos) << lines[13];
  lines = compose_replay(game, state, 120, kMinHeight).lines(false);
  EXPECT_EQ(lines[0], std::string(20, ' ') + full);
}

// Rules too long even without the players are shortened with "…": the result still shows.
TEST(Replay, TheResultShowsWhenEvenTheRulesDoNotFit) {
  records::GameRecord record = custom_game_won_by_dark();
  record.plies.clear();
  record.resigned = Side::Light;
  const ReplayGame game = replayed(record);
  const std::string header = replay_tags_line(game, kMinWidth);
  EXPECT_EQ(text_width(header), kMinWidth) << header;
  EXPECT_TRUE(header.starts_with("Custom (finkel path, 3 dice), 4 pieces (exact")) << header;
  EXPECT_TRUE(header.ends_with("… · 0-1 (dark won, light resigned)")) << header;
}

TEST(Replay, TheReviewOfAKnownPlyAndTheBestMoveOnTheBoard) {
  const ReplayGame game = short_game(true);
  // Ply 3: light threw 3 and entered on 3 (49% for dark, so 51% for light) where moving
  // 2 to 5 kept 58% (dark 42%).
  const auto lines = replay_review_lines(game, 3);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "chance before 55.0% · luck +3.00 pp");
  EXPECT_EQ(lines[1], "played A@A2 (start → 3) 51.0% · loss 7.00 pp · mistake");
  EXPECT_EQ(lines[2], "best   A3B1 (2 → 5) 58.0%");
  const BoardMarks marks = replay_marks(game, 3);
  EXPECT_EQ(marks.last_from, 0);
  EXPECT_EQ(marks.last_to, 3);
  EXPECT_EQ(marks.selected, 2);
  EXPECT_EQ(marks.target, 5);
  EXPECT_EQ(marks.chooser, Side::Light);
  ReplayState state;
  go_to_ply(game, state, 3);
  const std::string screen = compose_replay(game, state, 80, 24).text(false);
  EXPECT_NE(screen.find("»(○)«"), std::string::npos) << screen;
  EXPECT_NE(screen.find("[◌]"), std::string::npos) << screen;
  EXPECT_NE(screen.find("‹○›"), std::string::npos) << screen;
  EXPECT_NE(screen.find("▸  3○ A@A2"), std::string::npos) << screen;
  EXPECT_NE(screen.find("ply 3 of 4 · turn 2 · light · roll 3"), std::string::npos) << screen;
  // The summary screen.
  handle_replay_key(game, state, char_key('r'));
  ASSERT_EQ(state.overlay, ReplayOverlay::Summary);
  const std::string summary = compose_replay(game, state, 80, 24).text(false);
  EXPECT_NE(summary.find("light: 1 decisions"), std::string::npos) << summary;
  EXPECT_NE(summary.find("│   loss 7.00 pp in all"), std::string::npos) << summary;
  EXPECT_NE(summary.find("light's chance before each throw"), std::string::npos) << summary;
}

// A best move loses nothing, and says so as ur review does: "0.00", not ".00".
TEST(Replay, ABestMoveLosesZeroPoints) {
  ReplayGame game = short_game(false);
  HandValues values;
  values.set("D:0/2,3/0:1/1/0", 0.40);  // entering on 3 leaves dark 40%: better than 2 to 5
  game.review = analysis::review(game.record, game.replay, values);
  const auto lines = replay_review_lines(game, 3);
  ASSERT_EQ(lines.size(), 2u) << "no better move to point out";
  EXPECT_EQ(lines[1], "played A@A2 (start → 3) 60.0% · loss 0.00 pp · best");
}

// Chances of 50% everywhere, from an estimate rather than a solved table.
class EvenEstimate final : public analysis::PositionValues {
 public:
  double before_throw(const Rules&, const Position&) override { return 0.5; }
  bool exact() const override { return false; }
  std::string source() const override {
    return "estimated: no solved table (expectimax search, 2 throws ahead)";
  }
};

// Blitz's 4 pieces are too many to solve on the spot: the start names the command that builds
// the table, once, not on every ply.
TEST(Replay, AnEstimatedReviewNamesTheCommandThatBuildsTheTableAtTheStart) {
  records::GameRecord record;
  record.rules = named_rules("blitz", 4);
  record.plies = {{Side::Light, 2, Move{0, 2, false, false}}};
  ReplayGame game = replayed(record);
  EvenEstimate values;
  game.review = analysis::review(game.record, game.replay, values);
  const auto start = replay_review_lines(game, 0);
  ASSERT_EQ(start.size(), 3u);
  EXPECT_EQ(start[0], values.source());
  EXPECT_EQ(start[1], "build the table for exact chances (about 3 seconds on two cores):");
  EXPECT_EQ(start[2], "`ur solve --rules blitz --pieces 4`");
  const std::string screen = compose_replay(game, ReplayState{}, 80, 24).text(false);
  EXPECT_NE(screen.find("  `ur solve --rules blitz --pieces 4`"), std::string::npos) << screen;
  for (const std::string& line : replay_review_lines(game, 1)) {
    EXPECT_EQ(line.find("ur solve"), std::string::npos) << "not on every ply: " << line;
  }
  // A table solved on the spot (Finkel's 2 pieces) is never left to build: no command.
  ReplayGame small = short_game(false);
  small.review = analysis::review(small.record, small.replay, values);
  EXPECT_EQ(replay_review_lines(small, 0), std::vector<std::string>{values.source()});
}

// ur play's r after a resignation: the header's long result ("0-1 (dark won, light resigned)")
// reached past the summary's box on a wide screen, and a two-throw graph read "throw 12".
// The summary is a clean box at 80 and 100 columns however short the game.
TEST(Replay, TheReviewSummaryStaysInsideItsBoxAfterAResignation) {
  const std::vector<records::Ply> plies = {{Side::Light, 2, Move{0, 2, false, false}},
                                           {Side::Dark, 1, Move{0, 1, false, false}}};
  for (std::size_t throws = 0; throws <= plies.size(); ++throws) {
    records::GameRecord record;
    record.rules = finkel_rules(7);
    record.tags = {
        {"Light", "You"}, {"Dark", "Computer"}, {"DarkLevel", "easy"}, {"Result", "0-1"}};
    record.plies.assign(plies.begin(), plies.begin() + static_cast<std::ptrdiff_t>(throws));
    record.resigned = Side::Light;
    ReplayGame game = replayed(record);
    EvenEstimate values;
    game.review = analysis::review(game.record, game.replay, values);
    ReplayState state;
    state.after_game = true;
    handle_replay_key(game, state, char_key('r'));
    ASSERT_EQ(state.overlay, ReplayOverlay::Summary);
    for (const auto& [width, height] : {std::pair{80, 24}, std::pair{100, 30}}) {
      const auto lines = compose_replay(game, state, width, height).lines(false);
      const int ox = (width - kMinWidth) / 2, oy = (height - kMinHeight) / 2;
      const std::string context = std::to_string(throws) + " throws, " + std::to_string(width) +
                                  " columns:\n" +
                                  compose_replay(game, state, width, height).text(false);
      for (int row = 0; row < height; ++row) {
        const std::string& line = lines[static_cast<std::size_t>(row)];
        if (row < oy || row >= oy + kMinHeight) {
          EXPECT_EQ(line, "") << context;
          continue;
        }
        // The box's right border is the row's last cell: nothing past it.
        EXPECT_EQ(text_width(line), ox + kMinWidth) << context;
        const std::string_view edge = row == oy ? "┐" : row == oy + kMinHeight - 1 ? "┘" : "│";
        EXPECT_TRUE(line.ends_with(edge)) << context;
      }
      const std::string screen = compose_replay(game, state, width, height).text(false);
      EXPECT_EQ(screen.find("throw 12"), std::string::npos) << context;
      EXPECT_EQ(screen.find("throw 11"), std::string::npos) << context;
    }
  }
}

TEST(Replay, WithoutATableTheMissingTableIsSaidAndNoFigures) {
  const ReplayGame game = short_game(false);
  ReplayState state;
  go_to_ply(game, state, 3);
  const std::string screen = compose_replay(game, state, 80, 24).text(false);
  EXPECT_NE(screen.find("no solved table for these rules:\n  build it with `ur solve --pieces 2`"),
            std::string::npos)
      << screen;
  EXPECT_EQ(screen.find("chance before"), std::string::npos) << screen;
  EXPECT_EQ(screen.find("»("), std::string::npos) << screen;
}

// Why "play from here" was refused, with the command that fixes it, is wrapped whole over
// the rows above the keys, within the screen's width.
TEST(Replay, ALongMessageIsWrappedWithinTheScreen) {
  const ReplayGame game = short_game(false);
  ReplayState state;
  state.message =
      "Cannot play from here: no solved table for Aseb, 5 pieces (exact bear-off) at "
      "/home/someone/.local/share/ur/ur-aseb-5p-exact.table; build it with "
      "`ur solve --rules aseb`";
  for (const int width : {80, 100}) {
    const auto lines = compose_replay(game, state, width, 24).lines(false);
    ASSERT_EQ(lines.size(), 24u);
    const std::string indent(static_cast<std::size_t>((width - kMinWidth) / 2 + 4), ' ');
    std::string shown;  // the message's rows, joined again
    for (int row = 0; row < 23; ++row) {
      const std::string& line = lines[static_cast<std::size_t>(row)];
      EXPECT_LE(text_width(line), width) << line;
      if (const std::size_t mark = line.find("✗ "); mark != std::string::npos) {
        shown = line.substr(mark);
      } else if (!shown.empty()) {
        EXPECT_TRUE(line.starts_with(indent)) << "under the message's text\n" << line;
        shown += ' ';
        shown += line.substr(indent.size());
      }
    }
    EXPECT_EQ(shown, "✗ " + state.message) << width;
    EXPECT_NE(lines[23].find("←→ ply"), std::string::npos) << "the keys stay: " << lines[23];
  }
}

TEST(Replay, ASmallTerminalHidesTheBoard) {
  const ReplayGame game = short_game(false);
  const std::string screen = compose_replay(game, ReplayState{}, 60, 20).text(false);
  EXPECT_NE(screen.find("ur replay needs a terminal of at least 80×24."), std::string::npos);
  EXPECT_EQ(screen.find("╭start╮"), std::string::npos);
}

}  // namespace
}  // namespace ur::play
