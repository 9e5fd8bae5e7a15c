#include "tables/table.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <sys/stat.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>

#include "core/notation.h"
#include "core/rule_sets.h"
#include "engine/handler.h"
#include "solver/solver.h"
#include "tables/perfect_agent.h"
#include "tables/table_store.h"

namespace ur::tables {
namespace {

namespace fs = std::filesystem;

// Every test works in its own data directory so nothing touches the user's tables.
class TableTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    directory_ = fs::temp_directory_path() / ("ur-table-test-" + std::to_string(::getpid()));
    fs::create_directories(directory_);
    ::setenv("XDG_DATA_HOME", directory_.c_str(), 1);
  }
  static void TearDownTestSuite() { fs::remove_all(directory_); }

  static const std::vector<double>& solved(int pieces) {
    static std::map<int, std::vector<double>> values;
    if (!values.count(pieces)) {
      solver::SolveOptions options;
      options.threads = 2;
      options.tolerance = 1e-12;
      values[pieces] =
          solver::solve(solver::PositionIndex(finkel_rules(pieces)), options, {}, nullptr).values;
    }
    return values[pieces];
  }

  static std::shared_ptr<const Table> in_memory(int pieces) {
    static std::map<int, std::shared_ptr<const Table>> tables;
    if (!tables.count(pieces))
      tables[pieces] = Table::from_values(finkel_rules(pieces), solved(pieces));
    return tables[pieces];
  }

  static fs::path write(int pieces, Encoding encoding, const std::string& name) {
    const fs::path path = directory_ / name;
    EXPECT_EQ(
        write_table(path, finkel_rules(pieces), solved(pieces), encoding, {1e-12, 1e-12}, nullptr),
        std::nullopt);
    return path;
  }

  static std::string open_error(const fs::path& path, const std::optional<Rules>& rules) {
    auto opened = Table::open(path, rules);
    const std::string* message = std::get_if<std::string>(&opened);
    return message ? *message : "";
  }

  static inline fs::path directory_;
};

// `ur solve --verify` passed a table of wrong values whose checksums were recomputed: a solved
// table stays within the bound in every encoding, one of values all 0.5 does not.
TEST_F(TableTest, TheAllowedResidualSeparatesASolvedTableFromAnUnsolvedOne) {
  for (const Encoding encoding : {Encoding::Fixed16, Encoding::Float32, Encoding::Float64}) {
    const fs::path path =
        write(3, encoding, "verify-" + std::string(to_string(encoding)) + ".table");
    const auto table = std::get<std::shared_ptr<const Table>>(Table::open(path, finkel_rules(3)));
    const double residual =
        solver::verify(
            table->index(), [&](std::uint64_t at) { return table->value(at); }, 2)
            .max_residual;
    EXPECT_LE(residual, allowed_residual(*table)) << to_string(encoding);
    if (encoding == Encoding::Fixed16) {
      EXPECT_GT(residual, 0.2 * allowed_residual(*table)) << "the rounding sets the bound";
    }
  }
  const std::vector<double> halves(solved(3).size(), 0.5);
  const fs::path path = directory_ / "halves.table";
  ASSERT_EQ(write_table(path, finkel_rules(3), halves, Encoding::Fixed16, {1e-12, 1e-9}, nullptr),
            std::nullopt);
  const auto table = std::get<std::shared_ptr<const Table>>(Table::open(path, finkel_rules(3)));
  EXPECT_GT(solver::verify(
                table->index(), [&](std::uint64_t at) { return table->value(at); }, 2)
                .max_residual,
            allowed_residual(*table));
}

TEST_F(TableTest, RoundTripsEveryEncoding) {
  const std::vector<double>& values = solved(2);
  for (const auto& [encoding, error] :
       {std::pair{Encoding::Fixed16, 0.5 / 65535}, std::pair{Encoding::Float32, 1e-7},
        std::pair{Encoding::Float64, 0.0}}) {
    const fs::path path = write(2, encoding, "two-" + std::string(to_string(encoding)) + ".table");
    EXPECT_EQ(fs::file_size(path), 4096 + values.size() * bytes_per_value(encoding));
    auto opened = Table::open(path, finkel_rules(2));
    ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const Table>>(opened))
        << std::get<std::string>(opened);
    const auto table = std::get<std::shared_ptr<const Table>>(opened);
    EXPECT_EQ(table->encoding(), encoding);
    for (std::uint64_t at = 0; at < values.size(); ++at) {
      ASSERT_NEAR(table->value(at), values[at], error + 1e-15);
    }
  }
}

