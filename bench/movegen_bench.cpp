// Move generation and perft throughput over a fixed set of positions.
// Run: build/release/bench/ur_bench --benchmark_filter='LegalMoves|Apply|Perft'
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "core/movegen.h"
#include "core/perft.h"

namespace ur {
namespace {

// 1,000 positions reached by seeded random play from the opening (games restart when over).
std::vector<Position> sample_positions(const Rules& rules) {
  std::vector<Position> positions;
  std::mt19937_64 random(20261130);
  Position position = starting_position(rules);
  while (positions.size() < 1000) {
    if (is_game_over(rules, position)) position = starting_position(rules);
    const Roll roll = static_cast<Roll>(std::popcount(random() & 0xF));
    const MoveList moves = legal_moves(rules, position, roll);
    position = moves.empty() ? pass_turn(position)
                             : apply_move(rules, position, moves[random() % moves.size()]);
    positions.push_back(position);
  }
  return positions;
}

// Full move lists (from, to, capture, extra throw) for rolls 1..4 of every sample position.
void BM_LegalMoves(benchmark::State& state) {
  const Rules rules = finkel_rules();
  const auto positions = sample_positions(rules);
  std::size_t lists = 0;
  std::size_t moves_made = 0;
  for (auto _ : state) {
    for (const Position& position : positions) {
      for (Roll roll = 1; roll <= 4; ++roll) {
        const MoveList moves = legal_moves(rules, position, roll);
        benchmark::DoNotOptimize(moves);
        ++lists;
        moves_made += moves.size();
      }
    }
  }
  state.counters["movelists/s"] =
      benchmark::Counter(static_cast<double>(lists), benchmark::Counter::kIsRate);
  state.counters["moves/s"] =
      benchmark::Counter(static_cast<double>(moves_made), benchmark::Counter::kIsRate);
  state.counters["ns/movelist"] = benchmark::Counter(
      static_cast<double>(lists), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_LegalMoves);

// Move counts only, as perft's last ply and the solver's pass test use them.
void BM_CountLegalMoves(benchmark::State& state) {
  const Rules rules = finkel_rules();
  const auto positions = sample_positions(rules);
  std::size_t counted = 0;
  for (auto _ : state) {
    for (const Position& position : positions) {
      for (Roll roll = 1; roll <= 4; ++roll) {
        benchmark::DoNotOptimize(count_legal_moves(rules, position, roll));
        ++counted;
      }
    }
  }
  state.counters["counts/s"] =
      benchmark::Counter(static_cast<double>(counted), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CountLegalMoves);

// Generating every move for rolls 1..4 and applying each one.
void BM_GenerateAndApply(benchmark::State& state) {
  const Rules rules = finkel_rules();
  const auto positions = sample_positions(rules);
  std::size_t applied = 0;
  for (auto _ : state) {
    for (const Position& position : positions) {
      for (Roll roll = 1; roll <= 4; ++roll) {
        for (const Move& move : legal_moves(rules, position, roll)) {
          benchmark::DoNotOptimize(apply_move(rules, position, move));
          ++applied;
        }
      }
    }
  }
  state.counters["applied/s"] =
      benchmark::Counter(static_cast<double>(applied), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GenerateAndApply);

// Perft from the opening under Finkel rules with 7 pieces; the argument is the depth.
void BM_Perft(benchmark::State& state) {
  const Rules rules = finkel_rules();
  const int depth = static_cast<int>(state.range(0));
  std::uint64_t leaves = 0;
  for (auto _ : state) leaves += perft(rules, starting_position(rules), depth);
  state.counters["leaves/s"] =
      benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Perft)->DenseRange(5, 8)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ur
