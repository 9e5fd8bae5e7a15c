#include "play/table_build.h"

#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "solver/position_index.h"
#include "tables/solve_progress.h"
#include "tables/table_store.h"

namespace ur::play {
namespace {

constexpr double kTableBytesPerPosition = 2.0;  // 16-bit fixed point

// "about 180 MB", "about 1.7 GB".
std::string rough_size(double bytes) {
  if (bytes < 1e9) {
    return "about " + std::to_string(std::max(1L, std::lround(bytes / 1e7) * 10)) + " MB";
  }
  const long tenths = std::lround(bytes / 1e8);
  return "about " + std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " GB";
}

std::string solve_command(const Rules& rules) {
  return tables::solve_command_line(rules);
}

std::string cost_text(const Rules& rules) {
  const tables::SolveCost cost = tables::estimated_solve_cost(rules);
  const std::string time = build_time_text(cost.cpu_seconds, tables::default_solve_threads());
  return "Building it takes " + time + " and " + rough_size(cost.peak_bytes) +
         " of memory. It is saved in " + tables::default_table_directory().string() + " (" +
         rough_size(cost.positions * kTableBytesPerPosition) + ") for next time.";
}

BuildStatus status_of(const solver::SolveProgress& progress, double fraction, double elapsed) {
  BuildStatus status;
  status.fraction = fraction;
  status.layers = tables::layer_text(progress);
  status.residual = tables::residual_text(progress.residual);
  status.elapsed = tables::duration_text(elapsed);
  if (const auto eta = tables::eta_seconds(status.fraction, elapsed)) {
    status.eta = tables::duration_text(*eta);
  }
  return status;
}

}  // namespace

std::string build_time_text(double cpu_seconds, int threads) {
  const std::string one = tables::rough_duration(cpu_seconds);
  if (threads <= 1) return one;
  const std::string shared = tables::rough_duration(cpu_seconds / threads);
  std::string text = shared;
  text.append(" on the ").append(std::to_string(threads)).append(" cores here");
  if (one == shared) return text;  // rounded alike: said once
  // The unit of two figures is said once: "about 6" after "about 3 seconds".
  const auto figure_unit = [](const std::string& words) {
    constexpr std::size_t kFigure = std::string_view("about ").size();
    const bool figure =
        words.size() > kFigure && std::isdigit(static_cast<unsigned char>(words[kFigure]));
    return figure ? words.substr(words.rfind(' ')) : std::string();
  };
  const std::string unit = figure_unit(one);
  const bool same_unit = !unit.empty() && unit == figure_unit(shared);
  text.append(" (").append(same_unit ? one.substr(0, one.size() - unit.size()) : one);
  text.append(" on one)");
  return text;
}

TableBuilder::TableBuilder(std::uint64_t ask_above_positions)
    : ask_above_positions_(ask_above_positions) {}

std::optional<TableOffer> TableBuilder::offer(const Settings& settings) const {
  const Rules& rules = settings.rules;
  if (settings.opponent != kPerfect || solver::unsupported_rules(rules)) return std::nullopt;
  return missing_table(rules, solver::count_positions(rules, false) > ask_above_positions_);
}

std::optional<TableOffer> TableBuilder::values_offer(const Rules& rules) const {
  if (tables::solves_on_the_fly(rules) || solver::unsupported_rules(rules)) {
    return std::nullopt;
  }
  return missing_table(rules, true);
}

std::optional<TableOffer> TableBuilder::missing_table(const Rules& rules, bool ask) const {
  std::string problem;
  if (tables::find_table(rules, &problem)) return std::nullopt;
  TableOffer offer;
  offer.rules = rules;
  offer.ask = ask;
  std::error_code error;
  offer.missing = std::filesystem::exists(tables::default_table_path(rules), error)
                      ? "The table file cannot be used: " + problem + "."
                      : "No solved table for " + tables::rules_text(rules) + " yet.";
  offer.cost = cost_text(rules);
  offer.command = solve_command(rules);
  return offer;
}

ActionError TableBuilder::build(const Rules& rules,
                                const std::function<void(const BuildStatus&)>& progress,
                                const std::atomic<bool>& cancel) const {
  if (auto unsupported = solver::unsupported_rules(rules)) return *unsupported;
  const solver::PositionIndex index(rules);
  tables::SolveEstimate estimate(index, solver::SolveOptions{}.tolerance);
  const auto start = std::chrono::steady_clock::now();
  const auto report = [&](const solver::SolveProgress& solve_progress) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) progress(status_of(solve_progress, estimate.fraction(solve_progress), elapsed));
  };
  std::string problem;
  if (tables::load_or_solve(rules, report, &problem, &cancel)) return std::nullopt;
  return problem.empty() ? "the table could not be built" : problem;
}

BuildJob::BuildJob(const TableBuilder& builder, const Rules& rules)
    : thread_([this, &builder, rules] {
        const ActionError outcome = builder.build(
            rules,
            [this](const BuildStatus& status) {
              std::lock_guard lock(mutex_);
              status_ = status;
            },
            cancel_);
        std::lock_guard lock(mutex_);
        result_ = outcome;
      }) {}

BuildJob::~BuildJob() {
  cancel();
  thread_.join();
}

void BuildJob::cancel() {
  cancel_.store(true);
}

BuildStatus BuildJob::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

std::optional<ActionError> BuildJob::result() const {
  std::lock_guard lock(mutex_);
  return result_;
}

}  // namespace ur::play