TEST_F(TableTest, RefusesMismatchesWithClearMessages) {
  const fs::path path = write(2, Encoding::Fixed16, "refuse.table");
  EXPECT_NE(open_error(path, finkel_rules(3)).find("is for Finkel, 2 pieces"), std::string::npos);
  EXPECT_NE(open_error(path, finkel_rules(2, BearOff::Any))
                .find("not for Finkel, 2 pieces, any throw bears off (bear-off exact, not any)"),
            std::string::npos);
  EXPECT_NE(open_error(directory_ / "missing.table", {}).find("cannot open"), std::string::npos);

  const fs::path damaged = directory_ / "damaged.table";
  fs::copy_file(path, damaged);
  {
    std::fstream file(damaged, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(4096 + 1000);
    file.put('\x55');
  }
  EXPECT_NE(open_error(damaged, {}).find("checksum"), std::string::npos);

  const fs::path cut = directory_ / "cut.table";
  fs::copy_file(path, cut);
  fs::resize_file(cut, fs::file_size(path) - 2);
  EXPECT_NE(open_error(cut, {}).find("cut off"), std::string::npos);

  const fs::path header = directory_ / "header.table";
  fs::copy_file(path, header);
  {
    std::fstream file(header, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(16);
    file.put('\x03');  // pieces
  }
  EXPECT_NE(open_error(header, {}).find("damaged header"), std::string::npos);
}

// The header checksum as docs/table-format.md gives it: bytes 0-87, then the columns block
// 96-103 when its marker is set.
std::uint64_t documented_checksum(const std::vector<unsigned char>& header) {
  std::uint64_t state = 0x243F6A8885A308D3ull;
  auto words = [&state](const unsigned char* p, std::size_t bytes) {
    for (std::size_t at = 0; at < bytes; at += 8) {
      std::uint64_t word;
      std::memcpy(&word, p + at, 8);
      state = std::rotl(state ^ word, 27) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    }
  };
  words(header.data(), 88);
  if (header[96] != 0) words(header.data() + 96, 8);
  return state ^ (state >> 31);
}

// Reads the header of `path`, lets `change` edit it, and writes it back with its checksum.
template <class Change>
void rewrite_header(const fs::path& path, Change change) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  std::vector<unsigned char> header(4096);
  file.read(reinterpret_cast<char*>(header.data()), 4096);
  change(header);
  const std::uint64_t sum = documented_checksum(header);
  std::memcpy(header.data() + 88, &sum, 8);
  file.seekp(0);
  file.write(reinterpret_cast<const char*>(header.data()), 4096);
}

TEST_F(TableTest, DefaultFilesNameTheSetUnlessFinkel) {
  EXPECT_EQ(default_table_path(finkel_rules(7)).filename(), "ur-7p-exact.table");
  EXPECT_EQ(default_table_path(Rules(find_rule_set("masters")->spec)).filename(),
            "ur-masters-7p-exact.table");
}

// Every custom set of a piece count shared "ur-custom-2p-exact.table": solving one replaced the
// other's table.
TEST_F(TableTest, TwoCustomSetsNeverShareADefaultFile) {
  RuleSpec six_dice = find_rule_set("finkel")->spec;
  six_dice.pieces = 2;
  six_dice.dice = 6;
  RuleSpec two_dice = six_dice;
  two_dice.dice = 2;
  RuleSpec unsafe = six_dice;
  unsafe.safe_rosettes = false;
  EXPECT_EQ(default_table_path(Rules(six_dice)).filename(),
            "ur-custom-standard-board-finkel-path-6-dice-zero-pass-safe-rosettes-rosette-throw-"
            "no-capture-throw-2p-exact.table");
  EXPECT_NE(default_table_path(Rules(six_dice)), default_table_path(Rules(two_dice)));
  EXPECT_NE(default_table_path(Rules(six_dice)), default_table_path(Rules(unsafe)));
}

// The header names every column of the rule set: bytes 96-101.
TEST_F(TableTest, HeaderWritesEveryColumnOfTheRules) {
  const fs::path path = write(2, Encoding::Fixed16, "columns.table");
  std::ifstream file(path, std::ios::binary);
  std::vector<unsigned char> header(4096);
  file.read(reinterpret_cast<char*>(header.data()), 4096);
  EXPECT_EQ(std::vector<int>(header.begin() + 96, header.begin() + 104),
            (std::vector<int>{1, 0, 0, 0, 1, 1, 0, 0}));
  EXPECT_EQ(header[19], 4);  // dice
}

// Tables written before the columns block (zero there) still load, as Finkel's layout.
TEST_F(TableTest, TablesWithoutTheColumnsBlockLoadAsFinkel) {
  const fs::path path = write(2, Encoding::Fixed16, "legacy.table");
  rewrite_header(path, [](std::vector<unsigned char>& header) {
    std::fill(header.begin() + 96, header.begin() + 104, 0);
  });
  auto opened = Table::open(path, finkel_rules(2));
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const Table>>(opened))
      << std::get<std::string>(opened);
  EXPECT_EQ(std::get<std::shared_ptr<const Table>>(opened)->rules(), finkel_rules(2));
}

