#include "solver/solver.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <tuple>

#include "core/notation.h"
#include "core/rule_sets.h"

namespace ur::solver {
namespace {

struct Solved {
  PositionIndex index;
  std::vector<double> values;
  double value(const Position& position) const { return values[index.rank(position)]; }
};

const Solved& solved(int pieces) {
  static std::vector<std::unique_ptr<Solved>> cache(Rules::kMaxPieces + 1);
  if (!cache[pieces]) {
    PositionIndex index(finkel_rules(pieces));
    SolveOptions options;
    options.threads = 2;
    options.tolerance = 1e-13;  // tight, so the pinned values below hold to 1e-11
    SolveResult result = solve(index, options, {}, nullptr);
    cache[pieces] = std::make_unique<Solved>(Solved{std::move(index), std::move(result.values)});
  }
  return *cache[pieces];
}

Position parse(const std::string& text, int pieces) {
  return std::get<Position>(parse_text(text, finkel_rules(pieces)));
}

// Published values for light to move at the start, exact bear-off.
TEST(Solver, StartValuesMatchPublishedFigures) {
  EXPECT_NEAR(solved(1).value(starting_position(finkel_rules(1))), 0.530049839525, 1e-11);
  EXPECT_NEAR(solved(2).value(starting_position(finkel_rules(2))), 0.518572907496, 1e-11);
  EXPECT_NEAR(solved(3).value(starting_position(finkel_rules(3))), 0.516201102238, 1e-11);
}

// The exact cases of rules.md.
TEST(Solver, SmallExactCases) {
  EXPECT_NEAR(solved(1).value(parse("L:0/14/0:0/14/0", 1)), 4.0 / 7.0, 1e-12);
  EXPECT_NEAR(solved(1).value(parse("L:0/13/0:0/14/0", 1)), 116.0 / 161.0, 1e-12);
}

TEST(Solver, DarkToMoveIsTheMirroredValue) {
  const Position light = starting_position(finkel_rules(2));
  EXPECT_EQ(solved(2).value(light), solved(2).value(mirror(light)));
}

TEST(Solver, ResidualOfTheSolvedTableIsWithinTolerance) {
  const Solved& three = solved(3);
  const VerifyResult result = verify(
      three.index, [&](std::uint64_t at) { return three.values[at]; }, 2);
  EXPECT_LE(result.max_residual, 1e-9);
}

// Pairs too big for the compiled-list budget sweep their row plans instead (7 pieces). Both
// paths, alone and mixed, must reach the same fixed point, whatever the bear-off rule.
TEST(Solver, RowPlanAndCompiledSweepsReachTheSameValues) {
  for (const BearOff bear_off : {BearOff::Exact, BearOff::Any}) {
    const PositionIndex index(finkel_rules(3, bear_off));
    std::vector<double> reference;
    for (const std::size_t budget :
         {SolveOptions{}.compiled_pair_bytes, std::size_t{0}, std::size_t{1} << 20}) {
      SolveOptions options;
      options.threads = 2;
      options.tolerance = 1e-13;
      options.compiled_pair_bytes = budget;
      std::uint64_t solved_states = 0;  // the terminal layers are not solved
      const SolveResult result = solve(
          index, options, [&](const SolveProgress& p) { solved_states = p.states_total; }, nullptr);
      ASSERT_EQ(result.values.size(), index.size());
      // The default budget compiles every pair, none fits 0 bytes, and 1 MiB mixes the two.
      if (budget == 0) {
        EXPECT_EQ(result.compiled_states, 0u);
      } else if (budget == SolveOptions{}.compiled_pair_bytes) {
        EXPECT_EQ(result.compiled_states, solved_states);
      } else {
        EXPECT_GT(result.compiled_states, 0u);
        EXPECT_LT(result.compiled_states, solved_states);
      }
      if (reference.empty()) {
        reference = result.values;
        continue;
      }
      double largest = 0.0;
      for (std::size_t at = 0; at < reference.size(); ++at) {
        largest = std::max(largest, std::abs(result.values[at] - reference[at]));
      }
      EXPECT_LT(largest, 1e-11) << "budget " << budget;
    }
  }
}

TEST(Solver, CancelStopsWithoutValues) {
  const PositionIndex index(finkel_rules(2));
  const std::atomic<bool> cancel{true};
  const SolveResult result = solve(index, SolveOptions{}, {}, &cancel);
  EXPECT_TRUE(result.cancelled);
  EXPECT_TRUE(result.values.empty());
}

TEST(Solver, ProgressReachesEveryPair) {
  const PositionIndex index(finkel_rules(2));
  SolveProgress last;
  int calls = 0;
  solve(
      index, SolveOptions{}, [&](const SolveProgress& p) { last = p, ++calls; }, nullptr);
  EXPECT_GT(calls, 0);
  EXPECT_EQ(last.pair, last.pairs);
  EXPECT_EQ(last.states_done, last.states_total);
}

// An independent solver: plain value iteration (in place; no layers, mirrors or index) over
// the positions reachable from the start, numbered through a map by the mover's view.
struct BruteForce {
  std::map<std::tuple<std::array<SquareMask, 2>, std::array<std::uint8_t, 2>>, int> ids;
  std::vector<double> values;
  double value(const Position& p) const {
    const Position view = p.turn == Side::Light ? p : mirror(p);
    return values[ids.at({view.board, view.home})];
  }
};

BruteForce brute_force(const Rules& rules) {
  BruteForce solved;
  std::vector<Position> positions;
  // A successor: id * 2 + (1 when the opponent moves next: value 1 - V); -1 a win.
  std::vector<std::vector<std::vector<int>>> successors;
  const auto id_of = [&](const Position& after, bool flip) {
    if (is_game_over(rules, after)) return -1;
    const Position view = after.turn == Side::Light ? after : mirror(after);
    const auto [at, added] =
        solved.ids.try_emplace({view.board, view.home}, static_cast<int>(positions.size()));
    if (added) positions.push_back(view);
    return at->second * 2 + (flip ? 1 : 0);
  };
  id_of(starting_position(rules), false);
  for (std::size_t k = 0; k < positions.size(); ++k) {
    const Position position = positions[k];
    std::vector<std::vector<int>> rolls;
    for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
      std::vector<int> next;
      for (const Move& move : legal_moves(rules, position, roll)) {
        const Position after = apply_move(rules, position, move);
        next.push_back(id_of(after, after.turn != Side::Light));
      }
      if (next.empty()) next.push_back(id_of(pass_turn(position), true));
      rolls.push_back(std::move(next));
    }
    successors.push_back(std::move(rolls));
  }
  solved.values.assign(positions.size(), 0.0);
  for (double change = 1.0; change > 1e-14;) {
    change = 0.0;
    for (std::size_t k = 0; k < positions.size(); ++k) {
      double expected = 0.0;
      for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
        double best = 0.0;
        for (const int next : successors[k][roll]) {
          const double v = next < 0        ? 1.0
                           : next % 2 == 0 ? solved.values[next / 2]
                                           : 1.0 - solved.values[next / 2];
          best = std::max(best, v);
        }
        expected += roll_probability(rules, roll) * best;
      }
      change = std::max(change, std::abs(expected - solved.values[k]));
      solved.values[k] = expected;
    }
  }
  return solved;
}

