// The `ur` command line as users meet it: help, usage errors (exit 2) and perft output.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_ur.h"

namespace {

using ur::testing::CommandResult;
using ur::testing::run_shell;
using ur::testing::run_ur;

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

// From a review of the command lines: a rule's yes-or-no column took -1, 2, yes, on and 0
// (as false or true), and an option given twice was "At Most 1 required but received 2".
TEST(Cli, YesOrNoColumnsTakeTrueOrFalseAndOptionsComeOnce) {
  for (const char* value : {"maybe", "-1", "2", "yes", "on", "0", "1", "TRUE"}) {
    for (const char* option :
         {"--safe-rosettes", "--rosette-extra-throw", "--capture-extra-throw"}) {
      const CommandResult run = run_ur(std::string("perft --depth 1 ") + option + " " + value);
      EXPECT_EQ(run.exit_code, 2) << option << " " << value << "\n" << run.output;
      EXPECT_TRUE(
          contains(run.output, std::string(option) + ": must be true or false, got " + value))
          << run.output;
    }
  }
  EXPECT_EQ(run_ur("perft --depth 1 --safe-rosettes false").exit_code, 0);
  const CommandResult twice = run_ur("perft --depth 3 --depth 4");
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_TRUE(contains(twice.output, "ur perft: --depth: given more than once; give it once"))
      << twice.output;
}

TEST(Cli, PerftPrintsNodesAndSpeed) {
  const CommandResult run = run_ur("perft --depth 2");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_TRUE(contains(run.output, "nodes 28")) << run.output;
  // 28 leaves take microseconds: a speed from them said "99999 leaves/s".
  EXPECT_TRUE(contains(run.output, "speed not measured (under a millisecond")) << run.output;
  const CommandResult timed = run_ur("perft --depth 8");
  EXPECT_TRUE(contains(timed.output, "nodes 10591874")) << timed.output;
  EXPECT_TRUE(contains(timed.output, " leaves/s (one core, per cpu second)")) << timed.output;
  const CommandResult three = run_ur("perft --depth 6 --pieces 3 --position L:3/-/0:3/-/0");
  EXPECT_TRUE(contains(three.output, "nodes 112060")) << three.output;
  // The counts differ by rule set, so the output names the set it counted under.
  EXPECT_TRUE(contains(run.output, "rules Finkel, exact bear-off\n")) << run.output;
  const CommandResult masters = run_ur("perft --depth 2 --rules masters");
  EXPECT_TRUE(contains(masters.output, "rules Masters, exact bear-off\n")) << masters.output;
  EXPECT_TRUE(contains(masters.output, "nodes 19")) << masters.output;
}

// Tables live in a fresh XDG_DATA_HOME, so no user table is touched or used; a 3-piece table
// solved once serves the tests that name a table made for other rules.
class CliWithTables : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    directory() =
        std::filesystem::temp_directory_path() / ("ur-cli-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(directory());
    ::setenv("XDG_DATA_HOME", directory().c_str(), 1);
    const CommandResult solved = run_ur("solve --pieces 3 --out " + three_piece_table());
    ASSERT_EQ(solved.exit_code, 0) << solved.output;
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(directory()); }
  static std::filesystem::path& directory() {
    static std::filesystem::path path;
    return path;
  }
  static std::string three_piece_table() { return (directory() / "three.table").string(); }
};

// Every command that writes to stdout notices a full disk and says so on stderr.
TEST_F(CliWithTables, WriteErrorsExitNonZeroWithAMessage) {
  for (const char* line : {
           "ur perft --depth 3",
           "ur --help",
           "ur perft --help",
           "ur help",
           "ur hints --pieces 2 --position L:2/-/0:2/-/0 --roll 2",
           "ur match random first --games 2",
           "echo '{\"cmd\":\"perft\",\"depth\":1,\"position\":{\"turn\":\"light\",\"light\":"
           "{\"start\":7,\"home\":0,\"board\":[]},\"dark\":{\"start\":7,\"home\":0,"
           "\"board\":[]}}}' | ur engine",
           "echo throw | ur play --seed 1 --opponent friend --script -",
       }) {
    const CommandResult run = run_shell(std::string(line) + " 2>&1 >/dev/full");
    EXPECT_NE(run.exit_code, 0) << line << "\n" << run.output;
    EXPECT_TRUE(contains(run.output, "cannot write")) << line << "\n" << run.output;
  }
}

