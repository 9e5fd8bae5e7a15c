// The geometry the page draws every board from, and the rule set chosen in the settings.
#include "server/geometry_json.h"

#include <gtest/gtest.h>

#include "core/rule_sets.h"
#include "server/api_error.h"
#include "server/web_settings.h"

namespace ur::server {
namespace {

using nlohmann::json;

Rules named(std::string_view name) {
  return Rules(find_rule_set(name)->spec);
}

TEST(GeometryJson, FinkelHasTheStandardBoardAndTheFourteenSquareRoute) {
  const json geometry = geometry_json(named("finkel"));
  EXPECT_EQ(geometry["name"], "finkel");
  EXPECT_EQ(geometry["board"], "standard");
  EXPECT_EQ(geometry["columns"], 8);
  EXPECT_EQ(geometry["cells"].size(), 20u);
  EXPECT_EQ(geometry["route_length"], 14);
  EXPECT_EQ(geometry["home"], 15);
  EXPECT_EQ(geometry["paths"]["light"].front(), "A4");
  EXPECT_EQ(geometry["paths"]["light"][4], "B1");
  EXPECT_EQ(geometry["paths"]["light"].back(), "A7");
  EXPECT_EQ(geometry["paths"]["dark"].front(), "C4");
  EXPECT_EQ(geometry["paths"]["dark"].back(), "C7");
  EXPECT_EQ(geometry["rosettes"], (json{"A1", "A7", "B4", "C1", "C7"}));  // board order
  EXPECT_EQ(geometry["safe"], (json{"B4"}));
  EXPECT_TRUE(geometry["perfect_play"].is_null());
  EXPECT_FALSE(geometry["prose"].empty());
}

TEST(GeometryJson, CellsNameTheirTileLaneColumnAndRosette) {
  const json geometry = geometry_json(named("finkel"));
  const json& first = geometry["cells"].front();
  EXPECT_EQ(first["tile"], tile_name(Cell{static_cast<std::uint8_t>(first["lane"].get<int>()),
                                          static_cast<std::uint8_t>(first["column"].get<int>())}));
  int rosettes = 0;
  for (const json& cell : geometry["cells"]) rosettes += cell["rosette"].get<bool>() ? 1 : 0;
  EXPECT_EQ(rosettes, 5);
}

TEST(GeometryJson, MastersThrowsThreeDiceAndANoMarksThrowMovesFour) {
  const json geometry = geometry_json(named("masters"));
  EXPECT_EQ(geometry["route_length"], 16);
  EXPECT_EQ(geometry["dice"]["count"], 3);
  EXPECT_TRUE(geometry["dice"]["zero_counts_as_max"].get<bool>());
  EXPECT_EQ(geometry["dice"]["min_roll"], 1);
  EXPECT_EQ(geometry["dice"]["max_roll"], 4);
  const json& rolls = geometry["dice"]["rolls"];
  ASSERT_EQ(rolls.size(), 4u);
  EXPECT_EQ(rolls.front()["roll"], 1);
  EXPECT_EQ(rolls.back()["roll"], 4);
  EXPECT_DOUBLE_EQ(rolls.back()["chance"].get<double>(), 1.0 / 8);
  // Light's path runs through dark's row: C7, C8, then back over B8 to A8, A7.
  const json& light = geometry["paths"]["light"];
  EXPECT_EQ(light[11], "C7");
  EXPECT_EQ(light[12], "C8");
  EXPECT_EQ(light[13], "B8");
  EXPECT_EQ(light[15], "A7");
  EXPECT_EQ(geometry["paths"]["dark"][11], "A7");
}

TEST(GeometryJson, AsebIsThreeByTwelveWithFiveRosettes) {
  const json geometry = geometry_json(named("aseb"));
  EXPECT_EQ(geometry["board"], "aseb");
  EXPECT_EQ(geometry["columns"], 12);
  EXPECT_EQ(geometry["cells"].size(), 20u);  // A1-A4, B1-B12, C1-C4
  EXPECT_EQ(geometry["paths"]["light"].back(), "B12");
  EXPECT_EQ(geometry["rosettes"].size(), 5u);
  EXPECT_EQ(geometry["safe"], (json{"B4", "B8", "B12"}));
}

TEST(GeometryJson, EveryNamedSetHasPerfectPlayAndAPathThatCrossesItselfSaysWhyNot) {
  for (std::string_view name : {"finkel", "masters", "blitz", "aseb"}) {
    EXPECT_TRUE(geometry_json(named(name))["perfect_play"].is_null()) << name;
    EXPECT_FALSE(perfect_play_unavailable(named(name)).has_value()) << name;
  }
  RuleSpec murray = find_rule_set("masters")->spec;
  murray.path = PathKind::Murray;
  const json geometry = geometry_json(Rules(murray));
  ASSERT_TRUE(geometry["perfect_play"].is_string());
  const std::string sentence = geometry["perfect_play"];
  EXPECT_EQ(sentence.rfind("Perfect play for ", 0), 0u) << sentence;
  EXPECT_NE(sentence.find("is not available: "), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("crosses itself"), std::string::npos) << sentence;
}

TEST(GeometryJson, RuleSetsListsTheNamedSetsInRegistryOrder) {
  const json sets = rule_sets_json()["rule_sets"];
  ASSERT_EQ(sets.size(), named_rule_sets().size());
  EXPECT_EQ(sets[0]["name"], "finkel");
  for (const json& set : sets) {
    EXPECT_FALSE(set["summary"].get<std::string>().empty());
    EXPECT_EQ(set["geometry"]["name"], set["name"]);
  }
}

TEST(GeometryJson, RuleSetsListTheColumnsACustomSetMayChoose) {
  const json columns = rule_sets_json()["columns"];
  EXPECT_EQ(columns["board"], (json{"standard", "aseb"}));
  EXPECT_EQ(columns["path"].size(), 5u);
  EXPECT_EQ(columns["path"].back(), "skiriuk");
  EXPECT_EQ(columns["dice"]["max"], RuleSpec::kMaxDice);
  EXPECT_EQ(columns["zero_roll"], (json{"pass", "max"}));
}

TEST(WebSettings, CustomColumnsAreReadAndUnplayableOnesRefused) {
  const session::Settings custom = merge_web_settings(
      default_web_settings(),
      {{"rules", {{"path", "masters"}, {"dice", 2}, {"capture_extra_throw", true}}}});
  EXPECT_EQ(rule_set_name(custom.rules), "custom");
  EXPECT_EQ(custom.rules.dice, 2);
  EXPECT_EQ(web_settings_json(custom)["rules"]["path"], "masters");
  // The Masters path leaves the Aseb board: the reason comes alone too, for the page's words.
  try {
    merge_web_settings(default_web_settings(),
                       {{"rules", {{"board", "aseb"}, {"path", "masters"}}}});
    FAIL() << "accepted the Masters path on the Aseb board";
  } catch (const ApiError& error) {
    EXPECT_EQ(error.code(), "bad_settings");
    EXPECT_EQ(error.details()["rules_refused"],
              "these rules cannot be played: the masters path leaves the aseb board at C7");
  }
}

TEST(WebSettings, RulesChooseANamedSetAndPiecesBesideItAdjustIt) {
  const session::Settings masters =
      merge_web_settings(default_web_settings(), {{"rules", {{"name", "masters"}}}, {"pieces", 5}});
  EXPECT_EQ(rule_set_name(masters.rules), "masters");
  EXPECT_EQ(masters.rules.pieces, 5);
  EXPECT_EQ(web_settings_json(masters)["rules"]["name"], "masters");
  // A later patch without rules keeps the set.
  const session::Settings three = merge_web_settings(masters, {{"pieces", 3}});
  EXPECT_EQ(rule_set_name(three.rules), "masters");
  const session::Settings aseb =
      merge_web_settings(default_web_settings(), {{"rules", {{"name", "ASEB"}}}});
  EXPECT_EQ(aseb.rules.board, BoardShape::Aseb);
}

TEST(WebSettings, BadRulesAreRefusedWithTheProtocolsError) {
  try {
    merge_web_settings(default_web_settings(), {{"rules", {{"name", "chess"}}}});
    FAIL() << "accepted an unknown rule set";
  } catch (const ApiError& error) {
    EXPECT_EQ(error.code(), "bad_settings");
    EXPECT_NE(std::string(error.what()).find("finkel, masters, blitz, aseb"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW(merge_web_settings(default_web_settings(), {{"rules", "masters"}}), ApiError);
  EXPECT_THROW(
      merge_web_settings(default_web_settings(), {{"rules", {{"name", "masters"}, {"dice", 9}}}}),
      ApiError);
}

}  // namespace
}  // namespace ur::server
