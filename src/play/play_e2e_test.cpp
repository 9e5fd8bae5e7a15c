// End-to-end: the real interactive `ur play` in a pseudo-terminal (a private tmux server),
// driven with keys and checked by reading the screen. Labelled "e2e", not "unit".
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <string>
#include <thread>

#include "play/tmux_test_support.h"

namespace {

using ur::play::testing::has_tmux;
using ur::play::testing::shell;
using ur::play::testing::Tmux;

// A fresh, empty directory under /tmp (for tables as XDG_DATA_HOME, or for records),
// removed afterwards.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_("/tmp/ur-play-e2e-" + name + "-" + std::to_string(getpid())) {
    shell("rm -rf " + path_ + " && mkdir -p " + path_);
  }
  ~ScratchDir() { shell("rm -rf " + path_); }
  const std::string& path() const { return path_; }
  std::string env() const { return "env XDG_DATA_HOME=" + path_ + " "; }
  std::string files() const { return shell("cd " + path_ + " && find . -type f | sort"); }

 private:
  std::string path_;
};

const std::string kUr = UR_BINARY;

TEST(PlayE2E, ThrowMovePassIllegalMoveAndQuit) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Tmux tmux;
  // Seed 28 between friends: light throws 2, dark then throws 0 (session::dice_for_throw).
  tmux.start(kUr + " play --opponent friend --seed 28 --no-color");
  std::string screen = tmux.wait_for("Light to throw");
  ASSERT_NE(screen.find("ur · the Royal Game of Ur"), std::string::npos) << screen;
  EXPECT_NE(screen.find("╭start╮"), std::string::npos) << screen;
  EXPECT_NE(screen.find("│ ○ ×7│"), std::string::npos) << screen;

  tmux.keys("x");
  screen = tmux.wait_for("does nothing now");
  EXPECT_NE(screen.find("✗ 'x' does nothing now: press t or space to throw"), std::string::npos)
      << screen;

  tmux.keys("t");
  screen = tmux.wait_for("Light threw 2");
  EXPECT_NE(screen.find("» start → 2, enters a new piece"), std::string::npos) << screen;
  tmux.keys("Enter");
  screen = tmux.wait_for("Dark to throw");
  EXPECT_NE(screen.find("› Light entered a piece on 2."), std::string::npos) << screen;
  EXPECT_NE(screen.find("  Light threw 2."), std::string::npos) << screen;

  tmux.keys("t");
  screen = tmux.wait_for("Dark threw 0: no move");
  EXPECT_NE(screen.find("A throw of 0: the turn passes."), std::string::npos) << screen;
  tmux.keys("p");
  screen = tmux.wait_for("Light to throw");
  EXPECT_NE(screen.find("Dark passes on a throw of 0."), std::string::npos) << screen;

  tmux.keys("t");
  screen = tmux.wait_for("Light threw");
  tmux.keys("9");
  screen = tmux.wait_for("✗ You have no piece on square 9.");
  EXPECT_NE(screen.find("✗ You have no piece on square 9."), std::string::npos) << screen;

  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
  EXPECT_NE(screen.find("COOKED"), std::string::npos) << "terminal restored\n" << screen;
  EXPECT_EQ(screen.find("Royal Game"), std::string::npos) << "alternate screen left\n" << screen;
}

// The Aseb board from `--rules aseb`, then Masters chosen in the menu: each drawn from its
// geometry in the real terminal, with its title and its rules page.
TEST(PlayE2E, RuleSetsFromTheFlagAndTheMenu) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Tmux tmux;
  tmux.start(kUr + " play --rules aseb --opponent friend --seed 5 --no-color");
  std::string screen = tmux.wait_for("Light to throw");
  EXPECT_NE(screen.find("ur · the Royal Game of Ur · Aseb"), std::string::npos) << screen;
  EXPECT_NE(screen.find("│✿  12│   13│   14│   15│✿  16│"), std::string::npos) << screen;
  EXPECT_NE(screen.find("│ ○ ×5│"), std::string::npos) << "Aseb's five pieces\n" << screen;
  tmux.keys("?");
  screen = tmux.wait_for("Aseb: rules and keys");
  EXPECT_NE(screen.find("leaves after B12"), std::string::npos) << screen;
  EXPECT_NE(screen.find("0-16"), std::string::npos) << screen;
  tmux.keys("Space");
  tmux.keys("m");
  screen = tmux.wait_for("Settings");
  tmux.keys("Down Right");
  screen = tmux.wait_for("‹ finkel ›");
  tmux.keys("Right");
  screen = tmux.wait_for("‹ masters ›");
  EXPECT_NE(screen.find("James Masters' rules: 7 pieces, three dice"), std::string::npos) << screen;
  // Start: past pieces, bear-off, who starts, auto-play, auto-pass, take-back and the seed;
  // it abandons the game under way, so it asks first.
  tmux.keys("Down Down Down Down Down Down Down Down Enter");
  screen = tmux.wait_for("Abandon this game for a new one?");
  tmux.keys("y");
  screen = tmux.wait_for("ur · the Royal Game of Ur · Masters");
  EXPECT_NE(screen.find("New game: now Masters."), std::string::npos) << screen;
  EXPECT_NE(screen.find("│✿ 12/16│  13/15│"), std::string::npos) << screen;
  EXPECT_NE(screen.find("│ ○ ×5│"), std::string::npos) << "the pieces stay\n" << screen;
  tmux.keys("t");
  screen = tmux.wait_for("Light threw");
  EXPECT_NE(screen.find("╱___╲ ╱___╲ ╱___╲ "), std::string::npos) << "three dice\n" << screen;
  EXPECT_EQ(screen.find("╱___╲ ╱___╲ ╱___╲ ╱___╲"), std::string::npos) << screen;
  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
}