SolveResult solve_tightly(const PositionIndex& index) {
  SolveOptions options;
  options.threads = 2;
  options.tolerance = 1e-13;
  return solve(index, options, {}, nullptr);
}

TEST(Solver, AgreesWithBruteForceInEveryNamedSet) {
  for (const NamedRuleSet& set : named_rule_sets()) {
    for (int pieces = 1; pieces <= 2; ++pieces) {
      for (const BearOff bear_off : {BearOff::Exact, BearOff::Any}) {
        Rules rules = named_rules(set.name, pieces);
        rules.bear_off = bear_off;
        const PositionIndex index(rules);
        const SolveResult result = solve_tightly(index);
        const BruteForce reference = brute_force(rules);
        double largest = 0.0;
        for (const auto& [key, id] : reference.ids) {
          Position position;
          position.board = std::get<0>(key);
          position.home = std::get<1>(key);
          for (int side = 0; side < 2; ++side) {
            position.start[side] = static_cast<std::uint8_t>(rules.pieces - position.home[side] -
                                                             std::popcount(position.board[side]));
          }
          largest = std::max(largest,
                             std::abs(result.values[index.rank(position)] - reference.values[id]));
        }
        EXPECT_LT(largest, 1e-10) << set.name << " " << pieces << " " << to_string(bear_off);
        EXPECT_GT(reference.values.size(), index.size() / 4) << set.name;  // most are reached
      }
    }
  }
}

// ur's start values (first mover, exact bear-off) of the other named sets at small piece counts;
// the 2-piece ones are also what the brute-force solver above reaches. The full sets' published
// values are checked by `make solve-check`.
TEST(Solver, StartValuesOfEveryNamedSetAtSmallPieceCounts) {
  const struct {
    const char* set;
    int pieces;
    double start;
  } pinned[] = {
      {"masters", 2, 0.510354915527}, {"masters", 3, 0.507578176742}, {"blitz", 2, 0.505027398163},
      {"blitz", 3, 0.504840844922},   {"aseb", 2, 0.512826741104},    {"aseb", 3, 0.509184392165},
  };
  for (const auto& [set, pieces, start] : pinned) {
    const Rules rules = named_rules(set, pieces);
    const PositionIndex index(rules);
    const SolveResult result = solve_tightly(index);
    EXPECT_NEAR(result.values[index.rank(starting_position(rules))], start, 1e-11)
        << set << " " << pieces;
  }
}

RC_GTEST_PROP(Solver, ValuesAreProbabilities, ()) {
  const Solved& three = solved(3);
  const std::uint64_t at = *rc::gen::inRange<std::uint64_t>(0, three.index.size());
  RC_ASSERT(three.values[at] >= 0.0);
  RC_ASSERT(three.values[at] <= 1.0);
}

}  // namespace
}  // namespace ur::solver
