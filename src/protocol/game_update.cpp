#include "protocol/game_update.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace ur::protocol {

using json = nlohmann::json;

namespace {

const json& member_or_null(const json& state, const char* name) {
  static const json null_value;
  const auto found = state.find(name);
  return found == state.end() ? null_value : *found;
}

}  // namespace

void UpdateBase::reset(const json& state) {
  valid = true;
  rules = member_or_null(state, "rules");
  log = member_or_null(state, "log");
  if (!log.is_array()) log = json::array();
}

bool UpdateBase::matches(const json& state) const {
  if (!valid || member_or_null(state, "rules") != rules) return false;
  const json& state_log = member_or_null(state, "log");
  return state_log.is_array() ? state_log == log : log.empty();
}

void shorten_update(json& state, UpdateBase& base) {
  if (!base.valid) {
    base.reset(state);
    return;
  }
  const json& rules = member_or_null(state, "rules");
  if (rules == base.rules) {
    state.erase("geometry");
  } else {
    base.rules = rules;
  }
  auto found = state.find("log");
  if (found == state.end() || !found->is_array()) {
    base.log = json::array();
    return;
  }
  json& log = *found;
  // The log mostly grows by the new lines; a take-back or a new game cuts it.
  const auto [kept, _] = std::mismatch(base.log.begin(), base.log.end(), log.begin(), log.end());
  const auto keep = static_cast<std::size_t>(kept - base.log.begin());
  base.log.erase(base.log.begin() + static_cast<std::ptrdiff_t>(keep), base.log.end());
  json added = json::array();
  for (std::size_t i = keep; i < log.size(); ++i) {
    base.log.push_back(log[i]);
    added.push_back(std::move(log[i]));
  }
  log = std::move(added);
  state["log_kept"] = keep;
}

std::optional<json> complete_update(json state, const json* previous) {
  if (!state.is_object()) return std::nullopt;
  const bool has_geometry = state.contains("geometry");
  const auto kept = state.find("log_kept");
  if (has_geometry && kept == state.end()) return state;
  if (previous == nullptr || !previous->is_object()) return std::nullopt;
  if (!has_geometry) {
    const auto geometry = previous->find("geometry");
    if (geometry == previous->end()) return std::nullopt;
    state["geometry"] = *geometry;
  }
  if (kept != state.end()) {
    const json& before = member_or_null(*previous, "log");
    const auto log = state.find("log");
    if (!kept->is_number_unsigned() || !before.is_array() || log == state.end() ||
        !log->is_array() || kept->get<std::size_t>() > before.size()) {
      return std::nullopt;
    }
    json whole(before.begin(), before.begin() + kept->get<std::ptrdiff_t>());
    for (json& line : *log) whole.push_back(std::move(line));
    *log = std::move(whole);
    state.erase(kept);
  }
  return state;
}

}  // namespace ur::protocol
