// Helpers shared by the play tests: games with seeded computers and state snapshots.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "agents/agent.h"
#include "core/notation.h"
#include "play/game.h"

namespace ur::play::testing {

// A friend game (no computer) with the given seed, or a computer game when `opponent` names
// an agent spec.
inline Game make_game(std::string opponent = std::string(kFriend), std::uint64_t seed = 7,
                      Rules rules = finkel_rules()) {
  Game game(&make_agent);
  Settings settings;
  settings.opponent = std::move(opponent);
  settings.seed = seed;
  settings.rules = rules;
  const ActionError error = game.configure(settings);
  EXPECT_FALSE(error) << *error;
  return game;
}

// Everything observable about a game, to check that a refused action changed nothing.
inline std::string snapshot(const Game& game) {
  std::ostringstream text;
  text << to_text(game.position()) << " phase " << static_cast<int>(game.phase()) << " roll "
       << game.roll() << " log " << game.log().size() << " game " << game.game_number() << " tally "
       << game.tally()[0] << "-" << game.tally()[1] << " moves";
  for (const Move& move : game.legal()) text << " " << int{move.from};
  return text.str();
}

}  // namespace ur::play::testing
