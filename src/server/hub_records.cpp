// Records, reviews and table builds: the routes that need no game of the hub.
#include "server/hub_impl.h"

namespace ur::server {
namespace {

// A record as the page gets it: the JSON record, the board to draw it on, and the position
// before its first ply (its Position tag's, else the opening), so that the page reads no
// position text. Precondition: the record replays.
json record_for_page(const records::GameRecord& record) {
  const auto replay = std::get<records::Replay>(records::replay(record));
  json game = protocol::to_json(record, replay);
  game["geometry"] = geometry_json(record.rules);
  game["start"] = protocol::to_json(replay.start);
  return game;
}

}  // namespace

ApiResponse GameHub::Impl::series_record(const WebGame& game) {
  std::vector<records::GameRecord> games = records::records_of_series(game.session);
  // The seed sets every throw still to come in the series (a rematch goes on from it): with it,
  // a watcher or a player could foretell the dice. It stays on the server.
  for (records::GameRecord& record : games) {
    std::erase_if(record.tags, [](const records::Tag& tag) { return tag.key == "Seed"; });
  }
  json as_json = json::array();
  for (const records::GameRecord& record : games) {
    as_json.push_back(record_for_page(record));  // a record of the session replays
  }
  return {200,
          {{"file_name", "ur-" + game.id + ".rgn"},
           {"rgn", records::write_rgn(games)},
           {"records", std::move(as_json)}}};
}

ApiResponse GameHub::Impl::review(json body) {
  require_only_members(body, {"record", "rgn", "estimate"}, "a review request");
  if (body.contains("record")) body["record"] = without_geometry(body["record"]);
  // A set the solver cannot solve (a path that crosses itself) has no exact review; the
  // search may estimate one.
  const auto estimate = body.find("estimate");
  const bool estimated = estimate != body.end() && estimate->is_boolean() && estimate->get<bool>();
  if (const auto rules = record_rules(body); rules && !estimated) {
    if (auto unavailable = perfect_play_unavailable(*rules)) {
      throw bad_request(*unavailable + R"( Ask with "estimate": true for the search's review.)")
          .with_detail("perfect_play", *unavailable);
    }
  }
  try {
    // Small tables solve in about a second, as for hints and Perfect; bigger ones never
    // on the spot, where they would stall the server.
    json answer = tables::review_request(body);
    if (const auto rules = record_rules(body)) answer["geometry"] = geometry_json(*rules);
    return {200, std::move(answer)};
  } catch (const protocol::RequestError& error) {
    // No table for the record's rules: the page offers to build it, as for Perfect. Only when
    // that is what was refused: a record of two games is no reason to build a table.
    if (const auto rules = record_rules(body)) {
      std::string problem;
      if (!tables::find_table(*rules, &problem) &&
          std::string_view(error.what()).find(problem) != std::string_view::npos) {
        if (auto missing = missing_table(*rules)) {
          throw bad_request("The review needs its table: " + missing_table_sentence(*rules) +
                            " Or ask again with \"estimate\": true.")
              .with_detail("table_missing", std::move(*missing));
        }
      }
    }
    throw bad_request(error.what());
  }
}

std::optional<Rules> GameHub::Impl::record_rules(const json& body) {
  try {
    if (const auto record = body.find("record"); record != body.end()) {
      return protocol::record_from_json(*record).rules;
    }
    if (const auto rgn = body.find("rgn"); rgn != body.end() && rgn->is_string()) {
      auto games = records::read_rgn(rgn->get_ref<const std::string&>());
      if (auto* read = std::get_if<std::vector<records::GameRecord>>(&games)) {
        if (!read->empty()) return read->front().rules;
      }
    }
  } catch (const protocol::RequestError&) {
  }
  return std::nullopt;
}

ApiResponse GameHub::Impl::read_records(const json& body) {
  require_only_members(body, {"text"}, "a records request");
  const auto text = body.find("text");
  if (text == body.end()) {
    throw bad_request(R"(A records request needs "text": the text of an RGN or JSON record file.)");
  }
  if (!text->is_string()) {
    throw bad_request("\"text\" must be the record file's text as a string, got " +
                      protocol::quote_json(*text) + ".");
  }
  auto games = protocol::parse_record_text(text->get<std::string>());
  if (const auto* error = std::get_if<std::string>(&games)) throw bad_record(*error);
  // Each game's answer carries its board drawing (about 2.5 KB): 200 KB of short games asked
  // for 63 MB of answer. A file of more games is read a part at a time.
  if (const std::size_t count = std::get<0>(games).size(); count > kMaxRecordsPerRequest) {
    throw bad_record("the text holds " + std::to_string(count) + " games; send at most " +
                     std::to_string(kMaxRecordsPerRequest) + " at a time");
  }
  json answer = json::array();
  for (const records::GameRecord& record : std::get<0>(games)) {
    // parse_record_text has replayed every game already, so this replay cannot fail.
    answer.push_back(record_for_page(record));
  }
  return {200, {{"games", answer}}};
}

ApiResponse GameHub::Impl::table_build(const std::string& method, const std::string& body) {
  if (method == "GET") return {200, table_job.state()};
  if (method == "DELETE") return {200, table_job.cancel()};
  if (method != "POST") throw bad_method(method, "GET, POST or DELETE");
  const json request = parse_body(body);
  require_only_members(request, {"rules", "pieces", "bear_off"}, "a table build");
  // The rules as a table_missing offer's "build" names them, or Finkel's by pieces and bear-off.
  // One form or the other: {"rules": {..., "pieces": 2}, "pieces": 5} built 5 pieces.
  const bool by_rules = request.contains("rules");
  const bool by_pieces = request.contains("pieces") || request.contains("bear_off");
  if (by_rules == by_pieces ||
      (!by_rules && (!request.contains("pieces") || !request.contains("bear_off")))) {
    throw bad_request(
        R"(A table build needs either "rules" ({"rules":{"name":"masters","pieces":5,"bear_off":"exact"}}) or "pieces" and "bear_off" ({"pieces":5,"bear_off":"exact"}), not both.)");
  }
  // Any rules a table_missing offer names (a review of a 6-piece record offers its table), or
  // Finkel's by the settings' pieces and bear-off.
  Rules rules;
  if (by_rules) {
    if (!request["rules"].is_object()) {
      throw bad_request(R"("rules" must be an object like {"name":"masters","pieces":5}, got )" +
                        protocol::quote_json(request["rules"]));
    }
    try {
      rules = protocol::rules_from_json(request["rules"]);
    } catch (const protocol::RequestError& error) {
      throw bad_settings(std::string("\"rules\": ") + error.what());
    }
  } else {
    rules = merge_web_settings(default_web_settings(), request).rules;
  }
  auto [status, state] = table_job.start(rules);
  return {status, std::move(state)};
}

}  // namespace ur::server
