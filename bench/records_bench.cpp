// Game records and review: RGN written and read back (with its replay check), and the
// review of a whole game from a solved table held in memory.
#include <benchmark/benchmark.h>

#include "analysis/review.h"
#include "protocol/record_json.h"
#include "records/rgn.h"
#include "solver/solver.h"
#include "tables/review_request.h"
#include "tables/table_store.h"
#include "tables/table_values.h"

namespace {

using namespace ur;

records::GameRecord played_game(int pieces, std::uint64_t seed = 2026, const char* light = "greedy",
                                const char* dark = "random") {
  session::Settings settings;
  settings.rules = finkel_rules(pieces);
  settings.seats = {session::Seat{light, {}}, session::Seat{dark, {}}};
  session::Session game = session::Session::start(settings, seed, 0);
  game.drive(session::standard_agents(), 0);
  return records::records_of_series(game).front();
}

// A 7-piece game of at least 200 throws (two random players take long).
records::GameRecord long_7_piece_game() {
  for (std::uint64_t seed = 1;; ++seed) {
    records::GameRecord record = played_game(7, seed, "random", "random");
    if (record.plies.size() >= 200) return record;
  }
}

// The 7-piece table where `ur solve --pieces 7` (make solve7) leaves it, memory-mapped.
std::shared_ptr<const tables::Table> table_7(benchmark::State& state) {
  std::string problem;
  auto table = tables::find_table(finkel_rules(7), &problem);
  if (!table) state.SkipWithError(("no 7-piece table (make solve7): " + problem).c_str());
  return table;
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

// The server's review of a 200-throw 7-piece game: the JSON record read and replayed, every
// throw and legal move looked up in the mapped table, the review written as JSON.
void BM_ReviewRequest7PiecesFromTable(benchmark::State& state) {
  if (!table_7(state)) return;
  const records::GameRecord record = long_7_piece_game();
  const auto replay = std::get<records::Replay>(records::replay(record));
  const nlohmann::json request = {{"record", protocol::to_json(record, replay)}};
  for (auto _ : state) benchmark::DoNotOptimize(tables::review_request(request));
  state.counters["plies"] = static_cast<double>(record.plies.size());
}
BENCHMARK(BM_ReviewRequest7PiecesFromTable)->Unit(benchmark::kMillisecond);

// One live hint: both chances and every legal move's, for a 7-piece mid-game throw.
void BM_Hint7PiecesFromTable(benchmark::State& state) {
  auto table = table_7(state);
  if (!table) return;
  tables::TableValues values(table);
  const Rules rules = finkel_rules(7);
  const records::GameRecord record = long_7_piece_game();
  const auto replay = std::get<records::Replay>(records::replay(record));
  // The middle throw with the most legal moves.
  std::size_t best = 0;
  int most = -1;
  for (std::size_t i = replay.plies.size() / 4; i < replay.plies.size() * 3 / 4; ++i) {
    const int count = static_cast<int>(
        legal_moves(rules, replay.plies[i - 1].after, replay.plies[i].ply.roll).size());
    if (count > most) {
      most = count;
      best = i;
    }
  }
  const Position position = replay.plies[best - 1].after;
  const Roll roll = replay.plies[best].ply.roll;
  for (auto _ : state) {
    benchmark::DoNotOptimize(values.before_throw(rules, position));
    benchmark::DoNotOptimize(analysis::rank_moves(rules, position, roll, values));
  }
  state.counters["moves"] = most;
}
BENCHMARK(BM_Hint7PiecesFromTable)->Unit(benchmark::kMicrosecond);

}  // namespace
