// The game keys and the dispatch of controller.cpp: throw, choose, move, pass, take back,
// save, resign, the log and rules screens, quitting, and the computer's paced steps.
#include "play/controller.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/rule_sets.h"
#include "play/play_test_support.h"
#include "records/rgn.h"

namespace ur::play {
namespace {

using testing::make_game;
using testing::press;
using testing::snapshot;

// Estimated values that know nothing: every position is even.
class EvenValues final : public analysis::PositionValues {
 public:
  double before_throw(const Rules&, const Position&) override { return 0.5; }
  bool exact() const override { return false; }
  std::string source() const override { return "even"; }
};

// A whole game of `set` between friends by keys alone (t, Enter on the cursor's piece, p),
// every screen drawn on the way within 80 columns; then its review (r), estimated.
void play_by_keys(std::string_view set) {
  const Rules rules(find_rule_set(set)->spec);
  PlaySession game = make_game(std::string(kFriend), 11, rules);
  UiState ui;
  sync_ui(game, ui);
  int steps = 0;
  for (; steps < 5000 && game.phase() != Phase::Over; ++steps) {
    switch (game.phase()) {
      case Phase::Throw:
        press(game, ui, "t");
        ASSERT_LE(game.roll(), rules.max_roll()) << set;
        break;
      case Phase::Move:
        press(game, ui, "\r");
        break;
      case Phase::Pass:
        press(game, ui, "p");
        break;
      case Phase::Over:
        break;
    }
    ASSERT_FALSE(ui.message_is_error) << set << ": " << ui.message;
    if (steps % 25 == 0) {
      for (const std::string& line : compose_screen(game, ui, kMinWidth, kMinHeight).lines(false))
        ASSERT_LE(text_width(line), kMinWidth) << set << "\n" << line;
    }
  }
  ASSERT_EQ(game.phase(), Phase::Over) << set;
  EXPECT_EQ(game.position().home_of(*game.winner()), rules.pieces) << set;
  EXPECT_EQ(ui.overlay, Overlay::GameOver) << set;
  ui.make_values = [](const Rules&) -> std::unique_ptr<analysis::PositionValues> {
    return std::make_unique<EvenValues>();
  };
  press(game, ui, "r");
  ASSERT_EQ(ui.overlay, Overlay::Review) << set << ": " << ui.message;
  const std::string review = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  // Every named set can be solved; with no table at hand the review is the search's.
  EXPECT_NE(review.find(" Review of the game · estimated: no solved table (any key returns) "),
            std::string::npos)
      << review;
  press(game, ui, "\x1b[C");  // the plies, each with its board
  for (const std::string& line : compose_screen(game, ui, kMinWidth, kMinHeight).lines(false))
    EXPECT_LE(text_width(line), kMinWidth) << set << "\n" << line;
}

TEST(Keys, AMastersGameIsPlayedToTheEndByKeys) {
  play_by_keys("masters");
}

TEST(Keys, AnAsebGameIsPlayedToTheEndByKeys) {
  play_by_keys("aseb");
}

TEST(Keys, BlitzIsPlayedToTheEndByKeys) {
  play_by_keys("blitz");
}

TEST(Keys, HintsForAPathTheSolverCannotSolveSayPerfectPlayIsNotAvailable) {
  RuleSpec murray = find_rule_set("masters")->spec;
  murray.path = PathKind::Murray;
  PlaySession game = make_game(std::string(kFriend), 3, Rules(murray));
  UiState ui;
  ui.make_values = [murray](const Rules&) -> std::unique_ptr<analysis::PositionValues> {
    return values_for(Rules(murray));
  };
  sync_ui(game, ui);
  press(game, ui, "h");
  EXPECT_FALSE(ui.message_is_error);
  EXPECT_EQ(ui.message, "Hints on, estimated: no perfect play for custom rules yet.");
  ASSERT_TRUE(ui.hints);
  EXPECT_FALSE(ui.hints->exact);
  EXPECT_EQ(hint_chances_line(game, *ui.hints, 200)
                .ends_with(" · estimated: no perfect play for custom rules yet"),
            true)
      << hint_chances_line(game, *ui.hints, 200);
}

TEST(Keys, ABlitzCaptureSaysItThrowsAgainWithoutARosette) {
  PlaySession game = make_game(std::string(kFriend), 3, Rules(find_rule_set("blitz")->spec));
  for (const auto& [roll, from] : {std::pair{4, 0}, {1, 4}, {4, 0}}) {
    ASSERT_FALSE(game.force_roll(roll));  // light to 4, then 5; dark enters on 4
    ASSERT_FALSE(game.move(from));
  }
  ASSERT_FALSE(game.force_roll(1));
  const Move* capture = find_move(game.legal(), 4);
  ASSERT_NE(capture, nullptr);
  EXPECT_EQ(game.describe_move(*capture), "4 → 5, captures light's piece, throw again");
}

TEST(Keys, BadKeysGiveAMessageAndChangeNothing) {
  PlaySession game = make_game();
  UiState ui;
  sync_ui(game, ui);
  const std::string before = snapshot(game);
  press(game, ui, "x");
  EXPECT_EQ(ui.message, "'x' does nothing now: press t or space to throw, ? for all keys.");
  EXPECT_TRUE(ui.message_is_error);
  press(game, ui, "5");
  EXPECT_EQ(ui.message, "Throw the dice first (t or space).");
  press(game, ui, "\x01");
  EXPECT_EQ(ui.message, "That key does nothing now: press t or space to throw, ? for all keys.");
  EXPECT_EQ(snapshot(game), before);
}

TEST(Keys, ThrowChooseByArrowsAndTypingThenMove) {
  PlaySession game = make_game();
  UiState ui;
  ASSERT_FALSE(game.force_roll(4));
  ASSERT_FALSE(game.move(0));  // light on 4, throws again
  ASSERT_FALSE(game.force_roll(2));
  sync_ui(game, ui);
  EXPECT_EQ(ui.cursor, 4) << "the cursor starts on the most advanced movable piece";
  press(game, ui, "\x1b[C");
  EXPECT_EQ(ui.cursor, 0) << "→ wraps round to the start tray";
  press(game, ui, "\x1b[D");
  EXPECT_EQ(ui.cursor, 4);
  press(game, ui, "3");
  EXPECT_EQ(ui.message, "You have no piece on square 3.");
  EXPECT_EQ(ui.cursor, 4) << "an illegal pick keeps the previous choice";
  press(game, ui, "s");
  EXPECT_EQ(ui.cursor, 0);
  const std::string before = snapshot(game);
  press(game, ui, "t");
  EXPECT_EQ(ui.message, "You already threw 2: move a piece.");
  press(game, ui, "p");
  EXPECT_EQ(ui.message, "A throw of 2 can move (for example start → 2); pass only when it cannot.");
  EXPECT_EQ(snapshot(game), before);
  press(game, ui, "\r");
  EXPECT_EQ(game.log().back(), "Light entered a piece on 2.");
  EXPECT_EQ(ui.message, "");
}

TEST(Keys, TwoDigitSquaresAndIllegalReasons) {
  PlaySession game = make_game(std::string(kFriend), 7, finkel_rules(2));
  for (int roll : {4, 4}) {  // light: start -> 4 -> 8 (both rosettes)
    ASSERT_FALSE(game.force_roll(roll));
    ASSERT_FALSE(game.move(game.legal()[game.legal().size() - 1].from));
  }
  ASSERT_FALSE(game.force_roll(4));  // light: 8 -> 12 or enter on 4
  UiState ui;
  sync_ui(game, ui);
  press(game, ui, "12");
  EXPECT_EQ(ui.typed, "") << "a refused number leaves the preview";
  EXPECT_EQ(ui.cursor, 8) << "12 is no piece of light's: the choice stays";
  EXPECT_EQ(ui.message, "You have no piece on square 12.");
  press(game, ui, "8");
  EXPECT_EQ(ui.cursor, 8);
  EXPECT_EQ(ui.message, "");
  press(game, ui, "\r");
  EXPECT_EQ(game.position().board_of(Side::Light), square_bit(12));
  ASSERT_FALSE(game.force_roll(1));  // dark enters on 1
  ASSERT_FALSE(game.move(0));
  ASSERT_FALSE(game.force_roll(4));  // light: 12 + 4 overshoots; only entering on 4 is legal
  sync_ui(game, ui);
  press(game, ui, "12");
  EXPECT_EQ(ui.message, "Bearing off from square 12 needs exactly 3, not 4.");
}

// "12" typed to move the piece on 12: its "1" names no piece of light's, yet it is not
// refused: it waits, shown in the preview, for its second digit or Enter. A refusal clears
// the preview.
TEST(Keys, AFirstDigitWaitsForTheSecondAndARefusalClearsThePreview) {
  PlaySession game = make_game(std::string(kFriend), 7, finkel_rules(2));
  for (int roll : {4, 4, 4}) {  // light: start -> 4 -> 8 -> 12
    ASSERT_FALSE(game.force_roll(roll));
    ASSERT_FALSE(game.move(game.legal()[game.legal().size() - 1].from));
    if (game.position().turn == Side::Dark) {
      ASSERT_FALSE(game.force_roll(1));  // dark enters on 1
      ASSERT_FALSE(game.move(0));
    }
  }
  ASSERT_FALSE(game.force_roll(2));  // light: 12 -> 14, or enter on 2
  UiState ui;
  sync_ui(game, ui);
  press(game, ui, "s");
  ASSERT_EQ(ui.cursor, 0);
  const std::string before = snapshot(game);
  press(game, ui, "1");
  EXPECT_EQ(ui.message, "") << "no refusal before the second digit";
  EXPECT_EQ(ui.typed, "1");
  std::string screen = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(screen.find("typed 1…   the next digit, or Enter for square 1"), std::string::npos)
      << screen;
  EXPECT_EQ(screen.find("(Enter to move)"), std::string::npos) << screen;
  EXPECT_FALSE(marks_for(game, ui).selected.has_value()) << "Enter would not move the start's";
  press(game, ui, "2");
  EXPECT_EQ(ui.message, "");
  EXPECT_EQ(ui.cursor, 12);
  screen = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(screen.find("typed 12: » 12 → 14"), std::string::npos) << screen;
  // A number that can grow no more is refused at once, and leaves the preview.
  press(game, ui, "9");
  EXPECT_EQ(ui.message, "You have no piece on square 9.");
  EXPECT_EQ(ui.typed, "");
  EXPECT_EQ(ui.cursor, 12) << "a refusal keeps the previous choice";
  screen = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_EQ(screen.find("typed"), std::string::npos) << screen;
  // So is one whose second digit names no piece.
  press(game, ui, "13");
  EXPECT_EQ(ui.message, "You have no piece on square 13.");
  EXPECT_EQ(ui.typed, "");
  // Enter ends a waiting number, refused as it names no piece; nothing moves.
  press(game, ui, "1");
  EXPECT_EQ(ui.message, "");
  press(game, ui, "\r");
  EXPECT_EQ(ui.message, "You have no piece on square 1.");
  EXPECT_EQ(ui.typed, "");
  EXPECT_EQ(snapshot(game), before);
  // An arrow drops the waiting digit and moves the cursor as ever.
  press(game, ui, "1");
  press(game, ui, "\x1b[C");
  EXPECT_EQ(ui.typed, "");
  EXPECT_EQ(ui.message, "");
  press(game, ui, "\r");
  EXPECT_NE(snapshot(game), before) << "a piece moved";
}

TEST(Keys, PassNeedsConfirmationWithTheReasonShown) {
  PlaySession game = make_game();
  UiState ui;
  ASSERT_FALSE(game.force_roll(0));
  sync_ui(game, ui);
  press(game, ui, "s");
  EXPECT_EQ(ui.message, "No piece can use this throw (why: above): press p or Enter to pass.");
  EXPECT_EQ(game.phase(), Phase::Pass);
  press(game, ui, "p");
  EXPECT_EQ(game.position().turn, Side::Dark);
}

TEST(Keys, ResignAndNewGameAskFirst) {
  PlaySession game = make_game();
  UiState ui;
  press(game, ui, "r");
  EXPECT_EQ(ui.overlay, Overlay::Confirm);
  press(game, ui, "n");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(ui.message, "Not resigned.");
  EXPECT_EQ(game.phase(), Phase::Throw);
  press(game, ui, "ry");
  EXPECT_EQ(game.winner(), Side::Dark);
  EXPECT_EQ(ui.overlay, Overlay::GameOver);
  press(game, ui, "n");
  EXPECT_EQ(game.game_number(), 2);
  EXPECT_EQ(ui.overlay, Overlay::None);
  press(game, ui, "ny");
  EXPECT_EQ(game.game_number(), 3);
}

TEST(Keys, UTakesBackYourLastDecision) {
  PlaySession game = make_game("first", 1);
  UiState ui;
  press(game, ui, "u");
  EXPECT_EQ(ui.message, "You have made no choice in this game that could be taken back.");
  EXPECT_TRUE(ui.message_is_error);
  ASSERT_FALSE(game.force_roll(4));
  ASSERT_FALSE(game.move(0));  // forced: no decision
  ASSERT_FALSE(game.force_roll(2));
  sync_ui(game, ui);
  press(game, ui, "s\r");  // a decision: enter on 2 rather than 4 -> 6
  testing::let_the_computer_play(game);
  sync_ui(game, ui);
  const std::string before_take_back = to_text(game.position());
  press(game, ui, "u");
  EXPECT_EQ(ui.message, "Taken back: your throw of 2 waits for a move again.");
  EXPECT_EQ(game.phase(), Phase::Move);
  EXPECT_EQ(game.position().board_of(Side::Light), square_bit(4));
  EXPECT_EQ(ui.cursor, 4) << "the cursor is back on a movable piece";
  EXPECT_NE(to_text(game.position()), before_take_back);
  EXPECT_EQ(game.log().back(), "You took back your last move.");
}

TEST(Keys, WSavesTheRecordsUnderTheNameTyped) {
  const std::string path = ::testing::TempDir() + "ur-play-save-key.rgn";
  std::remove(path.c_str());
  PlaySession game = make_game("first", 1);
  UiState ui;
  ASSERT_FALSE(game.resign());
  sync_ui(game, ui);
  press(game, ui, "\x1b");  // the game-over box closes
  press(game, ui, "w");
  ASSERT_EQ(ui.overlay, Overlay::Save);
  const std::string prompt = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(prompt.find("Enter saves (empty: ur-game-20251201-100000.rgn)"), std::string::npos)
      << prompt;
  press(game, ui, path + "q\x7f");  // q types in the prompt; Backspace takes it away
  EXPECT_FALSE(ui.quit);
  press(game, ui, "\r");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(ui.message, "Saved 1 game to " + path + ".");
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  const auto read = records::read_rgn(text.str());
  ASSERT_TRUE(std::holds_alternative<std::vector<records::GameRecord>>(read)) << text.str();
  EXPECT_EQ(*std::get<0>(read)[0].tag("Result"), "0-1");
  std::remove(path.c_str());

  press(game, ui, "w/no/such/dir/x.rgn\r");
  EXPECT_EQ(ui.message, "Not saved: the directory '/no/such/dir' does not exist.");
  EXPECT_TRUE(ui.message_is_error);
  press(game, ui, "w\x1b");
  EXPECT_EQ(ui.message, "Not saved.");
}

TEST(Keys, RulesAndLogScreensCloseOnAnyKey) {
  PlaySession game = make_game();
  UiState ui;
  press(game, ui, "?");
  EXPECT_EQ(ui.overlay, Overlay::Rules);
  press(game, ui, "t");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_EQ(game.phase(), Phase::Throw) << "the closing key does nothing else";
  press(game, ui, "l");
  EXPECT_EQ(ui.overlay, Overlay::Log);
  const std::string screen = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(screen.find("Log of this session"), std::string::npos) << screen;
  EXPECT_NE(screen.find("Game 1: light starts."), std::string::npos) << screen;
  EXPECT_NE(screen.find(" Log of this session · position L:7/-/0:7/-/0 "), std::string::npos)
      << "the position text, to copy\n"
      << screen;
  press(game, ui, "x");
  EXPECT_EQ(ui.overlay, Overlay::None);
}

// The log screen's text rows (between its borders), top to bottom.
std::vector<std::string> log_screen_rows(const PlaySession& game, const UiState& ui) {
  const auto lines = compose_screen(game, ui, kMinWidth, kMinHeight).lines(false);
  return std::vector<std::string>(lines.begin() + 1, lines.begin() + 1 + kLogRows);
}

bool shows(const std::vector<std::string>& rows, const std::string& text) {
  return std::any_of(rows.begin(), rows.end(),
                     [&](const std::string& row) { return row.find(text) != std::string::npos; });
}

TEST(Keys, LogShowsTheWholeSessionAndScrolls) {
  PlaySession game = make_game();
  for (int i = 0; i < 59; ++i) game.new_game();  // 60 entries: "Game 1: …" to "Game 60: …"
  UiState ui;
  press(game, ui, "l");
  ASSERT_EQ(ui.overlay, Overlay::Log);
  const int first_of_last_page = 60 - kLogRows + 1;
  const auto first_shown = [&](int game_number) {
    const auto rows = log_screen_rows(game, ui);
    return shows(rows, "Game " + std::to_string(game_number) + ": ") &&
           !shows(rows, "Game " + std::to_string(game_number - 1) + ": ");
  };
  EXPECT_TRUE(first_shown(first_of_last_page)) << "opens on the latest entries";
  EXPECT_TRUE(shows(log_screen_rows(game, ui), "Game 60: "));
  press(game, ui, "\x1b[A");
  EXPECT_TRUE(first_shown(first_of_last_page - 1)) << "↑ scrolls one line";
  press(game, ui, "\x1b[B\x1b[B");
  EXPECT_TRUE(first_shown(first_of_last_page)) << "↓ stops at the end";
  press(game, ui, "\x1b[5~");
  EXPECT_TRUE(first_shown(first_of_last_page - kLogRows + 1)) << "PgUp keeps one line";
  press(game, ui, "\x1b[H");
  EXPECT_TRUE(first_shown(1)) << "Home: the first game";
  press(game, ui, "\x1b[A");
  EXPECT_TRUE(first_shown(1)) << "↑ stops at the top";
  press(game, ui, "\x1b[6~");
  EXPECT_TRUE(first_shown(kLogRows)) << "PgDn keeps one line";
  press(game, ui, "\x1b[F");
  EXPECT_TRUE(first_shown(first_of_last_page)) << "End: the latest";
  EXPECT_EQ(ui.overlay, Overlay::Log) << "scrolling keys keep the log open";
  const std::string screen = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(screen.find("↑↓ PgUp PgDn Home End"), std::string::npos) << screen;
  press(game, ui, "x");
  EXPECT_EQ(ui.overlay, Overlay::None);
}

TEST(Keys, ShortLogStaysAtTheTop) {
  PlaySession game = make_game();
  UiState ui;
  press(game, ui, "l\x1b[A\x1b[5~");
  const auto rows = log_screen_rows(game, ui);
  EXPECT_NE(rows[0].find("Game 1: light starts."), std::string::npos) << rows[0];
  const std::string screen = compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
  EXPECT_NE(screen.find(" all 1 row · "), std::string::npos) << screen;
}

TEST(Keys, QuitWorksFromEveryScreen) {
  for (const std::string opening : {"", "m", "?", "r", "l"}) {
    PlaySession game = make_game();
    UiState ui;
    press(game, ui, opening + "q");
    EXPECT_TRUE(ui.quit) << opening;
  }
}

// Below kMinWidth x kMinHeight the screen only asks for room: keys must not act unseen.
void hide_board(UiState& ui, bool hidden) {
  ui.screen_width = hidden ? 60 : kMinWidth;
  ui.screen_height = hidden ? 20 : kMinHeight;
}

TEST(Keys, NothingButQuitActsWhileTheBoardIsHidden) {
  PlaySession game = make_game();
  UiState ui;
  sync_ui(game, ui);
  hide_board(ui, true);
  const std::string before = snapshot(game);
  press(game, ui, "t \r5sp?lmnrv\x1b[C\x1b");
  EXPECT_EQ(snapshot(game), before);
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_TRUE(ui.route_numbers);
  EXPECT_EQ(ui.message, "");

  hide_board(ui, false);
  press(game, ui, "t");
  ASSERT_EQ(game.phase(), Phase::Move);
  const std::string thrown = snapshot(game);
  hide_board(ui, true);
  press(game, ui, "\r\x1b[Cp");
  EXPECT_EQ(snapshot(game), thrown) << "Enter must not move a piece unseen";
  hide_board(ui, false);
  press(game, ui, "\r");
  EXPECT_EQ(game.position().turn, Side::Dark) << "once the board shows, Enter moves";

  hide_board(ui, true);
  press(game, ui, "q");
  EXPECT_TRUE(ui.quit);
}

TEST(Keys, OverlaysIgnoreKeysWhileTheBoardIsHidden) {
  PlaySession game = make_game();
  UiState ui;
  press(game, ui, "m");
  hide_board(ui, true);
  press(game, ui, "\x1b[B\x1b[C\r\x1b");
  EXPECT_EQ(ui.overlay, Overlay::Menu);
  EXPECT_EQ(ui.menu_row, 0);
  EXPECT_EQ(ui.draft, game.settings());
  press(game, ui, "Q");
  EXPECT_TRUE(ui.quit);
}

TEST(Steps, TheComputerWaitsWhileTheBoardIsHidden) {
  PlaySession game = make_game("first", 3);
  UiState ui;
  ASSERT_FALSE(game.force_roll(0));
  ASSERT_FALSE(game.pass());
  hide_board(ui, true);
  EXPECT_FALSE(step_due(game, ui));
  hide_board(ui, false);
  EXPECT_TRUE(step_due(game, ui));
}

// Auto-play and auto-pass act inside the person's throw, in the session: no step waits.
TEST(Steps, AutomaticActionsNeedNoStep) {
  PlaySession game = make_game();
  UiState ui;
  ASSERT_FALSE(game.set_automation(true, true));
  ASSERT_FALSE(game.force_roll(0));
  EXPECT_EQ(game.position().turn, Side::Dark) << "passed at once";
  EXPECT_FALSE(step_due(game, ui));
}

TEST(Steps, ComputerAndAutomaticActionsAreDueOnlyWithoutOverlay) {
  PlaySession game = make_game("first", 3);
  UiState ui;
  ASSERT_FALSE(game.force_roll(0));
  ASSERT_FALSE(game.pass());
  EXPECT_TRUE(step_due(game, ui));
  ui.overlay = Overlay::Rules;
  EXPECT_FALSE(step_due(game, ui));
  ui.overlay = Overlay::None;
  int steps = 0;
  while (step_due(game, ui) && steps < 50) {
    take_step(game, ui);
    ++steps;
  }
  EXPECT_EQ(game.position().turn, Side::Light);
  EXPECT_EQ(game.phase(), Phase::Throw);
}

RC_GTEST_PROP(Keys, AnyBytesKeepTheGameValid, (std::string bytes)) {
  PlaySession game = make_game("first", 11);
  UiState ui;
  std::string pending = bytes;
  for (const Key& each : decode_keys(pending, true)) {
    // w saves files where the test runs: it has tests of its own (WSavesTheRecords...).
    if (each.code == KeyCode::Char && each.character == 'w') continue;
    handle_key(game, ui, each);
    if (ui.quit) break;
    while (step_due(game, ui)) take_step(game, ui);
  }
  RC_ASSERT(!validate(game.rules(), game.position()).has_value());
  RC_ASSERT(pending.empty());
}

}  // namespace
}  // namespace ur::play
