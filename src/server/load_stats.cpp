#include "server/load_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ur::load {

double percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = std::ceil(fraction * static_cast<double>(values.size()));
  const auto index = static_cast<std::size_t>(std::max(rank, 1.0)) - 1;
  return values[std::min(index, values.size() - 1)];
}

std::string latency_line(const std::string& what, const std::vector<double>& millis) {
  char figures[160];
  std::snprintf(figures, sizeof figures, ": n=%zu p50=%.2f ms p95=%.2f ms p99=%.2f ms max=%.2f ms",
                millis.size(), percentile(millis, 0.5), percentile(millis, 0.95),
                percentile(millis, 0.99), percentile(millis, 1.0));
  return what + figures;
}

}  // namespace ur::load
