// The table-build flow: the offer to build a missing table, the build's progress and
// cancel, and the game it leads to (or the menu again, saying why not).
#include "play/build_flow.h"

#include "play/controller.h"
#include "play/feedback.h"
#include "play/menu.h"

namespace ur::play {

// Why the game cannot start until the table exists, and how to build it later.
std::string table_declined(const TableRequest& request, const std::string& what) {
  return what + " Choose another opponent or fewer pieces, or build the table later with `" +
         request.offer.command + "`.";
}

void handle_build_offer(UiState& ui, const Key& key) {
  if (is_char(key, 'y') || is_char(key, 'Y')) {
    ui.overlay = Overlay::Building;
    ui.message.clear();
    return;
  }
  if (is_char(key, 'n') || is_char(key, 'N') || key.code == KeyCode::Escape ||
      key.code == KeyCode::Enter) {
    const TableRequest request = std::move(*ui.table);
    ui.table.reset();
    back_to_menu(ui, request.settings, table_declined(request, "Not built."));
    return;
  }
  refuse_key(ui, key, "y builds the table now, n or Esc goes back to the settings.");
}

void request_game(PlaySession& game, UiState& ui, const Settings& settings) {
  if (ui.tables) {
    if (auto offer = ui.tables->offer(settings)) {
      const bool ask = offer->ask;
      ui.table = TableRequest{std::move(*offer), settings, {}, false};
      ui.overlay = ask ? Overlay::BuildOffer : Overlay::Building;
      ui.message.clear();
      return;
    }
  }
  if (const ActionError refused = game.configure(settings)) {
    back_to_menu(ui, settings, *refused);
    return;
  }
  ui.overlay = Overlay::None;
  ui.cursor.reset();
  ui.typed.clear();
  set_info(ui, "New game with the new settings.");
  sync_ui(game, ui);
}

void advance_build(PlaySession& game, UiState& ui, std::unique_ptr<BuildJob>& job) {
  if (ui.overlay != Overlay::Building || !ui.table || !ui.tables) {
    job.reset();
    return;
  }
  if (!job) job = std::make_unique<BuildJob>(*ui.tables, ui.table->offer.rules);
  if (ui.table->cancelling) job->cancel();
  ui.table->status = job->status();
  const std::optional<ActionError> ended = job->result();
  if (!ended) return;
  job.reset();
  const TableRequest request = std::move(*ui.table);
  ui.table.reset();
  if (*ended) {
    back_to_menu(ui, request.settings,
                 table_declined(request, request.cancelling
                                             ? "Cancelled: no table was written."
                                             : "The table could not be built: " + **ended + "."));
    return;
  }
  request_game(game, ui, request.settings);
  if (ui.overlay == Overlay::None) {
    set_info(ui, "The table is built: you play the perfect opponent.");
  }
}

void cancel_build(UiState& ui) {
  if (ui.overlay != Overlay::Building || !ui.table) return;
  ui.table->cancelling = true;
  set_info(ui, "Cancelling at the end of this sweep…");
}

}  // namespace ur::play