// `ur solve | head -1` solved to the end, wrote the table and only then failed for the lost
// output, so a script could not tell a finished table from a failure. The solve now stops as
// soon as its output is lost, before solving, and writes no table.
TEST_F(CliWithTables, SolveStopsWhenItsOutputIsLost) {
  const std::filesystem::path table = directory() / "lost-output.table";
  const std::filesystem::path errors = directory() / "lost-output.stderr";
  run_shell("(ur solve --pieces 5 --threads 1 --out " + table.string() + " 2> " + errors.string() +
            "; echo \"rc=$?\" >> " + errors.string() + ") | head -c 1");
  std::ifstream error_file(errors);
  const std::string error((std::istreambuf_iterator<char>(error_file)), {});
  EXPECT_TRUE(contains(error,
                       "ur solve: cannot write output: Broken pipe; stopped, no table "
                       "written\nrc=1\n"))
      << error;
  EXPECT_FALSE(std::filesystem::exists(table));
  EXPECT_FALSE(std::filesystem::exists(table.string() + ".partial"));
  const CommandResult full =
      run_ur("solve --pieces 5 --out " + table.string() + " 2>&1 >/dev/full");
  EXPECT_EQ(full.exit_code, 1) << full.output;
  EXPECT_TRUE(contains(full.output,
                       "ur solve: cannot write output: No space left on device; "
                       "stopped, no table written"))
      << full.output;
  EXPECT_FALSE(std::filesystem::exists(table));
}

// From a review: `ur play --board aseb --path finkel` was blamed on --rules, which was not given.
TEST(Cli, UnplayableRulesNameTheOptionsGiven) {
  const CommandResult run = run_ur("play --board aseb --path finkel --script /dev/null");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(contains(run.output,
                       "ur play: --board aseb --path finkel: these rules cannot be "
                       "played: the finkel path leaves the aseb board"))
      << run.output;
  const CommandResult named = run_ur("perft --rules aseb --path finkel --depth 1");
  EXPECT_TRUE(contains(named.output, "ur perft: --rules aseb --path finkel: these rules"))
      << named.output;
}

