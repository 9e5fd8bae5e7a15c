// `ur play`: the Royal Game of Ur in the terminal, or driven by a script.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/rules_options.h"
#include "core/rule_sets.h"
#include "play/hints.h"
#ifdef UR_PLAY_ONLINE
#include "play/online_client.h"
#endif
#include "play/play_session.h"
#include "play/record_file.h"
#include "play/screen.h"
#include "play/script.h"
#include "play/table_build.h"
#include "play/tui.h"
#include "tables/table_store.h"

namespace ur::cli {
namespace {

struct PlayOptions {
  play::Settings settings;
  std::optional<std::uint64_t> seed;
  bool no_color = false;
  bool no_numbers = false;
  std::string script;
  std::string record;  // --record FILE: the series' records as RGN
  // --host [SERVER] / --join LINK: an online game on `ur serve` (online_client.h).
  std::string host;
  std::string join;
  std::string name;
  std::string seat = "light";
};

// NO_COLOR (https://no-color.org): present and not empty turns colour off.
bool color_wanted(const PlayOptions& options) {
  const char* no_color = std::getenv("NO_COLOR");
  return !options.no_color && (no_color == nullptr || *no_color == '\0');
}

int run_play(PlayOptions options) {
#ifdef UR_PLAY_ONLINE
  if (!options.host.empty() || !options.join.empty()) {
    play::OnlineOptions online;
    online.host = !options.host.empty();
    online.url = online.host ? options.host : options.join;
    online.name = options.name;
    online.rules = options.settings.rules;
    online.seat = options.seat;
    online.color = color_wanted(options);
    online.route_numbers = !options.no_numbers;
    return play::run_online(online);
  }
#endif
  options.settings.seed = options.seed ? *options.seed : std::random_device{}();
  const bool interactive = options.script.empty() && isatty(STDIN_FILENO);
  if (!options.record.empty()) {
    if (auto problem = play::check_record_path(options.record)) {
      std::cerr << "ur play: --record: " << *problem << "\n";
      return kUsageError;
    }
  }
  play::PlaySession game(&make_agent);
  const play::TableBuilder tables;
  play::InteractiveOptions interactive_options;
  interactive_options.color = color_wanted(options);
  interactive_options.route_numbers = !options.no_numbers;
  interactive_options.tables = &tables;
  interactive_options.record_path = options.record;
  if (interactive && tables.offer(options.settings)) {
    // The perfect opponent's table is missing: the session opens asking to build it.
    interactive_options.first_game = options.settings;
    return play::run_interactive(game, interactive_options);
  }
  // Perfect play for a set the solver cannot solve yet is as missing as a table (exit 3).
  if (play::is_perfect_spec(options.settings.opponent)) {
    if (auto why = play::perfect_play_unavailable(options.settings.rules)) {
      std::cerr << "ur play: --opponent " << options.settings.opponent << ": " << *why << "\n";
      return kMissingTable;
    }
  }
  // An opponent that needs a missing table is a missing table (exit 3), as in `ur match`.
  if (options.settings.opponent != play::kFriend) {
    auto made = make_agent(options.settings.opponent, 0);
    if (auto* agent = std::get_if<std::unique_ptr<Agent>>(&made)) {
      if (auto why = (*agent)->cannot_play(options.settings.rules)) {
        // `why` names the spec where it matters, as in `ur match`'s "agent A: ".
        std::cerr << "ur play: --opponent: " << *why << "\n";
        return kMissingTable;
      }
    }
  }
  if (const play::ActionError error = game.configure(options.settings)) {
    std::cerr << "ur play: bad --opponent: " << *error << "\n";
    return kUsageError;
  }
  // The script is opened before anything is printed: a script that cannot be read is a
  // usage error (exit 2) with its reason.
  std::ifstream script_file;
  struct stat input {};
  if ((options.script.empty() || options.script == "-") && ::fstat(STDIN_FILENO, &input) == 0 &&
      S_ISDIR(input.st_mode)) {
    std::cerr << "ur play: standard input is a directory; give a file of commands\n";
    return kUsageError;
  }
  if (!options.script.empty() && options.script != "-") {
    std::error_code error;
    if (std::filesystem::is_directory(options.script, error)) {
      std::cerr << "ur play: --script '" << options.script
                << "' is a directory; give a file of commands, or - for stdin\n";
      return kUsageError;
    }
    script_file.open(options.script);
    if (!script_file) {
      std::cerr << "ur play: cannot read script file '" << options.script
                << "': " << std::strerror(errno) << "\n";
      return kUsageError;
    }
  }
  if (!interactive) {
    std::cout << "settings: opponent " << options.settings.opponent << " · rules "
              << rule_set_name(game.settings().rules) << " · "
              << play::settings_summary(game.settings()) << " · seed " << game.settings().seed
              << "\n";
    bool record_failed = false;
    // --record: after every game's end and at the end of the script; a failure is said at
    // once and makes the exit code 1.
    const auto record = [&] {
      if (options.record.empty()) return;
      if (auto problem = play::write_records(game, options.record)) {
        std::cerr << "ur play: --record: " << *problem << "\n";
        record_failed = true;
      }
    };
    game.on_game_end(record);
    int code = kUsageError;
    if (options.script.empty() || options.script == "-") {
      code = play::run_script(game, std::cin, std::cout, std::cerr);
    } else {
      code = play::run_script(game, script_file, std::cout, std::cerr);
    }
    record();  // the end of the script is its quit
    return record_failed && code == 0 ? 1 : code;
  }
  return play::run_interactive(game, interactive_options);
}

CommandRunner setup_play(CLI::App& app) {
  auto options = std::make_shared<PlayOptions>();
  CLI::App* command = app.add_subcommand(
      "play", "Play the Royal Game of Ur in the terminal (80x24 or larger), or from a script");
  command
      ->add_option("--opponent,-o", options->settings.opponent,
                   "Who plays dark: friend (two players, one keyboard), easy, medium, hard, "
                   "expert, perfect, or any agent spec")
      ->default_val("medium");
  add_rules_options(*command, options->settings.rules);
  command
      ->add_option_function<std::string>(
          "--first",
          [options](const std::string& rule) {
            options->settings.opener = *session::start_rule_from_name(rule);
          },
          "Who starts: alternate (light opens game 1, dark game 2, ...) or higher (both "
          "throw, higher starts)")
      ->check(CLI::IsMember({"alternate", "higher"}));
  command->add_flag("--auto-play", options->settings.auto_play,
                    "Play a forced move (the only legal one) automatically");
  command->add_flag("--auto-pass", options->settings.auto_pass,
                    "Pass automatically when no move exists");
  command->add_option("--seed", options->seed, "Seed for the dice, 0..2^64-1 (default: random)")
      ->check(seed_range());
  command->add_flag("--no-color", options->no_color, "No colours (NO_COLOR is respected too)");
  command->add_flag("--no-numbers", options->no_numbers,
                    "Start with the route numbers hidden (v toggles them)");
  command
      ->add_option("--record", options->record,
                   "Write the session's game records (RGN, docs/records.md) to FILE after "
                   "every game and at the end")
      ->check(cli::non_empty_path());
  command
      ->add_option("--script", options->script,
                   "Read moves from FILE ('-' = stdin) and print each position as text "
                   "(docs/play.md); used too when stdin is not a terminal")
      ->check(cli::non_empty_path());
#ifdef UR_PLAY_ONLINE
  CLI::Option* host =
      command
          ->add_option("--host", options->host,
                       "Host an online game on the ur serve at SERVER (default "
                       "http://127.0.0.1:8080/): prints the invite link, then plays your seat")
          ->expected(0, 1)
          ->default_str("http://127.0.0.1:8080/");
  CLI::Option* join = command->add_option(
      "--join", options->join,
      "Play an online game from a link: an invite (http://HOST:PORT/#join=CODE) or your seat "
      "(http://HOST:PORT/#seat=GAME.TOKEN)");
  host->excludes(join);
  command->add_option("--name", options->name,
                      "Your name in an online game (1-24 characters; default the side's name)");
  command->add_option("--seat", options->seat, "The side the host plays online: light or dark")
      ->check(CLI::IsMember({"light", "dark"}))
      ->needs(host);
#endif
  return [options] { return run_play(*options); };
}

const CommandRegistrar registrar{30, &setup_play};

}  // namespace
}  // namespace ur::cli
