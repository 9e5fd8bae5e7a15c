#include "analysis/review_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/notation.h"

namespace ur::analysis {

std::string percent_text(double chance) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * chance);
  return text;
}

std::string points_text(double chance) {
  char text[16];
  const double points = 100.0 * chance;
  // A change that rounds to nothing has no sign ("0.00", never "-0.00").
  if (std::abs(points) < 0.005) return "0.00";
  std::snprintf(text, sizeof text, "%+.2f", points);
  return text;
}

std::string loss_text(double loss) {
  const std::string text = points_text(loss);
  return text.front() == '+' ? text.substr(1) : text;
}

std::vector<std::string> summary_lines(const Review& review, Side side) {
  const PlayerSummary& player = review.summary[index_of(side)];
  std::string first =
      std::string(side_name(side)) + ": " + std::to_string(player.decisions) + " decisions";
  for (int i = 1; i < kMoveClasses; ++i) {
    first += (i == 1 ? " (" : ", ") + std::to_string(player.classes[i]) + " " +
             std::string(to_string(static_cast<MoveClass>(i)));
  }
  first += ")";
  char loss[160];
  std::snprintf(loss, sizeof loss, "  loss %.2f pp in all, %.3f pp a decision · accuracy %.1f · %s",
                100.0 * player.total_loss, 100.0 * player.mean_loss, player.accuracy,
                player.skill.c_str());
  char luck[120];
  std::snprintf(luck, sizeof luck, "  luck %+.2f pp · luck-adjusted chance %s",
                100.0 * player.total_luck, percent_text(player.luck_adjusted).c_str());
  return {first, loss, luck};
}

std::vector<std::string> chance_graph_lines(const Review& review, std::size_t width) {
  const std::size_t count = review.throws.size();
  if (count == 0 || width == 0) return {};
  constexpr int kRows = 11;
  width = std::min(count, width);
  std::vector<std::string> rows(kRows, std::string(width, ' '));
  rows[kRows / 2].assign(width, '-');
  for (std::size_t column = 0; column < width; ++column) {
    const ThrowReview& entry = review.throws[column * count / width];
    const double light = entry.side == Side::Light ? entry.win_before : 1.0 - entry.win_before;
    const int row = static_cast<int>(std::lround((1.0 - light) * (kRows - 1)));
    rows[row][column] = '*';
  }
  std::vector<std::string> lines = {"light's chance before each throw (- is 50%):"};
  for (int row = 0; row < kRows; ++row) {
    char label[8];
    std::snprintf(label, sizeof label, "%4d%% |", 100 - row * 10);
    lines.push_back(label + rows[row]);
  }
  // The first throw's number, and the last's ending under the graph's last column; a graph
  // too narrow to keep them apart says "throws 1 to 5" (two numbers run together misread).
  constexpr std::size_t kLabelWidth = 7;  // " 100% |"
  const std::string last = std::to_string(count);
  std::string axis = "       throw 1";
  if (count > 1) {
    const std::size_t end = kLabelWidth + width;
    if (axis.size() + 2 + last.size() <= end) {
      axis.append(end - axis.size() - last.size(), ' ').append(last);
    } else {
      axis = "       throws 1 to ";
      axis += last;
    }
  }
  lines.push_back(axis);
  return lines;
}

}  // namespace ur::analysis