TEST(PlayE2E, ComputerMovesAreLoggedAndResizeRedraws) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Tmux tmux;
  tmux.start(kUr + " play --opponent easy --seed 5 --auto-pass");
  tmux.wait_for("Your turn: throw the dice");
  tmux.keys("t");
  tmux.wait_for("You threw");
  tmux.keys("Enter");
  std::string screen = tmux.wait_for("The computer threw");
  EXPECT_NE(screen.find("The computer threw"), std::string::npos) << screen;

  tmux.resize(70, 20);
  screen = tmux.wait_for("needs a terminal of at least 80×24");
  EXPECT_NE(screen.find("This one is 70×20."), std::string::npos) << screen;
  tmux.resize(100, 30);
  screen = tmux.wait_for("ur · the Royal Game of Ur");
  EXPECT_NE(screen.find("╭start╮"), std::string::npos) << screen;

  // Help opens once the computer's turn is over (its moves would draw over the page).
  screen = tmux.wait_for("Your turn: throw the dice");
  ASSERT_NE(screen.find("Your turn: throw the dice"), std::string::npos) << screen;
  tmux.keys("?");
  screen = tmux.wait_for("Finkel: rules and keys");
  EXPECT_NE(screen.find("Finkel: rules and keys"), std::string::npos) << screen;
  tmux.keys("Space");
  tmux.keys("m");
  screen = tmux.wait_for("Settings");
  EXPECT_NE(screen.find("‹ easy ›"), std::string::npos) << screen;
  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
  EXPECT_NE(screen.find("COOKED"), std::string::npos) << screen;
}

TEST(PlayE2E, KeysWaitWhileTheBoardIsHidden) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Tmux tmux;
  tmux.start(kUr + " play --opponent friend --seed 5 --no-color");
  tmux.wait_for("Light to throw");
  tmux.resize(60, 20);
  std::string screen = tmux.wait_for("This one is 60×20.");
  ASSERT_NE(screen.find("This one is 60×20."), std::string::npos) << screen;
  tmux.keys("t");
  tmux.keys("Enter");
  tmux.keys("l");
  // The program reads those keys while the board is hidden; a key still unread at the resize
  // would be read with the board shown (a second is far beyond the milliseconds it takes).
  std::this_thread::sleep_for(std::chrono::seconds(1));
  tmux.resize(100, 30);
  screen = tmux.settled("Light to throw");
  EXPECT_NE(screen.find("Light to throw"), std::string::npos) << "nothing was thrown\n" << screen;
  EXPECT_EQ(screen.find("threw"), std::string::npos) << screen;
  EXPECT_EQ(screen.find("Log of this session"), std::string::npos) << screen;
  tmux.resize(60, 20);
  tmux.wait_for("This one is 60×20.");
  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << "q still quits\n" << screen;
  EXPECT_NE(screen.find("COOKED"), std::string::npos) << screen;
}

