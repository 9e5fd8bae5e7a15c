// The WebSocket update stream: what the server leaves out, and how a client completes it.
#include "protocol/game_update.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace ur::protocol {
namespace {

using json = nlohmann::json;

json state_with(const std::string& rules, const std::vector<std::string>& log, int version) {
  return {{"version", version},
          {"rules", {{"name", rules}}},
          {"geometry", {{"name", rules}, {"cells", json::array({1, 2, 3})}}},
          {"log", log}};
}

TEST(GameUpdate, TheFirstUpdateIsWhole) {
  UpdateBase base;
  json state = state_with("finkel", {"Game 1: light starts."}, 1);
  const json whole = state;
  shorten_update(state, base);
  EXPECT_EQ(state, whole);
  EXPECT_EQ(complete_update(state, nullptr), whole);
}

TEST(GameUpdate, ALaterUpdateCarriesOnlyTheNewLinesAndNoGeometry) {
  UpdateBase base;
  json first = state_with("finkel", {"Game 1: light starts."}, 1);
  shorten_update(first, base);
  json second = state_with("finkel", {"Game 1: light starts.", "Light threw 2."}, 2);
  const json whole = second;
  shorten_update(second, base);
  EXPECT_FALSE(second.contains("geometry"));
  EXPECT_EQ(second["log_kept"], 1);
  EXPECT_EQ(second["log"], json::array({"Light threw 2."}));
  EXPECT_EQ(complete_update(second, &first), whole);
}

TEST(GameUpdate, NewRulesBringTheirGeometryAndACutLogStartsOver) {
  UpdateBase base;
  json first = state_with("finkel", {"Game 1: light starts.", "Light won."}, 5);
  shorten_update(first, base);
  json next = state_with("masters", {"Game 2: dark starts."}, 6);
  const json whole = next;
  shorten_update(next, base);
  EXPECT_TRUE(next.contains("geometry"));
  EXPECT_EQ(next["log_kept"], 0);
  EXPECT_EQ(complete_update(next, &first), whole);
}

TEST(GameUpdate, AnUpdateThatCannotBeCompletedIsRefused) {
  const json previous = state_with("finkel", {"a"}, 1);
  json no_geometry = state_with("finkel", {"a"}, 2);
  no_geometry.erase("geometry");
  EXPECT_FALSE(complete_update(no_geometry, nullptr));
  json too_many = state_with("finkel", {"b"}, 2);
  too_many["log_kept"] = 2;  // the previous log has one line
  EXPECT_FALSE(complete_update(too_many, &previous));
  json negative = too_many;
  negative["log_kept"] = -1;
  EXPECT_FALSE(complete_update(negative, &previous));
  json not_a_count = too_many;
  not_a_count["log_kept"] = "1";
  EXPECT_FALSE(complete_update(not_a_count, &previous));
  json no_log = too_many;
  no_log["log_kept"] = 1;
  no_log.erase("log");
  EXPECT_FALSE(complete_update(no_log, &previous));
  EXPECT_FALSE(complete_update(json::array(), &previous));
}

TEST(GameUpdate, ABaseMatchesOnlyTheStateItWasLastSent) {
  UpdateBase base;
  EXPECT_FALSE(base.matches(state_with("finkel", {}, 1)));
  json state = state_with("finkel", {"a"}, 1);
  shorten_update(state, base);
  EXPECT_TRUE(base.matches(state_with("finkel", {"a"}, 1)));
  EXPECT_FALSE(base.matches(state_with("finkel", {"a", "b"}, 2)));
  EXPECT_FALSE(base.matches(state_with("blitz", {"a"}, 2)));
}

// Whatever a socket delivers, completing it answers a state or nothing, and never throws.
RC_GTEST_PROP(GameUpdate, GarbageIsRefusedWithoutThrowing,
              (const std::string& text, const std::string& previous_text, int kept)) {
  const json parsed = json::parse(text, nullptr, false);
  const json previous = json::parse(previous_text, nullptr, false);
  for (const json& state :
       {parsed, json{{"log_kept", kept}, {"log", parsed}}, json{{"log_kept", parsed}},
        json{{"geometry", parsed}, {"log_kept", kept}, {"log", json::array({text})}}}) {
    const std::optional<json> whole = complete_update(state, &previous);
    if (whole) {
      RC_ASSERT(whole->is_object());
      RC_ASSERT(whole->contains("geometry"));
      RC_ASSERT(!whole->contains("log_kept"));
    }
  }
}

// Any run of states (logs grown, cut or restarted, rules switched): every client that
// completes each update against its last one holds exactly the whole state.
RC_GTEST_PROP(GameUpdate, CompletedUpdatesAreTheWholeStates, ()) {
  const auto steps = *rc::gen::container<std::vector<std::pair<int, int>>>(
      rc::gen::pair(rc::gen::inRange(0, 4), rc::gen::inRange(0, 5)));
  UpdateBase base;
  std::vector<std::string> log;
  std::string rules = "finkel";
  std::optional<json> client;
  int version = 0;
  for (const auto& [change, amount] : steps) {
    if (change == 0) {
      for (int i = 0; i < amount; ++i) log.push_back("line " + std::to_string(version * 10 + i));
    } else if (change == 1) {
      log.resize(log.size() > static_cast<std::size_t>(amount) ? log.size() - amount : 0);
    } else if (change == 2) {
      log = {"Game " + std::to_string(version)};
    } else {
      rules = amount % 2 == 0 ? "finkel" : "masters";
    }
    json state = state_with(rules, log, ++version);
    const json whole = state;
    shorten_update(state, base);
    client = complete_update(state, client ? &*client : nullptr);
    RC_ASSERT(client.has_value());
    RC_ASSERT(*client == whole);
  }
}

}  // namespace
}  // namespace ur::protocol
