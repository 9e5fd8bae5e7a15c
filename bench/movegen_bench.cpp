// Move generation and perft throughput over a fixed set of positions.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "core/movegen.h"
#include "core/perft.h"

namespace ur {
namespace {

// 1,000 positions reached by seeded random play from the opening.
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

void BM_LegalMoves(benchmark::State& state) {
  const Rules rules = finkel_rules();
  const auto positions = sample_positions(rules);
  std::size_t generated = 0;
  for (auto _ : state) {
    for (const Position& position : positions) {
      for (Roll roll = 1; roll <= 4; ++roll) {
        const MoveList moves = legal_moves(rules, position, roll);
        benchmark::DoNotOptimize(moves);
        generated += 1;
      }
    }
  }
  state.counters["movelists/s"] =
      benchmark::Counter(static_cast<double>(generated), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LegalMoves);

void BM_Perft(benchmark::State& state) {
  const Rules rules = finkel_rules();
  const int depth = static_cast<int>(state.range(0));
  std::uint64_t leaves = 0;
  for (auto _ : state) leaves += perft(rules, starting_position(rules), depth);
  state.counters["leaves/s"] =
      benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Perft)->Arg(5)->Arg(6)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ur