TEST(PlayE2E, LogScrollsWithPageKeysHomeAndEnd) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Tmux tmux;
  tmux.start(kUr + " play --opponent friend --seed 5 --no-color");
  tmux.wait_for("Light to throw");
  std::string new_games;
  for (int i = 0; i < 29; ++i) new_games += " n y";  // 30 games, one log entry each
  tmux.keys(new_games);
  tmux.wait_for("game 30 ·");
  tmux.keys("l");
  std::string screen = tmux.settled("Log of this session");
  EXPECT_NE(screen.find("Game 30: dark starts."), std::string::npos) << screen;
  EXPECT_EQ(screen.find("Game 1: light starts."), std::string::npos) << screen;
  tmux.keys("Home");
  screen = tmux.settled("Game 1: light starts.");
  EXPECT_NE(screen.find("Game 1: light starts."), std::string::npos) << screen;
  EXPECT_EQ(screen.find("Game 30: "), std::string::npos) << screen;
  tmux.keys("NPage");
  screen = tmux.settled("Game 30: ");
  EXPECT_NE(screen.find("Game 30: "), std::string::npos) << screen;
  tmux.keys("PPage");
  screen = tmux.settled("Game 1: light starts.");
  EXPECT_NE(screen.find("Game 1: light starts."), std::string::npos) << screen;
  tmux.keys("End");
  screen = tmux.settled("Game 30: ");
  EXPECT_EQ(screen.find("Game 1: light starts."), std::string::npos) << screen;
  tmux.keys("Up");
  screen = tmux.settled("Game 8: ");
  EXPECT_NE(screen.find("Game 8: "), std::string::npos) << "↑ shows one line more\n" << screen;
  tmux.keys("Escape");
  screen = tmux.settled("Dark to throw");
  EXPECT_EQ(screen.find("Log of this session"), std::string::npos) << screen;
  tmux.keys("q");
  screen = tmux.settled("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
}

TEST(PlayE2E, TheComputersLastMoveIsMarkedUntilYouThrow) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Tmux tmux;
  // Seed 32: you throw 1 and enter, then dark throws 3 and enters on its 3.
  tmux.start(kUr + " play --opponent easy --seed 32 --no-color");
  tmux.wait_for("Your turn: throw the dice");
  tmux.keys("t");
  tmux.wait_for("You threw");
  tmux.keys("Enter");
  std::string screen = tmux.settled("mark dark's last move");
  EXPECT_NE(screen.find("Your turn: throw the dice"), std::string::npos) << screen;
  EXPECT_NE(screen.find("‹ › ‹●› mark dark's last move: start → 3"), std::string::npos) << screen;
  EXPECT_NE(screen.find("│‹●›×6│"), std::string::npos) << "entered from the start tray\n" << screen;
  EXPECT_NE(screen.find("┆  ‹●›  ┆"), std::string::npos) << "and landed on the board\n" << screen;
  tmux.keys("t");
  screen = tmux.settled("You threw");
  EXPECT_EQ(screen.find("‹"), std::string::npos) << "gone once you act\n" << screen;
  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
}

TEST(PlayE2E, UTakesBackYourLastDecision) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Tmux tmux;
  // Seed 24: you throw 1 and enter, the computer throws 0 and passes, you throw 2 and can
  // move 1 → 3 or enter on 2: a decision.
  tmux.start(kUr + " play --opponent easy --seed 24 --no-color");
  tmux.wait_for("Your turn: throw the dice");
  tmux.keys("u");
  std::string screen = tmux.wait_for("✗ You have made no choice");
  EXPECT_NE(screen.find("✗ You have made no choice in this game that could be taken back."),
            std::string::npos)
      << screen;
  tmux.keys("t");
  tmux.wait_for("You threw 1");
  tmux.keys("Enter");
  tmux.wait_for("Your turn: throw the dice");
  tmux.keys("t");
  screen = tmux.wait_for("» 1 → 3");
  tmux.keys("Enter");
  tmux.wait_for("The computer threw");
  tmux.settled("Your turn: throw the dice");
  tmux.keys("u");
  screen = tmux.settled("Taken back: your throw of 2 waits for a move again.");
  EXPECT_NE(screen.find("You threw 2"), std::string::npos) << screen;
  EXPECT_NE(screen.find("› You took back your last move."), std::string::npos) << screen;
  tmux.keys("s Enter");
  screen = tmux.settled("You entered a piece on 2.");
  EXPECT_NE(screen.find("You entered a piece on 2."), std::string::npos) << screen;
  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
}

