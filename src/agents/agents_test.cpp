// Agent specs, legality of every agent's moves, and determinism from a seed.
#include "agents/agent.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "agents/evaluation.h"
#include "agents/levels.h"
#include "agents/test_positions.h"
#include "core/rule_sets.h"
#include "core/test_support.h"

#include <random>

namespace ur {
namespace {

std::unique_ptr<Agent> agent(std::string_view spec, std::uint64_t seed = 1) {
  auto made = make_agent(spec, seed);
  if (auto* error = std::get_if<AgentSpecError>(&made)) {
    ADD_FAILURE() << error->message;
    return nullptr;
  }
  return std::move(std::get<std::unique_ptr<Agent>>(made));
}

std::string spec_error(std::string_view spec) {
  auto made = make_agent(spec, 1);
  if (auto* error = std::get_if<AgentSpecError>(&made)) return error->message;
  return {};
}

TEST(AgentSpec, BuildsEveryBuiltinKindAndLevel) {
  for (const char* spec : {"random", "first", "last", "greedy", "expectimax:1", "expectimax:9",
                           "easy", "medium", "hard", "expert"}) {
    auto built = agent(spec);
    ASSERT_TRUE(built) << spec;
    EXPECT_EQ(built->name(), spec);
  }
}

TEST(AgentSpec, RejectsBadSpecsSayingWhatIsAccepted) {
  const struct {
    const char* spec;
    const char* says;
  } cases[] = {
      {"", "empty"},
      {"minimax", "unknown agent \"minimax\""},
      {"expectimax", "needs a depth"},
      {"expectimax:", "needs a depth"},
      {"expectimax:0", "between 1 and 9, got 0"},
      {"expectimax:10", "between 1 and 9, got 10"},
      {"expectimax:-3", "between 1 and 9"},
      {"expectimax:3x", "not a whole number"},
      {"expectimax: 3", "not a whole number"},
      {"expectimax:99999999999", "not a whole number"},
      {"random:7", "takes no argument"},
      {"hard:", "takes no argument"},
      {"Hard", "unknown agent"},
      {"perfect", "not part of this build"},
  };
  for (const auto& [spec, says] : cases) {
    const std::string message = spec_error(spec);
    EXPECT_NE(message.find(says), std::string::npos) << spec << ": " << message;
    EXPECT_NE(message.find("accepted specs: random, first, last, greedy, heuristic, expectimax:D"),
              std::string::npos)
        << message;
  }
}

std::variant<std::unique_ptr<Agent>, AgentSpecError> make_echo_agent(std::string_view argument,
                                                                     std::uint64_t seed) {
  if (argument == "bad") return AgentSpecError{"echo: bad argument"};
  return make_agent("expectimax:" + std::string(argument.empty() ? "1" : argument), seed);
}

TEST(AgentSpec, RegisteredKindsAreBuiltAndListed) {
  register_agent_kind("echo", &make_echo_agent, "echo[:D]  test kind");
  auto built = agent("echo:2");
  ASSERT_TRUE(built);
  EXPECT_EQ(built->name(), "expectimax:2");
  EXPECT_EQ(spec_error("echo:bad"), "echo: bad argument");
  const auto specs = accepted_agent_specs();
  EXPECT_EQ(specs.back(), "echo[:D]  test kind");
  EXPECT_NE(spec_error("nonsense").find("echo[:D]"), std::string::npos);
}

RC_GTEST_PROP(AgentSpec, GarbageNeverCrashes, (const std::string& spec)) {
  auto made = make_agent(spec, 1);
  if (auto* error = std::get_if<AgentSpecError>(&made)) {
    RC_ASSERT(!error->message.empty());
  } else {
    RC_ASSERT(std::get<std::unique_ptr<Agent>>(made) != nullptr);
  }
}

TEST(AgentSpec, SearchDepthOfSpecs) {
  EXPECT_EQ(search_depth_of("hard"), 3);
  EXPECT_EQ(search_depth_of("expert"), 5);
  EXPECT_EQ(search_depth_of("expectimax:7"), 7);
  EXPECT_EQ(search_depth_of("easy"), std::nullopt);
  EXPECT_EQ(search_depth_of("greedy"), std::nullopt);
  EXPECT_EQ(search_depth_of("expectimax:0"), std::nullopt);
  EXPECT_EQ(search_depth_of("expectimax:4x"), std::nullopt);
}

TEST(AgentSpec, LevelsAreOrderedWeakestFirst) {
  const auto levels = level_presets();
  ASSERT_EQ(levels.size(), 4u);
  EXPECT_EQ(levels[0].name, "easy");
  EXPECT_GE(levels[2].search_depth, 3);  // hard looks at least 3 throws ahead
  EXPECT_GE(levels[3].search_depth, 5);  // expert at least 5
}

void expect_only_legal_moves(std::string_view spec, const Rules& rules, int count) {
  auto player = agent(spec, 7);
  ASSERT_TRUE(player);
  for (const auto& [position, roll] : testing::random_positions(rules, count, 99)) {
    const MoveList moves = legal_moves(rules, position, roll);
    const AgentChoice choice = player->choose(rules, position, roll);
    const Move* legal = find_move(moves, choice.move.from);
    ASSERT_TRUE(legal && *legal == choice.move) << spec;
    if (choice.value) {
      ASSERT_GE(*choice.value, 0.0);
      ASSERT_LE(*choice.value, 1.0);
    }
  }
}

TEST(Agents, OnlyPlayLegalMoves) {
  for (const Rules& rules : {finkel_rules(7), finkel_rules(3, BearOff::Any), finkel_rules(1)}) {
    for (const char* spec :
         {"random", "first", "last", "greedy", "easy", "expectimax:1", "medium"}) {
      expect_only_legal_moves(spec, rules, 3000);
    }
    expect_only_legal_moves("hard", rules, 300);
    expect_only_legal_moves("expert", rules, 10);
  }
}

TEST(Agents, FirstAndLastMoveTheExtremePieces) {
  const Rules rules = finkel_rules();
  for (const auto& [position, roll] : testing::random_positions(rules, 500, 5)) {
    const MoveList moves = legal_moves(rules, position, roll);
    EXPECT_EQ(agent("first")->choose(rules, position, roll).move.from,
              moves[moves.size() - 1].from);
    EXPECT_EQ(agent("last")->choose(rules, position, roll).move.from, moves[0].from);
  }
}

// Plays one game between two fresh agents with seeded dice; returns the moves played.
std::vector<Move> play_game(std::string_view light, std::string_view dark, std::uint64_t seed) {
  const Rules rules = finkel_rules();
  auto players = std::array{agent(light, seed), agent(dark, seed + 1)};
  SplitMix64 dice(seed);
  Position position = starting_position(rules);
  std::vector<Move> played;
  while (!is_game_over(rules, position)) {
    const Roll roll = throw_dice(rules, dice);
    if (legal_moves(rules, position, roll).empty()) {
      position = pass_turn(position);
      continue;
    }
    const Move move = players[index_of(position.turn)]->choose(rules, position, roll).move;
    played.push_back(move);
    position = apply_move(rules, position, move);
  }
  return played;
}

TEST(Agents, ASeededAgentPlaysTheSameGameTwice) {
  for (const char* spec : {"random", "easy", "hard"}) {
    const auto first = play_game(spec, "random", 42);
    EXPECT_EQ(first, play_game(spec, "random", 42)) << spec;
    EXPECT_GT(first.size(), 20u);
  }
  EXPECT_NE(play_game("random", "random", 1), play_game("random", "random", 2));
}

}  // namespace
}  // namespace ur