TEST(Cli, SeedsMustBeZeroToTwoToTheSixtyFourMinusOne) {
  for (const char* arguments :
       {"play --seed -1 --script /dev/null", "play --seed 18446744073709551616 --script /dev/null",
        "play --seed x --script /dev/null", "match random first --seed -1",
        "match random first --seed 18446744073709551616"}) {
    const CommandResult run = run_ur(arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
    EXPECT_TRUE(contains(run.output, "0..18446744073709551615")) << arguments << "\n" << run.output;
    EXPECT_LT(run.output.size(), 300u) << arguments << "\n" << run.output;
  }
  const CommandResult largest =
      run_ur("play --seed 18446744073709551615 --opponent friend --script /dev/null");
  EXPECT_EQ(largest.exit_code, 0) << largest.output;
  EXPECT_TRUE(contains(largest.output, "seed 18446744073709551615")) << largest.output;
  const CommandResult match = run_ur("match random first --games 2 --seed 18446744073709551615");
  EXPECT_EQ(match.exit_code, 0) << match.output;
  EXPECT_TRUE(contains(match.output, "seed 18446744073709551615")) << match.output;
}

// `arguments` exit 2 with a message containing `says`.
void expect_usage_error(const std::string& arguments, const std::string& says) {
  const CommandResult run = run_ur(arguments);
  EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
  EXPECT_TRUE(contains(run.output, says)) << arguments << "\n" << run.output;
  EXPECT_FALSE(contains(run.output, "not in range")) << arguments << "\n" << run.output;
}

TEST(Cli, HintsRollRangeIsTheDiceRange) {
  const CommandResult help = run_ur("hints --help");
  EXPECT_FALSE(contains(help.output, "0 - 8")) << help.output;
  expect_usage_error("hints --position L:7/-/0:7/-/0 --roll 5", "integer 0..4, got 5");
  // Masters throws three dice and a 0 moves 4: a roll of 0 cannot happen.
  expect_usage_error("hints --rules masters --position L:7/-/0:7/-/0 --roll 0",
                     "integer 1..4, got 0");
  // From a review: --roll 8 was "0..7" (a fixed range) where --roll 5 was "0..4".
  expect_usage_error("hints --position L:7/-/0:7/-/0 --roll 8", "integer 0..4, got 8");
  expect_usage_error("hints --position L:7/-/0:7/-/0 --roll x", "must be a whole number, got x");
  EXPECT_FALSE(contains(help.output, "0..7")) << help.output;
}

TEST(Cli, PerftDepthIsAnIntegerUpToTwelve) {
  expect_usage_error("perft --depth x", "integer 0..12, got x");
  expect_usage_error("perft --depth 13", "integer 0..12, got 13");
}

TEST(Cli, ParseErrorsNameTheCommand) {
  const CommandResult roll = run_ur("hints --position L:7/-/0:7/-/0 --roll x");
  EXPECT_EQ(roll.exit_code, 2);
  EXPECT_EQ(roll.output.rfind("ur hints: --roll", 0), 0u) << roll.output;
  const CommandResult unknown = run_ur("perft --depth 1 --frobnicate");
  EXPECT_EQ(unknown.output.rfind("ur perft: ", 0), 0u) << unknown.output;
  const CommandResult global = run_ur("--frobnicate");
  EXPECT_EQ(global.output.rfind("ur: ", 0), 0u) << global.output;
}

TEST(Cli, UsageLineNamesUrNotTheBuildPath) {
  const CommandResult run = run_ur("perft --help");
  EXPECT_TRUE(contains(run.output, "Usage: ur perft")) << run.output;
  EXPECT_FALSE(contains(run.output, UR_BINARY)) << run.output;
}

TEST(Cli, HelpCommandWorksLikeTheHelpFlag) {
  const CommandResult command = run_ur("help");
  EXPECT_EQ(command.exit_code, 0) << command.output;
  EXPECT_EQ(command.output, run_ur("--help").output);
  const CommandResult perft = run_ur("help perft");
  EXPECT_EQ(perft.exit_code, 0) << perft.output;
  EXPECT_EQ(perft.output, run_ur("perft --help").output);
  EXPECT_EQ(run_ur("help fly").exit_code, 2);
}

// From a review: --judge FILE with FILE missing said only "cannot open table FILE: No such file
// or directory", where --table FILE and perfect:FILE give the command that builds it.
TEST_F(CliWithTables, AMissingJudgeTableNamesTheCommandThatBuildsIt) {
  const std::string missing = (directory() / "judge.table").string();
  const CommandResult run =
      run_ur("match greedy random --rules aseb --pieces 4 --games 2 --judge " + missing);
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_TRUE(contains(run.output, "ur match: --judge: no solved table for Aseb, 4 pieces"))
      << run.output;
  EXPECT_TRUE(contains(run.output, "ur solve --rules aseb --pieces 4 --out " + missing))
      << run.output;
  const CommandResult other =
      run_ur("match greedy random --games 2 --judge " + three_piece_table());
  EXPECT_EQ(other.exit_code, 3) << other.output;
  EXPECT_TRUE(contains(other.output, "3 pieces")) << other.output;
}

// From a review: a small table that perfect solved on the fly was solved inside its first
// move, so the match reported 24.8 ms a move where a second run said 0.004, and nothing said a
// table had been made. It is now solved before the games, and named.
TEST_F(CliWithTables, MatchSolvesASmallTableBeforeTheGamesAndSaysSo) {
  const std::filesystem::path data = directory() / "match-data";
  const std::string line = "XDG_DATA_HOME=" + data.string() +
                           " ur match perfect greedy --rules blitz --pieces 2 --games 2 2>&1";
  const CommandResult first = run_shell(line);
  EXPECT_EQ(first.exit_code, 0) << first.output;
  EXPECT_TRUE(contains(first.output, "ur match: agent A: solved the table for Blitz, 2 pieces"))
      << first.output;
  EXPECT_TRUE(contains(first.output,
                       "and saved it at " + (data / "ur" / "ur-blitz-2p-exact.table").string()))
      << first.output;
  const CommandResult again = run_shell(line);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_FALSE(contains(again.output, "solved the table")) << again.output;
}

// Exit code 3 means "the solved table is not available", whichever command needed it.
TEST_F(CliWithTables, MissingTableExitsThreeEverywhere) {
  for (const char* arguments : {
           "hints --position L:7/-/0:7/-/0 --roll 2",
           "match perfect random --games 1",
           "play --opponent perfect --script /dev/null",
       }) {
    const CommandResult run = run_ur(arguments);
    EXPECT_EQ(run.exit_code, 3) << arguments << "\n" << run.output;
    EXPECT_TRUE(contains(run.output, "ur solve --pieces 7")) << arguments << "\n" << run.output;
  }
}

// The opponent's spec was named twice: "--opponent perfect:F: perfect:F: no solved table ...".
TEST_F(CliWithTables, PlayNamesAnUnusableOpponentSpecOnce) {
  const std::string spec = "perfect:" + (directory() / "nope.table").string();
  const CommandResult missing = run_ur("play --opponent " + spec + " --script /dev/null");
  EXPECT_EQ(missing.exit_code, 3) << missing.output;
  EXPECT_TRUE(contains(missing.output, "ur play: --opponent: " + spec + ": no solved table"))
      << missing.output;
  const CommandResult other_rules =
      run_ur("play --opponent perfect:" + three_piece_table() + " --script /dev/null");
  EXPECT_EQ(other_rules.exit_code, 3) << other_rules.output;
  EXPECT_EQ(other_rules.output.find("perfect:"), other_rules.output.rfind("perfect:"))
      << other_rules.output;
}

TEST_F(CliWithTables, PerfectTableForOtherRulesIsRefused) {
  const std::string spec = "perfect:" + three_piece_table();
  const CommandResult match = run_ur("match " + spec + " random --games 2 --pieces 4");
  EXPECT_NE(match.exit_code, 0) << match.output;
  EXPECT_TRUE(contains(match.output, "3 pieces")) << match.output;
  const CommandResult best =
      run_shell("echo '{\"cmd\":\"best\",\"agent\":\"" + spec +
                "\",\"rules\":{\"pieces\":4},\"roll\":2,\"position\":{\"turn\":\"light\",\"light\":"
                "{\"start\":4,\"home\":0,\"board\":[]},\"dark\":{\"start\":4,\"home\":0,"
                "\"board\":[]}}}' | ur engine 2>&1");
  EXPECT_TRUE(contains(best.output, "\"error\"")) << best.output;
  EXPECT_TRUE(contains(best.output, "3 pieces")) << best.output;
  const CommandResult same = run_ur("match " + spec + " random --games 2 --pieces 3");
  EXPECT_EQ(same.exit_code, 0) << same.output;
}

TEST_F(CliWithTables, SolveChecksTheOutputPathBeforeSolving) {
  const std::filesystem::path missing_parent = directory() / "no-such-dir" / "t.table";
  const std::filesystem::path file = directory() / "plain-file";
  std::ofstream(file) << "x";
  for (const std::string& out : {directory().string(), missing_parent.string(),
                                 (file / "t.table").string(), std::string("/proc/t.table")}) {
    const CommandResult run = run_ur("solve --pieces 2 --out " + out);
    EXPECT_EQ(run.exit_code, 2) << out << "\n" << run.output;
    EXPECT_TRUE(contains(run.output, "--out")) << out << "\n" << run.output;
    EXPECT_FALSE(contains(run.output, "solving")) << out << "\n" << run.output;
  }
  EXPECT_FALSE(std::filesystem::exists(missing_parent.parent_path()));
  // The example file name is the one for the rules asked (it named the 7-piece Finkel table).
  const CommandResult masters =
      run_ur("solve --rules masters --pieces 2 --out " + directory().string());
  EXPECT_TRUE(contains(masters.output, "is a directory; name the table file, e.g. " +
                                           (directory() / "ur-masters-2p-exact.table").string()))
      << masters.output;
  // The default location is checked too: here it would be under a plain file.
  const CommandResult in_default =
      run_shell("XDG_DATA_HOME=" + file.string() + " ur solve --pieces 2 2>&1");
  EXPECT_EQ(in_default.exit_code, 2) << in_default.output;
  EXPECT_TRUE(contains(in_default.output, "cannot create the table directory " + file.string()))
      << in_default.output;
}

// The rename into place replaced a device node (as root, /dev/null itself) or a symbolic link.
TEST_F(CliWithTables, SolveRefusesADeviceAndWritesThroughALink) {
  const CommandResult device = run_ur("solve --pieces 1 --out /dev/null");
  EXPECT_EQ(device.exit_code, 2) << device.output;
  EXPECT_TRUE(contains(device.output, "--out /dev/null is not a regular file")) << device.output;
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  const std::filesystem::path target = directory() / "linked.table";
  const std::filesystem::path link = directory() / "link.table";
  std::filesystem::remove(link);
  std::filesystem::create_symlink(target, link);
  const CommandResult linked = run_ur("solve --pieces 1 --out " + link.string());
  EXPECT_EQ(linked.exit_code, 0) << linked.output;
  // The file is named as typed, and where the link leads.
  EXPECT_TRUE(contains(linked.output, "wrote " + link.string() + " -> " + target.string() + " ("))
      << linked.output;
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_TRUE(std::filesystem::is_regular_file(target));
  EXPECT_EQ(run_ur("solve --verify " + link.string()).exit_code, 0);
  // A loop of links was replaced by the table.
  const std::filesystem::path loop_a = directory() / "loop-a.table";
  const std::filesystem::path loop_b = directory() / "loop-b.table";
  std::filesystem::create_symlink(loop_b, loop_a);
  std::filesystem::create_symlink(loop_a, loop_b);
  const CommandResult loop = run_ur("solve --pieces 1 --out " + loop_a.string());
  EXPECT_EQ(loop.exit_code, 2) << loop.output;
  EXPECT_TRUE(contains(loop.output, "ur solve: --out " + loop_a.string() +
                                        " is a loop of symbolic links (or more than 40 in a "
                                        "row): name a file"))
      << loop.output;
  EXPECT_TRUE(std::filesystem::is_symlink(loop_a));
  EXPECT_TRUE(std::filesystem::is_symlink(loop_b));
}

// A solve killed by SIGKILL while writing (which no program can catch) left T.partial-PID for
// good. The next solve of T removes such files whose process is gone, and says so; a live
// writer's file stays.
TEST_F(CliWithTables, SolveRemovesAPartialTableOfAKilledSolve) {
  const std::filesystem::path table = directory() / "killed.table";
  pid_t gone = 4194303;
  while (::kill(gone, 0) == 0 || errno != ESRCH) --gone;
  const std::filesystem::path stale = table.string() + ".partial-" + std::to_string(gone);
  const std::filesystem::path live = table.string() + ".partial-" + std::to_string(::getpid());
  const std::filesystem::path other = table.string() + ".partial-x";
  for (const auto& file : {stale, live, other}) std::ofstream(file) << "half a table";
  const CommandResult solved = run_ur("solve --pieces 1 --out " + table.string());
  EXPECT_EQ(solved.exit_code, 0) << solved.output;
  EXPECT_TRUE(contains(solved.output, "removed " + stale.string() +
                                          ", left by a solve that was killed while writing"))
      << solved.output;
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(std::filesystem::exists(other));
  for (const auto& file : {live, other, table}) std::filesystem::remove(file);
}

// From a review: a table solved to --tolerance 0.1 (its start value 0.4 points off) passed
// --verify and gave hints as if exact, and --verify printed a u16 value to ten decimals.
TEST_F(CliWithTables, ALooselySolvedTableSaysSo) {
  const std::string loose = (directory() / "loose.table").string();
  ASSERT_EQ(run_ur("solve --pieces 2 --tolerance 0.1 --out " + loose).exit_code, 0);
  const CommandResult verified = run_ur("solve --verify " + loose);
  EXPECT_EQ(verified.exit_code, 0) << verified.output;  // it meets its own tolerance
  const std::string note = "note: this table was solved to a tolerance of 0.1";
  EXPECT_TRUE(contains(verified.output, note)) << verified.output;
  // Three decimals: "51.460%", not "51.4595254444%". (std::regex is not used: GCC 12 warns
  // inside it under the sanitizer build.)
  const std::string start_line = "start value (light to move) ";
  const auto at = verified.output.find(start_line);
  ASSERT_NE(at, std::string::npos) << verified.output;
  const std::string value = verified.output.substr(
      at + start_line.size(), verified.output.find('\n', at) - at - start_line.size());
  ASSERT_GE(value.size(), 5u) << value;
  EXPECT_EQ(value.back(), '%') << value;
  EXPECT_EQ(value.size() - value.find('.'), 5u) << value;
  const CommandResult hinted =
      run_ur("hints --pieces 2 --table " + loose + " -p L:2/-/0:2/-/0 -r 2");
  EXPECT_TRUE(contains(hinted.output, note)) << hinted.output;
  const CommandResult exact = run_ur("hints --pieces 2 -p L:2/-/0:2/-/0 -r 2");
  EXPECT_FALSE(contains(exact.output, "note:")) << exact.output;
}

// Past the file size limit (`ulimit -f`) the solve died of SIGXFSZ and left its temporary file.
TEST_F(CliWithTables, SolvePastTheFileSizeLimitFailsAndCleansUp) {
  const std::filesystem::path limited = directory() / "size-limit";
  std::filesystem::create_directories(limited);
  const std::filesystem::path out = limited / "t.table";
  // 4 blocks (2 or 4 KiB by the shell) is less than the table's 4 KiB header alone.
  const CommandResult run =
      run_shell("ulimit -f 4; ur solve --pieces 2 --out " + out.string() + " 2>&1");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_TRUE(contains(run.output, "File too large")) << run.output;
  EXPECT_TRUE(std::filesystem::is_empty(limited)) << "left behind in " << limited;
}

// A hang-up (the terminal closed) killed the solve where it stood; mid-write that left the
// temporary file. It now stops like Ctrl-C: exit 130, nothing left behind.
TEST_F(CliWithTables, SolveStopsCleanlyOnAHangUp) {
  const std::filesystem::path folder = directory() / "hang-up";
  std::filesystem::create_directories(folder);
  std::string line = "\"";
  line += UR_BINARY;
  line += "\" solve --pieces 5 --threads 1 --out " + (folder / "t.table").string();
  line += " 2>&1 & pid=$!; sleep 1; kill -HUP $pid; wait $pid";
  const CommandResult run = run_shell(line);
  EXPECT_EQ(run.exit_code, 130) << run.output;
  EXPECT_TRUE(contains(run.output, "interrupted; no table written")) << run.output;
  EXPECT_TRUE(std::filesystem::is_empty(folder)) << "left behind in " << folder;
}

// With stdin a directory the engine said "basic_filebuf::underflow error reading the file".
TEST(Cli, EngineNamesAnUnreadableInput) {
  const CommandResult run = run_shell("ur engine < / 2>&1");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_TRUE(contains(run.output, "ur engine: cannot read standard input: Is a directory"))
      << run.output;
}

// From a review of the terminal game: a script of one endless line (`--script /dev/zero`) grew
// without bound; a directory as the script played nothing and exited 0, after printing its
// settings line.
TEST(Cli, ScriptLinesAreBoundedAndADirectoryIsNoScript) {
  const CommandResult endless =
      run_shell("head -c 3000000 /dev/zero | ur play --opponent friend --script - 2>&1");
  EXPECT_EQ(endless.exit_code, 1) << endless.output;
  EXPECT_TRUE(contains(endless.output, "line 1: ")) << endless.output;
  EXPECT_TRUE(contains(endless.output, "the line is longer than 4096 bytes")) << endless.output;
  const CommandResult directory = run_ur("play --script /tmp");
  EXPECT_EQ(directory.exit_code, 2) << directory.output;
  EXPECT_TRUE(contains(directory.output, "--script '/tmp' is a directory")) << directory.output;
  EXPECT_FALSE(contains(directory.output, "settings:")) << directory.output;
  const CommandResult stdin_directory = run_shell("ur play --script - < / 2>&1");
  EXPECT_EQ(stdin_directory.exit_code, 2) << stdin_directory.output;
  EXPECT_TRUE(contains(stdin_directory.output, "standard input is a directory"))
      << stdin_directory.output;
  const CommandResult missing = run_ur("play --script /no/such/script");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_TRUE(contains(missing.output, "No such file or directory")) << missing.output;
  EXPECT_FALSE(contains(missing.output, "settings:")) << missing.output;
}

// `--record ''` wrote nothing and exited 0, as did every other path option given empty.
TEST(Cli, AnEmptyPathOptionIsRefused) {
  for (const char* arguments :
       {"play --opponent friend --record '' --script /dev/null", "play --script ''",
        "match random random --games 1 --record ''", "match random random --games 1 --judge ''",
        "solve --out ''", "review x.rgn --table ''", "serve --port 0 --data ''"}) {
    const CommandResult run = run_ur(arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
    EXPECT_TRUE(contains(run.output, "the value is empty; expected a path")) << arguments << "\n"
                                                                             << run.output;
  }
}

// A second `ur match --record DIR` replaced the first one's game-000001.rgn... one by one and
// left a mix of two matches.
TEST_F(CliWithTables, MatchRecordsNeverOverwriteEarlierGames) {
  const std::filesystem::path games = directory() / "twice";
  const CommandResult first =
      run_ur("match random random --pieces 2 --games 2 --record " + games.string());
  ASSERT_EQ(first.exit_code, 0) << first.output;
  std::ifstream in(games / "game-000001.rgn");
  const std::string before((std::istreambuf_iterator<char>(in)), {});
  const CommandResult second =
      run_ur("match greedy random --pieces 3 --games 2 --record " + games.string());
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_TRUE(contains(second.output, "already holds game records")) << second.output;
  std::ifstream again(games / "game-000001.rgn");
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), {}), before);
}

