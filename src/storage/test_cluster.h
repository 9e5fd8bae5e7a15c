// Test support: one throwaway PostgreSQL cluster for a whole test binary (scripts/pg-cluster.sh,
// whose path the binary gets as UR_PG_CLUSTER_SCRIPT), with a fresh database for each test.
// Register it with ::testing::AddGlobalTestEnvironment(new ur::storage::TestCluster).
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

namespace ur::storage {

// Runs a shell command; its stdout without the final newline, or "" when it failed.
inline std::string run_command(const std::string& command) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return output;
  std::array<char, 512> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) {
    output += buffer.data();
  }
  if (pclose(pipe) != 0) output.clear();
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  return output;
}

// A new directory under the system's temporary directory.
inline std::filesystem::path fresh_directory(const std::string& stem) {
  std::random_device device;
  const auto path = std::filesystem::temp_directory_path() /
                    (stem + std::to_string(getpid()) + "-" + std::to_string(device()));
  std::filesystem::create_directories(path);
  return path;
}

class TestCluster : public ::testing::Environment {
 public:
  void SetUp() override {
    directory_ = fresh_directory("ur-pg-test-");
    url_ = run_command(script(" start "));
    ASSERT_FALSE(url_.empty()) << "scripts/pg-cluster.sh could not start PostgreSQL";
  }
  void TearDown() override {
    run_command(script(" stop "));
    std::filesystem::remove_all(directory_);
  }
  // The URL of the cluster's database "ur": postgresql://ur:PASSWORD@/ur?host=DIR.
  static std::string url() { return url_; }
  // The URL of a new, empty database of the cluster.
  static std::string new_database() {
    static std::atomic<int> made{0};
    const std::string name = "test" + std::to_string(++made);
    PGconn* admin = PQconnectdb(url_.c_str());
    PQclear(PQexec(admin, ("CREATE DATABASE " + name).c_str()));
    PQfinish(admin);
    std::string url = url_;
    url.replace(url.find("@/ur"), 4, "@/" + name);
    return url;
  }
  // Takes the server down or brings it up again ("down", "up"), for outage tests.
  static void outage(const std::string& what) { run_command(script(" " + what + " ")); }

 private:
  static std::string script(const std::string& verb) {
    return std::string(UR_PG_CLUSTER_SCRIPT) + verb + directory_.string();
  }
  static inline std::string url_;
  static inline std::filesystem::path directory_;
};

}  // namespace ur::storage
