#include "session/session.h"

#include <array>

#include "core/rule_sets.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace ur::session {
namespace {

constexpr Time kNow = 1'764'547'200'000;  // 2025-12-01T00:00:00Z

// Throws for the side to move and plays the move at `choice` (mod the legal count), or
// passes; returns false once the game is over.
bool person_turn(Session& session, std::size_t choice) {
  if (session.phase() == Phase::Over) return false;
  const Side side = session.to_move();
  if (session.phase() == Phase::Throw) {
    EXPECT_TRUE(session.act(ThrowIntent{}, side, kNow).accepted());
  }
  if (session.phase() == Phase::Pass) {
    EXPECT_TRUE(session.act(PassIntent{}, side, kNow).accepted());
  } else if (session.phase() == Phase::Move) {
    const MoveList moves = session.legal_moves();
    const Square from = moves[static_cast<int>(choice % moves.size())].from;
    EXPECT_TRUE(session.act(MoveIntent{from}, side, kNow).accepted());
  }
  return session.phase() != Phase::Over;
}

Session rebuilt(const Session& session) {
  auto result = Session::from_history(session.history());
  if (auto* error = std::get_if<std::string>(&result)) ADD_FAILURE() << *error;
  return std::get<Session>(std::move(result));
}

TEST(SessionDice, GoldenSequenceForSeed42) {
  const Rules rules = finkel_rules();
  std::vector<int> marks;
  for (std::uint64_t n = 0; n < 16; ++n) marks.push_back(dice_for_throw(rules, 42, n).marks);
  EXPECT_EQ(marks, (std::vector<int>{5, 5, 8, 7, 8, 8, 4, 12, 14, 2, 14, 12, 5, 3, 0, 6}));
}

TEST(SessionDice, DifferentSeedsGiveDifferentThrows) {
  const Rules rules = finkel_rules();
  int differing = 0;
  for (std::uint64_t n = 0; n < 64; ++n) {
    if (dice_for_throw(rules, 1, n) != dice_for_throw(rules, 2, n)) ++differing;
  }
  // Two independent streams agree on a throw with probability 1/16.
  EXPECT_GT(differing, 48);
}

TEST(SessionDice, OnlyTheRulesDiceAreMarked) {
  RuleSpec spec;
  spec.dice = 3;
  const Rules rules(spec);
  for (std::uint64_t n = 0; n < 200; ++n) {
    const Dice dice = dice_for_throw(rules, 7, n);
    EXPECT_EQ(dice.count, 3);
    EXPECT_EQ(dice.marks >> 3, 0);
  }
}

Rules masters() {
  return Rules(find_rule_set("masters")->spec);
}

TEST(SessionDice, MastersZeroMarksCountAsFour) {
  const Rules rules = masters();
  EXPECT_EQ(roll_of(rules, Dice{0, 3}), 4);
  EXPECT_EQ(roll_of(rules, Dice{0b101, 3}), 2);
  EXPECT_EQ(roll_of(finkel_rules(), Dice{0, 4}), 0);
  EXPECT_EQ(dice_showing(rules, 4), (Dice{0, 3}));
  EXPECT_EQ(dice_showing(rules, 3), (Dice{0b111, 3}));
  for (Roll roll = 1; roll <= 4; ++roll) EXPECT_EQ(roll_of(rules, dice_showing(rules, roll)), roll);
}

// Every face of the three dice, counted: exactly the weights 3, 3, 1, 1 out of 8.
TEST(SessionDice, MastersFacesCountExactlyAsTheRollWeights) {
  const Rules rules = masters();
  std::array<int, 8> counts{};
  for (std::uint8_t marks = 0; marks < 8; ++marks) ++counts[roll_of(rules, Dice{marks, 3})];
  for (Roll roll = 0; roll <= 7; ++roll) EXPECT_EQ(counts[roll], rules.roll_weights[roll]) << roll;
  EXPECT_EQ(rules.roll_weight_total, 8);
}

// Over many seeded throws each roll comes up as often as roll_weights says: exact counts
// of a fixed seed, each within 3% of its expected share.
TEST(SessionDice, MastersThrowsFollowTheRollWeights) {
  const Rules rules = masters();
  constexpr int kThrows = 16000;
  std::array<int, 8> counts{};
  for (std::uint64_t n = 0; n < kThrows; ++n) ++counts[roll_of(rules, dice_for_throw(rules, 9, n))];
  EXPECT_EQ(counts[0], 0);
  const std::array<int, 5> eighths{0, 3, 3, 1, 1};
  for (Roll roll = 1; roll <= 4; ++roll) {
    EXPECT_EQ(rules.roll_weights[roll], eighths[roll]);
    const double expected = kThrows * eighths[roll] / 8.0;
    EXPECT_NEAR(counts[roll], expected, 0.03 * kThrows) << roll;
  }
}

TEST(SessionDice, MastersSessionMovesFourOnAThrowOfNoMarks) {
  Settings settings = between_friends();
  settings.rules = masters();
  Session session = Session::start(settings, 1, kNow);
  const Side side = session.to_move();
  ASSERT_TRUE(session.act(ThrowIntent{Dice{0, 3}}, side, kNow).accepted());
  ASSERT_TRUE(session.pending_throw());
  EXPECT_EQ(session.pending_throw()->roll, 4);
}

TEST(SessionFlow, AlternateStartLightOpensGameOneDarkGameTwo) {
  Session session = Session::start(between_friends(), 1, kNow);
  EXPECT_EQ(session.game_number(), 1);
  EXPECT_EQ(session.to_move(), Side::Light);
  EXPECT_EQ(session.phase(), Phase::Throw);
  ASSERT_TRUE(session.act(NewGameIntent{}, Side::Light, kNow).accepted());
  EXPECT_EQ(session.game_number(), 2);
  EXPECT_EQ(session.to_move(), Side::Dark);
}

TEST(SessionFlow, AGivenOpenerOverridesTheStartRule) {
  Settings settings = between_friends();
  settings.starts = StartRule::HigherThrow;
  const Session session = Session::start(settings, 1, kNow, Side::Dark);
  EXPECT_EQ(session.to_move(), Side::Dark);
  EXPECT_EQ(session.throws(), 0u);  // no opening rounds
  ASSERT_EQ(session.history().size(), 2u);
}

TEST(SessionFlow, SameSeedAndIntentsGiveTheSameGame) {
  Session a = Session::start(between_friends(), 99, kNow);
  Session b = Session::start(between_friends(), 99, kNow);
  for (std::size_t turn = 0; turn < 300; ++turn) {
    const bool a_goes_on = person_turn(a, turn);
    const bool b_goes_on = person_turn(b, turn);
    ASSERT_EQ(a_goes_on, b_goes_on);
    if (!a_goes_on) break;
  }
  EXPECT_EQ(a.phase(), Phase::Over);
  EXPECT_EQ(a.history(), b.history());
}

TEST(SessionFlow, ThrowSpendsTheSeededDice) {
  Session session = Session::start(between_friends(), 5, kNow);
  ASSERT_TRUE(session.act(ThrowIntent{}, Side::Light, kNow).accepted());
  const Dice expected = dice_for_throw(session.rules(), 5, 0);
  ASSERT_TRUE(session.pending_throw());
  EXPECT_EQ(session.pending_throw()->dice, expected);
  EXPECT_EQ(session.pending_throw()->roll, expected.marked());
  EXPECT_EQ(session.throws(), 1u);
}

TEST(SessionFlow, RefusedIntentsChangeNothing) {
  Session session = Session::start(between_friends(), 3, kNow);
  const Events before = session.history();
  const Outcome wrong_seat = session.act(ThrowIntent{}, Side::Dark, kNow);
  EXPECT_EQ(wrong_seat.refusal->code, RefusalCode::NotYourTurn);
  EXPECT_EQ(session.act(MoveIntent{0}, Side::Light, kNow).refusal->code, RefusalCode::NoThrowYet);
  EXPECT_EQ(session.act(PassIntent{}, Side::Light, kNow).refusal->code, RefusalCode::NoThrowYet);
  EXPECT_EQ(session.history(), before);
  EXPECT_TRUE(wrong_seat.events.empty());
}

TEST(SessionFlow, ThrowWhilePendingIsRefused) {
  Session session = Session::start(between_friends(), 3, kNow);
  ASSERT_TRUE(
      session.act(ThrowIntent{dice_showing(session.rules(), 2)}, Side::Light, kNow).accepted());
  const Outcome again = session.act(ThrowIntent{}, Side::Light, kNow);
  EXPECT_EQ(again.refusal->code, RefusalCode::ThrowPending);
  EXPECT_NE(again.refusal->message.find("must move"), std::string::npos);
}

TEST(SessionFlow, IllegalMoveIsRefusedWithTheReason) {
  Session session = Session::start(between_friends(), 3, kNow);
  ASSERT_TRUE(
      session.act(ThrowIntent{dice_showing(session.rules(), 2)}, Side::Light, kNow).accepted());
  const Outcome outcome = session.act(MoveIntent{5}, Side::Light, kNow);
  ASSERT_FALSE(outcome.accepted());
  EXPECT_EQ(outcome.refusal->code, RefusalCode::IllegalMove);
  EXPECT_FALSE(outcome.refusal->message.empty());
  EXPECT_EQ(session.phase(), Phase::Move);
}

TEST(SessionFlow, ZeroPassesAndPassWithAMoveIsRefused) {
  Session session = Session::start(between_friends(), 3, kNow);
  ASSERT_TRUE(
      session.act(ThrowIntent{dice_showing(session.rules(), 1)}, Side::Light, kNow).accepted());
  EXPECT_EQ(session.act(PassIntent{}, Side::Light, kNow).refusal->code, RefusalCode::MoveAvailable);
  ASSERT_TRUE(session.act(MoveIntent{0}, Side::Light, kNow).accepted());
  ASSERT_TRUE(
      session.act(ThrowIntent{dice_showing(session.rules(), 0)}, Side::Dark, kNow).accepted());
  EXPECT_EQ(session.phase(), Phase::Pass);
  ASSERT_TRUE(session.act(PassIntent{}, Side::Dark, kNow).accepted());
  EXPECT_EQ(session.to_move(), Side::Light);
}

TEST(SessionFlow, AutoPlayMovesTheOnlyMoveAndAutoPassPasses) {
  Settings settings = between_friends();
  settings.auto_play = true;
  settings.auto_pass = true;
  Session session = Session::start(settings, 3, kNow);
  // At the start only the entering move exists.
  const Outcome outcome =
      session.act(ThrowIntent{dice_showing(session.rules(), 3)}, Side::Light, kNow);
  ASSERT_EQ(outcome.events.size(), 2u);
  const auto& moved = std::get<Moved>(outcome.events[1].body);
  EXPECT_TRUE(moved.automatic);
  EXPECT_EQ(moved.move.to, 3);
  const Outcome zero = session.act(ThrowIntent{dice_showing(session.rules(), 0)}, Side::Dark, kNow);
  ASSERT_EQ(zero.events.size(), 2u);
  EXPECT_TRUE(std::get<Passed>(zero.events[1].body).automatic);
  EXPECT_EQ(session.to_move(), Side::Light);
}

TEST(SessionFlow, PersonCannotActForTheComputerSeat) {
  Session session = Session::start(against_computer("first"), 3, kNow);
  ASSERT_TRUE(
      session.act(ThrowIntent{dice_showing(session.rules(), 1)}, Side::Light, kNow).accepted());
  ASSERT_TRUE(session.act(MoveIntent{0}, Side::Light, kNow).accepted());
  EXPECT_TRUE(session.computer_to_act());
  EXPECT_EQ(session.act(ThrowIntent{}, Side::Dark, kNow).refusal->code, RefusalCode::ComputerSeat);
}

TEST(SessionDrive, PlaysComputerTurnsUntilThePersonMustAct) {
  Session session = Session::start(against_computer("first"), 11, kNow);
  for (int turn = 0; turn < 400 && session.phase() != Phase::Over; ++turn) {
    if (session.computer_to_act()) {
      const Outcome outcome = session.drive(standard_agents(), kNow);
      ASSERT_TRUE(outcome.accepted()) << outcome.refusal->message;
      EXPECT_TRUE(session.phase() == Phase::Over || !session.computer_to_act());
    } else {
      person_turn(session, 0);
    }
  }
  EXPECT_EQ(session.phase(), Phase::Over);
  EXPECT_EQ(session.tally()[0] + session.tally()[1], 1);
}

TEST(SessionDrive, TwoComputersPlayAWholeGame) {
  Settings settings;
  settings.seats = {Seat{"greedy", {}}, Seat{"random", {}}};
  Session session = Session::start(settings, 8, kNow);
  ASSERT_TRUE(session.drive(standard_agents(), kNow).accepted());
  EXPECT_EQ(session.phase(), Phase::Over);
  EXPECT_TRUE(session.winner().has_value());
}

TEST(SessionDrive, AnUnknownAgentIsRefusedAndNothingChanges) {
  Session session = Session::start(against_computer("no-such-agent", Side::Dark), 8, kNow);
  // Dark is the person, so light (the computer) opens game 1.
  ASSERT_TRUE(session.computer_to_act());
  ASSERT_TRUE(session.computer_step(standard_agents(), kNow).accepted());  // a throw
  const Events before = session.history();
  if (session.phase() == Phase::Move) {
    const Outcome outcome = session.computer_step(standard_agents(), kNow);
    EXPECT_EQ(outcome.refusal->code, RefusalCode::BadSettings);
    EXPECT_EQ(session.history(), before);
  }
}

TEST(SessionHigherThrow, OpeningRoundsChooseTheStarterOnce) {
  Settings settings = between_friends();
  settings.starts = StartRule::HigherThrow;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    Session session = Session::start(settings, seed, kNow);
    const Events& history = session.history();
    int started = 0;
    std::optional<OpeningRound> last;
    for (const Event& event : history) {
      if (auto* round = std::get_if<OpeningRound>(&event.body)) last = *round;
      if (std::holds_alternative<GameStarted>(event.body)) ++started;
    }
    ASSERT_EQ(started, 1);
    ASSERT_TRUE(last);
    ASSERT_NE(roll_of(session.rules(), last->light), roll_of(session.rules(), last->dark));
    EXPECT_EQ(session.to_move(),
              roll_of(session.rules(), last->light) > roll_of(session.rules(), last->dark)
                  ? Side::Light
                  : Side::Dark);
    // The opening throws used the counter, so the first real throw is a fresh one.
    EXPECT_EQ(session.throws() % 2, 0u);
    EXPECT_GE(session.throws(), 2u);
  }
}