// ur match said "7 pieces, exact bear-off" under every set, and its JSON gave no set name.
TEST(Cli, MatchNamesTheRuleSetItPlayed) {
  const CommandResult text = run_ur("match greedy random --rules masters --pieces 2 --games 2");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_TRUE(contains(text.output, "Masters, 2 pieces, exact bear-off")) << text.output;
  const CommandResult json_run =
      run_ur("match greedy random --rules blitz --pieces 2 --games 2 --json");
  ASSERT_EQ(json_run.exit_code, 0) << json_run.output;
  EXPECT_TRUE(contains(json_run.output, R"("name":"blitz")")) << json_run.output;
}

// `ur solve --verify ""` ran a solve instead of a check, and --verify took --out silently.
TEST(Cli, VerifyNeedsAFileAndTakesNoOutput) {
  const CommandResult empty = run_ur("solve --verify ''");
  EXPECT_EQ(empty.exit_code, 2) << empty.output;
  EXPECT_TRUE(contains(empty.output, "needs the table file to check")) << empty.output;
  EXPECT_FALSE(contains(empty.output, "solving")) << empty.output;
  const CommandResult with_out = run_ur("solve --verify x.table --out y.table");
  EXPECT_EQ(with_out.exit_code, 2) << with_out.output;
  EXPECT_TRUE(contains(with_out.output, "excludes")) << with_out.output;
  // From a review: rules and solve settings beside --verify were silently ignored (a 2-piece
  // Blitz table "verified" under --rules aseb --pieces 5 --tolerance 0.1).
  for (const char* option : {"--rules aseb", "--pieces 5", "--tolerance 0.1", "--max-memory 1",
                             "--pair-memory 0", "--safe-rosettes false"}) {
    const CommandResult run = run_ur(std::string("solve --verify x.table ") + option);
    EXPECT_EQ(run.exit_code, 2) << option << "\n" << run.output;
    EXPECT_TRUE(contains(run.output, "excludes --verify")) << option << "\n" << run.output;
  }
}

