// Test helpers for the server: a trivial computer player and an AgentMaker around it, so the
// server's tests do not depend on the real agents' strength or speed; a temporary data
// directory and the hub options over it.
#pragma once

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "core/movegen.h"
#include "server/hub.h"
#include "session/session.h"

namespace ur::server::testing {

// Plays the legal move with the highest source square (pieces race home, games end fast).
class LastMoveAgent : public Agent {
 public:
  AgentChoice choose(const Rules& rules, const Position& position, Roll roll) override {
    const MoveList moves = legal_moves(rules, position, roll);
    return {moves[moves.size() - 1], std::nullopt};
  }
  std::string name() const override { return "last"; }
};

// The session's agent source with LastMoveAgent in every computer seat.
class LastMoveAgents final : public session::AgentSource {
 public:
  std::variant<std::unique_ptr<Agent>, AgentSpecError> make(Side, std::string_view,
                                                            std::uint64_t) override {
    return std::make_unique<LastMoveAgent>();
  }
};

// A "perfect" stand-in that, like the real one without a solved table, cannot play.
class TablelessPerfectAgent final : public LastMoveAgent {
 public:
  std::string name() const override { return "perfect"; }
  std::optional<std::string> cannot_play(const Rules&) const override {
    return "perfect needs a solved table (test stand-in)";
  }
};

// Builds LastMoveAgent for every computer level, and a "perfect" that cannot play.
inline AgentMaker test_agent_maker() {
  return [](std::string_view spec,
            std::uint64_t) -> std::variant<std::unique_ptr<Agent>, AgentSpecError> {
    if (spec == "perfect") return std::make_unique<TablelessPerfectAgent>();
    return std::make_unique<LastMoveAgent>();
  };
}

// A fresh directory under the system's temporary directory, removed with everything in it.
class TempDir {
 public:
  explicit TempDir(std::string_view prefix = "ur-server-test-") {
    path_ = std::filesystem::temp_directory_path() /
            (std::string(prefix) + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Hub options storing games in `data_dir`, with test_agent_maker and two workers.
inline HubOptions hub_options(const std::filesystem::path& data_dir) {
  HubOptions options;
  options.data_dir = data_dir;
  options.make_agent = test_agent_maker();
  options.worker_threads = 2;
  return options;
}

}  // namespace ur::server::testing
