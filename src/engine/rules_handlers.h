// The rules engine's own engine commands: "moves", "apply" and "perft" (docs/engine-protocol.md).
#pragma once

#include <nlohmann/json.hpp>

#include "core/rules.h"

namespace ur::engine {

// Deepest perft a request (and `ur perft`) may ask for: depth 12 already takes minutes.
inline constexpr int kMaxPerftDepth = 12;

nlohmann::json answer_moves(const nlohmann::json& request, const Rules& rules);
nlohmann::json answer_apply(const nlohmann::json& request, const Rules& rules);
nlohmann::json answer_perft(const nlohmann::json& request, const Rules& rules);

}  // namespace ur::engine
