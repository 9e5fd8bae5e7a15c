#include "agents/simple_agents.h"

#include "agents/evaluation.h"
#include "agents/rng.h"

namespace ur {
namespace {

class RandomAgent final : public Agent {
 public:
  explicit RandomAgent(std::uint64_t seed) : rng_(seed) {}
  AgentChoice choose(const Rules& rules, const Position& position, Roll roll) override {
    const MoveList moves = legal_moves(rules, position, roll);
    return {moves[static_cast<int>(rng_.below(static_cast<std::uint32_t>(moves.size())))], {}};
  }
  std::string name() const override { return "random"; }

 private:
  SplitMix64 rng_;
};

// Moves are sorted by `from`, so the ends of the list are the extreme pieces.
class EndOfListAgent final : public Agent {
 public:
  explicit EndOfListAgent(bool most_advanced) : most_advanced_(most_advanced) {}
  AgentChoice choose(const Rules& rules, const Position& position, Roll roll) override {
    const MoveList moves = legal_moves(rules, position, roll);
    return {most_advanced_ ? moves[moves.size() - 1] : moves[0], {}};
  }
  std::string name() const override { return most_advanced_ ? "first" : "last"; }

 private:
  bool most_advanced_;
};

class GreedyAgent final : public Agent {
 public:
  AgentChoice choose(const Rules& rules, const Position& position, Roll roll) override {
    const MoveList moves = legal_moves(rules, position, roll);
    int best = 0;
    int best_priority = greedy_priority(rules, position, moves[0]);
    for (int i = 1; i < moves.size(); ++i) {
      const int priority = greedy_priority(rules, position, moves[i]);
      if (priority > best_priority) {
        best = i;
        best_priority = priority;
      }
    }
    return {moves[best], {}};
  }
  std::string name() const override { return "greedy"; }
};

class HeuristicAgent final : public Agent {
 public:
  HeuristicAgent(std::string name, double blunder_chance, std::uint64_t seed)
      : name_(std::move(name)), blunder_chance_(blunder_chance), rng_(seed) {}

  AgentChoice choose(const Rules& rules, const Position& position, Roll roll) override {
    const MoveList moves = legal_moves(rules, position, roll);
    // Draw every time, blunder or not, so the stream of choices depends only on the seed
    // and the positions shown.
    const bool blunder = rng_.unit() < blunder_chance_;
    const auto random_index =
        static_cast<int>(rng_.below(static_cast<std::uint32_t>(moves.size())));
    if (blunder) return {moves[random_index], {}};
    int best = moves.size() - 1;
    double best_score = heuristic_score(rules, position, moves[best]);
    for (int i = moves.size() - 2; i >= 0; --i) {
      const double score = heuristic_score(rules, position, moves[i]);
      if (score > best_score) {
        best = i;
        best_score = score;
      }
    }
    return {moves[best], {}};
  }
  std::string name() const override { return name_; }

 private:
  std::string name_;
  double blunder_chance_;
  SplitMix64 rng_;
};

}  // namespace

std::unique_ptr<Agent> make_random_agent(std::uint64_t seed) {
  return std::make_unique<RandomAgent>(seed);
}
std::unique_ptr<Agent> make_first_agent() {
  return std::make_unique<EndOfListAgent>(true);
}
std::unique_ptr<Agent> make_last_agent() {
  return std::make_unique<EndOfListAgent>(false);
}
std::unique_ptr<Agent> make_greedy_agent() {
  return std::make_unique<GreedyAgent>();
}
std::unique_ptr<Agent> make_heuristic_agent(std::string name, double blunder_chance,
                                            std::uint64_t seed) {
  return std::make_unique<HeuristicAgent>(std::move(name), blunder_chance, seed);
}

int greedy_priority(const Rules& rules, const Position& position, const Move& move) {
  // from is 0 (the start pile) to 14, so the flags sit above every progress value.
  constexpr int kCapture = 1 << 8, kExtraThrow = 1 << 7, kSafe = 1 << 6;
  const SquareMask attackers = position.board[1 - index_of(position.turn)];
  const bool out_of_reach = hit_chance(rules, attackers, move.to) == 0.0;
  return (move.capture ? kCapture : 0) + (move.extra_throw ? kExtraThrow : 0) +
         (out_of_reach ? kSafe : 0) + move.from;
}

double heuristic_score(const Rules& rules, const Position& position, const Move& move) {
  // Points, in order of importance: a capture, a throw again, safety, then progress.
  constexpr double kCapture = 5.0;
  constexpr double kCaptureDepth = 0.2;  // per square the victim had come
  constexpr double kExtraThrow = 4.0;
  constexpr double kSafeSquare = 3.0;
  constexpr double kLeaveSafeSquare = 1.5;
  constexpr double kBearOff = 2.0;
  constexpr double kDanger = 4.0;  // per unit of hit chance, escaped or entered
  constexpr double kProgress = 0.05;

  const SquareMask attackers = position.board[1 - index_of(position.turn)];
  double score = kProgress * move.to;
  if (move.capture) score += kCapture + kCaptureDepth * move.to;
  if (move.extra_throw) score += kExtraThrow;
  if (move.to < rules.home_square() && (rules.safe & square_bit(move.to))) score += kSafeSquare;
  if (move.to >= rules.home_square()) score += kBearOff;
  if (rules.safe & square_bit(move.from)) score -= kLeaveSafeSquare;
  if (move.from != 0) score += kDanger * hit_chance(rules, attackers, move.from);
  if (move.to < rules.home_square()) {
    const SquareMask attackers_after = attackers & ~(move.capture ? rules.opposite[move.to] : 0);
    score -= kDanger * hit_chance(rules, attackers_after, move.to);
  }
  return score;
}

}  // namespace ur
