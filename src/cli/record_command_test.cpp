// `ur record` as users meet it: replay output, JSON, conversion and bad records.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "cli/run_ur.h"

namespace {

using ur::testing::run_ur;

constexpr const char* kGame =
    "[Rules Finkel]\n"
    "[Light \"Ann Example\"]\n"
    "\n"
    "1. A@A1 * A1B2 / C@C3\n"
    "2. 0 -- / C3C1 * C@C2\n";

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ur-record-test-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path) << text;
  return path.string();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// From a review: "captures, throws again" (22 characters) overflowed the notes column and
// pushed that row's position out of line. Every row's position starts under the header's.
TEST(RecordCommand, EveryPositionStartsUnderItsHeader) {
  const std::string directory = write_file("blitz", "");
  std::filesystem::remove(directory);
  run_ur("match random random --rules blitz --pieces 2 --games 1 --seed 1 --record " + directory);
  const auto run = run_ur("record " + directory + "/game-000001.rgn");
  std::filesystem::remove_all(directory);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_TRUE(contains(run.output, "captures, throws again")) << run.output;
  std::istringstream lines(run.output);
  std::size_t column = std::string::npos;
  int rows = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("turn ")) column = line.find("position after");
    if (line.empty() || line[0] < '1' || line[0] > '9') continue;
    // Columns count characters; the move's arrow is one character in three bytes.
    std::size_t arrows = 0;
    for (std::size_t at = line.find("→"); at != std::string::npos; at = line.find("→", at + 1)) {
      ++arrows;
    }
    const std::size_t position = line.find_last_of(' ') + 1;
    EXPECT_EQ(position - 2 * arrows, column) << line;
    ++rows;
  }
  EXPECT_GT(rows, 10);
}

TEST(RecordCommand, PrintsEveryPlyWithThePositionAfterIt) {
  const auto run = run_ur("record " + write_file("a.rgn", kGame));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(contains(run.output, "1     light  4     0 → 4          throws again")) << run.output;
  EXPECT_TRUE(contains(run.output, "2     light  0     pass (0)")) << run.output;
  EXPECT_TRUE(contains(run.output, "L:6/6/0:5/3,4/0")) << run.output;
  EXPECT_TRUE(contains(run.output, "result: unfinished")) << run.output;
}

TEST(RecordCommand, ConvertsToJsonAndBackToTheSameRgn) {
  const std::string file = write_file("b.rgn", kGame);
  const auto json = run_ur("record " + file + " --to json");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  EXPECT_TRUE(contains(json.output, "\"plies\":[")) << json.output;
  const auto back = run_ur("record " + write_file("b.json", json.output) + " --to rgn");
  EXPECT_EQ(back.exit_code, 0);
  EXPECT_EQ(back.output, kGame);
}

TEST(RecordCommand, BadRecordsNameTheFileLineAndColumn) {
  const auto run = run_ur("record " + write_file("c.rgn", "1. A@A1 *\n3. A1B1\n"));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(contains(run.output, "line 2, column 1: expected turn 2, found \"3.\""))
      << run.output;
  const auto missing = run_ur("record /nonexistent/game.rgn");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(contains(missing.output, "cannot open /nonexistent/game.rgn")) << missing.output;
  const auto bad_to = run_ur("record x --to pgn");
  EXPECT_EQ(bad_to.exit_code, 2);
}

TEST(RecordCommand, MatchRecordsOneFilePerGameThatReplaysToItsResult) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("ur-record-test-" + std::to_string(::getpid()) + "-match");
  std::filesystem::remove_all(dir);
  const auto match = run_ur("match greedy random --games 3 --seed 4 --record " + dir.string());
  ASSERT_EQ(match.exit_code, 0) << match.output;
  for (const char* name : {"game-000001.rgn", "game-000002.rgn", "game-000003.rgn"}) {
    const std::string file = (dir / name).string();
    const auto replayed = run_ur("record " + file);
    EXPECT_EQ(replayed.exit_code, 0) << replayed.output;
    EXPECT_TRUE(contains(replayed.output, "LightLevel: ")) << replayed.output;
    EXPECT_TRUE(contains(replayed.output, " won\n")) << replayed.output;
    // ur's own records round-trip byte for byte.
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(run_ur("record " + file + " --to rgn").output, text);
  }
  const auto refused = run_ur("match greedy random --record /nonexistent/ur/dir");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_TRUE(contains(refused.output, "its parent must exist")) << refused.output;
  std::filesystem::remove_all(dir);
}

TEST(RecordCommand, AWriteErrorIsAnError) {
  const auto run = run_ur("record " + write_file("d.rgn", kGame) + " 2>&1 > /dev/full");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(contains(run.output, "cannot write")) << run.output;
}

// Output past stdio's buffer fails in an implicit flush, whose errno was gone by the time the
// command ended: `ur record big.rgn | head -1` said "cannot write output" and no reason.
TEST(RecordCommand, AWriteErrorMidOutputNamesItsReason) {
  std::string many;
  for (int game = 0; game < 300; ++game) many += std::string(kGame) + "\n";
  const auto file = write_file("many.rgn", many);
  const auto full = run_ur("record " + file + " 2>&1 > /dev/full");
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_TRUE(contains(full.output, "ur record: cannot write output: No space left on device"))
      << full.output;
  const auto errors = write_file("many.err", "");
  ur::testing::run_shell("ur record " + file + " 2>" + errors + " | head -c 1 > /dev/null");
  std::ifstream in(errors);
  const std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(said, "ur record: cannot write output: Broken pipe")) << said;
}

}  // namespace
