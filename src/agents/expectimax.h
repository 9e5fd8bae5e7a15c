// Depth-limited expectiminimax over the dice ("expectimax:D", D counting throws, the root's
// known throw included). Values are the side to move's chance to win in [0, 1]; passing the
// turn to the other side turns a value v into 1 - v, an extra throw keeps it.
//
// Speed-ups, each switchable for tests and measurements:
//  - move ordering at max nodes by the static evaluation of the resulting position;
//  - a transposition table of chance-node values keyed by position and remaining depth,
//    cleared (by generation) at every root search, so a choice depends only on its input;
//  - alpha-beta windows at max nodes and Ballard's Star1 (and optionally Star2 probing)
//    at chance nodes, valid because every value lies in [0, 1].
// With any combination of these the root value equals plain expectiminimax.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/evaluation.h"

namespace ur {

struct SearchOptions {
  int depth = 3;  // throws searched, >= 1
  bool order_moves = true;
  bool transposition_table = true;
  bool star1 = true;
  bool star2 = false;                    // probing; see docs/strength.md for whether it pays
  const EvalWeights* weights = nullptr;  // nullptr: eval_weights() of the rules searched
};

struct SearchStats {
  std::uint64_t nodes = 0;        // max nodes plus chance nodes visited
  std::uint64_t evaluations = 0;  // static evaluations at the horizon
  std::uint64_t tt_hits = 0;      // chance nodes answered by the transposition table
};

struct SearchResult {
  Move move;
  double value = 0.0;  // the mover's chance to win after playing `move`
};

class ExpectimaxSearch {
 public:
  explicit ExpectimaxSearch(SearchOptions options);
  ~ExpectimaxSearch();
  ExpectimaxSearch(const ExpectimaxSearch&) = delete;
  ExpectimaxSearch& operator=(const ExpectimaxSearch&) = delete;

  // Precondition: the game is not over and `roll` has at least one legal move.
  SearchResult search(const Rules& rules, const Position& position, Roll roll);

  // Counters summed over every search so far.
  const SearchStats& stats() const { return stats_; }
  const SearchOptions& options() const { return options_; }

 private:
  struct Entry;
  double chance_value(const Position& position, int depth, double alpha, double beta);
  double max_value(const Position& position, Roll roll, int depth, double alpha, double beta,
                   Move* best_move);
  double value_after(const Position& position, const Move& move, int depth, double alpha,
                     double beta);
  double value_for(Side viewer, const Position& position, int depth, double alpha, double beta);

  SearchOptions options_;
  SearchStats stats_;
  const Rules* rules_ = nullptr;
  const EvalWeights* weights_ = nullptr;  // options_.weights, or those of rules_
  // The rolls of rules_, likeliest first so that Star1 bounds tighten fastest.
  std::array<Roll, 8> rolls_{};
  std::array<double, 8> roll_probabilities_{};
  int roll_count_ = 0;
  std::vector<Entry> table_;
  std::uint32_t generation_ = 0;
};

// Search depths accepted by "expectimax:D".
inline constexpr int kMinSearchDepth = 1;
inline constexpr int kMaxSearchDepth = 9;

// An agent that plays the search's best move and reports its value.
std::unique_ptr<Agent> make_expectimax_agent(std::string name, SearchOptions options);

}  // namespace ur