TEST(SessionSettings, ApplyAtOnceBeforeTheFirstThrowAndLaterOtherwise) {
  Session session = Session::start(between_friends(), 4, kNow);
  Settings five = between_friends();
  five.rules.pieces = 5;
  ASSERT_TRUE(session.act(ChangeSettingsIntent{five}, Side::Light, kNow).accepted());
  EXPECT_EQ(session.rules().pieces, 5);
  EXPECT_EQ(session.position().start_of(Side::Light), 5);
  EXPECT_EQ(session.game_number(), 1);

  ASSERT_TRUE(session.act(ThrowIntent{}, Side::Light, kNow).accepted());
  Settings three = five;
  three.rules.pieces = 3;
  ASSERT_TRUE(session.act(ChangeSettingsIntent{three}, Side::Light, kNow).accepted());
  EXPECT_EQ(session.rules().pieces, 5);
  ASSERT_TRUE(session.pending_settings());
  ASSERT_TRUE(session.act(NewGameIntent{}, Side::Light, kNow).accepted());
  EXPECT_EQ(session.rules().pieces, 3);
  EXPECT_FALSE(session.pending_settings());
}

TEST(SessionSettings, UnplayableSettingsAreRefused) {
  Session session = Session::start(between_friends(), 4, kNow);
  Settings bad = between_friends();
  bad.rules.pieces = 9;
  const Outcome outcome = session.act(ChangeSettingsIntent{bad}, Side::Light, kNow);
  EXPECT_EQ(outcome.refusal->code, RefusalCode::BadSettings);
  EXPECT_EQ(session.rules().pieces, 7);
}