// The 7-piece table a user solved with an earlier ur, where one exists.
TEST_F(TableTest, TheUsersSevenPieceTableStillLoads) {
  const char* home = std::getenv("HOME");
  const fs::path path =
      fs::path(home ? home : ".") / ".local" / "share" / "ur" / "ur-7p-exact.table";
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  auto opened = Table::open(path, finkel_rules(7));
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const Table>>(opened))
      << std::get<std::string>(opened);
}

TEST_F(TableTest, ATableForOtherRulesNamesTheDifference) {
  const fs::path path = write(2, Encoding::Fixed16, "other.table");
  RuleSpec masters = find_rule_set("masters")->spec;
  masters.pieces = 2;
  EXPECT_EQ(open_error(path, Rules(masters)),
            "table " + path.string() +
                " is for Finkel, 2 pieces, bear-off exact, not for Masters, 2 pieces, bear-off "
                "exact (path finkel, not masters; dice 4, not 3; zero roll pass, not max; safe "
                "rosettes yes, not no)");
}

// Every named set's table is written, read back under its own rules with its values, and
// refused under another set's with the columns that differ.
TEST_F(TableTest, EveryNamedSetsTableRoundTripsAndIsRefusedForAnother) {
  for (const NamedRuleSet& set : named_rule_sets()) {
    const Rules rules = named_rules(set.name, 2);
    solver::SolveOptions options;
    options.threads = 2;
    const std::vector<double> values =
        solver::solve(solver::PositionIndex(rules), options, {}, nullptr).values;
    const fs::path path = directory_ / (std::string(set.name) + "-2.table");
    ASSERT_EQ(write_table(path, rules, values, Encoding::Fixed16, {1e-9, 1e-9}, nullptr),
              std::nullopt);
    auto opened = Table::open(path, rules);
    ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const Table>>(opened))
        << set.name << ": " << std::get<std::string>(opened);
    const auto table = std::get<std::shared_ptr<const Table>>(opened);
    const Position start = starting_position(rules);
    EXPECT_NEAR(evaluate(*table, start), values[table->index().rank(start)], 1.0 / 65535)
        << set.name;
    const std::string_view other = set.name == "blitz" ? "masters" : "blitz";
    const std::string refused = open_error(path, named_rules(other, 2));
    EXPECT_NE(refused.find("not for " + std::string(find_rule_set(other)->title) +
                           ", 2 pieces, bear-off exact ("),
              std::string::npos)
        << refused;
  }
  // Blitz and Masters share the path and differ in dice, zero roll and capture throws.
  EXPECT_NE(open_error(directory_ / "masters-2.table", named_rules("blitz", 2))
                .find("(dice 3, not 4; zero roll max, not pass; capture extra throw no, not yes)"),
            std::string::npos)
      << open_error(directory_ / "masters-2.table", named_rules("blitz", 2));
  // A custom column (any throw bears off) is named too.
  Rules any = named_rules("aseb", 2);
  any.bear_off = BearOff::Any;
  EXPECT_NE(open_error(directory_ / "aseb-2.table", any).find("(bear-off exact, not any)"),
            std::string::npos);
}

// A damaged value or a cut-off file of a non-Finkel table is refused on load (and so by
// `ur solve --verify`, which opens through Table::open).
TEST_F(TableTest, DamagedOrTruncatedTablesOfAnySetAreRefused) {
  const Rules rules = named_rules("masters", 1);
  const std::vector<double> values =
      solver::solve(solver::PositionIndex(rules), solver::SolveOptions{}, {}, nullptr).values;
  const fs::path path = directory_ / "masters-1-damaged.table";
  ASSERT_EQ(write_table(path, rules, values, Encoding::Fixed16, {}, nullptr), std::nullopt);
  {
    std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
    file.seekp(4096 + 2 * 17);
    file.put('\x5a');
  }
  EXPECT_NE(open_error(path, rules).find("damaged: the values' checksum does not match"),
            std::string::npos);
  fs::resize_file(path, fs::file_size(path) - 2);
  EXPECT_NE(open_error(path, rules).find("it was cut off or extended"), std::string::npos)
      << open_error(path, rules);
}

