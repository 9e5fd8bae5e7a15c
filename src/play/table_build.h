// Building the solved table the perfect opponent plays from, when the rules chosen have
// none: what it will cost (asked before a long build), and the build itself on a thread of
// its own so the screen can show its progress and a key can cancel it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "play/play_session.h"
#include "tables/table_store.h"

namespace ur::play {

// The opponent spec that plays from the solved table of the rules in play.
inline constexpr std::string_view kPerfect = "perfect";

// A table the chosen settings need and do not have.
struct TableOffer {
  Rules rules;
  bool ask = true;      // a long build asks first; a build of seconds just starts
  std::string missing;  // "No solved table for 5 pieces (exact bear-off) yet."
  std::string cost;     // time, memory and where it is saved, in words
  std::string command;  // the command that builds it outside the game
};

// How long a build of `cpu_seconds` takes on the `threads` cores here, and on one when that
// reads otherwise, the unit they share said once: "about 3 seconds on the 2 cores here (about
// 6 on one)", "about 40 seconds on the 2 cores here (about a minute on one)".
std::string build_time_text(double cpu_seconds, int threads);

// A build's progress in words, for the screen.
struct BuildStatus {
  double fraction = 0;   // share of the positions solved, 0..1
  std::string layers;    // "layers 3/28 (homes 6,5)  sweep 12"
  std::string residual;  // largest change in the last sweep, "1.2e-05"
  std::string elapsed;   // "1m05s"
  std::string eta;       // time left, "2m10s"; empty until it can be estimated
};

class TableBuilder {
 public:
  // Asks before building tables of more than `ask_above_positions` positions; smaller ones
  // solve in a second or two and are just built (tests lower it to reach the question cheaply).
  explicit TableBuilder(std::uint64_t ask_above_positions = tables::kSolveOnTheFlyMaxPositions);
  virtual ~TableBuilder() = default;

  // The table `settings` need before a game can start: nothing when the opponent is not
  // "perfect", its table is there, or the rules cannot be solved (the game then says why).
  std::optional<TableOffer> offer(const Settings& settings) const;

  // The table the hints (h) and the review (r) of `rules` lack: nothing when it is there,
  // when they solve it on the spot (tables::solves_on_the_fly, as values_for
  // does) or when the rules cannot be solved. Always asks first.
  std::optional<TableOffer> values_offer(const Rules& rules) const;

  // Solves and saves the table for `rules` in the default table directory, calling
  // `progress` after every sweep from this thread. Returns why it failed (also when `cancel`
  // was set: nothing is saved then), or nothing once the table is ready.
  // Virtual so tests can stand in a build that solves nothing.
  virtual ActionError build(const Rules& rules,
                            const std::function<void(const BuildStatus&)>& progress,
                            const std::atomic<bool>& cancel) const;

 private:
  // The offer for `rules`, whose table is missing or unusable; nothing when it is there.
  std::optional<TableOffer> missing_table(const Rules& rules, bool ask) const;

  std::uint64_t ask_above_positions_;
};

// One build running on its own thread. Destroying the job cancels the build and waits for
// it to stop.
class BuildJob {
 public:
  BuildJob(const TableBuilder& builder, const Rules& rules);
  ~BuildJob();
  BuildJob(const BuildJob&) = delete;
  BuildJob& operator=(const BuildJob&) = delete;

  // Asks the build to stop at its next sweep.
  void cancel();
  // The latest progress.
  BuildStatus status() const;
  // Once the build has ended: nothing on success, else why it failed. Empty while running.
  std::optional<ActionError> result() const;

 private:
  std::atomic<bool> cancel_{false};
  mutable std::mutex mutex_;
  BuildStatus status_;
  std::optional<ActionError> result_;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace ur::play
