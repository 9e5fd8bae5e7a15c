// Helpers shared by the play tests: games with seeded computers and state snapshots.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "agents/agent.h"
#include "core/notation.h"
#include "play/canvas.h"
#include "play/controller.h"
#include "play/play_session.h"

namespace ur::play::testing {

// A fixed clock, so records and event times do not depend on when a test runs.
inline session::Time fixed_time() {
  return 1'764'583'200'000;  // 2025-12-01T10:00:00Z
}

// A friend game (no computer) with the given seed, or a computer game when `opponent` names
// an agent spec.
inline PlaySession make_game(std::string opponent = std::string(kFriend), std::uint64_t seed = 7,
                             Rules rules = finkel_rules()) {
  PlaySession game(&make_agent, &fixed_time);
  Settings settings;
  settings.opponent = std::move(opponent);
  settings.seed = seed;
  settings.rules = rules;
  const ActionError error = game.configure(settings);
  EXPECT_FALSE(error) << *error;
  return game;
}

// Everything observable about a game, to check that a refused action changed nothing.
inline std::string snapshot(const PlaySession& game) {
  std::ostringstream text;
  text << to_text(game.position()) << " phase " << static_cast<int>(game.phase()) << " roll "
       << game.roll() << " log " << game.log().size() << " events "
       << game.session().history().size() << " game " << game.game_number() << " tally "
       << game.tally()[0] << "-" << game.tally()[1] << " moves";
  for (const Move& move : game.legal()) text << " " << int{move.from};
  return text.str();
}

// The computer plays until the person must act or the game ends.
inline void let_the_computer_play(PlaySession& game) {
  const ActionError error = game.computer_turn();
  ASSERT_FALSE(error) << *error;
}

// Plays the first legal move of every throw until the game ends (between friends).
inline void play_to_the_end(PlaySession& game) {
  for (int step = 0; step < 5000 && game.phase() != Phase::Over; ++step) {
    ActionError error;
    switch (game.phase()) {
      case Phase::Throw:
        error = game.throw_dice();
        break;
      case Phase::Move:
        error = game.move(game.legal()[0].from);
        break;
      case Phase::Pass:
        error = game.pass();
        break;
      case Phase::Over:
        break;
    }
    ASSERT_FALSE(error) << *error;
  }
  ASSERT_EQ(game.phase(), Phase::Over);
}

// Decodes `keys` as a terminal would send them and applies each to the game.
inline void press(PlaySession& game, UiState& ui, const std::string& keys) {
  std::string bytes = keys;
  for (const Key& each : decode_keys(bytes, true)) handle_key(game, ui, each);
}

// The text inside the box whose borders stand in columns `left` and `left + width - 1`, its
// rows' words joined by single spaces; fails the test when a corner or a side of the box
// is lost (text drawn over it).
inline std::string box_text(const Canvas& canvas, int left, int width) {
  const int right = left + width - 1;
  int top = 0;
  while (top < canvas.height() &&
         (canvas.glyph_at(left, top) != "┌" || canvas.glyph_at(right, top) != "┐")) {
    ++top;
  }
  if (top == canvas.height()) {
    ADD_FAILURE() << "no top corners in columns " << left << " and " << right << "\n"
                  << canvas.text(false);
    return "";
  }
  std::string text;
  for (int y = top + 1; y < canvas.height(); ++y) {
    if (canvas.glyph_at(left, y) == "└" && canvas.glyph_at(right, y) == "┘") return text;
    if (canvas.glyph_at(left, y) != "│" || canvas.glyph_at(right, y) != "│") {
      ADD_FAILURE() << "row " << y << " lost a side of the box\n" << canvas.text(false);
      return "";
    }
    std::string word;
    for (int x = left + 1; x <= right; ++x) {
      const std::string_view glyph = canvas.glyph_at(x, y);
      if (x < right && glyph != " ") {
        word += glyph;
      } else if (!word.empty()) {
        text += (text.empty() ? "" : " ") + word;
        word.clear();
      }
    }
  }
  ADD_FAILURE() << "no bottom corners in columns " << left << " and " << right << "\n"
                << canvas.text(false);
  return "";
}

}  // namespace ur::play::testing