TEST(SessionResign, TheOtherSideWinsAndTheTallyCounts) {
  Session session = Session::start(against_computer("first"), 4, kNow);
  ASSERT_TRUE(session.act(ResignIntent{}, Side::Light, kNow).accepted());
  EXPECT_EQ(session.phase(), Phase::Over);
  EXPECT_EQ(session.winner(), Side::Dark);
  EXPECT_TRUE(session.resigned());
  EXPECT_EQ(session.tally()[index_of(Side::Dark)], 1);
  EXPECT_EQ(session.act(ResignIntent{}, Side::Light, kNow).refusal->code, RefusalCode::GameOver);
}

TEST(SessionGameEnd, BearingOffTheLastPieceEndsTheGame) {
  Settings settings = between_friends();
  settings.rules.pieces = 1;
  Session session = Session::start(settings, 21, kNow);
  for (int turn = 0; turn < 500 && person_turn(session, 0); ++turn) {
  }
  ASSERT_EQ(session.phase(), Phase::Over);
  EXPECT_TRUE(std::holds_alternative<GameEnded>(session.history().back().body));
  EXPECT_EQ(session.position().home_of(*session.winner()), 1);
}

// Plays person turns for light against a computer until light has made a real choice.
Session session_with_a_decision(std::uint64_t seed) {
  Session session = Session::start(against_computer("first"), seed, kNow);
  for (int turn = 0; turn < 400; ++turn) {
    if (session.computer_to_act()) {
      session.drive(standard_agents(), kNow);
      continue;
    }
    if (session.phase() == Phase::Throw) session.act(ThrowIntent{}, Side::Light, kNow);
    if (session.phase() == Phase::Pass) session.act(PassIntent{}, Side::Light, kNow);
    if (session.phase() == Phase::Move) {
      const MoveList moves = session.legal_moves();
      session.act(MoveIntent{moves[moves.size() - 1].from}, Side::Light, kNow);
      if (moves.size() > 1) return session;
    }
  }
  ADD_FAILURE() << "no decision in 400 turns";
  return session;
}

