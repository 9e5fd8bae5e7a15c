#include "server/table_job.h"

#include <cmath>
#include <filesystem>
#include <memory>

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

#include "core/rule_sets.h"
#include "protocol/json.h"
#include "server/api_error.h"
#include "solver/position_index.h"
#include "solver/solver.h"
#include "tables/solve_progress.h"
#include "tables/table_store.h"

namespace ur::server {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// A build shares the cores with the games the server is playing: its thread, and the solver's
// workers, which inherit the setting, run at nice 10, so requests still answer promptly. The
// nice value is per thread on Linux; elsewhere the build runs at normal priority.
void yield_to_requests() {
#if defined(__linux__)
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
#endif
}

std::string ready_message(const Rules& rules) {
  return "The table for " + tables::rules_text(rules) + " is ready.";
}

}  // namespace

std::optional<json> missing_table(const Rules& rules) {
  if (tables::solves_on_the_fly(rules) || solver::unsupported_rules(rules)) {
    return std::nullopt;
  }
  if (tables::find_table(rules, nullptr)) return std::nullopt;
  const int threads = tables::default_solve_threads();
  const tables::SolveCost cost = tables::estimated_solve_cost(rules);
  const double seconds = cost.cpu_seconds / threads;
  std::string estimate = tables::rough_duration(seconds);
  if (threads > 1) estimate += " on the " + std::to_string(threads) + " cores here";
  return json{{"rules", std::string(rule_set_name(rules))},
              {"pieces", rules.pieces},
              {"bear_off", std::string(to_string(rules.bear_off))},
              {"estimate", estimate},
              {"estimate_s", std::round(seconds * 10) / 10},
              {"memory_mib", std::lround(cost.peak_bytes / (1 << 20))},
              {"command", tables::solve_command_line(rules)},
              // The body of the POST /api/tables/build that builds it.
              {"build", {{"rules", protocol::to_json(rules)}}}};
}

void mark_build_permission(json& body, bool may_build) {
  if (!body.is_object()) return;
  const auto offer = body.find("table_missing");
  if (offer != body.end() && offer->is_object()) (*offer)["can_build"] = may_build;
}

std::string missing_table_sentence(const Rules& rules) {
  return "this server has no solved table for " + tables::rules_text(rules) +
         " yet; build it from the page, or with `" + tables::solve_command_line(rules) +
         "` on the server.";
}

TableBuildJob::~TableBuildJob() {
  cancel_.store(true);
  if (thread_.joinable()) thread_.join();
}

std::pair<int, json> TableBuildJob::start(const Rules& rules) {
  if (auto why = solver::unsupported_rules(rules)) {
    throw bad_settings("No table can be built for these rules: " + *why + ".");
  }
  std::lock_guard lock(mutex_);
  if (thread_running_) {
    if (rules_ == rules && !cancel_.load()) return {202, state_locked()};
    throw conflict("build_running",
                   cancel_.load() ? "The cancelled build is still stopping; try again in a moment."
                                  : "The table for " + tables::rules_text(rules_) +
                                        " is being built; wait for it or cancel it with DELETE "
                                        "/api/tables/build.");
  }
  if (thread_.joinable()) thread_.join();  // it has returned already: nothing to wait for
  rules_ = rules;
  fraction_ = 0;
  layers_.clear();
  residual_.reset();
  finished_elapsed_s_ = 0;
  if (tables::find_table(rules, nullptr)) {
    phase_ = Phase::Done;
    fraction_ = 1;
    message_ = ready_message(rules);
    return {200, state_locked()};
  }
  phase_ = Phase::Running;
  message_ = "Building the table for " + tables::rules_text(rules) + ".";
  started_ = Clock::now();
  cancel_.store(false);
  thread_running_ = true;
  thread_ = std::thread([this, rules] { run(rules); });
  return {202, state_locked()};
}

void TableBuildJob::run(Rules rules) {
  yield_to_requests();
  std::shared_ptr<const tables::Table> table;
  std::string problem;
  try {
    const solver::PositionIndex index(rules);
    tables::SolveEstimate estimate(index, solver::SolveOptions{}.tolerance);
    const auto report = [&](const solver::SolveProgress& progress) {
      const double fraction = estimate.fraction(progress);
      std::lock_guard lock(mutex_);
      fraction_ = fraction;
      layers_ = tables::layer_text(progress);
      residual_ = progress.residual;
    };
    table = tables::load_or_solve(rules, report, &problem, &cancel_);
  } catch (const std::exception& error) {  // e.g. out of memory: the server carries on
    problem = error.what();
  }
  std::lock_guard lock(mutex_);
  finished_elapsed_s_ = std::chrono::duration<double>(Clock::now() - started_).count();
  if (table) {
    phase_ = Phase::Done;
    fraction_ = 1;
    message_ = ready_message(rules);
  } else if (cancel_.load()) {
    phase_ = Phase::Cancelled;
    message_ = "The build was cancelled; no table was written.";
  } else {
    phase_ = Phase::Failed;
    message_ = "The table for " + tables::rules_text(rules) + " could not be built: " +
               (problem.empty() ? std::string("the solver gave up") : problem) + ".";
  }
  thread_running_ = false;
}

json TableBuildJob::state() const {
  std::lock_guard lock(mutex_);
  return state_locked();
}

json TableBuildJob::cancel() {
  std::lock_guard lock(mutex_);
  if (thread_running_ && !cancel_.load()) {
    cancel_.store(true);
    message_ = "Cancelling the build of the table for " + tables::rules_text(rules_) + ".";
  }
  return state_locked();
}

json TableBuildJob::state_locked() const {
  static constexpr std::array<std::string_view, 5> kPhaseNames = {"idle", "running", "done",
                                                                  "failed", "cancelled"};
  const bool idle = phase_ == Phase::Idle;
  const bool running = phase_ == Phase::Running;
  const double elapsed = running ? std::chrono::duration<double>(Clock::now() - started_).count()
                                 : finished_elapsed_s_;
  json eta = nullptr;
  if (running) {
    if (const auto seconds = tables::eta_seconds(fraction_, elapsed)) {
      eta = std::round(*seconds * 10) / 10;
    }
  } else if (phase_ == Phase::Done) {
    eta = 0.0;
  }
  return json{
      {"state", kPhaseNames[static_cast<std::size_t>(phase_)]},
      {"rules", idle ? json(nullptr) : json(std::string(rule_set_name(rules_)))},
      {"pieces", idle ? json(nullptr) : json(rules_.pieces)},
      {"bear_off", idle ? json(nullptr) : json(std::string(to_string(rules_.bear_off)))},
      {"fraction", std::round(fraction_ * 1000) / 1000},
      {"layers", layers_},
      {"residual", residual_ ? json(*residual_) : json(nullptr)},
      {"elapsed_s", std::round(elapsed * 10) / 10},
      {"eta_s", eta},
      {"cancelling", running && cancel_.load()},
      {"message",
       idle ? std::string("No table build has run since the server started.") : message_},
  };
}

}  // namespace ur::server