// An empty --position was taken for "no position" and counted from the opening.
TEST(Cli, AnEmptyPositionIsRefused) {
  const CommandResult run = run_ur("perft --position '' --depth 1");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_TRUE(contains(run.output, "bad --position")) << run.output;
}

// Every comparison with NaN is false, so a plain range check let "nan" through (and --tolerance
// nan ran 100,000 sweeps a layer pair).
TEST(Cli, NumberOptionsRefuseNanAndInfinity) {
  for (const std::string option : {"--tolerance", "--max-memory", "--pair-memory"}) {
    for (const std::string value : {"nan", "inf", "-inf", "1e999", "0x10", ""}) {
      const CommandResult run =
          run_ur("solve --pieces 1 --out /tmp/never.table " + option + " '" + value + "'");
      EXPECT_EQ(run.exit_code, 2) << option << " " << value << "\n" << run.output;
      EXPECT_TRUE(contains(run.output, "must be a number")) << option << " " << value << "\n"
                                                            << run.output;
    }
  }
  EXPECT_FALSE(std::filesystem::exists("/tmp/never.table"));
}

// The text review printed each loss with a minus sign ("-2.92" under "loss pp"), though a loss
// is never negative.
TEST_F(CliWithTables, TheTextReviewPrintsLossesWithoutASign) {
  const std::filesystem::path games = directory() / "review-games";
  std::filesystem::create_directories(games);
  const CommandResult match =
      run_ur("match random random --pieces 3 --games 1 --seed 5 --record " + games.string());
  ASSERT_EQ(match.exit_code, 0) << match.output;
  const std::string record = (games / "game-000001.rgn").string();
  const CommandResult review = run_ur("review " + record + " --table " + three_piece_table());
  ASSERT_EQ(review.exit_code, 0) << review.output;
  std::istringstream lines(review.output);
  int losses = 0;
  for (std::string line; std::getline(lines, line);) {
    // The loss column: "%-4d %-5s %-4d %-10s %6s %6s %6s %9s", its last field.
    if (line.empty() || !std::isdigit(static_cast<unsigned char>(line[0])) || line.size() < 57) {
      continue;
    }
    const std::string loss = line.substr(48, 9);
    EXPECT_EQ(loss.find('-'), std::string::npos) << line;
    losses += loss.find_first_of("123456789") != std::string::npos;
  }
  EXPECT_GT(losses, 0) << "random play loses somewhere\n" << review.output;
}