namespace ur {
namespace {

// Every agent kind plays every named set (and a custom path that crosses itself) to the end
// from seeded throws, choosing only legal moves.
TEST(AgentsInEveryRuleSet, EveryAgentFinishesGamesWithLegalMoves) {
  std::vector<Rules> sets;
  for (const NamedRuleSet& set : named_rule_sets()) sets.emplace_back(set.spec);
  RuleSpec murray = named_rule_sets()[1].spec;
  murray.path = PathKind::Murray;
  murray.pieces = 3;
  sets.emplace_back(murray);
  std::mt19937_64 random(2026);
  for (const Rules& rules : sets) {
    for (const char* spec : {"random", "first", "last", "greedy", "heuristic", "easy", "hard"}) {
      auto player = agent(spec, 3);
      ASSERT_TRUE(player);
      ASSERT_FALSE(player->cannot_play(rules).has_value()) << spec;
      Position position = starting_position(rules);
      int plies = 0;
      while (!is_game_over(rules, position)) {
        ASSERT_LT(++plies, 20000) << spec << " in " << rule_set_title(rules);
        const Roll roll = testing::random_roll(random, rules);
        const MoveList moves = legal_moves(rules, position, roll);
        if (moves.empty()) {
          position = pass_turn(position);
          continue;
        }
        const AgentChoice choice = player->choose(rules, position, roll);
        ASSERT_NE(find_move(moves, choice.move.from), nullptr) << spec;
        ASSERT_EQ(*find_move(moves, choice.move.from), choice.move) << spec;
        position = apply_move(rules, position, choice.move);
      }
    }
  }
}

TEST(AgentsInEveryRuleSet, HitChanceFollowsTheOpponentsNumbering) {
  const Rules masters(named_rule_sets()[1].spec);
  // Light's C7 is its 12 and dark's 16; a dark piece on its 14 (B8) hits it with a 2.
  EXPECT_DOUBLE_EQ(hit_chance(masters, square_bit(14), 12), roll_probability(masters, 2));
  // From dark's 11 (B7) the same tile is 5 squares on: out of reach.
  EXPECT_DOUBLE_EQ(hit_chance(masters, square_bit(11), 12), 0.0);
  // Finkel: square 8 is safe, square 9 is hit from 5..8.
  const Rules finkel;
  EXPECT_DOUBLE_EQ(hit_chance(finkel, square_bit(6), 8), 0.0);
  EXPECT_DOUBLE_EQ(hit_chance(finkel, square_bit(6), 9), roll_probability(finkel, 3));
}

}  // namespace
}  // namespace ur
