// Verification: the Bellman residual of every position, recomputed once through movegen,
// independent of the plans and sweeps.
#include <cmath>

#include "solver/solver.h"
#include "solver/solver_detail.h"

namespace ur::solver {

using detail::run_workers;

VerifyResult verify(const PositionIndex& index, const std::function<double(std::uint64_t)>& value,
                    int threads) {
  threads = std::max(1, threads);
  const std::span<const Block> blocks = index.blocks();
  const int pieces = index.rules().pieces;
  std::atomic<std::size_t> next{0};
  std::vector<VerifyResult> partial(threads);
  const auto worker = [&](int thread) {
    VerifyResult& mine = partial[thread];
    for (;;) {
      const std::size_t b = next.fetch_add(1);
      if (b >= blocks.size()) break;
      const Block& block = blocks[b];
      std::uint64_t at = block.offset;
      for (int row = 0; row < block.rows; ++row) {
        for (int column = 0; column < block.columns; ++column, ++at) {
          const double expected =
              block.home_theirs == pieces
                  ? 0.0
                  : bellman_value(index, index.block_position(block, row, column), value);
          const double residual = std::abs(expected - value(at));
          if (residual > mine.max_residual) mine = {residual, at};
        }
      }
    }
  };
  run_workers(threads, worker);
  VerifyResult result;
  for (const VerifyResult& part : partial) {
    if (part.max_residual > result.max_residual) result = part;
  }
  return result;
}

}  // namespace ur::solver
