// The `ur` command line as users meet it: help, usage errors (exit 2) and perft output.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

CommandResult run_ur(const std::string& arguments) {
  const std::string command = std::string(UR_BINARY) + " " + arguments + " 2>&1";
  CommandResult run;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) run.output += buffer.data();
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Cli, HelpListsTheCommands) {
  const CommandResult run = run_ur("--help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* part : {"Royal Game of Ur", "perft", "engine"}) {
    EXPECT_TRUE(contains(run.output, part)) << part << " missing from:\n" << run.output;
  }
}

TEST(Cli, PerftHelpExplainsEveryOption) {
  const CommandResult run = run_ur("perft --help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* part : {"--depth", "--pieces", "--bear-off", "--position"}) {
    EXPECT_TRUE(contains(run.output, part)) << part << " missing from:\n" << run.output;
  }
}

TEST(Cli, EngineHelpPointsToTheProtocol) {
  const CommandResult run = run_ur("engine --help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_TRUE(contains(run.output, "docs/engine-protocol.md")) << run.output;
}

TEST(Cli, UnknownOptionExitsTwoWithAClearMessage) {
  const CommandResult global = run_ur("--frobnicate");
  EXPECT_EQ(global.exit_code, 2);
  EXPECT_TRUE(contains(global.output, "--frobnicate")) << global.output;
  const CommandResult sub = run_ur("perft --depth 2 --frobnicate");
  EXPECT_EQ(sub.exit_code, 2);
  EXPECT_TRUE(contains(sub.output, "--frobnicate")) << sub.output;
}

TEST(Cli, UnknownCommandAndMissingCommandExitTwo) {
  const CommandResult unknown = run_ur("fly");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(contains(unknown.output, "fly")) << unknown.output;
  const CommandResult missing = run_ur("");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.output, "missing command")) << missing.output;
}

TEST(Cli, BadOptionValuesExitTwo) {
  for (const char* arguments :
       {"perft", "perft --depth x", "perft --depth 1 --pieces 9",
        "perft --depth 1 --bear-off sometimes", "perft --depth 1 --position L:7/-/0"}) {
    const CommandResult run = run_ur(arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
    EXPECT_FALSE(run.output.empty()) << arguments;
  }
}

TEST(Cli, PerftPrintsNodesAndSpeed) {
  const CommandResult run = run_ur("perft --depth 2");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_TRUE(contains(run.output, "nodes 28")) << run.output;
  EXPECT_TRUE(contains(run.output, "leaves/s")) << run.output;
  const CommandResult three = run_ur("perft --depth 6 --pieces 3 --position L:3/-/0:3/-/0");
  EXPECT_TRUE(contains(three.output, "nodes 112060")) << three.output;
}

}  // namespace
