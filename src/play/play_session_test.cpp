#include "play/play_session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "play/play_test_support.h"
#include "records/rgn.h"

namespace ur::play {
namespace {

using testing::let_the_computer_play;
using testing::make_game;
using testing::snapshot;

TEST(Game, FirstGameLightThrowsFirst) {
  PlaySession game = make_game();
  EXPECT_EQ(game.game_number(), 1);
  EXPECT_EQ(game.phase(), Phase::Throw);
  EXPECT_EQ(game.position(), starting_position(finkel_rules(), Side::Light));
  EXPECT_EQ(game.log().back(), "Game 1: light starts.");
}

TEST(Game, SettingsMapOntoTheSessionsSeats) {
  Settings settings;
  settings.opponent = "hard";
  settings.auto_pass = true;
  const session::Settings against = session_settings(settings);
  EXPECT_TRUE(against.is_person(Side::Light));
  EXPECT_EQ(against.seat(Side::Dark).agent, "hard");
  EXPECT_TRUE(against.take_back);
  EXPECT_TRUE(against.auto_pass);
  settings.opponent = std::string(kFriend);
  const session::Settings friends = session_settings(settings);
  EXPECT_TRUE(friends.between_people());
  EXPECT_FALSE(friends.take_back) << "never between friends";
}

TEST(Game, AlternateOpenerGivesDarkTheSecondGame) {
  PlaySession game = make_game();
  game.new_game();
  EXPECT_EQ(game.game_number(), 2);
  EXPECT_EQ(game.position().turn, Side::Dark);
  EXPECT_EQ(game.log().back(), "Game 2: dark starts.");
  game.new_game();
  EXPECT_EQ(game.position().turn, Side::Light);
}

TEST(Game, HigherThrowOpenerLogsTheOpeningThrows) {
  PlaySession game(&make_agent, &testing::fixed_time);
  Settings settings;
  settings.opponent = std::string(kFriend);
  settings.opener = session::StartRule::HigherThrow;
  settings.seed = 3;
  ASSERT_FALSE(game.configure(settings));
  ASSERT_GE(game.log().size(), 2u);
  EXPECT_TRUE(game.log()[0].starts_with("Opening throws: light ")) << game.log()[0];
  // The side named as starting is the side to move.
  EXPECT_EQ(game.log().back(),
            "Game 1: " + std::string(side_name(game.position().turn)) + " starts.");
}

TEST(Game, ActionsOutOfTurnAreRefusedAndChangeNothing) {
  PlaySession game = make_game();
  const std::string before = snapshot(game);
  EXPECT_EQ(game.move(0).value(), "Throw the dice first, then move a piece.");
  EXPECT_EQ(game.pass().value(), "Throw the dice first; pass only when the throw cannot move.");
  EXPECT_EQ(game.computer_step().value(), "It is not the computer's turn.");
  EXPECT_EQ(snapshot(game), before);

  ASSERT_FALSE(game.force_roll(2));
  const std::string thrown = snapshot(game);
  EXPECT_EQ(game.throw_dice().value(),
            "You have thrown 2 and must move a piece before throwing again.");
  EXPECT_EQ(game.force_roll(1).value(),
            "You have thrown 2 and must move a piece before throwing again.");
  EXPECT_EQ(game.pass().value(),
            "A throw of 2 can move (for example start → 2); pass only when it cannot.");
  EXPECT_EQ(game.move(5).value(), "You have no piece on square 5.");
  EXPECT_EQ(snapshot(game), thrown);
}

TEST(Game, ForcedRollOutOfRangeIsRefused) {
  PlaySession game = make_game();
  const std::string before = snapshot(game);
  EXPECT_EQ(game.force_roll(5).value(),
            "A roll is the distance the throw moves: 0 to 4 in these rules, got 5.");
  EXPECT_EQ(game.force_roll(-1).value(),
            "A roll is the distance the throw moves: 0 to 4 in these rules, got -1.");
  EXPECT_EQ(snapshot(game), before);
}

TEST(Game, IllegalMovesSayWhy) {
  PlaySession game = make_game();
  // Light enters on 4 (rosette, throws again) and then tries to enter on 4 again.
  ASSERT_FALSE(game.force_roll(4));
  ASSERT_FALSE(game.move(0));
  EXPECT_EQ(game.position().turn, Side::Light) << "a rosette gives another throw";
  ASSERT_FALSE(game.force_roll(4));
  EXPECT_EQ(game.move(0).value(), "Square 4 already holds one of your pieces.");
  ASSERT_FALSE(game.move(4));  // 4 -> 8, the central rosette: another throw
  EXPECT_EQ(game.log().back(), "Light moved 4 to 8; light throws again for the rosette.");
}

TEST(Game, ThrowOfZeroMustBePassedWithAReason) {
  PlaySession game = make_game();
  ASSERT_FALSE(game.force_roll(0));
  EXPECT_EQ(game.phase(), Phase::Pass);
  EXPECT_EQ(game.pass_reason(), "A throw of 0: the turn passes.");
  EXPECT_EQ(game.move(0).value(), "A throw of 0: the turn passes. Pass the turn.");
  ASSERT_FALSE(game.pass());
  EXPECT_EQ(game.position().turn, Side::Dark);
  EXPECT_EQ(game.log().back(), "Light passes on a throw of 0.");
}

// Every event of the session is in the log, in the session's own words.
TEST(Game, TheLogNarratesEveryEventAgainstTheComputer) {
  PlaySession game = make_game("first", 1);
  ASSERT_FALSE(game.force_roll(4));
  ASSERT_FALSE(game.move(0));
  ASSERT_FALSE(game.force_roll(0));
  ASSERT_FALSE(game.pass());
  const std::vector<std::string> expected = {
      "Game 1: you start.", "You threw 4.",
      "You entered a piece on 4; you throw again for the rosette.", "You threw 0.",
      "You pass on a throw of 0."};
  EXPECT_EQ(game.log(), expected);
  ASSERT_TRUE(game.computer_to_act());
  ASSERT_FALSE(game.computer_step());
  const Roll roll = session::roll_of(game.rules(), session::dice_for_throw(game.rules(), 1, 2));
  EXPECT_EQ(game.log().back(), "The computer threw " + std::to_string(roll) + ".")
      << "the computer's third throw of the series is seed 1's third";
}

TEST(Game, ExactBearOffIsExplained) {
  PlaySession game = make_game(std::string(kFriend), 7, finkel_rules(1));
  for (int roll : {4, 4, 4}) {  // 0 -> 4 -> 8 -> 12, every landing a rosette but the last
    ASSERT_FALSE(game.force_roll(roll));
    ASSERT_FALSE(game.move(game.legal()[0].from));
  }
  ASSERT_FALSE(game.force_roll(0));  // dark passes
  ASSERT_FALSE(game.pass());
  ASSERT_FALSE(game.force_roll(4));  // 12 + 4 overshoots home (15)
  EXPECT_EQ(game.phase(), Phase::Pass);
  EXPECT_EQ(game.move(12).value(), game.pass_reason() + " Pass the turn.");
  ASSERT_FALSE(game.pass());
  EXPECT_EQ(game.log().back(), "Light cannot move with a 4 and passes.");
  ASSERT_FALSE(game.force_roll(0));
  ASSERT_FALSE(game.pass());
  ASSERT_FALSE(game.force_roll(3));
  ASSERT_FALSE(game.move(12));
  EXPECT_EQ(game.phase(), Phase::Over);
  EXPECT_EQ(game.winner(), Side::Light);
  EXPECT_EQ(game.tally()[0], 1);
  EXPECT_EQ(game.log().back(), "Light won.");
}

TEST(Game, ResignCountsForTheOtherSide) {
  PlaySession game = make_game("first", 1);
  ASSERT_FALSE(game.resign());
  EXPECT_EQ(game.winner(), Side::Dark);
  EXPECT_TRUE(game.resigned());
  ASSERT_GE(game.log().size(), 2u);
  EXPECT_EQ(game.log()[game.log().size() - 2], "You resigned.");
  EXPECT_EQ(game.log().back(), "The computer won the game.");
  EXPECT_EQ(game.resign().value(), "Game 1 is over (dark won); start a new game to play on.");
  game.new_game();
  EXPECT_EQ(game.tally()[1], 1) << "the tally survives a new game";
}

TEST(Game, BadOpponentSpecIsReportedAndNothingChanges) {
  PlaySession game = make_game();
  const std::string before = snapshot(game);
  Settings settings = game.settings();
  settings.opponent = "grandmaster";
  const ActionError error = game.configure(settings);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("grandmaster"), std::string::npos) << *error;
  settings.opponent = std::string(kFriend);
  settings.rules.pieces = 9;
  EXPECT_EQ(game.configure(settings).value(), "Bad settings: pieces must be 1 to 7, got 9.");
  EXPECT_EQ(snapshot(game), before);
  EXPECT_EQ(game.settings().opponent, "friend");
}

// The dice are the session's: throw n of a series is dice_for_throw(seed, n).
TEST(Game, TheDiceAreTheSessionsCounterBasedDice) {
  PlaySession game = make_game(std::string(kFriend), 42);
  for (std::uint64_t n = 0; n < 20; ++n) {
    ASSERT_FALSE(game.throw_dice());
    EXPECT_EQ(*game.dice(), session::dice_for_throw(game.rules(), 42, n)) << n;
    ASSERT_FALSE(game.phase() == Phase::Pass ? game.pass() : game.move(game.legal()[0].from));
  }
}

TEST(Game, AutoPlayAndAutoPassActInsideTheThrow) {
  PlaySession game = make_game();
  ASSERT_FALSE(game.set_automation(true, true));  // before the first throw: at once
  EXPECT_TRUE(game.settings().auto_play);
  ASSERT_FALSE(game.force_roll(0));
  EXPECT_EQ(game.log().back(), "Light passes on a throw of 0.");
  EXPECT_EQ(game.position().turn, Side::Dark);
  ASSERT_FALSE(game.force_roll(2));  // dark: only entering is possible
  EXPECT_EQ(game.log().back(), "Dark entered a piece on 2 (the only move).");
  ASSERT_FALSE(game.set_automation(false, false));  // after a throw: from the next game
  EXPECT_TRUE(game.settings().auto_play);
  EXPECT_FALSE(game.next_settings().auto_play);
  game.new_game();
  EXPECT_FALSE(game.settings().auto_play);
}

// Light enters on 4 (forced), throws 2 and chooses 4 -> 6 over entering: a decision.
PlaySession game_with_a_decision() {
  PlaySession game = make_game("first", 1);
  EXPECT_FALSE(game.force_roll(4));
  EXPECT_FALSE(game.move(0));
  EXPECT_FALSE(game.force_roll(2));
  EXPECT_EQ(game.legal().size(), 2);
  EXPECT_FALSE(game.move(4));
  return game;
}

TEST(Game, TakeBackReturnsToTheLastDecisionWithTheSameThrow) {
  PlaySession game = game_with_a_decision();
  let_the_computer_play(game);
  ASSERT_FALSE(game.take_back());
  EXPECT_EQ(game.log().back(), "You took back your last move.");
  EXPECT_EQ(game.phase(), Phase::Move);
  EXPECT_EQ(game.roll(), 2) << "the same throw waits again";
  EXPECT_EQ(game.dice(), session::dice_showing(game.rules(), 2));
  EXPECT_EQ(game.position().board_of(Side::Light), square_bit(4));
  EXPECT_EQ(game.position().board_of(Side::Dark), 0u) << "the computer's reply is undone";
  ASSERT_FALSE(game.move(0));
  EXPECT_EQ(game.position().board_of(Side::Light), square_bit(4) | square_bit(2));
}

TEST(Game, TakeBackRefusalsSayWhyAndChangeNothing) {
  PlaySession forced = make_game("first", 1);
  ASSERT_FALSE(forced.force_roll(4));
  ASSERT_FALSE(forced.move(0));  // the only move: no decision
  std::string before = snapshot(forced);
  EXPECT_EQ(forced.take_back().value(),
            "You have made no choice in this game that could be taken back.");
  EXPECT_EQ(snapshot(forced), before);

  PlaySession friends = make_game();
  before = snapshot(friends);
  EXPECT_EQ(friends.take_back().value(), "Take-back is only for games against the computer.");
  EXPECT_EQ(snapshot(friends), before);

  PlaySession off(&make_agent, &testing::fixed_time);
  Settings settings;
  settings.opponent = "first";
  settings.take_back = false;
  ASSERT_FALSE(off.configure(settings));
  EXPECT_EQ(off.take_back().value(), "Take-back is off in this game.");
}

TEST(Game, ANewSeedStartsANewSeriesAndKeepsTheTallyAndTheRecords) {
  PlaySession game = make_game("first", 1);
  ASSERT_FALSE(game.resign());
  Settings settings = game.settings();
  settings.seed = 2;
  ASSERT_FALSE(game.configure(settings));
  EXPECT_EQ(game.session().seed(), 2u);
  EXPECT_EQ(game.game_number(), 2) << "games count on across series";
  EXPECT_EQ(game.tally()[1], 1);
  const auto records = game.records();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(*records[0].tag("Seed"), "1");
  EXPECT_EQ(*records[1].tag("Seed"), "2");
  const auto read = records::read_rgn(records::write_rgn(records));
  ASSERT_TRUE(std::holds_alternative<std::vector<records::GameRecord>>(read));
}

TEST(Game, TheGameEndHookRunsOnceForEachGameThatEnds) {
  PlaySession game = make_game("first", 1);
  int ended = 0;
  game.on_game_end([&] {
    ++ended;
    EXPECT_EQ(game.phase(), Phase::Over) << "the state is up to date when it runs";
  });
  ASSERT_FALSE(game.force_roll(1));
  ASSERT_FALSE(game.move(0));
  let_the_computer_play(game);
  EXPECT_EQ(ended, 0);
  ASSERT_FALSE(game.resign());
  EXPECT_EQ(ended, 1);
  game.new_game();
  EXPECT_EQ(ended, 1);
}

TEST(Game, SameSettingsStartTheNextGameOfTheSeries) {
  PlaySession game = make_game("first", 1);
  ASSERT_FALSE(game.force_roll(1));
  ASSERT_FALSE(game.move(0));
  ASSERT_FALSE(game.configure(game.settings()));
  EXPECT_EQ(game.game_number(), 2);
  EXPECT_EQ(game.session().game_number(), 2);
  EXPECT_EQ(game.records().size(), 2u) << "the abandoned game stays on record";
}

// A friend game of six plies with known rolls: light 2, dark 1, light 3, dark 0 (a pass),
// light 4 (a rosette, again), light 1 — as its record.
records::GameRecord six_ply_record() {
  PlaySession game = make_game();
  for (const auto& [roll, from] :
       std::vector<std::pair<Roll, Square>>{{2, 0}, {1, 0}, {3, 2}, {0, -1}, {4, 0}, {1, 5}}) {
    EXPECT_FALSE(game.force_roll(roll));
    if (from < 0) {
      EXPECT_FALSE(game.pass());
    } else {
      EXPECT_FALSE(game.move(from)) << "roll " << roll << " from " << from;
    }
  }
  const auto records = game.records();
  EXPECT_EQ(records.size(), 1u);
  return records.front();
}

Position position_after(const records::GameRecord& record, std::size_t plies) {
  const auto replayed = std::get<records::Replay>(records::replay(record));
  return plies == 0 ? starting_position(record.rules, record.first)
                    : replayed.plies[plies - 1].after;
}

TEST(Adopt, PlaysOnFromARecordsPlyAgainstTheComputer) {
  const records::GameRecord record = six_ply_record();
  ASSERT_EQ(record.plies.size(), 6u);
  PlaySession game(&make_agent, &testing::fixed_time);
  Settings settings;
  settings.opponent = "first";
  settings.seed = 11;
  ASSERT_FALSE(continue_record(game, record, 3, settings));
  EXPECT_EQ(game.position(), position_after(record, 3));
  EXPECT_EQ(game.settings(), settings) << "the menu's view of the adopted series";
  EXPECT_EQ(game.game_number(), 1);
  EXPECT_EQ(game.session().seed(), 11u);
  EXPECT_TRUE(game.computer_to_act()) << "dark is to throw after ply 3";
  // The log tells the whole game, the three plies played before it came here included.
  ASSERT_GE(game.log().size(), 4u);
  EXPECT_EQ(game.log()[0], "Game 1: you start.");
  EXPECT_EQ(game.log()[1], "You threw 2.");
  let_the_computer_play(game);
  ASSERT_EQ(game.phase(), Phase::Throw);
  ASSERT_FALSE(game.force_roll(1));
  if (game.phase() == Phase::Move) {
    ASSERT_FALSE(game.move(game.legal()[0].from));
  }
  // The record of the continued game starts with the original's first plies.
  const auto records = game.records();
  ASSERT_EQ(records.size(), 1u);
  ASSERT_GT(records[0].plies.size(), 3u);
  EXPECT_TRUE(std::equal(record.plies.begin(), record.plies.begin() + 3, records[0].plies.begin()));
  EXPECT_EQ(*records[0].tag("Seed"), "11");
}

TEST(Adopt, PlaysOnBetweenFriendsAndKeepsTheSeriesBeforeIt) {
  const records::GameRecord record = six_ply_record();
  PlaySession game = make_game("first", 1);
  ASSERT_FALSE(game.resign());
  Settings settings;
  settings.opponent = std::string(kFriend);
  settings.seed = 5;
  ASSERT_FALSE(continue_record(game, record, 5, settings));
  EXPECT_EQ(game.position(), position_after(record, 5));
  EXPECT_EQ(game.position().turn, Side::Light) << "light threw again after the rosette";
  EXPECT_FALSE(game.against_computer());
  EXPECT_EQ(game.game_number(), 2) << "the earlier series counts on";
  EXPECT_EQ(game.tally()[1], 1);
  EXPECT_EQ(game.records().size(), 2u);
  ASSERT_FALSE(game.throw_dice());
  EXPECT_EQ(game.log().back().rfind("Light threw ", 0), 0u) << game.log().back();
}

TEST(Adopt, RefusesSettingsThatAreNotTheSeriesAndABadOpponent) {
  const records::GameRecord record = six_ply_record();
  PlaySession game = make_game();
  const std::string before = snapshot(game);
  Settings settings;
  settings.opponent = "first";
  settings.seed = 3;
  auto continued =
      records::continue_from(record, 2, session_settings(settings), 3, testing::fixed_time());
  ASSERT_TRUE(std::holds_alternative<session::Session>(continued));
  Settings other = settings;
  other.seed = 4;
  EXPECT_EQ(game.adopt(std::get<session::Session>(continued), other),
            "The settings given are not the game's own.");
  other = settings;
  other.opponent = "hard";
  EXPECT_TRUE(game.adopt(std::get<session::Session>(continued), other));
  EXPECT_EQ(snapshot(game), before) << "a refusal changes nothing";

  settings.opponent = "no-such-agent";
  EXPECT_TRUE(continue_record(game, record, 2, settings));
  EXPECT_EQ(snapshot(game), before);
}

TEST(Adopt, ContinueRecordRefusesPastTheEndAndOtherRules) {
  const records::GameRecord record = six_ply_record();
  PlaySession game = make_game();
  const std::string before = snapshot(game);
  Settings settings;
  settings.opponent = std::string(kFriend);
  EXPECT_TRUE(continue_record(game, record, 7, settings)) << "the record has six plies";
  settings.rules = finkel_rules(3);
  EXPECT_EQ(continue_record(game, record, 2, settings),
            "The settings' rules are not the record's.");
  EXPECT_EQ(snapshot(game), before);
}

TEST(Game, ANewSeriesIsLoggedFromItsFirstEvent) {
  PlaySession game = make_game("first", 1);
  for (int i = 0; i < 3; ++i) {
    ASSERT_FALSE(game.force_roll(1));
    if (game.phase() == Phase::Move) {
      ASSERT_FALSE(game.move(game.legal()[0].from));
    }
    let_the_computer_play(game);
  }
  const std::size_t logged = game.log().size();
  Settings settings = game.settings();
  settings.seed = 2;
  ASSERT_FALSE(game.configure(settings));
  ASSERT_GT(game.log().size(), logged) << "the new series' start is told";
  EXPECT_EQ(game.log().back(), "Game 1: you start.");
}

}  // namespace
}  // namespace ur::play