// The dice of the first throw recorded after history index `after`.
std::optional<Dice> first_throw_after(const Session& session, std::size_t after) {
  for (std::size_t i = after + 1; i < session.history().size(); ++i) {
    if (auto* thrown = std::get_if<Thrown>(&session.history()[i].body)) return thrown->dice;
  }
  return std::nullopt;
}

TEST(SessionTakeBack, ReturnsToTheLastDecisionWithTheSameThrow) {
  Session session = session_with_a_decision(17);
  const std::size_t move_index = session.history().size() - 1;
  ASSERT_TRUE(std::holds_alternative<Moved>(session.history()[move_index].body));
  const Thrown thrown = std::get<Thrown>(session.history()[move_index - 1].body);
  session.drive(standard_agents(), kNow);  // the computer replies
  const std::optional<Dice> reply = first_throw_after(session, move_index);
  ASSERT_TRUE(reply);

  ASSERT_TRUE(session.can_take_back(Side::Light));
  ASSERT_TRUE(session.act(TakeBackIntent{}, Side::Light, kNow).accepted());
  const std::size_t took_back_index = session.history().size() - 1;
  EXPECT_TRUE(std::holds_alternative<TookBack>(session.history()[took_back_index].body));
  EXPECT_EQ(session.phase(), Phase::Move);
  EXPECT_EQ(session.to_move(), Side::Light);
  EXPECT_EQ(session.pending_throw(), thrown);

  // The dice follow the seed's counter: whoever throws next after another choice gets the
  // throw that followed the undone move.
  const MoveList moves = session.legal_moves();
  ASSERT_TRUE(session.act(MoveIntent{moves[0].from}, Side::Light, kNow).accepted());
  if (session.computer_to_act()) {
    session.computer_step(standard_agents(), kNow);
  } else {
    session.act(ThrowIntent{}, Side::Light, kNow);
  }
  EXPECT_EQ(first_throw_after(session, took_back_index), reply);
  EXPECT_EQ(rebuilt(session).position(), session.position());
  EXPECT_EQ(rebuilt(session).throws(), session.throws());
}

