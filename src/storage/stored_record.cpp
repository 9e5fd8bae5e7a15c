#include "storage/stored_record.h"

#include <nlohmann/json.hpp>

namespace ur::storage {

GameWrite split_record(const std::string& record, int format) {
  GameWrite write{format, record, 0, {}};
  nlohmann::json whole = nlohmann::json::parse(record, nullptr, false);
  if (!whole.is_object()) return write;
  const auto history = whole.find("history");
  if (history == whole.end() || !history->is_array() || history->empty()) return write;
  write.events.reserve(history->size());
  for (const nlohmann::json& event : *history) write.events.push_back(event.dump());
  whole.erase(history);
  write.head = whole.dump();
  return write;
}

std::string join_record(const std::string& head, const std::string& events) {
  if (events.empty()) return head;
  // head is "{...}": the history goes in as its first member.
  std::string record = R"({"history":[)";
  record.reserve(record.size() + events.size() + head.size() + 2);
  record += events;
  record += ']';
  if (head.size() > 2) {
    record += ',';
    record.append(head, 1);
  } else {
    record += '}';
  }
  return record;
}

}  // namespace ur::storage
