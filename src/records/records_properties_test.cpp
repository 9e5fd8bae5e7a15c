// Round trip of whole games: a session's record written to RGN, read back and replayed
// reaches the same final position and result.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/rule_sets.h"
#include "records/rgn.h"

namespace ur::records {
namespace {

using session::Session;

constexpr session::Time kNow = 1'764'547'200'000;

// RGN keeps moves, not throws: a bear-off that overshoots under bear-off "any" reads back
// as the least throw that makes it. Every other ply reads back exactly.
Ply as_rgn_keeps_it(const Rules& rules, Ply ply) {
  if (ply.move && ply.move->to == rules.home_square()) ply.roll = ply.move->to - ply.move->from;
  return ply;
}

void expect_round_trip(const Session& game) {
  const std::vector<GameRecord> records = records_of_series(game);
  ASSERT_EQ(records.size(), 1u);
  const std::string text = write_rgn(records);
  auto read = read_rgn(text);
  ASSERT_TRUE(std::holds_alternative<std::vector<GameRecord>>(read))
      << std::get<ParseError>(read).text() << "\n"
      << text;
  const GameRecord& back = std::get<0>(read).front();
  ASSERT_EQ(back.plies.size(), records.front().plies.size());
  for (std::size_t i = 0; i < back.plies.size(); ++i) {
    const Ply& a = back.plies[i];
    const Ply b = as_rgn_keeps_it(back.rules, records.front().plies[i]);
    ASSERT_EQ(a, b) << "ply " << i << ": " << action_text(back.rules, a) << " (roll " << a.roll
                    << ") vs " << action_text(back.rules, b) << " (roll " << b.roll << ")\n"
                    << text;
  }
  EXPECT_EQ(back.rules, records.front().rules);
  const auto played = std::get<Replay>(replay(back));
  EXPECT_EQ(played.session.position(), game.position());
  EXPECT_EQ(played.winner, game.winner());
  EXPECT_EQ(write_rgn(std::get<0>(read)), text);
}

// 5,000 seeded games between computer seats: both bear-off rules, 3, 5 and 7 pieces.
TEST(RecordsProperties, FiveThousandSeededGamesRoundTripThroughRgn) {
  int games = 0;
  for (BearOff bear_off : {BearOff::Exact, BearOff::Any}) {
    for (int pieces : {3, 5, 7}) {
      for (std::uint64_t seed = 0; seed < 834 && games < 5000; ++seed, ++games) {
        session::Settings settings;
        settings.rules = finkel_rules(pieces, bear_off);
        settings.seats = {session::Seat{"random", {}}, session::Seat{"greedy", {}}};
        Session game = Session::start(settings, seed * 7919 + pieces, kNow);
        ASSERT_TRUE(game.drive(session::standard_agents(), kNow).accepted());
        ASSERT_EQ(game.phase(), session::Phase::Over);
        expect_round_trip(game);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  EXPECT_EQ(games, 5000);
}

std::vector<Rules> every_rule_set() {
  std::vector<Rules> sets;
  for (const NamedRuleSet& set : named_rule_sets()) sets.emplace_back(set.spec);
  for (PathKind path : {PathKind::Murray, PathKind::Skiriuk}) {
    RuleSpec spec = find_rule_set("masters")->spec;
    spec.path = path;
    spec.pieces = 3;
    spec.bear_off = BearOff::Any;
    spec.capture_gives_extra_throw = true;
    sets.emplace_back(spec);
  }
  return sets;
}

// Seeded games between computer seats in every named set and two custom ones (Murray's
// and Skiriuk's paths, which cross themselves): written, read and written again, the same.
TEST(RecordsProperties, SeededGamesOfEveryRuleSetRoundTripThroughRgn) {
  for (const Rules& rules : every_rule_set()) {
    SCOPED_TRACE(rule_set_title(rules));
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
      session::Settings settings;
      settings.rules = rules;
      settings.seats = {session::Seat{"random", {}}, session::Seat{"greedy", {}}};
      Session game = Session::start(settings, seed * 104'729 + 3, kNow);
      ASSERT_TRUE(game.drive(session::standard_agents(), kNow, 100'000).accepted());
      ASSERT_EQ(game.phase(), session::Phase::Over);
      expect_round_trip(game);
      const GameRecord record = records_of_series(game).front();
      auto read = read_rgn(write_rgn(record));
      ASSERT_TRUE(std::holds_alternative<std::vector<GameRecord>>(read));
      const GameRecord& back = std::get<0>(read).front();
      EXPECT_EQ(back.tags, record.tags);
      EXPECT_EQ(back.rules, record.rules);
      EXPECT_EQ(back.first, record.first);
      EXPECT_EQ(back.resigned, record.resigned);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// RapidCheck draws every choice of a person seat, so a failing game shrinks to few moves.
RC_GTEST_PROP(RecordsProperties, ChosenGamesRoundTripThroughRgn, ()) {
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto pieces = *rc::gen::inRange(1, 8);
  const auto choices = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 8));
  session::Settings settings = session::between_friends();
  settings.rules = finkel_rules(pieces, *rc::gen::element(BearOff::Exact, BearOff::Any));
  Session game = Session::start(settings, seed, kNow);
  for (int choice : choices) {
    if (game.phase() == session::Phase::Over) break;
    const Side side = game.to_move();
    if (game.phase() == session::Phase::Throw) game.act(session::ThrowIntent{}, side, kNow);
    if (game.phase() == session::Phase::Pass) {
      game.act(session::PassIntent{}, side, kNow);
    } else if (game.phase() == session::Phase::Move) {
      const MoveList moves = game.legal_moves();
      game.act(session::MoveIntent{moves[choice % moves.size()].from}, side, kNow);
    }
  }
  const std::vector<GameRecord> records = records_of_series(game);
  auto read = read_rgn(write_rgn(records));
  RC_ASSERT(std::holds_alternative<std::vector<GameRecord>>(read));
  const auto& back = std::get<0>(read).front().plies;
  RC_ASSERT(back.size() == records.front().plies.size());
  for (std::size_t i = 0; i < back.size(); ++i) {
    RC_ASSERT(back[i] == as_rgn_keeps_it(settings.rules, records.front().plies[i]));
  }
  const auto played = std::get<Replay>(replay(std::get<0>(read).front()));
  if (game.phase() != session::Phase::Move) RC_ASSERT(played.session.position() == game.position());
}

}  // namespace
}  // namespace ur::records