// A header whose path crosses itself (Murray) is refused with the reason.
TEST_F(TableTest, SelfCrossingPathsAreRefusedOnLoad) {
  const fs::path path = write(2, Encoding::Fixed16, "murray.table");
  RuleSpec spec;
  spec.path = PathKind::Murray;
  spec.pieces = 2;
  const Rules murray(spec);
  rewrite_header(path, [&murray](std::vector<unsigned char>& header) {
    header[18] = static_cast<unsigned char>(murray.route_length);
    std::memcpy(header.data() + 20, &murray.rosettes, 4);
    std::memcpy(header.data() + 24, &murray.shared, 4);
    std::memcpy(header.data() + 28, &murray.safe, 4);
    header[98] = static_cast<unsigned char>(PathKind::Murray);
  });
  EXPECT_NE(open_error(path, {}).find("has rules this ur cannot index: perfect play for"),
            std::string::npos)
      << open_error(path, {});
  EXPECT_NE(open_error(path, {}).find("its path crosses itself (the murray path)"),
            std::string::npos);
  rewrite_header(path, [](std::vector<unsigned char>& header) { header[98] = 9; });
  EXPECT_NE(open_error(path, {}).find("path code 9 is unknown"), std::string::npos);
}

// The bytes a value and the reserved bytes 104-4095 were never read: a header that said 8 bytes
// a value for u16 values, or a flipped reserved byte, was accepted.
TEST_F(TableTest, AHeaderWithWrongValueBytesOrReservedBytesIsRefused) {
  const fs::path path = write(2, Encoding::Fixed16, "reserved.table");
  ASSERT_EQ(open_error(path, {}), "");
  rewrite_header(path, [](std::vector<unsigned char>& header) { header[52] = 8; });
  EXPECT_NE(open_error(path, {}).find("8 bytes a value for u16 values, expected 2"),
            std::string::npos)
      << open_error(path, {});
  rewrite_header(path, [](std::vector<unsigned char>& header) {
    header[52] = 2;
    header[200] = 1;
  });
  EXPECT_NE(open_error(path, {}).find("reserved byte 200 is 1, not 0"), std::string::npos)
      << open_error(path, {});
}

// `ur solve` refuses, before allocating, rules whose solve would not fit, with both sizes.
TEST_F(TableTest, ASolveThatDoesNotFitIsRefusedWithTheSizeItNeeds) {
  const Rules masters = named_rules("masters", 7);
  const auto refused = memory_refusal(masters, solver::SolveOptions{}, 1000, "--max-memory allows");
  ASSERT_TRUE(refused.has_value());
  EXPECT_NE(refused->find("Masters, 7 pieces (exact bear-off) has 500981472 positions and needs "
                          "about "),
            std::string::npos)
      << *refused;
  EXPECT_NE(refused->find(" MiB to solve, more than the 1000 MiB --max-memory allows"),
            std::string::npos)
      << *refused;
  EXPECT_EQ(memory_refusal(masters, solver::SolveOptions{}, 16384, "this machine has"),
            std::nullopt);
  EXPECT_EQ(memory_refusal(finkel_rules(3), solver::SolveOptions{}, 1000, "x"), std::nullopt);
}

TEST_F(TableTest, SolveCommandLineNamesTheSetAndEveryChangedColumn) {
  EXPECT_EQ(solve_command_line(finkel_rules(7)), "ur solve --pieces 7");
  EXPECT_EQ(solve_command_line(finkel_rules(5, BearOff::Any)),
            "ur solve --pieces 5 --bear-off any");
  EXPECT_EQ(solve_command_line(named_rules("masters", 7)), "ur solve --rules masters");
  EXPECT_EQ(solve_command_line(named_rules("blitz", 3)), "ur solve --rules blitz --pieces 3");
  RuleSpec custom = find_rule_set("aseb")->spec;
  custom.dice = 3;
  custom.safe_rosettes = false;
  EXPECT_EQ(solve_command_line(Rules(custom)),
            "ur solve --pieces 5 --board aseb --path aseb --dice 3 --safe-rosettes false");
}

