// The perfect opponent's missing table in the terminal game: the offer, declining, building
// with progress, cancelling. Tables go to a temporary XDG_DATA_HOME, so no real one is found;
// only 1-3 pieces are ever solved here.
#include "play/table_build.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "analysis/review.h"
#include "core/rule_sets.h"
#include "play/controller.h"
#include "play/play_test_support.h"
#include "tables/perfect_agent.h"
#include "tables/solve_progress.h"
#include "tables/table_store.h"

namespace ur::play {
namespace {

using testing::snapshot;

// Points XDG_DATA_HOME at a fresh directory for the test's lifetime.
class PlayTableBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* old = std::getenv("XDG_DATA_HOME");
    if (old) saved_ = old;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    home_ = std::filesystem::temp_directory_path() /
            ("ur-play-table-" + std::to_string(::getpid()) + "-" + info->name());
    std::filesystem::remove_all(home_);
    std::filesystem::create_directories(home_);
    setenv("XDG_DATA_HOME", home_.c_str(), 1);
  }
  void TearDown() override {
    if (saved_) {
      setenv("XDG_DATA_HOME", saved_->c_str(), 1);
    } else {
      unsetenv("XDG_DATA_HOME");
    }
    std::filesystem::remove_all(home_);
  }
  // Every file under the table home, as paths relative to it.
  std::vector<std::string> files() const {
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(home_)) {
      if (entry.is_regular_file()) found.push_back(entry.path().lexically_relative(home_));
    }
    return found;
  }

  std::filesystem::path home_;
  std::optional<std::string> saved_;
};

// make_agent, with "perfect" built directly (its registrar lives in the `ur` binary).
PlaySession make_game_with_perfect() {
  PlaySession game([](std::string_view spec,
                      std::uint64_t seed) -> std::variant<std::unique_ptr<Agent>, AgentSpecError> {
    if (spec == kPerfect) return tables::make_perfect_agent(nullptr, "perfect");
    return make_agent(spec, seed);
  });
  Settings settings;
  settings.opponent = "medium";
  settings.seed = 3;
  EXPECT_FALSE(game.configure(settings));
  return game;
}

void press(PlaySession& game, UiState& ui, const std::string& keys) {
  std::string bytes = keys;
  for (const Key& each : decode_keys(bytes, true)) handle_key(game, ui, each);
}

// Chooses the perfect opponent with `pieces` in the menu and starts the game (yes, abandon
// the one under way).
void choose_perfect(PlaySession& game, UiState& ui, int pieces) {
  open_menu(game, ui);
  ui.draft.opponent = std::string(kPerfect);
  ui.draft.rules.pieces = pieces;
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\ry");
}

