// Game records and review: RGN written and read back (with its replay check), and the
// review of a whole game from a solved table held in memory.
#include <benchmark/benchmark.h>

#include "analysis/review.h"
#include "records/rgn.h"
#include "solver/solver.h"
#include "tables/table_values.h"

namespace {

using namespace ur;

records::GameRecord played_game(int pieces) {
  session::Settings settings;
  settings.rules = finkel_rules(pieces);
  settings.seats = {session::Seat{"greedy", {}}, session::Seat{"random", {}}};
  session::Session game = session::Session::start(settings, 2026, 0);
  game.drive(session::standard_agents(), 0);
  return records::records_of_series(game).front();
}

void BM_RgnWriteAndRead7Pieces(benchmark::State& state) {
  const records::GameRecord record = played_game(7);
  for (auto _ : state) {
    const std::string text = records::write_rgn(record);
    auto read = records::read_rgn(text);
    benchmark::DoNotOptimize(read);
  }
  state.counters["plies"] = static_cast<double>(record.plies.size());
}
BENCHMARK(BM_RgnWriteAndRead7Pieces)->Unit(benchmark::kMicrosecond);

void BM_Review3PiecesFromTable(benchmark::State& state) {
  const Rules rules = finkel_rules(3);
  solver::SolveOptions options;
  options.threads = 1;
  const auto table = tables::Table::from_values(
      rules, solver::solve(solver::PositionIndex(rules), options, {}, nullptr).values);
  tables::TableValues values(table);
  const records::GameRecord record = played_game(3);
  const auto replay = std::get<records::Replay>(records::replay(record));
  for (auto _ : state) {
    benchmark::DoNotOptimize(analysis::review(record, replay, values));
  }
  state.counters["plies"] = static_cast<double>(record.plies.size());
}
BENCHMARK(BM_Review3PiecesFromTable)->Unit(benchmark::kMicrosecond);

}  // namespace