TEST(SessionTakeBack, OffBetweenFriendsAndWithoutADecision) {
  Session friends = Session::start(between_friends(), 2, kNow);
  EXPECT_EQ(friends.act(TakeBackIntent{}, Side::Light, kNow).refusal->code,
            RefusalCode::TakeBackOff);
  Session fresh = Session::start(against_computer("first"), 2, kNow);
  EXPECT_EQ(fresh.act(TakeBackIntent{}, Side::Light, kNow).refusal->code,
            RefusalCode::NothingToTakeBack);
}

TEST(SessionHistory, ABrokenHistoryIsRefusedWithTheEventIndex) {
  Session session = Session::start(between_friends(), 2, kNow);
  session.act(ThrowIntent{dice_showing(session.rules(), 2)}, Side::Light, kNow);
  Events history = session.history();
  history.push_back({kNow, Moved{Side::Light, 2, Move{5, 7, false, false}, false}});
  auto result = Session::from_history(history);
  ASSERT_TRUE(std::holds_alternative<std::string>(result));
  EXPECT_NE(std::get<std::string>(result).find("event " + std::to_string(history.size() - 1)),
            std::string::npos);
  EXPECT_TRUE(std::holds_alternative<std::string>(Session::from_history({})));
}

TEST(SessionHistory, ExtendingByEachStepGivesTheSessionTheWholeHistoryGives) {
  Session played = Session::start(between_friends(), 7, kNow);
  Session follower = played;
  for (std::size_t step = 0; person_turn(played, step); ++step) {
    const Events& history = played.history();
    const Events more(history.begin() + static_cast<std::ptrdiff_t>(follower.history().size()),
                      history.end());
    ASSERT_EQ(follower.extend(more), std::nullopt);
    ASSERT_EQ(follower.history(), history);
    ASSERT_EQ(follower.position(), played.position());
    ASSERT_EQ(follower.phase(), played.phase());
    ASSERT_EQ(follower.throws(), played.throws());
  }
  EXPECT_TRUE(follower.extend(played.history()).has_value());  // a second series start
}

