// `ur serve`'s command line, run as the built binary: origin options are checked before
// anything is opened.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "cli/run_ur.h"

namespace ur::server {
namespace {

using ur::testing::run_ur;

TEST(ServeCommand, RefusesBadOriginOptionsWithUsageStatus) {
  struct Case {
    const char* arguments;
    const char* says;
  };
  for (const Case& bad : {
           Case{"--public-url ur.example.org", "--public-url \"ur.example.org\": it has no scheme"},
           Case{"--public-url https://ur.example.org/ur", "it has a path"},
           Case{"--allow-origin ftp://x.org", "--allow-origin \"ftp://x.org\": the scheme is"},
           Case{"--allow-origin http://x.org:70000", "is not a host with an optional port"},
           Case{"--allow-origin http://x.org --allow-origin http://", "--allow-origin \"http://\""},
       }) {
    const auto run = run_ur(std::string("serve --port 0 ") + bad.arguments);
    EXPECT_EQ(run.exit_code, 2) << bad.arguments << ": " << run.output;
    EXPECT_NE(run.output.find(bad.says), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("expected an origin such as"), std::string::npos) << run.output;
  }
}

TEST(ServeCommand, TableBuildsTakesOneOfThreePolicies) {
  for (const char* value : {"everyone", "", "LOCAL"}) {
    const auto run = run_ur(std::string("serve --port 0 --table-builds '") + value + "'");
    EXPECT_EQ(run.exit_code, 2) << value << ": " << run.output;
    EXPECT_NE(run.output.find("expected local, anyone or off"), std::string::npos) << run.output;
  }
}

TEST(ServeCommand, AcceptsOriginOptionsAndSaysWhereItIsServed) {
  const auto data = std::filesystem::temp_directory_path() /
                    ("ur-serve-test-" + std::to_string(std::random_device{}()));
  // SIGTERM after a moment stops the server cleanly (status 0). The binary runs directly,
  // not through run_ur's shell function, so that $! is its own process.
  std::string line = "\"";
  line += UR_BINARY;
  line += "\" serve --host 127.0.0.1 --port 0 --quiet --data ";
  line += data.string();
  line += " --public-url https://ur.example.org/ --allow-origin http://myhost.lan:8080 2>&1 & ";
  line += "pid=$!; sleep 1.5; kill -TERM $pid; wait $pid";
  const auto run = ur::testing::run_shell(line);
  std::filesystem::remove_all(data);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("served at https://ur.example.org/"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("warning"), std::string::npos) << run.output;  // loopback only
}

}  // namespace
}  // namespace ur::server
