#include "play/record_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "play/play_test_support.h"
#include "play/script.h"
#include "records/rgn.h"

namespace ur::play {
namespace {

using testing::make_game;

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// A whole game against a seeded computer, written with --record's writer, reads back and
// replays to the same result and the same final position.
TEST(Record, AFinishedGameReadsBackAndReplaysToTheSameResult) {
  PlaySession game = make_game("medium", 2024);
  std::ostringstream ignored;
  while (game.phase() != Phase::Over) {
    const std::string line = game.phase() == Phase::Throw ? "throw"
                             : game.phase() == Phase::Pass
                                 ? "pass"
                                 : "move " + std::to_string(game.legal()[0].from);
    ASSERT_FALSE(run_script_line(game, line, ignored)) << line;
  }
  const std::string path = ::testing::TempDir() + "ur-record-file-test.rgn";
  ASSERT_FALSE(check_record_path(path));
  ASSERT_FALSE(write_records(game, path));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp")) << "renamed into place";
  const auto read = records::read_rgn(read_file(path));
  std::remove(path.c_str());
  ASSERT_TRUE(std::holds_alternative<std::vector<records::GameRecord>>(read))
      << std::get<records::ParseError>(read).text();
  const auto& games = std::get<std::vector<records::GameRecord>>(read);
  ASSERT_EQ(games.size(), 1u);
  const auto replayed = records::replay(games[0]);
  ASSERT_TRUE(std::holds_alternative<records::Replay>(replayed));
  const auto& replay = std::get<records::Replay>(replayed);
  EXPECT_EQ(replay.winner, game.winner());
  EXPECT_EQ(replay.session.position(), game.position());
  EXPECT_EQ(*games[0].tag("Seed"), "2024");
  EXPECT_EQ(*games[0].tag("DarkLevel"), "medium");
}

TEST(Record, BadPathsAreRefusedAndNothingIsMade) {
  const std::string dir = ::testing::TempDir();
  EXPECT_EQ(check_record_path(dir).value(), "'" + dir + "' is a directory, not a file");
  EXPECT_EQ(check_record_path(dir + "no-such-dir/x.rgn").value(),
            "the directory '" + dir + "no-such-dir' does not exist");
  EXPECT_FALSE(std::filesystem::exists(dir + "no-such-dir"));
  EXPECT_EQ(check_record_path("").value(), "the record file name is empty");
  EXPECT_FALSE(check_record_path("plain-name.rgn")) << "the current directory";
  EXPECT_FALSE(std::filesystem::exists("plain-name.rgn.tmp")) << "the probe is removed";
  // /proc passes the access checks as root and takes no file: found before the game (as
  // another user, by the access check).
  const auto proc = check_record_path("/proc/ur-record.rgn");
  ASSERT_TRUE(proc);
  EXPECT_TRUE(proc->find("cannot write '/proc/ur-record.rgn.tmp'") != std::string::npos ||
              proc->find("cannot write into '/proc'") != std::string::npos)
      << *proc;
}

// A loop of symbolic links was taken for a file name, and the record's rename replaced one of
// the links with a file.
TEST(Record, ALoopOfLinksIsRefusedAndLeftAsItIs) {
  const std::string a = ::testing::TempDir() + "ur-record-loop-a.rgn";
  const std::string b = ::testing::TempDir() + "ur-record-loop-b.rgn";
  std::filesystem::remove(a);
  std::filesystem::remove(b);
  std::filesystem::create_symlink(b, a);
  std::filesystem::create_symlink(a, b);
  EXPECT_EQ(check_record_path(a).value(),
            "'" + a + "' is a loop of symbolic links (or more than 40 in a row): name a file");
  EXPECT_TRUE(write_records(make_game(), a).has_value());
  EXPECT_TRUE(std::filesystem::is_symlink(a));
  EXPECT_TRUE(std::filesystem::is_symlink(b));
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}

TEST(Record, AWriteErrorIsReportedAndTheOldFileStays) {
  PlaySession game = make_game();
  const std::string path = ::testing::TempDir() + "ur-record-file-blocked.rgn";
  std::ofstream(path) << "old\n";
  std::filesystem::create_directory(path + ".tmp");  // the temporary cannot be opened
  const auto problem = write_records(game, path);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("cannot write '" + path + ".tmp'"), std::string::npos) << *problem;
  EXPECT_EQ(read_file(path), "old\n");
  std::filesystem::remove(path + ".tmp");
  std::remove(path.c_str());
}

// A device such as /dev/full was replaced by a regular file, and a symbolic link by a copy
// of its target, when FILE.tmp was renamed over them.
TEST(Record, ADeviceIsRefusedAndLeftAsItIs) {
  const auto problem = check_record_path("/dev/null");
  ASSERT_TRUE(problem);
  EXPECT_EQ(*problem,
            "'/dev/null' is not a regular file: give the name of a file to write the record to");
  PlaySession game = make_game();
  EXPECT_EQ(write_records(game, "/dev/null"), problem);
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
}

TEST(Record, ASymbolicLinkIsWrittenThroughAndKept) {
  namespace fs = std::filesystem;
  const std::string dir = ::testing::TempDir() + "ur-record-link-test/";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string target = dir + "games.rgn";
  const std::string link = dir + "link.rgn";
  std::ofstream(target) << "old\n";
  fs::create_symlink("games.rgn", link);
  PlaySession game = make_game();
  ASSERT_FALSE(check_record_path(link));
  ASSERT_FALSE(write_records(game, link));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(target), records::write_rgn(game.records()));
  EXPECT_FALSE(fs::exists(target + ".tmp"));
  EXPECT_FALSE(fs::exists(link + ".tmp"));
  fs::remove_all(dir);
}

TEST(Record, TheDefaultNameIsTheUtcTime) {
  EXPECT_EQ(default_record_name(testing::fixed_time()), "ur-game-20251201-100000.rgn");
}

}  // namespace
}  // namespace ur::play