// From a review: ur review exited 1 for a missing table where every other command exits 3; it
// told the user to solve over the game record they had named with --table by mistake; and
// --estimate quietly dropped a --table for other rules.
TEST_F(CliWithTables, ReviewRefusesAnUnusableTableWithExitThree) {
  const std::filesystem::path games = directory() / "review-tables";
  std::filesystem::create_directories(games);
  ASSERT_EQ(run_ur("match random random --pieces 5 --games 1 --record " + games.string()).exit_code,
            0);
  const std::string record = (games / "game-000001.rgn").string();
  const CommandResult missing = run_ur("review " + record);
  EXPECT_EQ(missing.exit_code, 3) << missing.output;
  EXPECT_TRUE(contains(missing.output, "ur solve --pieces 5")) << missing.output;
  // From a review: the command was given twice, in the reason and in the offer after it.
  EXPECT_EQ(missing.output.find("ur solve"), missing.output.rfind("ur solve")) << missing.output;
  EXPECT_TRUE(contains(missing.output, "on two cores; or review with the search's estimate"))
      << missing.output;
  const CommandResult not_a_table = run_ur("review " + record + " --table " + record);
  EXPECT_EQ(not_a_table.exit_code, 3) << not_a_table.output;
  EXPECT_TRUE(contains(not_a_table.output, "is not a ur table")) << not_a_table.output;
  EXPECT_FALSE(contains(not_a_table.output, "--out")) << not_a_table.output;
  const CommandResult other_rules =
      run_ur("review " + record + " --estimate --table " + three_piece_table());
  EXPECT_EQ(other_rules.exit_code, 3) << other_rules.output;
  EXPECT_TRUE(contains(other_rules.output, "3 pieces")) << other_rules.output;
  EXPECT_EQ(run_ur("review " + record + " --estimate").exit_code, 0);
}

