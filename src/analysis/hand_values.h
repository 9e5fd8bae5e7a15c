// Chances chosen by hand for the positions of a short two-piece game, for review tests
// (test code only). The game: light enters on 2, dark on 1, light enters on 3 where 2 to 5
// was best (a 7 pp mistake), dark throws 0 and passes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/review.h"
#include "core/notation.h"

namespace ur::analysis::testing {

class HandValues final : public PositionValues {
 public:
  // A position outside the game is a mistake in the test; its value is 0.5 and it is kept in
  // `unknown` for the test to check.
  double before_throw(const Rules&, const Position& position) override {
    const auto found = values_.find(to_text(position));
    if (found == values_.end()) {
      unknown.push_back(to_text(position));
      return 0.5;
    }
    return found->second;
  }
  bool exact() const override { return true; }
  std::string source() const override { return "hand values"; }

  // Gives the position of text `position` (docs/notation.md) the chance `value` to move.
  void set(const std::string& position, double value) { values_[position] = value; }

  std::vector<std::string> unknown;

 private:
  std::map<std::string, double> values_ = {
      {"L:2/-/0:2/-/0", 0.52},    // the start, light to throw
      {"D:1/2/0:2/-/0", 0.47},    // light entered on 2
      {"L:1/2/0:1/1/0", 0.55},    // dark entered on 1
      {"D:0/2,3/0:1/1/0", 0.49},  // light entered on 3 (played)
      {"D:1/5/0:1/1/0", 0.42},    // light moved 2 to 5 (the best move)
      {"L:0/2,3/0:1/1/0", 0.51},  // dark passed on a 0
  };
};

}  // namespace ur::analysis::testing
