#include "storage/stored_record.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <nlohmann/json.hpp>

namespace ur::storage {
namespace {

using nlohmann::json;

std::string comma_joined(const std::vector<std::string>& events) {
  std::string joined;
  for (const std::string& event : events) joined += (joined.empty() ? "" : ",") + event;
  return joined;
}

TEST(StoredRecord, ARecordIsCutIntoItsHeadAndEventsAndJoinedBack) {
  const std::string record =
      R"({"format":2,"history":[{"seed":18446744073709551615,"type":"series"},)"
      R"({"text":"a,b]\"}"}],"id":"g-1","version":7})";
  const GameWrite write = split_record(record, 2);
  EXPECT_EQ(write.format, 2);
  EXPECT_EQ(write.first, 0u);
  EXPECT_EQ(write.head, R"({"format":2,"id":"g-1","version":7})");
  ASSERT_EQ(write.events.size(), 2u);
  EXPECT_EQ(write.events[0], R"({"seed":18446744073709551615,"type":"series"})");
  EXPECT_EQ(json::parse(join_record(write.head, comma_joined(write.events))), json::parse(record));
}

TEST(StoredRecord, WithoutAHistoryOrDamagedARecordIsAllHead) {
  for (const std::string record : {R"({"format":1,"position":"x"})", R"({"history":[],"id":"g-1"})",
                                   R"({"history":"not a list"})", "[1,2]", "not json", ""}) {
    const GameWrite write = split_record(record, 1);
    EXPECT_EQ(write.head, record);
    EXPECT_TRUE(write.events.empty());
    EXPECT_EQ(join_record(write.head, ""), record);
  }
}

TEST(StoredRecord, AnEmptyHeadStillJoinsIntoAnObject) {
  EXPECT_EQ(join_record("{}", R"({"n":1})"), R"({"history":[{"n":1}]})");
}

// Any object with a history of events survives the cut and the join unchanged.
RC_GTEST_PROP(StoredRecord, CutAndJoinedRecordsAreTheSameJson, (int number)) {
  // Printable ASCII with quotes, commas and brackets: JSON strings must be valid UTF-8.
  const auto printable = rc::gen::container<std::string>(rc::gen::inRange<char>(32, 127));
  const auto texts = *rc::gen::container<std::vector<std::string>>(printable);
  const std::string name = *printable;
  json history = json::array();
  for (const std::string& text : texts) history.push_back({{"text", text}, {"n", number}});
  const json record = {{"format", 2}, {"id", name}, {"history", history}, {"version", number}};
  const GameWrite write = split_record(record.dump(), 2);
  RC_ASSERT(write.events.size() == texts.size());
  RC_ASSERT(json::parse(join_record(write.head, comma_joined(write.events))) == record);
}

}  // namespace
}  // namespace ur::storage
