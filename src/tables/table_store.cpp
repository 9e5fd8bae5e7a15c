#include "tables/table_store.h"

#include <cmath>
#include <map>
#include <mutex>
#include <thread>

#include "core/rule_sets.h"

namespace ur::tables {
namespace {

std::mutex& cache_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<std::string, std::shared_ptr<const Table>>& cache() {
  static std::map<std::string, std::shared_ptr<const Table>> tables;
  return tables;
}

// Tables solved in memory for rules whose file could not be saved, keyed like files.
std::string memory_key(const Rules& rules) {
  return "memory:" + default_table_path(rules).string();
}

// How to build the table for `rules` (at `path` when one was named), or why none can be.
std::string build_hint(const Rules& rules, const std::optional<std::filesystem::path>& path) {
  if (auto unsupported = solver::unsupported_rules(rules)) {
    return "no table can be solved for these rules: " + *unsupported;
  }
  std::string command = solve_command_line(rules);
  if (path) {
    const std::string file = path->string();
    const bool plain = file.find_first_of(" \t'\"\\$`!*?[]{}()<>|&;#~") == std::string::npos;
    std::string quoted = "'";
    for (const char c : file) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    command += " --out " + (plain ? file : quoted + "'");
  }
  return "build it with `" + command + "`";
}

std::string yes_no(bool flag) {
  return flag ? "true" : "false";
}

}  // namespace

std::string solve_command_line(const Rules& rules) {
  const std::string_view name = rule_set_name(rules);
  const NamedRuleSet& base = *find_rule_set(name == "custom" ? "finkel" : name);
  const RuleSpec& from = base.spec;
  std::string command = "ur solve";
  if (base.name != "finkel") command += " --rules " + std::string(base.name);
  if (rules.pieces != from.pieces || name == "finkel") {
    command += " --pieces " + std::to_string(rules.pieces);
  }
  if (rules.bear_off == BearOff::Any) command += " --bear-off any";
  if (rules.board != from.board) command += " --board " + std::string(board_name(rules.board));
  if (rules.path != from.path) command += " --path " + std::string(path_name(rules.path));
  if (rules.dice != from.dice) command += " --dice " + std::to_string(rules.dice);
  if (rules.zero_counts_as_max != from.zero_counts_as_max) {
    command += " --zero-roll " + std::string(zero_roll_name(rules.zero_counts_as_max));
  }
  if (rules.safe_rosettes != from.safe_rosettes) {
    command += " --safe-rosettes " + yes_no(rules.safe_rosettes);
  }
  if (rules.rosette_gives_extra_throw != from.rosette_gives_extra_throw) {
    command += " --rosette-extra-throw " + yes_no(rules.rosette_gives_extra_throw);
  }
  if (rules.capture_gives_extra_throw != from.capture_gives_extra_throw) {
    command += " --capture-extra-throw " + yes_no(rules.capture_gives_extra_throw);
  }
  return command;
}

std::string rules_text(const Rules& rules) {
  const std::string text = std::to_string(rules.pieces) +
                           (rules.pieces == 1 ? " piece (" : " pieces (") +
                           std::string(to_string(rules.bear_off)) + " bear-off)";
  const std::string_view name = rule_set_name(rules);
  if (name == "finkel") return text;
  if (const NamedRuleSet* set = find_rule_set(name)) return std::string(set->title) + ", " + text;
  // A custom set's title names its pieces, and an any-throw bear-off, already.
  return rule_set_title(rules) + (rules.bear_off == BearOff::Exact ? " (exact bear-off)" : "");
}

std::optional<std::string> memory_refusal(const Rules& rules, const solver::SolveOptions& options,
                                          double limit_mib, const std::string& limit_source) {
  const double need_mib =
      static_cast<double>(solver::solve_memory_bytes(rules, options)) / (1 << 20);
  if (need_mib <= limit_mib) return std::nullopt;
  return rules_text(rules) + " has " + std::to_string(solver::count_positions(rules, false)) +
         " positions and needs about " + std::to_string(std::lround(need_mib)) +
         " MiB to solve, more than the " + std::to_string(std::lround(limit_mib)) + " MiB " +
         limit_source;
}

bool solves_on_the_fly(const Rules& rules) {
  return !solver::unsupported_rules(rules) &&
         solver::count_positions(rules, false) <= kSolveOnTheFlyMaxPositions;
}

int default_solve_threads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

namespace {

// A ur table that does not open (cut off, bit flips): the only file a build may replace. A
// sound table for other rules, and a file that is no table at all (notes saved there by
// mistake), are the user's.
bool damaged_table(const std::filesystem::path& file) {
  const bool sound =
      std::holds_alternative<std::shared_ptr<const Table>>(Table::open(file, std::nullopt));
  return !sound && starts_like_a_table(file);
}

}  // namespace

std::shared_ptr<const Table> find_table(const Rules& rules, std::string* problem,
                                        const std::optional<std::filesystem::path>& path) {
  const std::filesystem::path file = path.value_or(default_table_path(rules));
  std::lock_guard lock(cache_mutex());
  if (auto found = cache().find(file.string()); found != cache().end()) {
    if (found->second->rules() == rules) return found->second;
  }
  if (!path) {
    if (auto found = cache().find(memory_key(rules)); found != cache().end()) return found->second;
  }
  std::error_code error;
  if (!std::filesystem::exists(file, error)) {
    if (problem) {
      if (auto unsupported = solver::unsupported_rules(rules)) {
        *problem = *unsupported;
        return nullptr;
      }
      *problem = "no solved table for " + rules_text(rules) + " at " + file.string() + "; " +
                 build_hint(rules, path);
    }
    return nullptr;
  }
  auto opened = Table::open(file, rules);
  if (auto* message = std::get_if<std::string>(&opened)) {
    if (problem) {
      // A sound table for other rules is the user's to keep, and a file that is no table at
      // all (a game record named by mistake) is not ours to replace: build the wanted one
      // elsewhere. Only a damaged table is rebuilt where it is.
      const bool damaged = damaged_table(file);
      *problem = *message + "; " + build_hint(rules, damaged ? path : std::nullopt);
      // Rebuilding at the default location serves a command only without this file named.
      if (path && !damaged)
        *problem += " (it writes the default table, used when no table file is named)";
    }
    return nullptr;
  }
  auto table = std::get<std::shared_ptr<const Table>>(std::move(opened));
  cache()[file.string()] = table;
  return table;
}

std::variant<std::shared_ptr<const Table>, std::string> open_table_once(
    const std::filesystem::path& path) {
  std::lock_guard lock(cache_mutex());
  if (auto found = cache().find(path.string()); found != cache().end()) return found->second;
  auto opened = Table::open(path, std::nullopt);
  if (auto* table = std::get_if<std::shared_ptr<const Table>>(&opened)) {
    cache()[path.string()] = *table;
  }
  return opened;
}

std::shared_ptr<const Table> load_or_solve(const Rules& rules,
                                           const solver::ProgressCallback& progress,
                                           std::string* problem, const std::atomic<bool>* cancel) {
  if (auto table = find_table(rules, nullptr)) return table;
  if (auto unsupported = solver::unsupported_rules(rules)) {
    if (problem) *problem = "cannot solve these rules: " + *unsupported;
    return nullptr;
  }
  const solver::PositionIndex index(rules);
  solver::SolveOptions options;
  options.threads = default_solve_threads();
  solver::SolveResult result = solver::solve(index, options, progress, cancel);
  if (result.cancelled) {
    if (problem) *problem = "the solve was cancelled; no table was written";
    return nullptr;
  }
  const SolveInfo info{result.residual, options.tolerance};
  const std::filesystem::path file = default_table_path(rules);
  std::error_code missing;
  const bool may_save = !std::filesystem::exists(file, missing) ? !missing : damaged_table(file);
  if (!may_save) {
    // Not ours to replace: the table is kept in memory below.
  } else if (!write_table(file, rules, result.values, Encoding::Fixed16, info, cancel)) {
    if (auto table = find_table(rules, nullptr)) return table;
  } else if (cancel && cancel->load()) {
    if (problem) *problem = "the solve was cancelled; no table was written";
    return nullptr;
  }
  auto table = Table::from_values(rules, std::move(result.values));
  std::lock_guard lock(cache_mutex());
  cache()[memory_key(rules)] = table;
  return table;
}

std::shared_ptr<const Table> table_for_play(const Rules& rules, std::string* problem) {
  if (auto table = find_table(rules, problem)) return table;
  if (!solves_on_the_fly(rules)) return nullptr;
  return load_or_solve(rules, {}, problem);
}

std::optional<std::string> perfect_unavailable(const Rules& rules) {
  if (auto unsupported = solver::unsupported_rules(rules)) return *unsupported;
  std::string problem;
  if (find_table(rules, &problem)) return std::nullopt;
  if (solves_on_the_fly(rules)) return std::nullopt;
  return problem;
}

}  // namespace ur::tables
