#include "engine/rules_handlers.h"

#include "core/notation.h"
#include "core/perft.h"
#include "protocol/json.h"

namespace ur::engine {

using nlohmann::json;

json answer_moves(const json& request, const Rules& rules) {
  const Position position = protocol::position_from_request(request, rules);
  const Roll roll = protocol::roll_from_request(request, rules);
  protocol::require_game_in_progress(rules, position);
  json moves = json::array();
  for (const Move& move : legal_moves(rules, position, roll))
    moves.push_back(protocol::to_json(move));
  return {{"moves", std::move(moves)}};
}

json answer_apply(const json& request, const Rules& rules) {
  const Position position = protocol::position_from_request(request, rules);
  const Roll roll = protocol::roll_from_request(request, rules);
  protocol::require_game_in_progress(rules, position);
  const std::optional<Move> move = protocol::move_from_request(request, rules, position, roll);
  const Position after = move ? apply_move(rules, position, *move) : pass_turn(position);
  const std::optional<Side> won = winner(rules, after);
  return {{"position", protocol::to_json(after)},
          {"extra_throw", move && move->extra_throw},
          {"winner", won ? json(side_name(*won)) : json(nullptr)}};
}

json answer_perft(const json& request, const Rules& rules) {
  const Position position = protocol::position_from_request(request, rules);
  const int depth = protocol::require_integer(request, "depth", 0, kMaxPerftDepth);
  return {{"nodes", perft(rules, position, depth)}};
}

}  // namespace ur::engine
