// Estimated win chances when no solved table is at hand: an expectimax search over the next
// throws, with the static evaluation where a throw passes. Reviews on these say so.
#pragma once

#include <memory>

#include "agents/expectimax.h"
#include "analysis/review.h"

namespace ur::analysis {

class SearchValues final : public PositionValues {
 public:
  // `depth`: throws searched after each of the five possible throws.
  explicit SearchValues(int depth = 2);
  double before_throw(const Rules& rules, const Position& position) override;
  bool exact() const override { return false; }
  std::string source() const override;

 private:
  int depth_;
  ExpectimaxSearch search_;
};

}  // namespace ur::analysis