TEST(SessionHistory, AnExtensionThatDoesNotFollowIsRefusedAndChangesNothing) {
  Session session = Session::start(between_friends(), 2, kNow);
  session.act(ThrowIntent{dice_showing(session.rules(), 2)}, Side::Light, kNow);
  const Session before = session;
  // A legal move, then one out of turn.
  const Events more = {{kNow, Moved{Side::Light, 2, session.legal_moves()[0], false}},
                       {kNow, Moved{Side::Light, 2, session.legal_moves()[0], false}}};
  const auto error = session.extend(more);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("event " + std::to_string(before.history().size() + 1)), std::string::npos)
      << *error;
  EXPECT_EQ(session.history(), before.history());
  EXPECT_EQ(session.position(), before.position());
  EXPECT_EQ(session.phase(), Phase::Move);
  EXPECT_TRUE(session.act(MoveIntent{session.legal_moves()[0].from}, Side::Light, kNow).accepted());
}

TEST(SessionHistory, ACarriedOverSeriesKeepsItsTallyDiceAndPosition) {
  const Settings settings = against_computer("medium");
  Position from = starting_position(settings.rules, Side::Dark);
  from.start[index_of(Side::Dark)] = 6;
  from.board[index_of(Side::Dark)] |= SquareMask{1} << 4;
  auto result = Session::from_history(
      {{kNow, SeriesStarted{settings, 42, {2, 1}, 5}}, {kNow, GameStarted{4, Side::Dark, from}}});
  ASSERT_TRUE(std::holds_alternative<Session>(result)) << std::get<std::string>(result);
  Session session = std::get<Session>(std::move(result));
  EXPECT_EQ(session.position(), from);
  EXPECT_EQ(session.tally(), (std::array<int, 2>{2, 1}));
  EXPECT_EQ(session.game_number(), 4);
  EXPECT_EQ(session.throws(), 5u);
  ASSERT_TRUE(session.drive(standard_agents(), kNow).accepted());
  // Dark's throw was the series' sixth: the counter went on from the carried throws.
  EXPECT_EQ(std::get<Thrown>(session.history()[2].body).dice,
            dice_for_throw(settings.rules, 42, 5));
}