// Messages name the rules once: the set, its pieces and the bear-off ("Masters, 5 pieces,
// 5 pieces" was said before).
TEST_F(TableTest, RulesTextNamesEachPartOnce) {
  EXPECT_EQ(rules_text(finkel_rules(1)), "1 piece (exact bear-off)");  // was "1 pieces"
  EXPECT_EQ(rules_text(finkel_rules(5)), "5 pieces (exact bear-off)");
  EXPECT_EQ(rules_text(named_rules("masters", 7)), "Masters, 7 pieces (exact bear-off)");
  EXPECT_EQ(rules_text(named_rules("masters", 5)), "Masters, 5 pieces (exact bear-off)");
  RuleSpec any = find_rule_set("blitz")->spec;
  any.bear_off = BearOff::Any;
  EXPECT_EQ(rules_text(Rules(any)), "Blitz, 5 pieces (any bear-off)");
  RuleSpec custom = find_rule_set("aseb")->spec;
  custom.dice = 3;
  custom.pieces = 2;
  EXPECT_EQ(rules_text(Rules(custom)), "Custom (aseb path, 3 dice), 2 pieces (exact bear-off)");
}

TEST_F(TableTest, GarbageFilesAreRefusedNotCrashedOn) {
  std::mt19937_64 random(5);
  for (int trial = 0; trial < 50; ++trial) {
    const fs::path path = directory_ / ("garbage-" + std::to_string(trial));
    std::ofstream out(path, std::ios::binary);
    const std::size_t length = random() % 9000;
    for (std::size_t i = 0; i < length; ++i) out.put(static_cast<char>(random()));
    if (trial % 2 == 0 && length > 8) {
      out.seekp(0);
      out.write("URTABLE", 8);
    }
    out.close();
    EXPECT_FALSE(open_error(path, {}).empty());
  }
}

// From a review: an f64 table whose values were NaN, with sound checksums, passed `ur solve
// --verify` (every comparison with NaN is false) and played "wins nan%".
TEST_F(TableTest, AFloatTableHoldingSomethingOtherThanAChanceIsRefused) {
  // write_table clamps other values into 0..1, but a NaN passes any clamp.
  std::vector<double> values = solved(1);
  values[3] = std::nan("");
  for (const Encoding encoding : {Encoding::Float64, Encoding::Float32}) {
    const fs::path path = directory_ / "not-a-chance.table";
    ASSERT_EQ(write_table(path, finkel_rules(1), values, encoding, {}, nullptr), std::nullopt);
    const std::string error = open_error(path, {});
    EXPECT_NE(error.find("is damaged: value 3 is nan, not a chance from 0 to 1"), std::string::npos)
        << error;
  }
  EXPECT_EQ(open_error(write(1, Encoding::Float64, "sound-f64.table"), {}), "");
}

// A FIFO named as the table waited for a writer forever.
TEST_F(TableTest, AFifoIsNoTable) {
  const fs::path fifo = directory_ / "fifo.table";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(open_error(fifo, {}).find("is not a regular file"), std::string::npos);
  fs::remove(fifo);
}

// From a review: a small table solved on the fly was saved over whatever the default path held:
// the user's notes, or a sound table of other rules. Only a damaged table is replaced.
TEST_F(TableTest, ASolveOnTheFlySavesOverNothingButADamagedTable) {
  const Rules one_any = finkel_rules(1, BearOff::Any);
  const fs::path notes = default_table_path(one_any);
  fs::create_directories(notes.parent_path());
  std::ofstream(notes) << "my notes\n";
  std::string problem;
  const auto played = table_for_play(one_any, &problem);
  ASSERT_NE(played, nullptr) << problem;
  EXPECT_EQ(played->rules(), one_any);
  std::ifstream kept(notes);
  std::string line;
  std::getline(kept, line);
  EXPECT_EQ(line, "my notes");

  const Rules two_any = finkel_rules(2, BearOff::Any);
  const fs::path other = default_table_path(two_any);
  ASSERT_EQ(write_table(other, finkel_rules(1), solved(1), Encoding::Fixed16, {}, nullptr),
            std::nullopt);
  ASSERT_NE(table_for_play(two_any, &problem), nullptr) << problem;
  EXPECT_EQ(open_error(other, finkel_rules(1)), "") << "the 1-piece table stays";

  const Rules three_any = finkel_rules(3, BearOff::Any);
  const fs::path damaged = default_table_path(three_any);
  ASSERT_EQ(write_table(damaged, finkel_rules(1), solved(1), Encoding::Fixed16, {}, nullptr),
            std::nullopt);
  fs::resize_file(damaged, fs::file_size(damaged) - 1);
  ASSERT_NE(table_for_play(three_any, &problem), nullptr) << problem;
  EXPECT_EQ(open_error(damaged, three_any), "") << "the damaged table is rebuilt where it was";
}

TEST_F(TableTest, InterruptedWriteLeavesNoFile) {
  const std::atomic<bool> cancel{true};
  const fs::path path = directory_ / "cancelled.table";
  EXPECT_NE(write_table(path, finkel_rules(2), solved(2), Encoding::Fixed16, {}, &cancel),
            std::nullopt);
  EXPECT_FALSE(fs::exists(path));
  for (const auto& entry : fs::directory_iterator(directory_)) {
    EXPECT_EQ(entry.path().string().find(".partial"), std::string::npos) << entry.path();
  }
}

