// Solved tables on disk: the win probability of every indexed position (solver/position_index.h)
// in index order after a fixed header, so a lookup is one read with no search.
// The format is documented in docs/table-format.md.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/movegen.h"
#include "solver/position_index.h"

namespace ur::tables {

enum class Encoding : std::uint32_t {
  Fixed16 = 1,  // round(V * 65535) as uint16: 2 bytes, error <= 7.7e-6 (the default)
  Float32 = 2,  // IEEE binary32: 4 bytes, relative error <= 6e-8 (for analysis)
  Float64 = 3,  // IEEE binary64: 8 bytes, the solver's values exactly
};

std::string_view to_string(Encoding encoding);
std::optional<Encoding> encoding_from_string(std::string_view name);  // "u16", "f32", "f64"
int bytes_per_value(Encoding encoding);

// Facts about the solve recorded in the header.
struct SolveInfo {
  double residual = 0.0;   // largest Bellman residual the solver reached
  double tolerance = 0.0;  // the residual it was asked for
};

// The directory given to set_table_directory, else $XDG_DATA_HOME/ur when XDG_DATA_HOME is
// an absolute path, else ~/.local/share/ur.
std::filesystem::path default_table_directory();
// Makes `directory` the table directory for the rest of the process (`ur serve --data`
// keeps its tables beside its games).
void set_table_directory(std::filesystem::path directory);
// The default file for a rule set, e.g. ~/.local/share/ur/ur-7p-exact.table for Finkel's,
// ur-masters-7p-exact.table for another named layout.
std::filesystem::path default_table_path(const Rules& rules);

// Whether `path` is a regular file that begins as a ur table does (its magic): a table, whole or
// damaged, rather than some other file (a game record given as --table by mistake).
bool starts_like_a_table(const std::filesystem::path& path);

// A solved table: memory-mapped from a file, or held in memory after a solve.
class Table {
 public:
  // Opens and checks a table file: magic, version, header checksum, the rules (when
  // `expected` is given), count, encoding, file size and the values' checksum. On failure
  // returns a message saying what does not match.
  static std::variant<std::shared_ptr<const Table>, std::string> open(
      const std::filesystem::path& path, const std::optional<Rules>& expected);
  // A table over values held in memory (index order), e.g. straight from the solver.
  static std::shared_ptr<const Table> from_values(const Rules& rules, std::vector<double> values);

  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const Rules& rules() const { return index_.rules(); }
  const solver::PositionIndex& index() const { return index_; }
  Encoding encoding() const { return encoding_; }
  const SolveInfo& info() const { return info_; }
  const std::filesystem::path& path() const { return path_; }  // empty when in memory

  // V of an index: the mover's chance to win before throwing.
  double value(std::uint64_t at) const {
    switch (encoding_) {
      case Encoding::Fixed16:
        return static_cast<const std::uint16_t*>(data_)[at] * (1.0 / 65535.0);
      case Encoding::Float32:
        return static_cast<const float*>(data_)[at];
      case Encoding::Float64:
        break;
    }
    return static_cast<const double*>(data_)[at];
  }

 private:
  explicit Table(const Rules& rules) : index_(rules) {}
  solver::PositionIndex index_;
  Encoding encoding_ = Encoding::Float64;
  SolveInfo info_;
  std::filesystem::path path_;
  const void* data_ = nullptr;
  void* mapping_ = nullptr;  // the whole file when memory-mapped
  std::size_t mapping_bytes_ = 0;
  std::vector<double> owned_;  // the values when held in memory
};

// Removes the temporary files of write_table for `path` ("PATH.partial-PID") whose process is
// gone: a write killed by SIGKILL, which nothing can catch, leaves one. A live process's file
// stays. Returns the files removed.
std::vector<std::filesystem::path> remove_partials_of_dead_writers(
    const std::filesystem::path& path);

// Writes `values` (index order for `rules`) to `path` through a temporary file in the same
// directory that is renamed into place only when complete, so an interrupted write never
// leaves a corrupt table. Creates the directory. Stops and removes the temporary file when
// `*cancel` becomes true. Returns an error message, or nothing on success.
std::optional<std::string> write_table(const std::filesystem::path& path, const Rules& rules,
                                       const std::vector<double>& values, Encoding encoding,
                                       const SolveInfo& info, const std::atomic<bool>* cancel);

// The win probability of the side to move before it throws; 1 or 0 once the game is over.
// The largest Bellman residual a solved table's stored values may show (`ur solve --verify`
// refuses a table above it, whatever its checksums say). Each stored value is within its
// encoding's rounding of the solver's, whose residual was at most the tolerance; the Bellman
// operator moves no value by more than its inputs moved, so the stored values' residual is at
// most 2 x rounding + tolerance: the tolerance is counted twice, and 1e-12 added for the
// arithmetic of the check itself.
double allowed_residual(const Table& table);

// "for Finkel, 2 pieces, bear-off exact, not for Masters, 2 pieces, bear-off exact (path finkel,
// not masters; ...)": what a table for `table`'s rules says when asked for `wanted`'s.
std::string rules_mismatch(const Rules& table, const Rules& wanted);

double evaluate(const Table& table, const Position& position);

struct MoveHint {
  Move move;
  double win;  // the mover's chance to win after making the move
};
// Every legal move for `roll` with its value, best first (ties keep move order).
// Precondition: the game is not over.
std::vector<MoveHint> hints(const Table& table, const Position& position, Roll roll);
// The mover's chance after passing (no legal move for the roll).
double pass_value(const Table& table, const Position& position);

}  // namespace ur::tables