TEST(PlayE2E, RecordWritesEachGameAndTheSaveKeyToo) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  ScratchDir dir("records");
  const std::string file = dir.path() + "/games.rgn";
  Tmux tmux;
  // Seed 4: you throw 2 and enter; the computer throws 1 and enters; then you resign.
  tmux.start("cd " + dir.path() + " && " + kUr +
             " play --opponent easy --seed 4 --no-color --record " + file);
  tmux.wait_for("Your turn: throw the dice");
  EXPECT_EQ(dir.files(), "") << "nothing is written before a game ends";
  tmux.keys("t");
  tmux.wait_for("You threw 2");
  tmux.keys("Enter");
  tmux.settled("Your turn: throw the dice");
  tmux.keys("r y");
  std::string screen = tmux.settled("Game 1 over");
  EXPECT_EQ(dir.files(), "./games.rgn\n") << "written when the game ends, no .tmp left";
  std::string replay = shell(kUr + " record " + file + " 2>&1; echo rc=$?");
  EXPECT_NE(replay.find("result: dark won (light resigned)"), std::string::npos) << replay;
  EXPECT_NE(replay.find("rc=0"), std::string::npos) << replay;

  tmux.keys("Escape w");
  screen = tmux.wait_for("Save the records of this session");
  EXPECT_NE(screen.find("Enter saves (empty: ur-game-"), std::string::npos) << screen;
  tmux.keys("Enter");
  screen = tmux.settled("Saved 1 game to " + dir.path() + "/ur-game-");
  EXPECT_NE(screen.find("Saved 1 game to " + dir.path() + "/ur-game-"), std::string::npos)
      << screen;
  const std::string saved = shell("ls " + dir.path() + " | grep '^ur-game-.*\\.rgn$'");
  ASSERT_FALSE(saved.empty()) << dir.files();
  EXPECT_EQ(shell("cmp " + file + " " + dir.path() + "/" + saved.substr(0, saved.find('\n')) +
                  " && echo same"),
            "same\n")
      << "the save key writes what --record writes";

  tmux.keys("n");
  tmux.wait_for("game 2 ·");
  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
  replay = shell(kUr + " record " + file + " 2>&1");
  EXPECT_NE(replay.find("result: dark won (light resigned)"), std::string::npos)
      << "rewritten on quit: game 2 has begun and is unfinished\n"
      << replay;
  EXPECT_NE(replay.find("result: unfinished"), std::string::npos) << replay;
}

// The rolls of ten "throw" lines in a one-piece friend game, where auto-play makes every
// move (one piece has at most one legal move), through the real `ur play --script`.
std::string scripted_rolls(const std::string& seed) {
  const std::string output =
      shell("for i in 1 2 3 4 5 6 7 8 9 10; do echo throw; done | " + kUr +
            " play -o friend --pieces 1 --auto-play --auto-pass --seed " + seed +
            " --script - 2>&1 | sed -n 's/^> .* threw \\([0-4]\\)\\.$/\\1/p' | tr -d '\\n'");
  return output;
}

// Golden: the session's dice depend on the seed and the throw number alone.
TEST(PlayE2E, AScriptsThrowsArePinnedBySeed) {
  EXPECT_EQ(scripted_rolls("5"), "2322223323");
  EXPECT_EQ(scripted_rolls("6"), "0233321321");
}

TEST(PlayE2E, AScriptsRecordReplaysToTheSameResult) {
  ScratchDir dir("script-records");
  const std::string file = dir.path() + "/script.rgn";
  const std::string output =
      shell("printf 'roll 1\\nenter\\nresign\\n' | " + kUr +
            " play -o easy --seed 4 --script - --record " + file + " 2>&1; echo rc=$?");
  EXPECT_NE(output.find("game over: dark wins by resignation"), std::string::npos) << output;
  EXPECT_NE(output.find("rc=0"), std::string::npos) << output;
  const std::string replay = shell(kUr + " record " + file + " 2>&1; echo rc=$?");
  EXPECT_NE(replay.find("1     light  1     0 → 1"), std::string::npos) << replay;
  EXPECT_NE(replay.find("result: dark won (light resigned)"), std::string::npos) << replay;
  EXPECT_NE(replay.find("rc=0"), std::string::npos) << replay;
  EXPECT_EQ(dir.files(), "./script.rgn\n");

  // A write that would fail is said, not ignored: FILE.tmp cannot be made when it is a
  // directory. It is found before the game (a usage error), not after it.
  shell("mkdir " + file + ".tmp");
  const std::string failed = shell("printf 'resign\\n' | " + kUr + " play -o easy --script - " +
                                   "--record " + file + " 2>&1 >/dev/null; echo rc=$?");
  EXPECT_NE(failed.find("ur play: --record: cannot write '" + file + ".tmp'"), std::string::npos)
      << failed;
  EXPECT_NE(failed.find("rc=2"), std::string::npos) << failed;
}

