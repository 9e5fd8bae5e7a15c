#include "agents/expectimax.h"

#include <algorithm>
#include <array>

namespace ur {
namespace {

enum class Bound : std::uint8_t { Exact, Lower, Upper };

// Position and remaining depth packed into one word; every field fits its bits for up to
// 7 pieces and route squares below 16.
std::uint64_t table_key(const Position& position, int depth) {
  return std::uint64_t{position.board[0]} | std::uint64_t{position.board[1]} << 16 |
         std::uint64_t{position.start[0]} << 32 | std::uint64_t{position.start[1]} << 36 |
         std::uint64_t{position.home[0]} << 40 | std::uint64_t{position.home[1]} << 44 |
         std::uint64_t{static_cast<std::uint8_t>(position.turn)} << 48 |
         static_cast<std::uint64_t>(depth) << 52;
}

// Table sizes by depth: shallow searches visit few chance nodes, so they get a small table
// that is cheap to allocate (the engine builds a fresh agent per request).
int table_bits(int depth) {
  if (depth <= 2) return 12;
  if (depth <= 3) return 16;
  if (depth <= 5) return 19;
  return 21;
}

}  // namespace

struct ExpectimaxSearch::Entry {
  std::uint64_t key = 0;
  double value = 0.0;
  std::uint32_t generation = 0;  // 0 never matches: generations start at 1
  Bound bound = Bound::Exact;
};

ExpectimaxSearch::ExpectimaxSearch(SearchOptions options) : options_(options) {}
ExpectimaxSearch::~ExpectimaxSearch() = default;

SearchResult ExpectimaxSearch::search(const Rules& rules, const Position& position, Roll roll) {
  rules_ = &rules;
  weights_ = options_.weights ? options_.weights : &eval_weights(rules);
  roll_count_ = 0;
  for (Roll each = 0; each <= rules.max_roll(); ++each) {
    if (possible_roll(rules, each)) rolls_[roll_count_++] = each;
  }
  std::stable_sort(rolls_.begin(), rolls_.begin() + roll_count_, [&rules](Roll a, Roll b) {
    return roll_weight(rules, a) > roll_weight(rules, b);
  });
  for (int i = 0; i < roll_count_; ++i) roll_probabilities_[i] = roll_probability(rules, rolls_[i]);
  if (options_.transposition_table) {
    if (table_.empty()) table_.resize(std::size_t{1} << table_bits(options_.depth));
    if (++generation_ == 0) {
      std::fill(table_.begin(), table_.end(), Entry{});
      generation_ = 1;
    }
  }
  SearchResult result;
  result.value = max_value(position, roll, options_.depth, 0.0, 1.0, &result.move);
  return result;
}

double ExpectimaxSearch::value_for(Side viewer, const Position& position, int depth, double alpha,
                                   double beta) {
  const bool same_side = position.turn == viewer;
  double value;
  if (depth == 0) {
    ++stats_.evaluations;
    value = evaluate(*rules_, position, *weights_);
  } else if (same_side) {
    value = chance_value(position, depth, alpha, beta);
  } else {
    value = chance_value(position, depth, 1.0 - beta, 1.0 - alpha);
  }
  return same_side ? value : 1.0 - value;
}

double ExpectimaxSearch::value_after(const Position& position, const Move& move, int depth,
                                     double alpha, double beta) {
  const Position child = apply_move(*rules_, position, move);
  if (is_game_over(*rules_, child)) return winner(*rules_, child) == position.turn ? 1.0 : 0.0;
  return value_for(position.turn, child, depth, alpha, beta);
}

double ExpectimaxSearch::max_value(const Position& position, Roll roll, int depth, double alpha,
                                   double beta, Move* best_move) {
  ++stats_.nodes;
  const MoveList moves = legal_moves(*rules_, position, roll);
  if (moves.empty()) return value_for(position.turn, pass_turn(position), depth - 1, alpha, beta);

  // Search order: best static evaluation of the resulting position first. Above the
  // horizon only; at it, each child costs one evaluation anyway.
  std::array<int, MoveList::kCapacity> order{};
  for (int i = 0; i < moves.size(); ++i) order[i] = i;
  if (options_.order_moves && depth > 1 && moves.size() > 1) {
    std::array<double, MoveList::kCapacity> score{};
    for (int i = 0; i < moves.size(); ++i) {
      const Position child = apply_move(*rules_, position, moves[i]);
      if (is_game_over(*rules_, child)) {
        score[i] = 2.0;
      } else {
        const double value = evaluate(*rules_, child, *weights_);
        score[i] = child.turn == position.turn ? value : 1.0 - value;
      }
    }
    std::stable_sort(order.begin(), order.begin() + moves.size(),
                     [&score](int a, int b) { return score[a] > score[b]; });
  }

  double best = -1.0;
  for (int k = 0; k < moves.size(); ++k) {
    const Move& move = moves[order[k]];
    const double value = value_after(position, move, depth - 1, std::max(alpha, best), beta);
    if (value > best) {
      best = value;
      if (best_move) *best_move = move;
      if (best >= beta) break;
    }
  }
  return best;
}

double ExpectimaxSearch::chance_value(const Position& position, int depth, double alpha,
                                      double beta) {
  ++stats_.nodes;
  Entry* entry = nullptr;
  const std::uint64_t key = table_key(position, depth);
  if (options_.transposition_table) {
    entry = &table_[(key * 0x9e3779b97f4a7c15ULL) >> (64 - table_bits(options_.depth))];
    if (entry->generation == generation_ && entry->key == key) {
      if (entry->bound == Bound::Exact || (entry->bound == Bound::Lower && entry->value >= beta) ||
          (entry->bound == Bound::Upper && entry->value <= alpha)) {
        ++stats_.tt_hits;
        return entry->value;
      }
    }
  }
  const auto store = [&](double value, Bound bound) {
    if (entry) *entry = Entry{key, value, generation_, bound};
    return value;
  };

  const bool windowed = options_.star1 || options_.star2;

  // Star2: a lower bound for each roll from its first move alone; enough of them can prove
  // the node fails high without a full search.
  std::array<double, 8> lower{};
  double lower_sum = 0.0;  // sum of probability * lower bound over the rolls not yet searched
  if (options_.star2) {
    for (int i = 0; i < roll_count_; ++i) {
      const MoveList moves = legal_moves(*rules_, position, rolls_[i]);
      if (moves.empty()) continue;
      const double p = roll_probabilities_[i];
      const double probe_beta = std::min(1.0, (beta - lower_sum) / p);
      lower[i] = value_after(position, moves[moves.size() - 1], depth - 1, 0.0, probe_beta);
      lower_sum += p * lower[i];
      if (lower_sum >= beta) return store(lower_sum, Bound::Lower);
    }
  }

  double sum = 0.0;         // probability-weighted values of the rolls searched
  double upper_rest = 1.0;  // probability of the rolls not yet searched (values <= 1)
  for (int i = 0; i < roll_count_; ++i) {
    const double p = roll_probabilities_[i];
    upper_rest -= p;
    lower_sum -= p * lower[i];
    double child_alpha = 0.0;
    double child_beta = 1.0;
    if (windowed) {
      // The node's value is sum + p * v + rest, rest within [lower_sum, upper_rest].
      child_alpha = (alpha - sum - upper_rest) / p;
      child_beta = (beta - sum - lower_sum) / p;
      if (child_alpha >= 1.0) return store(sum + p + upper_rest, Bound::Upper);
      if (child_beta <= lower[i]) return store(sum + p * lower[i] + lower_sum, Bound::Lower);
    }
    const double value = max_value(position, rolls_[i], depth, std::max(child_alpha, 0.0),
                                   std::min(child_beta, 1.0), nullptr);
    sum += p * value;
    if (windowed) {
      if (value <= child_alpha) return store(sum + upper_rest, Bound::Upper);
      if (value >= child_beta) return store(sum + lower_sum, Bound::Lower);
    }
  }
  return store(sum, Bound::Exact);
}

namespace {

class ExpectimaxAgent final : public Agent {
 public:
  ExpectimaxAgent(std::string name, SearchOptions options)
      : name_(std::move(name)), search_(options) {}
  AgentChoice choose(const Rules& rules, const Position& position, Roll roll) override {
    const SearchResult result = search_.search(rules, position, roll);
    return {result.move, result.value};
  }
  std::string name() const override { return name_; }

 private:
  std::string name_;
  ExpectimaxSearch search_;
};

}  // namespace

std::unique_ptr<Agent> make_expectimax_agent(std::string name, SearchOptions options) {
  return std::make_unique<ExpectimaxAgent>(std::move(name), options);
}

}  // namespace ur
