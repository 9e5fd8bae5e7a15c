// The web game's table build: when the perfect opponent has no solved table for the rules
// chosen, the page may ask the server to build it (POST /api/tables/build) and watch its
// progress. At most one build runs at a time, on a thread of its own (never an I/O or hub
// worker thread), and it can be cancelled; a cancelled build writes no file.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>

#include "core/rules.h"

namespace ur::server {

// The "table_missing" member of a bad_settings answer: the perfect opponent needs a table
// for `rules` that is neither saved nor cheap enough to solve on the fly, and a build is
// possible. {"rules":"finkel","pieces":5,"bear_off":"exact","estimate":"about 10 seconds on
// the 2 cores here","estimate_s":11.0,"memory_mib":1024,"command":"ur solve --pieces 5",
// "build":{...}}: rules is the set's name (or "custom"), the estimates follow the measured
// solves (tables::estimated_solve_cost), command builds it on the server's machine. Nothing
// when the table is there or the rules cannot be solved.
std::optional<nlohmann::json> missing_table(const Rules& rules);

// Marks the table_missing offer an answer `body` carries, if any, with "can_build": whether
// the peer that asked may start the build (`ur serve --table-builds`), so that the page
// offers the build only to those the server lets build and names `command` to the others.
void mark_build_permission(nlohmann::json& body, bool may_build);

// What a player reads when the table `missing_table` offers is not there: the rules and the
// build, never the server's file path (the table store's own sentence names it, which would
// show a visitor the server's home directory).
std::string missing_table_sentence(const Rules& rules);

class TableBuildJob {
 public:
  TableBuildJob() = default;
  // Cancels a running build and waits for its thread.
  ~TableBuildJob();
  TableBuildJob(const TableBuildJob&) = delete;
  TableBuildJob& operator=(const TableBuildJob&) = delete;

  // Answers POST /api/tables/build for `rules`: starts the build (202), or says the table is
  // ready (200) or already being built (202). Throws ApiError: bad_settings for rules the
  // solver cannot solve, conflict "build_running" while a build for other rules runs or a
  // cancelled one is still stopping.
  std::pair<int, nlohmann::json> start(const Rules& rules);
  // The state of the current or last build (GET /api/tables/build).
  nlohmann::json state() const;
  // Asks a running build to stop at its next sweep (DELETE /api/tables/build); its state
  // turns "cancelled" once it has stopped. Harmless when none runs.
  nlohmann::json cancel();

 private:
  enum class Phase { Idle, Running, Done, Failed, Cancelled };

  nlohmann::json state_locked() const;
  void run(Rules rules);

  mutable std::mutex mutex_;
  Phase phase_ = Phase::Idle;
  Rules rules_;
  double fraction_ = 0;  // 0..1
  std::string layers_;
  std::optional<double> residual_;
  std::chrono::steady_clock::time_point started_;
  double finished_elapsed_s_ = 0;  // the build's length, once it has ended
  std::string message_;
  bool thread_running_ = false;  // the build thread has not yet returned
  std::atomic<bool> cancel_{false};
  std::thread thread_;
};

}  // namespace ur::server