TEST(PlayE2E, RecordRefusesADirectoryOrAMissingParentBeforeTheGame) {
  ScratchDir dir("records");
  std::string output =
      shell("printf 'show\\n' | " + kUr + " play --record " + dir.path() + " 2>&1; echo rc=$?");
  EXPECT_NE(output.find("ur play: --record: '" + dir.path() + "' is a directory, not a file"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("rc=2"), std::string::npos) << output;
  EXPECT_EQ(output.find("position"), std::string::npos) << "no game was played\n" << output;
  output = shell("printf 'show\\n' | " + kUr + " play --record " + dir.path() +
                 "/missing/x.rgn 2>&1; echo rc=$?");
  EXPECT_NE(output.find("the directory '" + dir.path() + "/missing' does not exist"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("rc=2"), std::string::npos) << output;
  EXPECT_EQ(dir.files(), "") << "no parent directory is made";
}

TEST(PlayE2E, TerminateSignalRestoresTheTerminal) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Tmux tmux;
  tmux.start(kUr + " play --opponent friend --seed 1");
  tmux.wait_for("Light to throw");
  const std::string pid = tmux.program_pid();
  ASSERT_FALSE(pid.empty());
  shell("kill -TERM " + pid);
  const std::string screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=143"), std::string::npos) << screen;
  EXPECT_NE(screen.find("COOKED"), std::string::npos) << screen;
}

TEST(PlayE2E, PerfectWithoutATableOffersToBuildItAndCtrlCCancels) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  ScratchDir home("tables");
  Tmux tmux;
  // The shell traps Ctrl-C so it goes on to report the exit status.
  tmux.start("trap : INT; " + home.env() + kUr +
             " play --opponent perfect --pieces 5 --seed 3 --no-color");
  std::string screen = tmux.wait_for("Build it now?");
  EXPECT_NE(screen.find("No solved table for 5 pieces (exact bear-off) yet."), std::string::npos)
      << screen;
  EXPECT_NE(screen.find("of memory"), std::string::npos) << screen;

  tmux.keys("y");
  screen = tmux.wait_for("Building the table: 5 pieces (exact bear-off)");
  EXPECT_NE(screen.find("Esc, q or Ctrl-C cancels"), std::string::npos) << screen;
  tmux.keys("C-c");
  screen = tmux.wait_for("Cancelled: no table was written.");
  EXPECT_NE(screen.find("Settings"), std::string::npos) << screen;
  EXPECT_EQ(home.files(), "");

  // Three pieces solve in a moment: built without asking, then the game starts.
  tmux.keys("Down Down Right");
  screen = tmux.wait_for("‹ 3 ›");
  tmux.keys("Down Down Down Down Down Down Down Enter");
  screen = tmux.wait_for("The table is built");
  EXPECT_NE(screen.find("computer, perfect"), std::string::npos) << screen;
  EXPECT_EQ(home.files(), "./ur/ur-3p-exact.table\n");
  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
  EXPECT_NE(screen.find("COOKED"), std::string::npos) << screen;
}

// Exit code 3: a missing table, as in every command (docs/cli.md).
TEST(PlayE2E, ScriptsNeverOfferToBuildATable) {
  ScratchDir home("tables");
  const std::string output = shell("printf 'show\\n' | " + home.env() + kUr +
                                   " play --opponent perfect --pieces 5 --script - 2>&1; "
                                   "echo rc=$?");
  EXPECT_NE(output.find("build it with `ur solve --pieces 5`"), std::string::npos) << output;
  EXPECT_NE(output.find("rc=3"), std::string::npos) << output;
  EXPECT_EQ(home.files(), "");
}

}  // namespace