TEST(SessionHistory, AStartPositionMustBeValidAndMatchTheOpener) {
  const Settings settings = between_friends();
  Position bad = starting_position(settings.rules, Side::Light);
  bad.start[0] = 9;
  for (const auto& [from, first] :
       {std::pair{bad, Side::Light},
        std::pair{starting_position(settings.rules, Side::Dark), Side::Light}}) {
    auto result = Session::from_history(
        {{kNow, SeriesStarted{settings, 1, {}, 0}}, {kNow, GameStarted{1, first, from}}});
    EXPECT_TRUE(std::holds_alternative<std::string>(result));
  }
}

TEST(SessionHistory, AGameCarriedOverWonEndsAndTakesNoThrow) {
  const Settings settings = between_friends();
  Position won = starting_position(settings.rules, Side::Dark);
  won.start[0] = 0;
  won.home[0] = 7;
  const Events start{{kNow, SeriesStarted{settings, 1, {}, 0}},
                     {kNow, GameStarted{3, Side::Dark, won}}};
  Events ended = start;
  ended.push_back({kNow, GameEnded{Side::Light, false}});
  auto over = Session::from_history(ended);
  ASSERT_TRUE(std::holds_alternative<Session>(over)) << std::get<std::string>(over);
  EXPECT_EQ(std::get<Session>(over).phase(), Phase::Over);
  Events thrown = start;
  thrown.push_back({kNow, Thrown{Side::Dark, dice_showing(settings.rules, 2), 2}});
  EXPECT_TRUE(std::holds_alternative<std::string>(Session::from_history(thrown)));
}

TEST(SessionSettings, AGameCarriedOverMidWayTakesNewSettingsFromTheNextGame) {
  Position from = starting_position(finkel_rules(), Side::Light);
  from.start[0] = 6;
  from.board[0] = SquareMask{1} << 3;
  auto made = Session::from_history({{kNow, SeriesStarted{between_friends(), 1, {}, 0}},
                                     {kNow, GameStarted{2, Side::Light, from}}});
  Session session = std::get<Session>(std::move(made));
  Settings five = between_friends();
  five.rules.pieces = 5;
  ASSERT_TRUE(session.act(ChangeSettingsIntent{five}, Side::Light, kNow).accepted());
  EXPECT_EQ(session.position(), from);
  ASSERT_TRUE(session.pending_settings().has_value());
}

// Property: any sequence of choices gives a history whose fold is the same session.
RC_GTEST_PROP(SessionProperties, HistoryFoldRebuildsTheSession, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto pieces = *rc::gen::inRange(1, 8);
  const auto choices =
      *rc::gen::container<std::vector<std::size_t>>(rc::gen::inRange<std::size_t>(0, 8));
  Settings settings = against_computer("first");
  settings.rules.pieces = pieces;
  settings.starts = *rc::gen::element(StartRule::Alternate, StartRule::HigherThrow);
  Session session = Session::start(settings, seed, kNow);
  for (std::size_t choice : choices) {
    if (session.phase() == Phase::Over) break;
    if (session.computer_to_act()) {
      RC_ASSERT(session.drive(standard_agents(), kNow).accepted());
      continue;
    }
    if (choice == 7 && session.can_take_back(Side::Light)) {
      RC_ASSERT(session.act(TakeBackIntent{}, Side::Light, kNow).accepted());
      continue;
    }
    person_turn(session, choice);
  }
  auto result = Session::from_history(session.history());
  RC_ASSERT(std::holds_alternative<Session>(result));
  const Session& copy = std::get<Session>(result);
  RC_ASSERT(copy.position() == session.position());
  RC_ASSERT(copy.phase() == session.phase());
  RC_ASSERT(copy.throws() == session.throws());
  RC_ASSERT(copy.tally() == session.tally());
  RC_ASSERT(!validate(session.rules(), session.position()));
}

}  // namespace
}  // namespace ur::session
