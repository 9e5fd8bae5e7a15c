// `ur solve` (solve a rule set into a table file, or verify one) and `ur hints` (every legal
// move's win probability for people).
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/output_path.h"
#include "cli/rules_options.h"
#include "core/explain.h"
#include "core/notation.h"
#include "tables/solve_progress.h"
#include "tables/table_store.h"

namespace ur::tables {
namespace {

std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void on_interrupt(int) {
  interrupted.store(true);
}

// Catches Ctrl-C, SIGTERM and SIGHUP (the terminal closed) while alive, so that a solve stops
// at its next sweep or write chunk and removes its partial file instead of dying mid-write.
class InterruptGuard {
 public:
  InterruptGuard() {
    interrupted.store(false);
    for (std::size_t i = 0; i < kSignals.size(); ++i) {
      previous_[i] = std::signal(kSignals[i], on_interrupt);
    }
  }
  ~InterruptGuard() {
    for (std::size_t i = 0; i < kSignals.size(); ++i) std::signal(kSignals[i], previous_[i]);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  static constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
  std::array<void (*)(int), 3> previous_{};
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

long peak_memory_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

// A one-line progress bar on a terminal: layer pair, sweep, residual, share done and ETA.
// Elsewhere (a log) one line per finished layer pair.
class ProgressBar {
 public:
  ProgressBar(bool terminal, const solver::PositionIndex& index, double tolerance)
      : terminal_(terminal), estimate_(index, tolerance) {}
  void operator()(const solver::SolveProgress& progress) {
    if (!terminal_) {
      if (progress.pair != last_pair_ && progress.pair > 0) {
        std::cerr << "layer pair " << progress.pair << "/" << progress.pairs << " done after "
                  << last_sweep_ << " sweeps (residual " << last_residual_ << "), "
                  << std::setprecision(4) << seconds_since(start_) << " s" << std::endl;
      }
      last_pair_ = progress.pair;
      last_sweep_ = progress.sweep;
      last_residual_ = progress.residual;
      return;
    }
    std::cerr << "\r"
              << progress_line(progress, estimate_.fraction(progress), seconds_since(start_))
              << "   " << std::flush;
  }
  void finish() {
    if (terminal_) std::cerr << "\n";
  }

 private:
  bool terminal_;
  SolveEstimate estimate_;
  int last_pair_ = 0;
  int last_sweep_ = 0;
  double last_residual_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

struct SolveCommandOptions {
  Rules rules;
  std::string out;
  std::optional<std::string> verify;  // a table file to check instead of solving
  std::string encoding = "u16";
  int threads = default_solve_threads();
  double tolerance = 1e-9;
  std::optional<double> max_memory_mib;   // default: the machine's physical memory
  std::optional<double> pair_memory_mib;  // default: SolveOptions::compiled_pair_bytes
};

double physical_memory_mib() {
  return static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
         static_cast<double>(::sysconf(_SC_PAGESIZE)) / (1 << 20);
}

std::string percent(double probability, int decimals = 10) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(decimals) << probability * 100 << "%";
  return text.str();
}

// Decimals of a percentage that a table's values can tell apart (docs/table-format.md): u16
// is exact to 7.7e-6 (0.0008 points), f32 to 6e-8, f64 to the solver's tolerance (1e-9).
int percent_decimals(Encoding encoding) {
  switch (encoding) {
    case Encoding::Fixed16:
      return 3;
    case Encoding::Float32:
      return 5;
    case Encoding::Float64:
      return 7;
  }
  return 7;
}

// A note for a table solved to a looser tolerance than the default (`--tolerance 0.1`): its
// values may be off by far more than the decimals shown say. Nothing for the default.
std::optional<std::string> tolerance_note(const Table& table) {
  const double tolerance = table.info().tolerance;
  if (!(tolerance > 1e-6)) return std::nullopt;
  std::ostringstream text;
  text << "note: this table was solved to a tolerance of " << tolerance
       << " (ur solve's default is 1e-9), so its chances may be off by more than they show";
  return text.str();
}

// Why `out` cannot take the table, checked before solving so that a bad path fails at once
// rather than after minutes of work. `shown` names the file as the messages do, with where it
// came from: "--out a.table -> /data/t.table".
std::optional<std::string> out_path_problem(const std::filesystem::path& out,
                                            const std::string& shown, const Rules& rules) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(out, error);
  if (std::filesystem::is_directory(status)) {
    return shown + " is a directory; name the table file, e.g. " +
           (out / default_table_path(rules).filename()).string();
  }
  // The rename at the end would replace a device, pipe or socket with the table.
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    return shown + " is not a regular file; name a table file to write";
  }
  const std::filesystem::path parent = out.has_parent_path() ? out.parent_path() : ".";
  if (!std::filesystem::exists(parent, error)) {
    return shown + ": directory " + parent.string() +
           " does not exist (ur solve does not create it; create it first)";
  }
  if (!std::filesystem::is_directory(parent, error)) {
    return shown + ": " + parent.string() + " is not a directory";
  }
  // The table is written next to its final name and renamed, so the directory must be
  // writable, and an existing file must be replaceable.
  if (::access(parent.c_str(), W_OK) != 0) {
    return shown + ": cannot write in " + parent.string() + ": " + std::strerror(errno);
  }
  if (std::filesystem::exists(out, error) && ::access(out.c_str(), W_OK) != 0) {
    return shown + ": cannot overwrite it: " + std::strerror(errno);
  }
  // Some directories pass access() and still take no new file (/sys, /proc, a read-only
  // mount): create the temporary file write_table will use, and remove it again.
  const std::filesystem::path probe = out.string() + ".partial-" + std::to_string(::getpid());
  {
    std::ofstream file(probe, std::ios::binary);
    if (!file)
      return shown + ": cannot create a file in " + parent.string() + ": " + std::strerror(errno);
  }
  std::filesystem::remove(probe, error);
  return std::nullopt;
}

int run_verify(const SolveCommandOptions& options) {
  const std::string& file = *options.verify;
  auto opened = Table::open(file, std::nullopt);
  if (auto* message = std::get_if<std::string>(&opened)) {
    std::cerr << "ur solve --verify: " << *message << "\n";
    return 1;
  }
  const auto table = std::get<std::shared_ptr<const Table>>(std::move(opened));
  const Rules& rules = table->rules();
  std::cout << "table " << file << ": " << rules_text(rules) << ", " << table->index().size()
            << " positions, " << to_string(table->encoding()) << " values, solver residual "
            << table->info().residual << "\n";
  const auto start = std::chrono::steady_clock::now();
  if (table->encoding() == Encoding::Fixed16) {
    std::cout << "(a u16 table's residual reflects its rounding, up to about 1.5e-5; solve with "
                 "--encoding f64 to check the solver's own residual)\n";
  }
  const solver::VerifyResult result = solver::verify(
      table->index(), [&](std::uint64_t at) { return table->value(at); }, options.threads);
  std::cout << "largest Bellman residual " << std::scientific << std::setprecision(3)
            << result.max_residual << std::defaultfloat << " at "
            << to_text(table->index().unrank(result.worst_index)) << " (" << std::setprecision(3)
            << seconds_since(start) << " s)\n";
  // As many decimals as the encoding holds (a u16 value's ten decimals were noise).
  std::cout << "start value (light to move) "
            << percent(evaluate(*table, starting_position(rules)),
                       percent_decimals(table->encoding()))
            << "\n";
  if (const auto note = tolerance_note(*table)) std::cout << *note << "\n";
  const double allowed = allowed_residual(*table);
  if (!(result.max_residual <= allowed)) {
    std::cerr << "ur solve --verify: " << file << " is not solved: its largest Bellman "
              << "residual " << std::scientific << std::setprecision(3) << result.max_residual
              << " is above the " << allowed << " its tolerance (" << table->info().tolerance
              << ") and its " << to_string(table->encoding()) << " rounding allow"
              << std::defaultfloat << "\n";
    return 1;
  }

  // Lookup cost over random positions: rank plus one read from the mapped file. A million
  // positions spread the reads over far more memory than the caches hold.
  std::mt19937_64 random(20261130);
  std::vector<Position> positions(1 << 20);
  for (Position& position : positions) {
    position = table->index().unrank(random() % table->index().size());
    if (random() & 1) position = mirror(position);
  }
  constexpr int kRounds = 10;
  double sum = 0;
  const auto lookup_start = std::chrono::steady_clock::now();
  const double lookup_cpu_start = cpu_seconds();
  for (int round = 0; round < kRounds; ++round) {
    for (const Position& position : positions) sum += evaluate(*table, position);
  }
  const double lookups = double(kRounds) * positions.size();
  std::cout << "random lookups (rank + read) " << std::setprecision(3)
            << (cpu_seconds() - lookup_cpu_start) * 1e9 / lookups << " ns cpu each, "
            << seconds_since(lookup_start) * 1e9 / lookups << " ns wall (mean value "
            << sum / lookups << ")\n";
  return 0;
}

int run_solve(const SolveCommandOptions& options) {
  if (options.verify) return run_verify(options);
  const Rules& rules = options.rules;
  if (auto problem = solver::unsupported_rules(rules)) {
    std::cerr << "ur solve: " << *problem << "\n";
    return cli::kUsageError;
  }
  solver::SolveOptions solve_options;
  solve_options.threads = options.threads;
  solve_options.tolerance = options.tolerance;
  if (options.pair_memory_mib) {
    solve_options.compiled_pair_bytes =
        static_cast<std::size_t>(*options.pair_memory_mib * (1 << 20));
  }
  // Refused before anything is allocated: a solve that cannot fit would only be killed later.
  const double need_mib =
      static_cast<double>(solver::solve_memory_bytes(rules, solve_options)) / (1 << 20);
  if (auto refused = memory_refusal(
          rules, solve_options, options.max_memory_mib.value_or(physical_memory_mib()),
          options.max_memory_mib ? "--max-memory allows" : "this machine has")) {
    std::cerr << "ur solve: " << *refused << "\n";
    return cli::kUsageError;
  }
  const Encoding encoding = *encoding_from_string(options.encoding);
  const std::filesystem::path typed =
      options.out.empty() ? default_table_path(rules) : std::filesystem::path(options.out);
  // A symbolic link is written through: the rename replaces the file it names, not the link.
  const std::filesystem::path out = cli::through_links(typed);
  const std::string label = options.out.empty() ? "table file " : "--out ";
  if (cli::is_link_loop(out)) {
    std::cerr << "ur solve: " << label << typed.string()
              << " is a loop of symbolic links (or more than 40 in a row): name a file\n";
    return cli::kUsageError;
  }
  const std::string shown = cli::shown_through_links(typed, out);
  // The default directory is ur's own and made when missing; an explicit --out's never is.
  if (options.out.empty()) {
    std::error_code error;
    std::filesystem::create_directories(out.parent_path(), error);
    if (error) {
      std::cerr << "ur solve: cannot create the table directory " << out.parent_path().string()
                << ": " << error.message() << " (set XDG_DATA_HOME, or name a file with --out)\n";
      return cli::kUsageError;
    }
  }
  if (auto problem = out_path_problem(out, label + shown, rules)) {
    std::cerr << "ur solve: " << *problem << "\n";
    return cli::kUsageError;
  }
  for (const auto& removed : remove_partials_of_dead_writers(out)) {
    std::cerr << "ur solve: removed " << removed.string()
              << ", left by a solve that was killed while writing\n";
  }
  InterruptGuard guard;
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  const solver::PositionIndex index(rules);
  std::cout << "solving " << rules_text(rules) << ": " << index.size() << " positions, "
            << options.threads << " threads, tolerance " << options.tolerance << ", about "
            << std::lround(need_mib) << " MiB" << std::endl;
  // Output lost (`ur solve | head -1`, a full disk) stops the solve as a killed pipe would,
  // rather than solving for minutes and then failing with the table written.
  int lost_output = cli::stdout_lost();
  ProgressBar bar(::isatty(STDERR_FILENO) != 0, index, options.tolerance);
  solver::SolveResult result;
  if (lost_output == 0) {
    const auto on_sweep = [&bar, &lost_output](const solver::SolveProgress& progress) {
      bar(progress);
      lost_output = cli::stdout_lost();
      if (lost_output != 0) interrupted.store(true);
    };
    result = solver::solve(index, solve_options, on_sweep, &interrupted);
  }
  bar.finish();
  if (lost_output != 0) {
    cli::report_lost_output("solve", lost_output, "stopped, no table written");
    return cli::kFailure;
  }
  if (result.cancelled) {
    std::cerr << "ur solve: interrupted; no table written\n";
    return cli::kInterrupted;
  }
  const double solve_seconds = seconds_since(start);
  const double start_value = result.values[index.rank(starting_position(rules))];
  std::cout << "solved in " << std::setprecision(4) << solve_seconds << " s wall, "
            << cpu_seconds() - cpu_start << " s cpu; " << result.total_sweeps
            << " sweeps over layer pairs, " << result.updates << " state updates ("
            << std::setprecision(3) << result.updates / index.size() << " per position, "
            << result.followed_updates * 100 / std::max<std::uint64_t>(result.updates, 1)
            << "% along recorded moves, " << (cpu_seconds() - cpu_start) * 1e9 / result.updates
            << " ns cpu each)\n"
            << "residual reached " << std::scientific << std::setprecision(3) << result.residual
            << std::defaultfloat << " (tolerance " << options.tolerance << ")\n"
            << "start value (light to move) " << percent(start_value) << "\n";
  const auto write_start = std::chrono::steady_clock::now();
  if (auto error = write_table(out, rules, result.values, encoding,
                               {result.residual, options.tolerance}, &interrupted)) {
    std::cerr << "ur solve: " << *error << "\n";
    return interrupted.load() ? cli::kInterrupted : cli::kFailure;
  }
  std::error_code size_error;
  std::cout << "wrote " << shown << " (" << std::filesystem::file_size(out, size_error)
            << " bytes, " << to_string(encoding) << ") in " << std::setprecision(3)
            << seconds_since(write_start) << " s\n"
            << "total " << std::setprecision(4) << seconds_since(start) << " s wall, peak memory "
            << peak_memory_mib() << " MiB\n";
  return 0;
}

cli::CommandRunner setup_solve(CLI::App& app) {
  auto options = std::make_shared<SolveCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "solve", "Solve the game: every position's win probability under perfect play, into a table");
  cli::add_rules_options(*command, options->rules);
  command
      ->add_option("--out,-o", options->out,
                   "Table file to write (default: " + default_table_directory().string() +
                       "/ur-[<set>-]<pieces>p-<bear-off>.table)")
      ->check(cli::non_empty_path());
  command->add_option("--threads,-t", options->threads, "Worker threads (default: all cores)")
      ->check(cli::integer_range(1, 256));
  command
      ->add_option("--tolerance", options->tolerance,
                   "Largest Bellman residual to stop at (default 1e-9)")
      ->check(cli::number_range(1e-15, 0.1));
  command
      ->add_option("--encoding", options->encoding,
                   "Stored values: u16 (16-bit fixed point, default), f32, f64")
      ->check(CLI::IsMember({"u16", "f32", "f64"}));
  command
      ->add_option("--max-memory", options->max_memory_mib,
                   "Refuse rules whose solve needs more MiB than this (default: physical memory)")
      ->check(cli::number_range(1.0, 1e9));
  command
      ->add_option("--pair-memory", options->pair_memory_mib,
                   "MiB for a layer pair's compiled successor lists; bigger pairs sweep slower "
                   "row plans (default " +
                       std::to_string(solver::SolveOptions{}.compiled_pair_bytes >> 20) + ")")
      ->check(cli::number_range(0.0, 1e6));
  CLI::Option* verify =
      command
          ->add_option("--verify", options->verify,
                       "Check a table file instead: recompute every position once, print the "
                       "largest residual and the lookup speed")
          ->check([](const std::string& file) {
            return file.empty() ? std::string("needs the table file to check") : std::string();
          });
  // The table names its own rules and was solved already: rules, solve settings and a file to
  // write make no sense beside it, and were silently ignored.
  for (const char* option :
       {"--out", "--encoding", "--tolerance", "--max-memory", "--pair-memory", "--rules",
        "--pieces", "--bear-off", "--board", "--path", "--dice", "--zero-roll", "--safe-rosettes",
        "--rosette-extra-throw", "--capture-extra-throw"}) {
    verify->excludes(command->get_option(option));
  }
  return [options] { return run_solve(*options); };
}

struct HintsOptions {
  Rules rules;
  std::string position_text;
  int roll = 0;
  std::string table;
};

int run_hints(const HintsOptions& options) {
  auto parsed = parse_text(options.position_text, options.rules);
  if (auto* error = std::get_if<ParseError>(&parsed)) {
    std::cerr << "ur hints: bad --position: " << error->message << "\nsee ur hints --help\n";
    return cli::kUsageError;
  }
  const Position position = std::get<Position>(parsed);
  if (!possible_roll(options.rules, options.roll)) {
    std::cerr << "ur hints: --roll: must be an integer " << min_roll(options.rules) << ".."
              << options.rules.max_roll() << ", got " << options.roll
              << " (the distance a throw moves under these rules)\nsee ur hints --help\n";
    return cli::kUsageError;
  }
  std::string problem;
  const std::shared_ptr<const Table> table =
      options.table.empty()
          ? table_for_play(options.rules, &problem)
          : find_table(options.rules, &problem, std::filesystem::path(options.table));
  if (!table) {
    std::cerr << "ur hints: " << problem << "\n";
    return cli::kMissingTable;
  }
  const int decimals = percent_decimals(table->encoding());
  if (const auto note = tolerance_note(*table)) std::cout << *note << "\n";
  const std::string mover(side_name(position.turn));
  std::cout << "position " << to_text(position) << "\n"
            << mover << " to move wins " << percent(evaluate(*table, position), decimals)
            << " before throwing\n";
  if (is_game_over(options.rules, position)) {
    std::cout << "the game is over\n";
    return 0;
  }
  const std::vector<MoveHint> ranked = hints(*table, position, options.roll);
  std::cout << "roll " << options.roll << ": ";
  if (ranked.empty()) {
    std::cout << "no legal move; after passing " << mover << " wins "
              << percent(pass_value(*table, position), decimals) << "\n";
    return 0;
  }
  std::cout << ranked.size() << " legal move" << (ranked.size() == 1 ? "" : "s") << ", best first ("
            << mover << "'s chance to win after the move)\n";
  for (const MoveHint& hint : ranked) {
    const std::string from = square_name(options.rules, hint.move.from);
    const std::string to = square_name(options.rules, hint.move.to);
    // "capture, throws again": two facts, not one (the throw may come from a rosette).
    std::string notes;
    if (hint.move.capture) notes += "  capture";
    if (hint.move.extra_throw) notes += notes.empty() ? "  throws again" : ", throws again";
    std::cout << "  " << std::setw(5) << from << " -> " << std::setw(4) << std::left << to
              << std::right << "  " << percent(hint.win, decimals) << "  loss " << std::fixed
              << std::setprecision(decimals) << (ranked.front().win - hint.win) * 100
              << std::defaultfloat << " pp" << notes << "\n";
  }
  return 0;
}

cli::CommandRunner setup_hints(CLI::App& app) {
  auto options = std::make_shared<HintsOptions>();
  CLI::App* command = app.add_subcommand(
      "hints", "Every legal move's win probability under perfect play, best first");
  cli::add_rules_options(*command, options->rules);
  command->add_option("--position,-p", options->position_text, "Position text (docs/notation.md)")
      ->required();
  // The range depends on the rules' dice, known once every option is read (run_hints checks
  // it); a fixed range here named a second, wider one (0..7) beside the rules' (0..4).
  command
      ->add_option("--roll,-r", options->roll,
                   "The throw: the distance moved (0..4 under Finkel's dice; the rules' dice "
                   "decide)")
      ->required()
      ->check(CLI::Validator(
          [](std::string& text) {
            int value = 0;
            const char* end = text.data() + text.size();
            const auto [stop, error] = std::from_chars(text.data(), end, value);
            return text.empty() || error != std::errc() || stop != end
                       ? "must be a whole number, got " + text
                       : std::string();
          },
          "INT"));
  command
      ->add_option("--table", options->table,
                   "Table file (default: the solved table for the rules, in " +
                       default_table_directory().string() + ")")
      ->check(cli::non_empty_path());
  return [options] { return run_hints(*options); };
}

const cli::CommandRegistrar solve_registrar{60, &setup_solve};
const cli::CommandRegistrar hints_registrar{61, &setup_hints};

}  // namespace
}  // namespace ur::tables