// `ur replay` on a record `ur match` wrote: the start, one ply on, the end, the review from
// the 3-piece table solved on the spot (in a scratch XDG_DATA_HOME), and q.
TEST(PlayE2E, ReplayStepsThroughAMatchRecordWithItsReview) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  ScratchDir records("replay-records");
  ScratchDir tables("replay-tables");
  shell(kUr + " match greedy random --games 1 --pieces 3 --seed 5 --record " + records.path() +
        " >/dev/null 2>&1");
  const std::string file = records.path() + "/game-000001.rgn";
  ASSERT_TRUE(std::ifstream(file).good()) << records.files();
  Tmux tmux;
  tmux.start(tables.env() + kUr + " replay --no-color " + file);
  std::string screen = tmux.wait_for("ply 0 of ");
  EXPECT_NE(screen.find("(greedy) – "), std::string::npos) << screen;
  EXPECT_NE(screen.find("3 pieces (exact bear-off) · 1-0"), std::string::npos) << screen;
  EXPECT_NE(screen.find("▸  0  start"), std::string::npos) << screen;
  EXPECT_NE(screen.find("│ ○ ×3│"), std::string::npos) << screen;

  tmux.keys("Right");
  screen = tmux.settled("ply 1 of ");
  EXPECT_NE(screen.find("· turn 1 · light · roll "), std::string::npos) << screen;
  EXPECT_NE(screen.find("▸  1○ A@"), std::string::npos) << screen;
  EXPECT_NE(screen.find("‹○›"), std::string::npos) << screen;  // the ply's move marked
  EXPECT_NE(screen.find("chance before "), std::string::npos) << screen;
  EXPECT_NE(screen.find("played A@"), std::string::npos) << screen;

  tmux.keys("End");
  screen = tmux.settled("★ winner");
  EXPECT_NE(screen.find("A+ ("), std::string::npos) << screen;  // the last ply bears off
  EXPECT_NE(screen.find("│‹○›×3│"), std::string::npos) << screen;

  tmux.keys("r");
  screen = tmux.wait_for("Review of the game");
  EXPECT_NE(screen.find("light's chance before each throw"), std::string::npos) << screen;
  tmux.keys("Escape");
  tmux.wait_for("ply ");
  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
  EXPECT_NE(screen.find("COOKED"), std::string::npos) << screen;
}

// The word after "position " on a screen: the position text (docs/notation.md).
std::string position_on(const std::string& screen) {
  const std::size_t at = screen.find("position ");
  if (at == std::string::npos) return "";
  const std::size_t begin = at + 9;
  return screen.substr(begin, screen.find_first_of(" \n", begin) - begin);
}

// The first `count` ply rows of `ur record FILE`'s table (the rows after its header).
std::string first_ply_rows(const std::string& file, int count) {
  return shell(kUr + " record " + file + " 2>&1 | sed -n '/^turn  side/,$p' | sed -n '2," +
               std::to_string(count + 1) + "p'");
}

// A 7-piece record `ur match` wrote (greedy light, random dark); after its ply 3 light is
// to throw (dark passed a 0). Returns the file's path in `dir`.
std::string match_record(const ScratchDir& dir) {
  shell(kUr + " match greedy random --games 1 --seed 5 --record " + dir.path() +
        " >/dev/null 2>&1");
  return dir.path() + "/game-000001.rgn";
}

// In `ur replay`: steps to ply 3, reads its position text, presses p and `choice`, and
// waits for the game screen. Returns the replay's position text at ply 3.
std::string play_from_ply_3(Tmux& tmux, const std::string& choice) {
  tmux.wait_for("ply 0 of ");
  tmux.keys("Right Right Right");
  const std::string replay = tmux.settled("ply 3 of ");
  tmux.keys("p");
  const std::string asked = tmux.wait_for("Play from here: against the computer (c) or a friend");
  EXPECT_NE(asked.find("Play from here: against the computer (c) or a friend (f)? Esc cancels"),
            std::string::npos)
      << asked;
  tmux.keys(choice);
  tmux.wait_for("ur · the Royal Game of Ur");
  return position_on(replay);
}

// Throws, and moves the piece the cursor is on (or passes a throw without a move).
void throw_and_move(Tmux& tmux, const std::string& thrower) {
  tmux.keys("t");
  const std::string screen = tmux.settled(thrower + " threw ");
  tmux.keys(screen.find("(Enter to move)") != std::string::npos ? "Enter" : "p");
}

// `ur replay`, p at ply 3, c: the ur play screen goes on from that position against the
// computer, its log tells the plies before, and a throw and a move are played.
TEST(PlayE2E, ReplayPlaysOnFromAPlyAgainstTheComputer) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  ScratchDir records("replay-play-c");
  const std::string file = match_record(records);
  ASSERT_TRUE(std::ifstream(file).good()) << records.files();
  Tmux tmux;
  tmux.start(records.env() + kUr + " replay --no-color --seed 3 --level easy " + file);
  const std::string position = play_from_ply_3(tmux, "c");
  ASSERT_EQ(position.substr(0, 2), "L:") << "light is to throw after ply 3";
  std::string screen = tmux.settled("Your turn: throw the dice");
  EXPECT_NE(screen.find("● dark — computer, easy"), std::string::npos) << screen;
  tmux.keys("l");
  screen = tmux.settled("Log of this session");
  EXPECT_EQ(position_on(screen), position) << screen;
  EXPECT_NE(screen.find("Game 1: you start."), std::string::npos) << screen;
  EXPECT_NE(screen.find("The computer passes on a throw of 0."), std::string::npos) << screen;
  tmux.keys("Escape");
  tmux.wait_for("Your turn: throw the dice");
  throw_and_move(tmux, "You");
  tmux.wait_for("The computer threw ");
  // Keys during the computer's pauses only cut them short: wait for your turn again.
  tmux.settled("Your turn: throw the dice");
  tmux.keys("l");
  screen = tmux.settled("Log of this session");
  EXPECT_NE(position_on(screen), position) << "the game went on\n" << screen;
  EXPECT_TRUE(screen.find("You moved") != std::string::npos ||
              screen.find("You entered") != std::string::npos ||
              screen.find("You pass") != std::string::npos)
      << screen;
  tmux.keys("Escape q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
  EXPECT_NE(screen.find("COOKED"), std::string::npos) << screen;
}

