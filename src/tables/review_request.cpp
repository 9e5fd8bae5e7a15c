#include "tables/review_request.h"

#include "analysis/search_values.h"
#include "protocol/json.h"
#include "protocol/record_json.h"
#include "protocol/review_json.h"
#include "records/rgn.h"
#include "tables/table_store.h"
#include "tables/table_values.h"

namespace ur::tables {

using nlohmann::json;

// {"cmd":"review","record":R} with R a JSON record (docs/records.md), or "rgn":TEXT with
// one game in RGN; "estimate":true reviews with the search when no table is at hand.
json review_request(const json& request) {
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
    if (!member->is_string() || member->get<std::string>().empty()) {
      throw protocol::RequestError("\"table\" must be the path of a table file, got " +
                                   protocol::quote_json(*member));
    }
    auto table =
        find_table(record.rules, &problem, std::filesystem::path(member->get<std::string>()));
    if (!table) throw protocol::RequestError(problem);
    values = std::make_unique<TableValues>(table);
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

}  // namespace ur::tables
