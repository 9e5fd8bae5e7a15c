// Hints (h) and the review after the game (r): the figures shown are the PositionValues'
// own, they agree with the review of the same throw, the key toggles them and tags the
// record, and r opens ur replay's view on the game just finished, Esc and q coming back.
#include "play/hints.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include <gtest/gtest.h>

#include "analysis/review_text.h"
#include "analysis/search_values.h"
#include "play/play_test_support.h"
#include "records/rgn.h"

namespace ur::play {
namespace {

using analysis::percent_text;
using testing::make_game;
using testing::play_to_the_end;
using testing::press;

constexpr int kSearchDepth = 1;  // a shallow search keeps the tests quick

std::unique_ptr<analysis::PositionValues> search_values(const Rules&) {
  return std::make_unique<analysis::SearchValues>(kSearchDepth);
}

UiState ui_with_search() {
  UiState ui;
  ui.make_values = &search_values;
  return ui;
}

std::string screen_text(const PlaySession& game, const UiState& ui, int width = kMinWidth,
                        int height = kMinHeight) {
  return compose_screen(game, ui, width, height).text(false);
}

// The mover's chance after `move`, straight from the values: V after it when it earns
// another throw, 1 - V when the turn passes, 1 when it wins (docs/review.md).
double chance_after(analysis::PositionValues& values, const Rules& rules, const Position& position,
                    const Move& move) {
  const Position after = apply_move(rules, position, move);
  if (is_game_over(rules, after)) return 1.0;
  const double next = values.before_throw(rules, after);
  return after.turn == position.turn ? next : 1.0 - next;
}

TEST(Hints, OffByDefaultAndHTogglesThem) {
  PlaySession game = make_game(std::string(kFriend), 7, finkel_rules(3));
  UiState ui = ui_with_search();
  sync_ui(game, ui);
  EXPECT_FALSE(game.hints());
  EXPECT_FALSE(ui.hints);
  EXPECT_EQ(screen_text(game, ui).find("Chances:"), std::string::npos);
  EXPECT_NE(screen_text(game, ui).find("h hints"), std::string::npos) << "the key row names h";
  press(game, ui, "h");
  EXPECT_TRUE(game.hints());
  EXPECT_EQ(ui.message, "Hints on: the chance to win of both sides and of every move.");
  ASSERT_TRUE(ui.hints);
  press(game, ui, "h");
  EXPECT_FALSE(game.hints());
  EXPECT_EQ(ui.message, "Hints off.");
  EXPECT_FALSE(ui.hints);
  EXPECT_EQ(screen_text(game, ui).find("Chances:"), std::string::npos);
}

// A 3-piece game: the figures on the screen are the values' own, to one decimal.
TEST(Hints, ShowTheValuesOfThePositionAndOfEveryMove) {
  PlaySession game = make_game(std::string(kFriend), 7, finkel_rules(3));
  const Rules rules = game.rules();
  ASSERT_FALSE(game.force_roll(4));
  ASSERT_FALSE(game.move(0));  // light on 4, a rosette: throws again
  ASSERT_FALSE(game.force_roll(2));
  ASSERT_EQ(game.legal().size(), 2);  // start → 2 and 4 → 6, in route order
  UiState ui = ui_with_search();
  press(game, ui, "h");
  ASSERT_TRUE(ui.hints);

  analysis::SearchValues values(kSearchDepth);
  const double light = values.before_throw(rules, game.position());
  EXPECT_DOUBLE_EQ(ui.hints->mover, light);
  ASSERT_EQ(ui.hints->moves.size(), 2u);
  for (const MoveHint& hint : ui.hints->moves) {
    EXPECT_DOUBLE_EQ(hint.win, chance_after(values, rules, game.position(), hint.move));
  }
  EXPECT_FALSE(ui.hints->exact);

  for (const auto& [width, height] : {std::pair{kMinWidth, kMinHeight}, std::pair{100, 30}}) {
    const std::string screen = screen_text(game, ui, width, height);
    EXPECT_NE(screen.find("Chances: Light " + percent_text(light) + " · Dark " +
                          percent_text(1.0 - light) + " · estimated: no solved table"),
              std::string::npos)
        << screen;
    const std::string moves =
        "Moves: start → 2 " +
        percent_text(chance_after(values, rules, game.position(), Move{0, 2, false, false})) +
        " · 4 → 6 " +
        percent_text(chance_after(values, rules, game.position(), Move{4, 6, false, false})) +
        " · estimated: no solved table";
    EXPECT_NE(screen.find(moves), std::string::npos) << screen;
    EXPECT_NE(screen.find("» 4 → 6"), std::string::npos) << "the preview stays\n" << screen;
  }
}

// A set the solver cannot solve has the longest note: the chances line still fits the
// screen, with the note shortened rather than cut at the edge.
TEST(Hints, TheChancesLineFitsTheScreenForAPathTheSolverCannotSolve) {
  RuleSpec murray;
  murray.path = PathKind::Murray;
  murray.pieces = 3;
  PlaySession game = make_game(std::string(kFriend), 4, Rules(murray));
  UiState ui = ui_with_search();
  press(game, ui, "ht");
  ASSERT_TRUE(ui.hints);
  ASSERT_FALSE(ui.hints->exact);
  for (const auto& [width, height] : {std::pair{kMinWidth, kMinHeight}, std::pair{100, 35}}) {
    const std::string screen = screen_text(game, ui, width, height);
    const std::size_t at = screen.find("Chances: Light ");
    ASSERT_NE(at, std::string::npos) << screen;
    const std::string line = screen.substr(at, screen.find('\n', at) - at);
    EXPECT_LE(text_width(line), kMinWidth - 4) << line;
    EXPECT_TRUE(line.ends_with(" · estimated: no perfect play yet")) << line;
  }
}

// Every hint a game showed is the review's figure for that throw: one analysis module.
TEST(Hints, AgreeWithTheReviewOfTheSameThrows) {
  PlaySession game = make_game(std::string(kFriend), 11, finkel_rules(3));
  UiState ui = ui_with_search();
  press(game, ui, "h");
  std::vector<Hints> shown;  // at every decision with a move
  for (int step = 0; step < 5000 && game.phase() != Phase::Over; ++step) {
    if (game.phase() == Phase::Throw) {
      ASSERT_FALSE(game.throw_dice());
    } else if (game.phase() == Phase::Pass) {
      ASSERT_FALSE(game.pass());
    } else {
      sync_ui(game, ui);
      ASSERT_TRUE(ui.hints);
      shown.push_back(*ui.hints);
      ASSERT_FALSE(game.move(game.legal()[0].from));
    }
  }
  ASSERT_GT(shown.size(), 10u);
  const records::GameRecord record = game.records().back();
  analysis::SearchValues values(kSearchDepth);
  const analysis::Review review =
      analysis::review(record, std::get<records::Replay>(records::replay(record)), values);
  std::size_t matched = 0;
  for (const analysis::ThrowReview& entry : review.throws) {
    if (!entry.move) continue;
    const Hints& hints = shown.at(matched++);
    ASSERT_EQ(hints.position, entry.position);
    EXPECT_DOUBLE_EQ(hints.mover, entry.win_before);
    ASSERT_EQ(hints.moves.size(), entry.moves.size());
    for (const analysis::MoveValue& option : entry.moves) {
      const auto same = std::find_if(hints.moves.begin(), hints.moves.end(),
                                     [&](const MoveHint& h) { return h.move == option.move; });
      ASSERT_NE(same, hints.moves.end());
      EXPECT_DOUBLE_EQ(same->win, option.win);
    }
  }
  EXPECT_EQ(matched, shown.size());
}

TEST(Hints, OnlyOnThePersonsTurnAgainstTheComputer) {
  PlaySession game = make_game("random", 3, finkel_rules(3));
  UiState ui = ui_with_search();
  press(game, ui, "h");
  ASSERT_TRUE(ui.hints) << "light, the person, is to throw";
  EXPECT_NE(screen_text(game, ui).find("Chances: You "), std::string::npos)
      << screen_text(game, ui);
  for (int step = 0; step < 200 && !game.computer_to_act(); ++step) {
    if (game.phase() == Phase::Throw)
      press(game, ui, "t");
    else if (game.phase() == Phase::Pass)
      press(game, ui, "p");
    else
      press(game, ui, "\r");
  }
  ASSERT_TRUE(game.computer_to_act());
  sync_ui(game, ui);
  EXPECT_FALSE(ui.hints);
  EXPECT_EQ(screen_text(game, ui).find("Chances:"), std::string::npos);
}

TEST(Hints, GamesPlayedWithHintsOnCarryTheTag) {
  PlaySession game = make_game(std::string(kFriend), 7, finkel_rules(3));
  UiState ui = ui_with_search();
  press(game, ui, "h");
  press(game, ui, "h");  // off again: the game still had them
  play_to_the_end(game);
  game.set_hints(true);  // after the end: not game 1's business any more, nor game 2's
  game.set_hints(false);
  // One ply, then the mover resigns (RGN keeps a game with at least one ply).
  const auto one_ply_then_resign = [&game] {
    ASSERT_FALSE(game.throw_dice());
    ASSERT_FALSE(game.phase() == Phase::Move ? game.move(game.legal()[0].from) : game.pass());
    ASSERT_FALSE(game.resign());
  };
  game.new_game();  // game 2 without hints
  one_ply_then_resign();
  game.set_hints(true);
  game.new_game();  // game 3: on from its start
  one_ply_then_resign();
  const auto records = game.records();
  ASSERT_EQ(records.size(), 3u);
  ASSERT_NE(records[0].tag("Hints"), nullptr);
  EXPECT_EQ(*records[0].tag("Hints"), "both");  // friends: both seats
  EXPECT_EQ(records[1].tag("Hints"), nullptr);
  ASSERT_NE(records[2].tag("Hints"), nullptr);
  // It survives RGN.
  const std::string text = records::write_rgn(records);
  EXPECT_NE(text.find("[Hints both]"), std::string::npos) << text;
  auto parsed = records::read_rgn(text);
  ASSERT_TRUE(std::holds_alternative<std::vector<records::GameRecord>>(parsed));
  const auto& read = std::get<std::vector<records::GameRecord>>(parsed);
  ASSERT_EQ(read.size(), 3u) << text;
  ASSERT_NE(read[0].tag("Hints"), nullptr);
  EXPECT_EQ(*read[0].tag("Hints"), "both");
}

// With the table for 3 pieces (solved on the spot into a scratch XDG_DATA_HOME) the values
// are exact and say nothing of estimates.
TEST(Hints, ExactWithTheSolvedTable) {
  const auto home =
      std::filesystem::temp_directory_path() / ("ur-play-hints-" + std::to_string(::getpid()));
  std::filesystem::create_directories(home);
  const char* old = std::getenv("XDG_DATA_HOME");
  const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
  setenv("XDG_DATA_HOME", home.c_str(), 1);
  PlaySession game = make_game(std::string(kFriend), 7, finkel_rules(3));
  UiState ui;  // values_for: the table
  press(game, ui, "h");
  ASSERT_TRUE(ui.hints);
  EXPECT_TRUE(ui.hints->exact);
  const std::string screen = screen_text(game, ui);
  EXPECT_NE(screen.find("Chances: Light "), std::string::npos) << screen;
  EXPECT_EQ(screen.find("estimated"), std::string::npos) << screen;
  const auto values = values_for(game.rules());
  EXPECT_TRUE(values->exact());
  EXPECT_DOUBLE_EQ(ui.hints->mover, values->before_throw(game.rules(), game.position()));
  if (saved) {
    setenv("XDG_DATA_HOME", saved->c_str(), 1);
  } else {
    unsetenv("XDG_DATA_HOME");
  }
  std::filesystem::remove_all(home);
}

TEST(GameReview, RAfterTheGameOpensTheReplayViewAndEscOrQComesBack) {
  PlaySession game = make_game(std::string(kFriend), 7, finkel_rules(3));
  UiState ui = ui_with_search();
  play_to_the_end(game);
  sync_ui(game, ui);
  ASSERT_EQ(ui.overlay, Overlay::GameOver);
  EXPECT_NE(screen_text(game, ui).find("r review"), std::string::npos) << screen_text(game, ui);
  press(game, ui, "r");
  ASSERT_EQ(ui.overlay, Overlay::Review);
  ASSERT_TRUE(ui.review);
  const ReplayGame& reviewed = ui.review->game;
  ASSERT_TRUE(reviewed.review);
  EXPECT_FALSE(reviewed.review->exact);
  EXPECT_EQ(reviewed.plies(), static_cast<int>(game.records().back().plies.size()));
  // It opens on the summaries and the graph, estimated without a table.
  std::string screen = screen_text(game, ui);
  EXPECT_NE(screen.find("Review of the game · estimated: no solved table"), std::string::npos)
      << screen;
  EXPECT_NE(screen.find("light's chance before each throw"), std::string::npos) << screen;
  EXPECT_NE(screen.find(" decisions ("), std::string::npos) << screen;
  // Any key shows the plies; → steps; the review lines say estimated.
  press(game, ui, "\x1b[C");
  press(game, ui, "\x1b[C");
  EXPECT_EQ(ui.review->state.ply, 1);
  screen = screen_text(game, ui);
  EXPECT_NE(screen.find("ply 1 of "), std::string::npos) << screen;
  EXPECT_NE(screen.find("estimated: no solved table"), std::string::npos) << screen;
  EXPECT_NE(screen.find("Esc/q back"), std::string::npos) << screen;
  press(game, ui, "\x1b[F");  // End
  EXPECT_EQ(ui.review->state.ply, reviewed.plies());
  press(game, ui, "p");
  EXPECT_EQ(ui.review->state.message,
            "Playing on from a ply is ur replay's: n starts a new game here.");
  press(game, ui, "\x1b");
  EXPECT_EQ(ui.overlay, Overlay::GameOver);
  EXPECT_FALSE(ui.review);
  // q comes back too, and quits nothing.
  press(game, ui, "r");
  ASSERT_EQ(ui.overlay, Overlay::Review);
  press(game, ui, "q");
  EXPECT_EQ(ui.overlay, Overlay::GameOver);
  EXPECT_FALSE(ui.quit);
  // From the final board (Esc) r opens it as well; then n starts the next game.
  press(game, ui, "\x1b");
  ASSERT_EQ(ui.overlay, Overlay::None);
  press(game, ui, "r");
  EXPECT_EQ(ui.overlay, Overlay::Review);
  press(game, ui, "\x1b");
  press(game, ui, "n");
  EXPECT_EQ(game.game_number(), 2);
  EXPECT_NE(game.phase(), Phase::Over);
}

TEST(GameReview, RDuringAGameStillAsksToResign) {
  PlaySession game = make_game(std::string(kFriend), 7, finkel_rules(3));
  UiState ui = ui_with_search();
  sync_ui(game, ui);
  press(game, ui, "r");
  EXPECT_EQ(ui.overlay, Overlay::Confirm);
  EXPECT_EQ(ui.pending, Pending::Resign);
}

// ur replay and ur play's r share attach_review: the values maker decides.
TEST(GameReview, AttachReviewUsesTheValuesMaker) {
  PlaySession game = make_game(std::string(kFriend), 7, finkel_rules(3));
  play_to_the_end(game);
  std::string problem;
  auto reviewed = reviewed_game(game.records().back(), &problem, &search_values);
  ASSERT_TRUE(reviewed) << problem;
  ASSERT_TRUE(reviewed->review);
  EXPECT_EQ(reviewed->review->source, analysis::SearchValues(kSearchDepth).source());
  EXPECT_TRUE(reviewed->no_review.empty());
}

}  // namespace
}  // namespace ur::play