// From a review: ur review refused a record whose small table every other command solves on
// the spot; a file of several games gave no heading per game; and two key moments of one turn
// (an extra throw) read the same, "turn 41 dark threw 1", with nothing to tell them apart.
TEST_F(CliWithTables, ReviewSolvesASmallTableAndNamesEachGameAndThrow) {
  const std::filesystem::path games = directory() / "review-masters";
  std::filesystem::create_directories(games);
  ASSERT_EQ(
      run_ur("match perfect greedy --rules masters --pieces 2 --games 2 --record " + games.string())
          .exit_code,
      0);
  const std::filesystem::path both = games / "both.rgn";
  run_shell("cat " + (games / "game-000001.rgn").string() + " " +
            (games / "game-000002.rgn").string() + " > " + both.string());
  const CommandResult review = run_ur("review " + both.string());
  EXPECT_EQ(review.exit_code, 0) << review.output;
  EXPECT_TRUE(contains(review.output,
                       "game 1 of 2 · round 1 · light A (perfect) · dark B "
                       "(greedy)\nvalues: "))
      << review.output;
  EXPECT_TRUE(contains(review.output, "\ngame 2 of 2 · round 2 · ")) << review.output;
  EXPECT_TRUE(contains(review.output, "\n  throw ")) << review.output;
  EXPECT_FALSE(contains(review.output, "\n  turn ")) << review.output;
  const CommandResult one = run_ur("review " + (games / "game-000001.rgn").string());
  EXPECT_FALSE(contains(one.output, "game 1 of")) << one.output;
}