// The same with f: a friend game from ply 3, light to throw, then dark.
TEST(PlayE2E, ReplayPlaysOnFromAPlyBetweenFriends) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  ScratchDir records("replay-play-f");
  const std::string file = match_record(records);
  Tmux tmux;
  tmux.start(records.env() + kUr + " replay --no-color --seed 3 " + file);
  const std::string position = play_from_ply_3(tmux, "f");
  std::string screen = tmux.settled("Light to throw");
  EXPECT_NE(screen.find("· light 0 – 0 dark"), std::string::npos) << "between friends\n" << screen;
  tmux.keys("l");
  screen = tmux.settled("Log of this session");
  EXPECT_EQ(position_on(screen), position) << screen;
  EXPECT_NE(screen.find("Dark passes on a throw of 0."), std::string::npos) << screen;
  tmux.keys("Escape");
  tmux.wait_for("Light to throw");
  throw_and_move(tmux, "Light");
  tmux.settled(" to throw");
  tmux.keys("l");
  screen = tmux.settled("Log of this session");
  EXPECT_NE(position_on(screen), position) << "the game went on\n" << screen;
  EXPECT_TRUE(screen.find("Light moved") != std::string::npos ||
              screen.find("Light entered") != std::string::npos ||
              screen.find("Light pass") != std::string::npos)
      << screen;
  tmux.keys("Escape q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
}

// The save key after play-from-here: the record `ur record` reads back starts with the
// original's first three plies; Esc on the question stays in the replay.
TEST(PlayE2E, ReplayPlayFromHereSavesARecordThatStartsLikeTheOriginal) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  ScratchDir records("replay-play-w");
  const std::string file = match_record(records);
  ScratchDir saves("replay-play-saves");
  Tmux tmux;
  tmux.start("cd " + saves.path() + " && " + records.env() + kUr +
             " replay --no-color --seed 3 --level easy " + file);
  tmux.wait_for("ply 0 of ");
  tmux.keys("p");
  tmux.wait_for("Play from here");
  tmux.keys("Escape");
  std::string screen = tmux.settled("p play");
  EXPECT_NE(screen.find("ply 0 of "), std::string::npos) << "Esc stays in the replay\n" << screen;
  tmux.keys("Home");
  play_from_ply_3(tmux, "c");
  tmux.settled("Your turn: throw the dice");
  throw_and_move(tmux, "You");
  tmux.wait_for("The computer threw ");
  tmux.settled("Your turn: throw the dice");
  tmux.keys("w");
  tmux.wait_for("Save the records of this session");
  tmux.keys("Enter");
  screen = tmux.settled("Saved 1 game to " + saves.path() + "/ur-game-");
  EXPECT_NE(screen.find("Saved 1 game to "), std::string::npos) << screen;
  const std::string saved = shell("ls " + saves.path() + " | grep '^ur-game-.*\\.rgn$'");
  ASSERT_FALSE(saved.empty()) << saves.files();
  const std::string copy = saves.path() + "/" + saved.substr(0, saved.find('\n'));
  const std::string read = shell(kUr + " record " + copy + " 2>&1; echo rc=$?");
  EXPECT_NE(read.find("rc=0"), std::string::npos) << read;
  const std::string original = first_ply_rows(file, 3);
  EXPECT_EQ(std::count(original.begin(), original.end(), '\n'), 3) << original;
  EXPECT_EQ(first_ply_rows(copy, 3), original) << read;
  const std::string longer = first_ply_rows(copy, 4);
  EXPECT_EQ(std::count(longer.begin(), longer.end(), '\n'), 4) << "it goes on past ply 3\n" << read;
  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
}

