// `ur replay FILE`: a recorded game in the terminal, ply by ply, with its review from the
// solved table when there is one, else estimated (docs/play.md, "Replay").
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <random>
#include <tuple>

#include "agents/agent.h"
#include "cli/command.h"
#include "cli/options.h"
#include "cli/record_files.h"
#include "play/play_session.h"
#include "play/record_file.h"
#include "play/replay_view.h"
#include "play/terminal.h"
#include "play/tui.h"

namespace ur::cli {
namespace {

// How long to wait for the rest of an escape sequence before reading a lone Esc.
constexpr int kEscapeWaitMs = 40;

struct ReplayOptions {
  std::string file;
  int game = 1;
  bool no_color = false;
  std::string level = "medium";       // the computer of "play from here", as ur play's -o
  std::optional<std::uint64_t> seed;  // the dice of "play from here" (default: random)
  std::string record;                 // --record FILE for the game played from here
};

// NO_COLOR (https://no-color.org): present and not empty turns colour off.
bool color_wanted(const ReplayOptions& options) {
  const char* no_color = std::getenv("NO_COLOR");
  return !options.no_color && (no_color == nullptr || *no_color == '\0');
}

// Shows the replay until q, or until p chose whom to play from here (state.play_from).
int view(const play::ReplayGame& game, play::ReplayState& state, bool color) {
  play::Terminal terminal;
  std::string pending;
  while (!state.quit && state.play_from == play::PlayFrom::None) {
    std::tie(state.screen_width, state.screen_height) = terminal.size();
    terminal.draw(
        play::compose_replay(game, state, state.screen_width, state.screen_height).lines(color));
    const play::TerminalEvent event = terminal.wait(pending.empty() ? -1 : kEscapeWaitMs);
    if (event.terminate_signal) return 128 + event.terminate_signal;
    if (event.resized || event.resumed) {
      std::tie(state.screen_width, state.screen_height) = terminal.size();
    }
    const bool timed_out = event.bytes.empty() && !event.resized && !event.resumed;
    pending += event.bytes;
    for (const play::Key& key : play::decode_keys(pending, timed_out)) {
      play::handle_replay_key(game, state, key);
      if (state.quit || state.play_from != play::PlayFrom::None) break;
    }
  }
  return 0;
}

int run_replay(const ReplayOptions& options) {
  auto parsed = read_records(options.file);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::cerr << "ur replay: " << *error << "\n";
    return 1;
  }
  auto& games = std::get<0>(parsed);
  if (options.game > static_cast<int>(games.size())) {
    std::cerr << "ur replay: --game " << options.game << ": " << options.file << " holds "
              << games.size() << (games.size() == 1 ? " game" : " games") << "\n";
    return kUsageError;
  }
  // --level is checked as ur play checks --opponent, before the screen opens.
  if (auto made = make_agent(options.level, 0); std::holds_alternative<AgentSpecError>(made)) {
    std::cerr << "ur replay: bad --level: " << std::get<AgentSpecError>(made).message << "\n";
    return kUsageError;
  }
  if (!options.record.empty()) {
    if (auto problem = play::check_record_path(options.record)) {
      std::cerr << "ur replay: --record: " << *problem << "\n";
      return kUsageError;
    }
  }
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
    std::cerr << "ur replay: needs a terminal (to print a record ply by ply: ur record FILE)\n";
    return kUsageError;
  }
  records::GameRecord record = std::move(games[static_cast<std::size_t>(options.game - 1)]);
  // parse_record_text has replayed every game, so this replay succeeds.
  auto replay = std::get<records::Replay>(records::replay(record));
  play::ReplayGame game{std::move(record), std::move(replay), std::nullopt, {}};
  // The table when there is one (solved on the spot when small), else an estimate.
  play::attach_review(game);
  play::ReplayState state;
  const std::uint64_t seed = options.seed ? *options.seed : std::random_device{}();
  while (true) {
    const int code = view(game, state, color_wanted(options));
    if (code != 0 || state.quit) return code;
    // "Play from here": the person light, the computer (at --level) or a friend dark.
    play::Settings settings;
    settings.rules = game.record.rules;
    settings.opponent =
        state.play_from == play::PlayFrom::Computer ? options.level : std::string(play::kFriend);
    settings.seed = seed;
    state.play_from = play::PlayFrom::None;
    play::PlaySession session(&make_agent);
    if (const play::ActionError refused = play::continue_record(
            session, game.record, static_cast<std::size_t>(state.ply), settings)) {
      state.message = "Cannot play from here: " + *refused;
      continue;
    }
    play::InteractiveOptions interactive;
    interactive.color = color_wanted(options);
    interactive.record_path = options.record;
    return play::run_interactive(session, interactive);
  }
}

CommandRunner setup_replay(CLI::App& app) {
  auto options = std::make_shared<ReplayOptions>();
  CLI::App* command = app.add_subcommand(
      "replay", "Show a recorded game in the terminal, ply by ply, with its review");
  command->add_option("FILE", options->file, "The record file (RGN or JSON lines)")->required();
  command->add_option("--game", options->game, "Which game of the file to show (default 1)")
      ->check(CLI::Range(1, 1'000'000));
  command->add_flag("--no-color", options->no_color, "No colours (also with NO_COLOR set)");
  command
      ->add_option("--level", options->level,
                   "Who plays dark when you play on from a ply against the computer (p, c): "
                   "easy, medium, hard, expert, perfect, or any agent spec")
      ->default_val("medium");
  command
      ->add_option("--seed", options->seed,
                   "Seed for the dice when you play on from a ply, 0..2^64-1 (default: random)")
      ->check(seed_range());
  command->add_option("--record", options->record,
                      "Write the records of the game played on from a ply (RGN) to FILE after "
                      "every game and at the end");
  return [options] { return run_replay(*options); };
}

const CommandRegistrar registrar{31, &setup_replay};

}  // namespace
}  // namespace ur::cli