TEST_F(TableTest, EvaluateAndHintsFromTheMoversView) {
  const auto table = Table::from_values(finkel_rules(1), solved(1));
  const Position start = starting_position(finkel_rules(1));
  EXPECT_NEAR(evaluate(*table, start), 0.530049839525, 1e-11);
  EXPECT_NEAR(evaluate(*table, starting_position(finkel_rules(1), Side::Dark)), 0.530049839525,
              1e-11);
  const Position near_end = std::get<Position>(parse_text("D:0/14/0:0/13/0", finkel_rules(1)));
  const std::vector<MoveHint> two = hints(*table, near_end, 2);
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0].win, 1.0);  // dark bears off its last piece
  // Game over: the winner's side is certain.
  const Position over = std::get<Position>(parse_text("L:0/-/1:0/14/0", finkel_rules(1)));
  EXPECT_EQ(evaluate(*table, over), 1.0);
  EXPECT_EQ(evaluate(*table, pass_turn(over)), 0.0);
}

// The value of a position is the roll-weighted best hint (or the pass value).
RC_GTEST_FIXTURE_PROP(TableTest, HintsAgreeWithEvaluate, ()) {
  const Rules rules = finkel_rules(3);
  const auto table = in_memory(3);
  const Position position =
      table->index().unrank(*rc::gen::inRange<std::uint64_t>(0, table->index().size()));
  RC_PRE(!is_game_over(rules, position));
  double expected = 0;
  for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
    const std::vector<MoveHint> ranked = hints(*table, position, roll);
    for (std::size_t i = 1; i < ranked.size(); ++i) RC_ASSERT(ranked[i - 1].win >= ranked[i].win);
    expected += roll_probability(rules, roll) *
                (ranked.empty() ? pass_value(*table, position) : ranked.front().win);
  }
  RC_ASSERT(std::abs(expected - evaluate(*table, position)) < 1e-11);
}

// The perfect agent's move is one whose hint value is the maximum.
RC_GTEST_FIXTURE_PROP(TableTest, PerfectAgentPlaysAMaximumHint, ()) {
  const Rules rules = finkel_rules(3);
  const auto table = in_memory(3);
  const auto agent = make_perfect_agent(table, "perfect");
  const Position index_view =
      table->index().unrank(*rc::gen::inRange<std::uint64_t>(0, table->index().size()));
  const Position position = *rc::gen::arbitrary<bool>() ? mirror(index_view) : index_view;
  const Roll roll = *rc::gen::inRange(1, 5);
  RC_PRE(!is_game_over(rules, position));
  const std::vector<MoveHint> ranked = hints(*table, position, roll);
  RC_PRE(!ranked.empty());
  const AgentChoice choice = agent->choose(rules, position, roll);
  const auto chosen = std::find_if(ranked.begin(), ranked.end(),
                                   [&](const MoveHint& hint) { return hint.move == choice.move; });
  RC_ASSERT(chosen != ranked.end());
  RC_ASSERT(chosen->win == ranked.front().win);
  RC_ASSERT(choice.value.has_value());
}

// A damaged --table FILE was told to build the default file, and a path that crosses itself
// to run a solve that is always refused.
TEST_F(TableTest, TheBuildHintNamesTheFileOnlyWhenItCanBeReplaced) {
  const fs::path sound = write(2, Encoding::Fixed16, "hint-sound.table");
  std::string problem;
  EXPECT_EQ(find_table(finkel_rules(3), &problem, sound), nullptr);
  EXPECT_NE(problem.find("build it with `ur solve --pieces 3`"), std::string::npos) << problem;
  // From a review: rerunning the same command after that build failed again, as it still
  // names this file; the hint says where the build goes and when it is used.
  EXPECT_NE(problem.find("(it writes the default table, used when no table file is named)"),
            std::string::npos)
      << problem;
  const fs::path cut = directory_ / "hint cut.table";
  fs::copy_file(sound, cut, fs::copy_options::overwrite_existing);
  fs::resize_file(cut, 5000);
  EXPECT_EQ(find_table(finkel_rules(2), &problem, cut), nullptr);
  EXPECT_NE(problem.find("build it with `ur solve --pieces 2 --out '" + cut.string() + "'`"),
            std::string::npos)
      << problem;
  // A quote inside the name is closed, escaped and reopened ('it'\''s'), so the line still
  // runs as shown.
  const fs::path quoted = directory_ / "it's.table";
  fs::copy_file(cut, quoted, fs::copy_options::overwrite_existing);
  EXPECT_EQ(find_table(finkel_rules(2), &problem, quoted), nullptr);
  EXPECT_NE(problem.find("--out '" + directory_.string() + "/it'\\''s.table'`"), std::string::npos)
      << problem;
  RuleSpec murray = find_rule_set("finkel")->spec;
  murray.pieces = 2;
  murray.path = PathKind::Murray;
  EXPECT_EQ(find_table(Rules(murray), &problem, sound), nullptr);
  EXPECT_NE(problem.find("no table can be solved for these rules"), std::string::npos) << problem;
  EXPECT_EQ(problem.find("build it with"), std::string::npos) << problem;
}