// A record's tag printed raw let a shared file send escape sequences to the terminal
// (\x1b[31m recoloured it), and a directory was "cannot read DIR" without a reason.
TEST_F(CliWithTables, RecordTextIsPrintableAndADirectoryIsNamed) {
  const std::filesystem::path file = directory() / "escape.rgn";
  std::ofstream(file) << "[Pieces 2]\n[Dark \"\x1b[31mred\"]\n\n1. A@A3 / C@C3\n";
  const CommandResult run = run_ur("record " + file.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.find('\x1b'), std::string::npos) << run.output;
  EXPECT_TRUE(contains(run.output, "Dark: \\x1b[31mred")) << run.output;
  const CommandResult folder = run_ur("record " + directory().string());
  EXPECT_EQ(folder.exit_code, 1) << folder.output;
  EXPECT_TRUE(contains(folder.output, "is a directory")) << folder.output;
}

// The number of decimals of every percentage in `text` ("51.603%" has 3).
std::vector<int> percent_decimals(const std::string& text) {
  std::vector<int> decimals;
  for (std::size_t at = text.find('%'); at != std::string::npos; at = text.find('%', at + 1)) {
    std::size_t digits = at;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(text[digits - 1]))) --digits;
    if (digits > 0 && text[digits - 1] == '.') decimals.push_back(static_cast<int>(at - digits));
  }
  return decimals;
}

// A 16-bit table resolves about 1/65535: hints print 3 decimals of a percent, not 10.
TEST_F(CliWithTables, HintsPrintTheDecimalsTheTableHolds) {
  const CommandResult run =
      run_ur("hints --pieces 3 --position L:3/-/0:3/-/0 --roll 2 --table " + three_piece_table());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<int> decimals = percent_decimals(run.output);
  ASSERT_FALSE(decimals.empty()) << run.output;
  for (int count : decimals) EXPECT_EQ(count, 3) << run.output;
}

}  // namespace