TEST(PlayE2E, ReplayRefusesABadRecord) {
  ScratchDir dir("replay-bad");
  const std::string file = dir.path() + "/bad.rgn";
  std::ofstream(file) << "[Rules Finkel]\n\n1. A@A4 / C@C4\n3. A4A1\n";
  const std::string output = shell(kUr + " replay " + file + " 2>&1; echo EXIT=$?");
  EXPECT_NE(output.find("ur replay: " + file + ": line 4, column 1: expected turn 2, found \"3.\""),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("EXIT=1"), std::string::npos) << output;
}

// Hints on (h) in a 3-piece game between friends, the table solved on the spot: the chances
// of both sides and of every move beside the moves; the game played to its end; r opens its
// review (the graph, the summaries' classes), → steps through it, Esc returns to the
// game-over screen, n starts the next game.
TEST(PlayE2E, HintsDuringTheGameAndItsReviewAfter) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  ScratchDir tables("hints-tables");
  Tmux tmux;
  tmux.start(tables.env() + kUr + " play --opponent friend --pieces 3 --seed 5 --no-color");
  std::string screen = tmux.wait_for("Light to throw");
  EXPECT_NE(screen.find("h hints"), std::string::npos) << screen;
  EXPECT_EQ(screen.find("Chances:"), std::string::npos) << "hints are off by default\n" << screen;
  tmux.keys("h");
  screen = tmux.settled("Chances: Light ");
  EXPECT_NE(screen.find("Hints on"), std::string::npos) << screen;
  EXPECT_NE(screen.find(" · Dark "), std::string::npos) << screen;
  EXPECT_EQ(screen.find("estimated"), std::string::npos) << "the table is exact\n" << screen;

  // Waits until the screen shows one of `texts`; returns the screen.
  const auto wait_any = [&tmux](std::initializer_list<std::string> texts) {
    std::string shown;
    for (int i = 0; i < 160; ++i) {
      shown = tmux.screen();
      for (const std::string& text : texts) {
        if (shown.find(text) != std::string::npos) return shown;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return shown;
  };
  bool saw_moves = false;
  screen = tmux.screen();
  for (int ply = 0; ply < 400 && screen.find("Game 1 over") == std::string::npos; ++ply) {
    tmux.keys("t");
    // The headline's second line: a move to choose, or a throw to pass.
    screen = wait_any({"or type a square", "press p or Enter to pass"});
    if (screen.find("or type a square") != std::string::npos) {
      if (!saw_moves) {
        // Every move with its chance, e.g. "Moves: start → 2 48.1% · 4 → 6 52.3%".
        const std::size_t at = screen.find("Moves: ");
        ASSERT_NE(at, std::string::npos) << screen;
        const std::string line = screen.substr(at, screen.find('\n', at) - at);
        EXPECT_NE(line.find("%"), std::string::npos) << line;
        EXPECT_NE(line.find(" → "), std::string::npos) << line;
        saw_moves = true;
      }
      tmux.keys("Enter");
    } else {
      tmux.keys("p");
    }
    screen = wait_any({"press t or space to throw", "Game 1 over"});
  }
  EXPECT_TRUE(saw_moves);
  screen = tmux.settled("Game 1 over");
  ASSERT_NE(screen.find("Game 1 over"), std::string::npos) << screen;
  EXPECT_NE(screen.find("r review"), std::string::npos) << screen;

  tmux.keys("r");
  screen = tmux.settled("Review of the game");
  EXPECT_NE(screen.find("light's chance before each throw"), std::string::npos) << screen;
  EXPECT_NE(screen.find(" decisions ("), std::string::npos) << screen;
  EXPECT_NE(screen.find(" best"), std::string::npos) << screen;
  tmux.keys("Right");  // closes the summary
  screen = tmux.settled("ply 0 of ");
  tmux.keys("Right");
  screen = tmux.settled("ply 1 of ");
  EXPECT_NE(screen.find("chance before "), std::string::npos) << screen;
  EXPECT_NE(screen.find("played "), std::string::npos) << screen;
  EXPECT_NE(screen.find("▸  1○ "), std::string::npos) << screen;
  EXPECT_NE(screen.find("Esc/q back"), std::string::npos) << screen;
  tmux.keys("Escape");
  screen = tmux.settled("Game 1 over");
  EXPECT_NE(screen.find("Game 1 over"), std::string::npos) << screen;
  tmux.keys("n");
  screen = tmux.settled("game 2 ·");
  EXPECT_NE(screen.find("Dark to throw"), std::string::npos) << "dark opens game 2\n" << screen;
  tmux.keys("q");
  screen = tmux.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
}
