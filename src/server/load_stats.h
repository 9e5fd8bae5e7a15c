// Figures the load tool reports: latency samples and their percentiles.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ur::load {

// The value below which `fraction` of `values` lie (nearest rank: the smallest sample with
// at least that share at or below it); 0 for no samples. `fraction` is 0..1.
double percentile(std::vector<double> values, double fraction);

// "what: n=120 p50=1.20 ms p95=... p99=... max=..." for a report.
std::string latency_line(const std::string& what, const std::vector<double>& millis);

}  // namespace ur::load
