// The table-build flow: the offer to build a missing table, the build's progress and
// cancel, and the game it leads to (or the menu again, saying why not).
#include "play/build_flow.h"

#include <algorithm>

#include "play/controller.h"
#include "play/feedback.h"
#include "play/hints.h"
#include "play/menu.h"

namespace ur::play {

// Why the game cannot start until the table exists, and how to build it later.
std::string table_declined(const TableRequest& request, const std::string& what) {
  return what + " Choose another opponent or fewer pieces, or build the table later with `" +
         request.offer.command + "`.";
}

namespace {

// Goes on to what the hints or the review asked for, on whatever values there are now: the
// table once built, else the expert search's estimate. `note` says why.
void finish_values_request(PlaySession& game, UiState& ui, const TableRequest& request,
                           const std::string& note, bool error) {
  if (request.use == TableUse::Review) {
    ui.overlay = Overlay::GameOver;
    open_review(game, ui);
    return;
  }
  ui.overlay = Overlay::None;
  ui.hint_values.reset();  // made again: from the table if it is there now
  ui.hints.reset();
  game.set_hints(true);
  if (error) {
    set_error(ui, note);
  } else {
    set_info(ui, note);
  }
  sync_ui(game, ui);  // the hints of the position now, as after a key
}

// A hint or review request declined or not built: they run on the estimate, saying why (in
// one message line; the offer showed the command that builds the table later).
void values_estimated(PlaySession& game, UiState& ui, const TableRequest& request,
                      const std::string& what) {
  finish_values_request(game, ui, request,
                        what + (request.use == TableUse::Hints ? " Hints are" : " The review is") +
                            " estimated (no solved table).",
                        true);
}

}  // namespace

bool offer_values_table(const PlaySession& game, UiState& ui, const Rules& rules, TableUse use) {
  if (!ui.tables) return false;
  if (std::find(ui.values_offered.begin(), ui.values_offered.end(), rules) !=
      ui.values_offered.end()) {
    return false;
  }
  auto offer = ui.tables->values_offer(rules);
  if (!offer) return false;
  ui.values_offered.push_back(rules);
  Settings settings = game.settings();
  settings.rules = rules;
  ui.table = TableRequest{std::move(*offer), settings, {}, false, use};
  ui.overlay = Overlay::BuildOffer;
  ui.message.clear();
  return true;
}

void handle_build_offer(PlaySession& game, UiState& ui, const Key& key) {
  if (is_char(key, 'y') || is_char(key, 'Y')) {
    ui.overlay = Overlay::Building;
    ui.message.clear();
    return;
  }
  if (is_char(key, 'n') || is_char(key, 'N') || key.code == KeyCode::Escape ||
      key.code == KeyCode::Enter) {
    const TableRequest request = std::move(*ui.table);
    ui.table.reset();
    if (request.use == TableUse::Game) {
      back_to_menu(ui, request.settings, table_declined(request, "Not built."));
    } else {
      values_estimated(game, ui, request, "Not built.");
    }
    return;
  }
  refuse_key(ui, key,
             ui.table && ui.table->use != TableUse::Game
                 ? "y builds the table now, n or Esc goes on with the estimate."
                 : "y builds the table now, n or Esc goes back to the settings.");
}

std::optional<std::string> cannot_start(const Settings& settings) {
  // No table to offer for a set the solver cannot solve: say so, and nothing else.
  if (is_perfect_spec(settings.opponent)) {
    if (auto why = perfect_play_unavailable(settings.rules)) {
      return *why + " Choose another opponent or rule set.";
    }
  }
  return std::nullopt;
}

void request_game(PlaySession& game, UiState& ui, const Settings& settings) {
  if (auto why = cannot_start(settings)) {
    back_to_menu(ui, settings, *why);
    return;
  }
  if (ui.tables) {
    if (auto offer = ui.tables->offer(settings)) {
      const bool ask = offer->ask;
      ui.table = TableRequest{std::move(*offer), settings, {}, false};
      ui.overlay = ask ? Overlay::BuildOffer : Overlay::Building;
      ui.message.clear();
      return;
    }
  }
  const std::optional<Settings> before =
      game.started() ? std::optional<Settings>(game.settings()) : std::nullopt;
  if (const ActionError refused = game.configure(settings)) {
    back_to_menu(ui, settings, *refused);
    return;
  }
  ui.overlay = Overlay::None;
  ui.cursor.reset();
  ui.typed.clear();
  set_info(ui,
           before ? new_game_note(*before, game.settings()) : "New game with the new settings.");
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
  if (request.use != TableUse::Game) {
    if (*ended) {
      values_estimated(game, ui, request,
                       request.cancelling ? "Cancelled: no table was written."
                                          : "The table could not be built: " + **ended + ".");
    } else {
      finish_values_request(game, ui, request, "The table is built: the hints are exact.", false);
    }
    return;
  }
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
