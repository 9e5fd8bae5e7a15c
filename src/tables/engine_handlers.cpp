// `ur engine` commands "evaluate", "hints" and "review", answered from solved tables.
#include "engine/handler.h"
#include "tables/review_request.h"
#include "tables/table_store.h"

namespace ur::tables {
namespace {

using nlohmann::json;

// The table for the request: its optional "table" member (a file path), else the default
// location (solved on the fly for small piece counts).
std::shared_ptr<const Table> request_table(const json& request, const Rules& rules) {
  std::string problem;
  std::shared_ptr<const Table> table;
  if (const auto member = request.find("table"); member != request.end()) {
    if (!member->is_string() || member->get<std::string>().empty()) {
      throw protocol::RequestError("\"table\" must be the path of a table file, got " +
                                   protocol::quote_json(*member));
    }
    table = find_table(rules, &problem, std::filesystem::path(member->get<std::string>()));
  } else {
    table = table_for_play(rules, &problem);
  }
  if (!table) throw protocol::RequestError(problem);
  return table;
}

json answer_evaluate(const json& request, const Rules& rules) {
  const Position position = protocol::position_from_request(request, rules);
  return {{"win", evaluate(*request_table(request, rules), position)}};
}

json answer_hints(const json& request, const Rules& rules) {
  const Position position = protocol::position_from_request(request, rules);
  const Roll roll = protocol::roll_from_request(request, rules);
  protocol::require_game_in_progress(rules, position);
  const std::shared_ptr<const Table> table = request_table(request, rules);
  json moves = json::array();
  for (const MoveHint& hint : hints(*table, position, roll)) {
    json entry = protocol::to_json(hint.move);
    entry["win"] = hint.win;
    moves.push_back(std::move(entry));
  }
  json answer = {{"moves", moves}};
  if (moves.empty()) answer["pass_win"] = pass_value(*table, position);
  return answer;
}

json answer_review(const json& request, const Rules&) {
  return review_request(request);
}

const engine::HandlerRegistrar review_registrar{"review", &answer_review};
const engine::HandlerRegistrar evaluate_registrar{"evaluate", &answer_evaluate};
const engine::HandlerRegistrar hints_registrar{"hints", &answer_hints};

}  // namespace
}  // namespace ur::tables