TEST_F(TableTest, SmallRulesAreSolvedOnTheFlyAndSaved) {
  std::string problem;
  EXPECT_EQ(find_table(finkel_rules(2, BearOff::Any), &problem), nullptr);
  EXPECT_NE(problem.find("ur solve --pieces 2 --bear-off any"), std::string::npos);
  EXPECT_EQ(perfect_unavailable(finkel_rules(2, BearOff::Any)), std::nullopt);
  const auto table = table_for_play(finkel_rules(2, BearOff::Any), &problem);
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(fs::exists(default_table_path(finkel_rules(2, BearOff::Any))));
  EXPECT_NE(perfect_unavailable(finkel_rules(7)), std::nullopt);
}

TEST_F(TableTest, MakeAgentBuildsPerfectThatSaysWhichRulesItCanPlay) {
  write(1, Encoding::Fixed16, "ur-1p-exact.table");
  const fs::path installed = default_table_path(finkel_rules(1));
  fs::create_directories(installed.parent_path());  // each ctest process starts empty
  fs::rename(directory_ / "ur-1p-exact.table", installed);
  const auto first = open_table_once(installed);
  const auto again = open_table_once(installed);
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const Table>>(first));
  EXPECT_EQ(std::get<std::shared_ptr<const Table>>(first),
            std::get<std::shared_ptr<const Table>>(again))
      << "a file is opened once per process";
  auto made = make_agent("perfect", 1);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Agent>>(made))
      << std::get<AgentSpecError>(made).message;
  const Agent& perfect = *std::get<std::unique_ptr<Agent>>(made);
  EXPECT_EQ(perfect.cannot_play(finkel_rules(1)), std::nullopt) << "its table is installed";
  EXPECT_EQ(perfect.cannot_play(finkel_rules(2)), std::nullopt) << "solved on the fly";
  const std::optional<std::string> seven = perfect.cannot_play(finkel_rules(7));
  ASSERT_TRUE(seven.has_value());
  EXPECT_NE(seven->find("ur solve --pieces 7"), std::string::npos) << *seven;

  const auto from_file = make_perfect_agent(in_memory(3), "perfect:three");
  EXPECT_EQ(from_file->cannot_play(finkel_rules(3)), std::nullopt);
  EXPECT_NE(from_file->cannot_play(finkel_rules(7)), std::nullopt);
  // A named file that does not open is a missing table for the rules in play (exit 3 in the
  // commands), with the command that builds it there, not a bad spec (exit 2).
  auto missing = make_agent("perfect:/nonexistent/file.table", 1);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Agent>>(missing));
  const auto why = std::get<std::unique_ptr<Agent>>(missing)->cannot_play(finkel_rules(2));
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("perfect:/nonexistent/file.table: no solved table for 2 pieces"),
            std::string::npos)
      << *why;
  EXPECT_NE(why->find("ur solve --pieces 2 --out /nonexistent/file.table"), std::string::npos)
      << *why;
}

// The perfect agent and hints read the table of the game's own rules in every named set: with 2
// pieces each is solved on the fly, and the agent's choice is the best hint.
TEST_F(TableTest, PerfectPlaysEveryNamedSetFromItsOwnTable) {
  auto made = make_agent("perfect", 1);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Agent>>(made));
  Agent& perfect = *std::get<std::unique_ptr<Agent>>(made);
  for (const NamedRuleSet& set : named_rule_sets()) {
    const Rules rules = named_rules(set.name, 2);
    EXPECT_EQ(perfect.cannot_play(rules), std::nullopt) << set.name;
    std::string problem;
    const auto table = table_for_play(rules, &problem);
    ASSERT_NE(table, nullptr) << set.name << ": " << problem;
    EXPECT_EQ(table->rules(), rules);
    const Position start = starting_position(rules);
    const std::vector<MoveHint> ranked = hints(*table, start, 2);
    ASSERT_FALSE(ranked.empty()) << set.name;
    const AgentChoice choice = perfect.choose(rules, start, 2);
    EXPECT_EQ(choice.move, ranked.front().move) << set.name;
  }
  // The full sets are too big to solve on the fly: perfect says which command builds them.
  const std::optional<std::string> masters =
      perfect.cannot_play(Rules(find_rule_set("masters")->spec));
  ASSERT_TRUE(masters.has_value());
  EXPECT_NE(masters->find("ur solve --rules masters"), std::string::npos) << *masters;
}

