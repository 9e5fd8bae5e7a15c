#include "analysis/search_values.h"

#include "agents/evaluation.h"

namespace ur::analysis {

SearchValues::SearchValues(int depth) : depth_(depth), search_(SearchOptions{.depth = depth}) {}

double SearchValues::before_throw(const Rules& rules, const Position& position) {
  double value = 0.0;
  for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
    double after = 0.0;
    if (count_legal_moves(rules, position, roll) == 0) {
      after = 1.0 - evaluate(rules, pass_turn(position));
    } else {
      after = search_.search(rules, position, roll).value;
    }
    value += roll_probability(rules, roll) * after;
  }
  return value;
}

std::string SearchValues::source() const {
  return "estimated: no solved table (expectimax search, " + std::to_string(depth_) +
         " throws ahead)";
}

}  // namespace ur::analysis
