// `ur engine` commands "evaluate", "hints" and "review", answered from solved tables.
#include "analysis/search_values.h"
#include "engine/handler.h"
#include "protocol/record_json.h"
#include "protocol/review_json.h"
#include "records/rgn.h"
#include "tables/table_store.h"
#include "tables/table_values.h"

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

// {"cmd":"review","record":R} with R a JSON record (docs/records.md), or "rgn":TEXT with
// one game in RGN; "estimate":true reviews with the search when no table is at hand.
json answer_review(const json& request, const Rules&) {
  records::GameRecord record;
  const auto json_record = request.find("record");
  const auto rgn = request.find("rgn");
  if ((json_record == request.end()) == (rgn == request.end())) {
    throw protocol::RequestError(
        "review needs exactly one of \"record\" (a JSON record, docs/records.md) or \"rgn\" "
        "(the text of one game in RGN)");
  }
  if (json_record != request.end()) {
    record = protocol::record_from_json(*json_record);
  } else {
    if (!rgn->is_string()) {
      throw protocol::RequestError("\"rgn\" must be the text of a game, got " +
                                   protocol::quote_json(*rgn));
    }
    auto games = records::read_rgn(rgn->get<std::string>());
    if (auto* error = std::get_if<records::ParseError>(&games)) {
      throw protocol::RequestError("rgn: " + error->text());
    }
    if (std::get<0>(games).size() != 1) {
      throw protocol::RequestError("\"rgn\" must hold one game, found " +
                                   std::to_string(std::get<0>(games).size()));
    }
    record = std::get<0>(games).front();
  }
  bool estimate = false;
  if (const auto flag = request.find("estimate"); flag != request.end()) {
    if (!flag->is_boolean()) {
      throw protocol::RequestError("\"estimate\" must be true or false, got " +
                                   protocol::quote_json(*flag));
    }
    estimate = flag->get<bool>();
  }
  std::unique_ptr<analysis::PositionValues> values;
  std::string problem;
  if (const auto member = request.find("table"); member != request.end()) {
    values = std::make_unique<TableValues>(request_table(request, record.rules));
  } else if (auto table = table_for_play(record.rules, &problem)) {
    values = std::make_unique<TableValues>(table);
  } else if (estimate) {
    values = std::make_unique<analysis::SearchValues>();
  } else {
    throw protocol::RequestError(problem + "; or send \"estimate\":true to review with the search");
  }
  const auto replay = std::get<records::Replay>(records::replay(record));
  return protocol::to_json(analysis::review(record, replay, *values));
}

const engine::HandlerRegistrar review_registrar{"review", &answer_review};
const engine::HandlerRegistrar evaluate_registrar{"evaluate", &answer_evaluate};
const engine::HandlerRegistrar hints_registrar{"hints", &answer_hints};

}  // namespace
}  // namespace ur::tables