TEST_F(TableTest, EngineEvaluateAndHints) {
  const auto answer = [](const std::string& line) {
    return nlohmann::json::parse(engine::answer(line));
  };
  const nlohmann::json evaluated = answer(
      R"({"cmd":"evaluate","rules":{"pieces":1},"position":{"turn":"light","light":{"start":1,"home":0,"board":[]},"dark":{"start":1,"home":0,"board":[]}}})");
  ASSERT_TRUE(evaluated.contains("win")) << evaluated.dump();
  EXPECT_NEAR(evaluated["win"].get<double>(), 0.530049839525, 1e-4);
  const nlohmann::json hinted = answer(
      R"({"cmd":"hints","rules":{"pieces":3},"roll":2,"position":{"turn":"dark","light":{"start":2,"home":0,"board":[6]},"dark":{"start":2,"home":0,"board":[4]}}})");
  ASSERT_TRUE(hinted.contains("moves")) << hinted.dump();
  ASSERT_EQ(hinted["moves"].size(), 2u);
  EXPECT_GE(hinted["moves"][0]["win"].get<double>(), hinted["moves"][1]["win"].get<double>());
  // Each hinted move goes back to apply exactly as printed, "win" included.
  for (const nlohmann::json& move : hinted["moves"]) {
    nlohmann::json apply = nlohmann::json::parse(
        R"({"cmd":"apply","rules":{"pieces":3},"roll":2,"position":{"turn":"dark","light":{"start":2,"home":0,"board":[6]},"dark":{"start":2,"home":0,"board":[4]}}})");
    apply["move"] = move;
    const nlohmann::json applied = answer(apply.dump());
    EXPECT_TRUE(applied.contains("position")) << move.dump() << " -> " << applied.dump();
  }
  const nlohmann::json missing = answer(
      R"({"cmd":"evaluate","rules":{"pieces":7},"position":{"turn":"light","light":{"start":7,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}}})");
  ASSERT_TRUE(missing.contains("error")) << missing.dump();
  EXPECT_NE(missing["error"].get<std::string>().find("ur solve --pieces 7"), std::string::npos);
  const nlohmann::json bad_table = answer(
      R"({"cmd":"evaluate","table":5,"position":{"turn":"light","light":{"start":7,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}}})");
  EXPECT_TRUE(bad_table.contains("error"));
}

TEST_F(TableTest, EngineReviewsARecord) {
  const auto answer = [](const nlohmann::json& request) {
    return nlohmann::json::parse(engine::answer(request.dump()));
  };
  const std::string game = "[Rules \"Finkel with Two Pieces\"]\n\n1. A@A2 / C@C2\n2. A2A1 *\n";
  const nlohmann::json reviewed = answer({{"cmd", "review"}, {"rgn", game}});
  ASSERT_TRUE(reviewed.contains("throws")) << reviewed.dump();
  EXPECT_EQ(reviewed["throws"].size(), 3u);
  EXPECT_TRUE(reviewed["exact"].get<bool>());
  EXPECT_EQ(reviewed["throws"][0]["side"], "light");
  EXPECT_EQ(reviewed["throws"][0]["class"], "forced");
  // The first throw's chance before it is the 2-piece table's start value.
  EXPECT_NEAR(reviewed["throws"][0]["win_before"].get<double>(),
              evaluate(*in_memory(2), starting_position(finkel_rules(2))), 1e-4);
  const nlohmann::json neither = answer({{"cmd", "review"}});
  EXPECT_NE(neither["error"].get<std::string>().find("exactly one of"), std::string::npos);
  const nlohmann::json broken = answer({{"cmd", "review"}, {"rgn", "1. A@A9\n"}});
  EXPECT_NE(broken["error"].get<std::string>().find("rgn: line 1, column 4"), std::string::npos)
      << broken.dump();
  const nlohmann::json estimate = answer({{"cmd", "review"}, {"rgn", game}, {"estimate", "yes"}});
  EXPECT_TRUE(estimate.contains("error"));
}

}  // namespace
}  // namespace ur::tables