// Runs the build the way the event loop does until the Building screen closes.
void finish_build(PlaySession& game, UiState& ui) {
  std::unique_ptr<BuildJob> job;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (ui.overlay == Overlay::Building && std::chrono::steady_clock::now() < deadline) {
    advance_build(game, ui, job);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_NE(ui.overlay, Overlay::Building) << "the build did not end";
}

std::string screen_text(const PlaySession& game, const UiState& ui) {
  return compose_screen(game, ui, kMinWidth, kMinHeight).text(false);
}

TEST_F(PlayTableBuild, OfferForFivePiecesSaysWhatItCosts) {
  const TableBuilder builder;
  Settings settings;
  settings.opponent = std::string(kPerfect);
  settings.rules.pieces = 5;
  const auto offer = builder.offer(settings);
  ASSERT_TRUE(offer);
  EXPECT_TRUE(offer->ask);
  EXPECT_EQ(offer->missing, "No solved table for 5 pieces (exact bear-off) yet.");
  EXPECT_NE(offer->cost.find("seconds"), std::string::npos) << offer->cost;
  EXPECT_NE(offer->cost.find("B of memory"), std::string::npos) << offer->cost;
  EXPECT_NE(offer->cost.find(home_.string()), std::string::npos) << offer->cost;
  EXPECT_EQ(offer->command, "ur solve --pieces 5");

  settings.rules.bear_off = BearOff::Any;
  EXPECT_EQ(builder.offer(settings)->command, "ur solve --pieces 5 --bear-off any");
  settings.rules.pieces = 7;
  EXPECT_NE(builder.offer(settings)->cost.find("GB of memory"), std::string::npos);
  settings.opponent = "hard";
  EXPECT_FALSE(builder.offer(settings)) << "only the perfect opponent needs a table";
}

// Blitz's 4 pieces solve in 0.8 of Masters' time (a capture throws again there), but both
// read "a few seconds" under 8 s, Blitz's even twice: "a few seconds (a few seconds on one)".
// The estimates are figures, the two sets' told apart, and never said twice.
TEST(TableBuild, BuildTimesAreFiguresThatNeverRepeatThemselves) {
  EXPECT_EQ(build_time_text(6, 2), "about 3 seconds on the 2 cores here (about 6 on one)");
  EXPECT_EQ(build_time_text(70, 2), "about 35 seconds on the 2 cores here (about a minute on one)");
  EXPECT_EQ(build_time_text(600, 2), "about 5 minutes on the 2 cores here (about 10 on one)");
  EXPECT_EQ(build_time_text(1, 2), "about a second on the 2 cores here");
  EXPECT_EQ(build_time_text(6, 1), "about 6 seconds");
  const auto time = [](const Rules& rules) {
    return build_time_text(tables::estimated_solve_cost(rules).cpu_seconds, 2);
  };
  const std::string blitz = time(named_rules("blitz", 4)),
                    masters = time(named_rules("masters", 4));
  EXPECT_NE(blitz, masters);
  for (const std::string& text : {blitz, masters}) {
    EXPECT_EQ(text.find("a few"), std::string::npos) << text;
  }
  // Every size of every set: the time on one core, when said, is another figure.
  for (const NamedRuleSet& set : named_rule_sets()) {
    for (int pieces = 1; pieces <= 7; ++pieces) {
      const Rules rules = named_rules(set.name, pieces);
      if (solver::unsupported_rules(rules)) continue;
      const std::string text = time(rules);
      EXPECT_EQ(text.find("a few"), std::string::npos) << text;
      const std::size_t aside = text.find(" (");
      if (aside == std::string::npos) continue;
      const std::string head = text.substr(0, text.find(" on the "));
      const std::string one = text.substr(aside + 2, text.size() - aside - 2 - 8);  // " on one)"
      EXPECT_NE(head, one) << text;
      EXPECT_FALSE(head.starts_with(one + " ")) << text;
    }
  }
}

TEST_F(PlayTableBuild, DecliningReturnsToTheSettingsWithNothingChanged) {
  const TableBuilder builder;
  PlaySession game = make_game_with_perfect();
  UiState ui;
  ui.tables = &builder;
  const std::string before = snapshot(game);
  const Settings settings_before = game.settings();

  choose_perfect(game, ui, 5);
  ASSERT_EQ(ui.overlay, Overlay::BuildOffer);
  const std::string offer_screen = screen_text(game, ui);
  EXPECT_NE(offer_screen.find("The perfect opponent needs its table"), std::string::npos)
      << offer_screen;
  EXPECT_NE(offer_screen.find("No solved table for 5 pieces (exact bear-off) yet."),
            std::string::npos)
      << offer_screen;
  EXPECT_NE(offer_screen.find("Build it now?  y / N"), std::string::npos) << offer_screen;
  EXPECT_NE(offer_screen.find("ur solve --pieces 5"), std::string::npos) << offer_screen;

  press(game, ui, "x");
  EXPECT_EQ(ui.overlay, Overlay::BuildOffer) << "a stray key does not answer";
  EXPECT_NE(ui.message.find("y builds the table now"), std::string::npos) << ui.message;

  press(game, ui, "n");
  EXPECT_EQ(ui.overlay, Overlay::Menu);
  EXPECT_TRUE(ui.message_is_error);
  EXPECT_NE(ui.message.find("Not built."), std::string::npos) << ui.message;
  EXPECT_NE(ui.message.find("`ur solve --pieces 5`"), std::string::npos) << ui.message;
  EXPECT_EQ(ui.draft.opponent, kPerfect) << "the menu keeps the choice to change";
  EXPECT_EQ(ui.menu_row, static_cast<int>(MenuRow::Opponent)) << "on what to change";
  EXPECT_FALSE(ui.table);
  EXPECT_EQ(snapshot(game), before);
  EXPECT_EQ(game.settings(), settings_before);
  EXPECT_TRUE(files().empty());

  // Enter answers no as well (the default), and Esc.
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\ry");
  ASSERT_EQ(ui.overlay, Overlay::BuildOffer);
  press(game, ui, "\r");
  EXPECT_EQ(ui.overlay, Overlay::Menu);
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\ry");
  ASSERT_EQ(ui.overlay, Overlay::BuildOffer);
  press(game, ui, "\x1b");
  EXPECT_EQ(ui.overlay, Overlay::Menu);
  EXPECT_EQ(snapshot(game), before);
}

TEST_F(PlayTableBuild, AcceptingBuildsTheTableWithProgressAndStartsTheGame) {
  const TableBuilder builder(1000);  // ask even for 3 pieces (263,712 positions)
  PlaySession game = make_game_with_perfect();
  UiState ui;
  ui.tables = &builder;
  choose_perfect(game, ui, 3);
  ASSERT_EQ(ui.overlay, Overlay::BuildOffer);
  press(game, ui, "y");
  ASSERT_EQ(ui.overlay, Overlay::Building);
  const std::string starting = screen_text(game, ui);
  EXPECT_NE(starting.find("Building the table: 3 pieces (exact bear-off)"), std::string::npos)
      << starting;
  EXPECT_NE(starting.find("Esc, q or Ctrl-C cancels"), std::string::npos) << starting;

  press(game, ui, "t");
  EXPECT_EQ(ui.overlay, Overlay::Building) << "other keys wait";
  EXPECT_NE(ui.message.find("the table is being built"), std::string::npos) << ui.message;

  // The progress as drawn mid-build.
  ui.table->status = BuildStatus{0.42, "layers 3/6 (homes 2,1)  sweep 7", "3.1e-04", "5s", "7s"};
  const std::string progress = screen_text(game, ui);
  EXPECT_NE(progress.find("[" + std::string(23, '#') + "."), std::string::npos) << progress;
  EXPECT_NE(progress.find(" 42%"), std::string::npos) << progress;
  EXPECT_NE(progress.find("layers 3/6 (homes 2,1)  sweep 7   residual 3.1e-04"), std::string::npos)
      << progress;
  EXPECT_NE(progress.find("elapsed 5s · about 7s left"), std::string::npos) << progress;

  finish_build(game, ui);
  EXPECT_EQ(ui.overlay, Overlay::None) << ui.message;
  EXPECT_EQ(ui.message, "The table is built: you play the perfect opponent.");
  EXPECT_EQ(game.settings().opponent, kPerfect);
  EXPECT_EQ(game.rules().pieces, 3);
  EXPECT_EQ(files(), std::vector<std::string>{"ur/ur-3p-exact.table"});

  // The perfect opponent plays its turns from the new table.
  ASSERT_FALSE(game.force_roll(0));
  ASSERT_FALSE(game.pass());
  for (int step = 0; step < 3 && game.computer_to_act(); ++step) {
    EXPECT_FALSE(game.computer_step());
  }
}

TEST_F(PlayTableBuild, CancellingLeavesNoTableFile) {
  const TableBuilder builder(1000);
  PlaySession game = make_game_with_perfect();
  UiState ui;
  ui.tables = &builder;
  const std::string before = snapshot(game);
  choose_perfect(game, ui, 3);
  press(game, ui, "y");
  ASSERT_EQ(ui.overlay, Overlay::Building);
  press(game, ui, "\x1b");
  EXPECT_TRUE(ui.table->cancelling);
  EXPECT_NE(screen_text(game, ui).find("Cancelling at the end of this sweep"), std::string::npos);

  finish_build(game, ui);
  EXPECT_EQ(ui.overlay, Overlay::Menu);
  EXPECT_NE(ui.message.find("Cancelled: no table was written."), std::string::npos) << ui.message;
  EXPECT_EQ(snapshot(game), before);
  EXPECT_EQ(game.settings().opponent, "medium");
  EXPECT_TRUE(files().empty());
}

TEST_F(PlayTableBuild, SmallTablesBuildWithoutAsking) {
  const TableBuilder builder;
  PlaySession game = make_game_with_perfect();
  UiState ui;
  ui.tables = &builder;
  choose_perfect(game, ui, 2);
  ASSERT_EQ(ui.overlay, Overlay::Building) << "two pieces solve in well under a second";
  finish_build(game, ui);
  EXPECT_EQ(ui.overlay, Overlay::None) << ui.message;
  EXPECT_EQ(game.settings().opponent, kPerfect);
  EXPECT_FALSE(builder.offer(game.settings())) << "the table is there now";
}

TEST_F(PlayTableBuild, FirstGameWaitsForItsTableAndTheMenuCannotCloseBeforeIt) {
  const TableBuilder builder;
  PlaySession game(
      [](std::string_view spec, std::uint64_t seed) { return make_agent(spec, seed); });
  UiState ui;
  ui.tables = &builder;
  Settings settings;
  settings.opponent = std::string(kPerfect);
  settings.rules.pieces = 5;
  request_game(game, ui, settings);
  ASSERT_EQ(ui.overlay, Overlay::BuildOffer);
  press(game, ui, "n");
  ASSERT_EQ(ui.overlay, Overlay::Menu);
  EXPECT_EQ(ui.menu_row, static_cast<int>(MenuRow::Opponent));
  press(game, ui, "\x1b");
  EXPECT_EQ(ui.overlay, Overlay::Menu);
  EXPECT_EQ(ui.message, "No game yet: choose the settings and start a game, or press q to quit.");
  EXPECT_EQ(game.game_number(), 0);

  // Another opponent starts the first game.
  press(game, ui, "\x1b[D");
  EXPECT_EQ(ui.draft.opponent, "expert");
  ui.menu_row = static_cast<int>(MenuRow::Start);
  press(game, ui, "\r");
  EXPECT_EQ(ui.overlay, Overlay::None) << ui.message;
  EXPECT_EQ(game.game_number(), 1);
  EXPECT_EQ(game.settings().opponent, "expert");
  EXPECT_EQ(game.rules().pieces, 5);
}

TEST_F(PlayTableBuild, WithoutABuilderTheGameRefusesWithTheSolveCommand) {
  PlaySession game = make_game_with_perfect();
  UiState ui;
  const std::string before = snapshot(game);
  choose_perfect(game, ui, 5);
  EXPECT_EQ(ui.overlay, Overlay::Menu);
  EXPECT_NE(ui.message.find("ur solve --pieces 5"), std::string::npos) << ui.message;
  EXPECT_EQ(snapshot(game), before);
}

// Hints (h) and the review (r) without a table: the same offer, build and cancel, with a
// stand-in build that solves nothing and stand-in values, exact once "built".
class StandInBuilder final : public TableBuilder {
 public:
  StandInBuilder() = default;
  ActionError build(const Rules& /*rules*/, const std::function<void(const BuildStatus&)>& progress,
                    const std::atomic<bool>& cancel) const override {
    ++builds;
    if (progress) progress(BuildStatus{0.5, "layers 1/2 (homes 1,0)  sweep 1", "1e-03", "1s", ""});
    while (hold && !cancel.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (cancel.load()) return "cancelled";
    built = true;
    return std::nullopt;
  }
  mutable std::atomic<int> builds{0};
  mutable std::atomic<bool> built{false};
  std::atomic<bool> hold{false};  // runs until cancelled
};

class StandInValues final : public analysis::PositionValues {
 public:
  explicit StandInValues(bool exact) : exact_(exact) {}
  double before_throw(const Rules&, const Position&) override { return 0.5; }
  bool exact() const override { return exact_; }
  std::string source() const override {
    return exact_ ? "solved table (stand-in)" : std::string(kEstimated);
  }

 private:
  bool exact_;
};

UiState ui_with(const StandInBuilder& builder) {
  UiState ui;
  ui.tables = &builder;
  ui.make_values = [&builder](const Rules&) -> std::unique_ptr<analysis::PositionValues> {
    return std::make_unique<StandInValues>(builder.built.load());
  };
  return ui;
}

TEST_F(PlayTableBuild, HintsWithoutATableOfferItAndNDeclinesToEstimatedHintsOncePerRules) {
  const StandInBuilder builder;
  PlaySession game = testing::make_game(std::string(kFriend), 7, finkel_rules(5));
  UiState ui = ui_with(builder);
  sync_ui(game, ui);
  press(game, ui, "h");
  ASSERT_EQ(ui.overlay, Overlay::BuildOffer);
  EXPECT_FALSE(game.hints()) << "not before the answer";
  const std::string offer = screen_text(game, ui);
  EXPECT_NE(offer.find("The hints need a solved table"), std::string::npos) << offer;
  EXPECT_NE(offer.find("No solved table for 5 pieces (exact bear-off) yet."), std::string::npos)
      << offer;
  EXPECT_NE(offer.find("Building it takes"), std::string::npos) << offer;
  EXPECT_NE(offer.find("Build it now?  y / N"), std::string::npos) << offer;
  EXPECT_NE(offer.find("ur solve --pieces 5"), std::string::npos) << offer;
  press(game, ui, "x");
  EXPECT_EQ(ui.overlay, Overlay::BuildOffer) << "a stray key does not answer";
  EXPECT_NE(ui.message.find("n or Esc goes on with the estimate"), std::string::npos) << ui.message;

  press(game, ui, "n");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_TRUE(game.hints());
  ASSERT_TRUE(ui.hints);
  EXPECT_FALSE(ui.hints->exact);
  EXPECT_NE(ui.message.find("Not built. Hints are estimated"), std::string::npos) << ui.message;
  EXPECT_NE(screen_text(game, ui).find("estimated: no solved table"), std::string::npos);
  EXPECT_EQ(builder.builds.load(), 0);
  EXPECT_TRUE(files().empty());

  // Off and on again: not asked twice for the same rules.
  press(game, ui, "h");
  EXPECT_FALSE(game.hints());
  press(game, ui, "h");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_TRUE(game.hints());
  ASSERT_TRUE(ui.hints);
  EXPECT_FALSE(ui.hints->exact);

  // Other rules ask again; Esc declines as well.
  press(game, ui, "h");
  Settings seven = game.settings();
  seven.rules = finkel_rules(7);
  ASSERT_FALSE(game.configure(seven));
  sync_ui(game, ui);
  press(game, ui, "h");
  ASSERT_EQ(ui.overlay, Overlay::BuildOffer);
  EXPECT_NE(screen_text(game, ui).find("No solved table for 7 pieces"), std::string::npos);
  press(game, ui, "\x1b");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_TRUE(game.hints());
  EXPECT_EQ(builder.builds.load(), 0);
}

TEST_F(PlayTableBuild, HintsYBuildsTheTableWithProgressAndThenTheyAreExact) {
  const StandInBuilder builder;
  PlaySession game = testing::make_game(std::string(kFriend), 7, finkel_rules(5));
  UiState ui = ui_with(builder);
  sync_ui(game, ui);
  press(game, ui, "h");
  ASSERT_EQ(ui.overlay, Overlay::BuildOffer);
  press(game, ui, "y");
  ASSERT_EQ(ui.overlay, Overlay::Building);
  const std::string building = screen_text(game, ui);
  EXPECT_NE(building.find("Building the table: 5 pieces (exact bear-off)"), std::string::npos)
      << building;
  EXPECT_NE(building.find("The hints are exact when it is done."), std::string::npos) << building;
  EXPECT_NE(building.find("Esc, q or Ctrl-C cancels"), std::string::npos) << building;

  finish_build(game, ui);
  EXPECT_EQ(builder.builds.load(), 1) << "through BuildJob";
  EXPECT_EQ(ui.overlay, Overlay::None) << ui.message;
  EXPECT_EQ(ui.message, "The table is built: the hints are exact.");
  EXPECT_TRUE(game.hints());
  ASSERT_TRUE(ui.hints);
  EXPECT_TRUE(ui.hints->exact);
  EXPECT_EQ(screen_text(game, ui).find("estimated"), std::string::npos);
}

TEST_F(PlayTableBuild, HintsBuildCancelledGoesOnWithEstimatedHints) {
  StandInBuilder builder;
  builder.hold = true;
  PlaySession game = testing::make_game(std::string(kFriend), 7, finkel_rules(5));
  UiState ui = ui_with(builder);
  sync_ui(game, ui);
  press(game, ui, "hy");
  ASSERT_EQ(ui.overlay, Overlay::Building);
  std::unique_ptr<BuildJob> job;
  advance_build(game, ui, job);  // started
  press(game, ui, "\x1b");
  EXPECT_TRUE(ui.table->cancelling);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (ui.overlay == Overlay::Building && std::chrono::steady_clock::now() < deadline) {
    advance_build(game, ui, job);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_NE(ui.message.find("Cancelled: no table was written. Hints are estimated"),
            std::string::npos)
      << ui.message;
  EXPECT_TRUE(game.hints());
  ASSERT_TRUE(ui.hints);
  EXPECT_FALSE(ui.hints->exact);
}

TEST_F(PlayTableBuild, ReviewWithoutATableOffersItOnceAndNReviewsOnTheEstimate) {
  const StandInBuilder builder;
  PlaySession game = testing::make_game(std::string(kFriend), 7, finkel_rules(5));
  UiState ui = ui_with(builder);
  testing::play_to_the_end(game);
  sync_ui(game, ui);
  ASSERT_EQ(ui.overlay, Overlay::GameOver);
  press(game, ui, "r");
  ASSERT_EQ(ui.overlay, Overlay::BuildOffer);
  const std::string offer = screen_text(game, ui);
  EXPECT_NE(offer.find("The review needs a solved table"), std::string::npos) << offer;
  EXPECT_NE(offer.find("Build it now?  y / N"), std::string::npos) << offer;

  press(game, ui, "n");
  ASSERT_EQ(ui.overlay, Overlay::Review);
  ASSERT_TRUE(ui.review && ui.review->game.review);
  EXPECT_FALSE(ui.review->game.review->exact);
  EXPECT_NE(screen_text(game, ui).find("estimated: no solved table"), std::string::npos);
  press(game, ui, "\x1b");
  ASSERT_EQ(ui.overlay, Overlay::GameOver);

  // Asked once: r opens the review at once, and h turns the hints on for these rules.
  press(game, ui, "r");
  EXPECT_EQ(ui.overlay, Overlay::Review);
  press(game, ui, "\x1b");
  press(game, ui, "n");
  press(game, ui, "h");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_TRUE(game.hints());
  EXPECT_EQ(builder.builds.load(), 0);
}

TEST_F(PlayTableBuild, ReviewYBuildsTheTableAndThenTheReviewIsExact) {
  const StandInBuilder builder;
  PlaySession game = testing::make_game(std::string(kFriend), 7, finkel_rules(5));
  UiState ui = ui_with(builder);
  testing::play_to_the_end(game);
  sync_ui(game, ui);
  press(game, ui, "\x1b");  // the final board: r there as well
  press(game, ui, "r");
  ASSERT_EQ(ui.overlay, Overlay::BuildOffer);
  press(game, ui, "y");
  ASSERT_EQ(ui.overlay, Overlay::Building);
  EXPECT_NE(screen_text(game, ui).find("The review opens when it is done."), std::string::npos);
  finish_build(game, ui);
  EXPECT_EQ(builder.builds.load(), 1);
  ASSERT_EQ(ui.overlay, Overlay::Review) << ui.message;
  ASSERT_TRUE(ui.review && ui.review->game.review);
  EXPECT_TRUE(ui.review->game.review->exact);
  press(game, ui, "\x1b");
  EXPECT_EQ(ui.overlay, Overlay::GameOver);
}

TEST_F(PlayTableBuild, NoOfferWhereTheValuesNeedNoBuild) {
  const StandInBuilder builder;
  EXPECT_FALSE(builder.values_offer(finkel_rules(4))) << "solved on the spot";
  EXPECT_TRUE(builder.values_offer(finkel_rules(5)));
  // Without a builder (ur replay, scripts) h never asks.
  PlaySession game = testing::make_game(std::string(kFriend), 7, finkel_rules(5));
  UiState ui;
  ui.make_values = [](const Rules&) -> std::unique_ptr<analysis::PositionValues> {
    return std::make_unique<StandInValues>(false);
  };
  sync_ui(game, ui);
  press(game, ui, "h");
  EXPECT_EQ(ui.overlay, Overlay::None);
  EXPECT_TRUE(game.hints());
}

}  // namespace
}  // namespace ur::play
