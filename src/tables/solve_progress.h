// Words and bars for a solve's progress, shared by `ur solve` and the terminal game's
// table build so both read the same.
#pragma once

#include <algorithm>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>

#include "solver/solver.h"

namespace ur::tables {

// Share of the states in finished layer pairs, 0..1.
inline double solved_fraction(const solver::SolveProgress& progress) {
  return progress.states_total ? double(progress.states_done) / progress.states_total : 1.0;
}

// "7s", "2m05s".
inline std::string duration_text(double seconds) {
  const long total = static_cast<long>(seconds + 0.5);
  std::ostringstream text;
  if (total >= 60) text << total / 60 << "m";
  text << std::setw(total >= 60 ? 2 : 1) << std::setfill('0') << total % 60 << "s";
  return text.str();
}

// Seconds left, extrapolated from the share done after `elapsed` seconds; unknown until 2%
// is done.
inline std::optional<double> eta_seconds(double fraction, double elapsed) {
  if (fraction <= 0.02) return std::nullopt;
  return elapsed * (1 - fraction) / fraction;
}

// "[######..........]" with `width` cells inside the brackets.
inline std::string progress_bar(double fraction, int width) {
  const int filled = std::clamp(static_cast<int>(fraction * width), 0, width);
  // Appended piecewise: g++ 12 misreports `"literal" + std::string&&` under -O3.
  std::string bar = "[";
  bar.append(filled, '#').append(width - filled, '.').append("]");
  return bar;
}

// The layer pair being solved: "layers 3/28 (homes 6,5)  sweep 12".
inline std::string layer_text(const solver::SolveProgress& progress) {
  return "layers " + std::to_string(std::min(progress.pair + 1, progress.pairs)) + "/" +
         std::to_string(progress.pairs) + " (homes " + std::to_string(progress.home_mine) + "," +
         std::to_string(progress.home_theirs) + ")  sweep " + std::to_string(progress.sweep);
}

// "1.2e-05": the largest change in the last sweep.
inline std::string residual_text(double residual) {
  std::ostringstream text;
  text << std::scientific << std::setprecision(1) << residual;
  return text.str();
}

// One line: bar, percent, layer pair, sweep, residual and ETA.
inline std::string progress_line(const solver::SolveProgress& progress, double elapsed) {
  const double fraction = solved_fraction(progress);
  std::ostringstream line;
  line << progress_bar(fraction, 24) << " " << std::setw(3) << static_cast<int>(fraction * 100)
       << "%  " << layer_text(progress) << "  residual " << residual_text(progress.residual)
       << "  ETA ";
  const std::optional<double> eta = eta_seconds(fraction, elapsed);
  line << (eta ? duration_text(*eta) : "?");
  return line.str();
}

}  // namespace ur::tables
