// The review in text, shared by every text front end (ur review, ur replay): chances as
// percent and points, each player's summary and a graph of light's chance.
#pragma once

#include <string>
#include <vector>

#include "analysis/review.h"

namespace ur::analysis {

// "52.3%" for a chance of 0.523.
std::string percent_text(double chance);
// "+1.25" percentage points for 0.0125 (always signed).
std::string points_text(double chance);
// A loss in percentage points, which is never negative (docs/review.md), so unsigned:
// "2.92" for 0.0292, "0.00" for none.
std::string loss_text(double loss);

// A player's summary in three lines: "light: 14 decisions (12 best, ...)", the loss,
// accuracy and skill, then luck and the luck-adjusted chance.
std::vector<std::string> summary_lines(const Review& review, Side side);

// Light's chance before each throw as a text graph: a title line, 11 rows from 100% down to
// 0% ('*' a throw, '-' the 50% line) and a line naming the first and last throw ("throws 1
// to 5" when the graph is too narrow to set them apart). At most `width` columns of throws
// (long games are sampled); nothing for a game without throws.
std::vector<std::string> chance_graph_lines(const Review& review, std::size_t width = 72);

}  // namespace ur::analysis
