#include "play/tui.h"

#include <chrono>
#include <csignal>
#include <iostream>
#include <memory>
#include <tuple>

#include "play/controller.h"
#include "play/record_file.h"
#include "play/screen.h"
#include "play/terminal.h"

namespace ur::play {
namespace {

// How long to wait for the rest of an escape sequence before reading a lone Esc.
constexpr int kEscapeWaitMs = 40;
// How often a table build's progress is redrawn.
constexpr int kBuildRedrawMs = 100;

int play_loop(PlaySession& game, const InteractiveOptions& options) {
  Terminal terminal;
  UiState ui;
  ui.record_path = options.record_path;
  ui.route_numbers = options.route_numbers;
  ui.tables = options.tables;
  sync_ui(game, ui);
  if (options.first_game) request_game(game, ui, *options.first_game);
  std::string pending_bytes;
  std::unique_ptr<BuildJob> build;  // destroyed (cancelled, joined) before the terminal

  // Keys and steps are judged at the size the screen was drawn at (board_hidden).
  const auto draw = [&] {
    std::tie(ui.screen_width, ui.screen_height) = terminal.size();
    ui.waiting = step_due(game, ui);
    terminal.draw(compose_screen(game, ui, ui.screen_width, ui.screen_height).lines(options.color));
  };

  while (!ui.quit) {
    advance_build(game, ui, build);
    draw();
    if (step_due(game, ui)) {
      // The computer's (or an automatic) step, after a pause any key cuts short.
      const auto deadline =
          std::chrono::steady_clock::now() + std::chrono::milliseconds(step_pause_ms(game));
      bool skipped = false;
      while (!skipped && !ui.quit) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) break;
        const TerminalEvent event = terminal.wait(static_cast<int>(left));
        if (event.terminate_signal) return 128 + event.terminate_signal;
        if (event.resized || event.resumed) draw();
        for (char byte : event.bytes) {
          if (byte == 'q' || byte == 'Q') ui.quit = true;
        }
        skipped = !event.bytes.empty();
      }
      // A resize during the pause may have hidden the board: then the step waits.
      if (!ui.quit && step_due(game, ui)) take_step(game, ui);
      continue;
    }
    const int timeout = !pending_bytes.empty() ? kEscapeWaitMs : build ? kBuildRedrawMs : -1;
    TerminalEvent event = terminal.wait(timeout);
    if (event.terminate_signal == SIGINT && build) {
      cancel_build(ui);  // Ctrl-C stops the build, not the game
      continue;
    }
    if (event.terminate_signal) return 128 + event.terminate_signal;
    if (event.resized || event.resumed) draw();  // keys read with this event meet the new size
    const bool timed_out = event.bytes.empty() && !event.resized && !event.resumed;
    pending_bytes += event.bytes;
    for (const Key& key : decode_keys(pending_bytes, timed_out)) {
      handle_key(game, ui, key);
      if (ui.quit) break;
    }
  }
  return 0;
}

}  // namespace

int run_interactive(PlaySession& game, const InteractiveOptions& options) {
  const int code = play_loop(game, options);  // the terminal is restored when it returns
  if (!options.record_path.empty() && game.started()) {
    if (auto problem = write_records(game, options.record_path)) {
      std::cerr << "ur play: --record: " << *problem << "\n";
      return code == 0 ? 1 : code;
    }
  }
  return code;
}

}  // namespace ur::play
