// Live hints for a web game: both sides' chances to win and, while a throw waits, every
// legal move's chance, from the solved table when there is one (exact), else from the
// expert search (estimated). The values come from the review's one ranking
// (analysis::rank_moves), so hints and reviews never disagree.
#pragma once

#include <nlohmann/json.hpp>

#include "session/session.h"

namespace ur::server {

// {"exact": bool, "source": "...", "win": {"light": p, "dark": 1 - p}, "roll": r or null,
//  "moves": [{"from", "to", "capture", "extra_throw", "win"}, ...]}; chances 0..1, the
// moves' for the side to move, best first. `win` is null once the game is over. Without a
// table for 5 or 7 pieces, "table_missing" says what a build costs (as for Perfect). For a
// set the solver cannot solve yet, "perfect_play" says so and the values are the search's.
nlohmann::json hints_json(const session::Session& session);

}  // namespace ur::server
