// The NOTIFY payloads servers exchange: written and read back, and garbage refused.
#include "storage/notice_payload.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace ur::storage {
namespace {

TEST(NoticePayload, AGameNoticeCarriesItsVersionAndChange) {
  const std::string payload = game_notice_payload("b", "g42", 7, R"({"events":[1, 2]})");
  EXPECT_EQ(payload, R"(g b g42 7 {"events":[1, 2]})");
  const auto notice = read_notice_payload(payload, "a");
  ASSERT_TRUE(notice);
  EXPECT_EQ(notice->kind, Notice::Kind::Game);
  EXPECT_EQ(notice->game_id, "g42");
  EXPECT_EQ(notice->version, 7);
  EXPECT_EQ(notice->change, R"({"events":[1, 2]})");
}

TEST(NoticePayload, AChangeTooLongForOneNoticeIsLeftOut) {
  const std::string change(kMaxNoticeBytes, 'x');
  const std::string payload = game_notice_payload("b", "g42", 7, change);
  EXPECT_EQ(payload, "g b g42 7");
  const auto notice = read_notice_payload(payload, "a");
  ASSERT_TRUE(notice);
  EXPECT_EQ(notice->version, 7);
  EXPECT_TRUE(notice->change.empty());
}

TEST(NoticePayload, APresenceNoticeNamesItsGame) {
  const auto notice = read_notice_payload(presence_notice_payload("b", "g42"), "a");
  ASSERT_TRUE(notice);
  EXPECT_EQ(notice->kind, Notice::Kind::Presence);
  EXPECT_EQ(notice->game_id, "g42");
}

TEST(NoticePayload, AServersOwnNoticesAreSkipped) {
  EXPECT_FALSE(read_notice_payload(game_notice_payload("a", "g42", 7, "{}"), "a"));
  EXPECT_FALSE(read_notice_payload(presence_notice_payload("a", "g42"), "a"));
  // A server whose id begins another's is not taken for it.
  EXPECT_TRUE(read_notice_payload(game_notice_payload("ab", "g42", 7, "{}"), "a"));
}

TEST(NoticePayload, MalformedPayloadsAreRefused) {
  for (const char* bad :
       {"", "g", "g ", "g b", "g b ", "g b g42", "g b g42 ", "g b g42 x", "g b g42 7x",
        "g b g42 -3", "g b g42 0", "g  g42 7", "x b g42 7", "gb g42 7", "p b", "p b ",
        "p b g42 extra", "g b g42 99999999999999999999"}) {
    EXPECT_FALSE(read_notice_payload(bad, "a")) << '"' << bad << '"';
  }
}

RC_GTEST_PROP(NoticePayload, AnyPayloadIsReadWithoutThrowing, (const std::string& payload)) {
  const auto notice = read_notice_payload(payload, "a");
  if (notice) {
    RC_ASSERT(!notice->game_id.empty());
    RC_ASSERT(notice->game_id.find(' ') == std::string::npos);
  }
}

RC_GTEST_PROP(NoticePayload, WrittenGameNoticesReadBack, (std::int64_t version)) {
  const auto server =
      *rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::inRange('a', '{')));
  const auto game = *rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::inRange('0', ':')));
  const auto change = *rc::gen::arbitrary<std::string>();
  const std::int64_t stored =
      version == INT64_MIN ? 1 : std::max<std::int64_t>(1, version < 0 ? -version : version);
  const auto notice = read_notice_payload(game_notice_payload(server, game, stored, change), "-");
  RC_ASSERT(notice.has_value());
  RC_ASSERT(notice->kind == Notice::Kind::Game);
  RC_ASSERT(notice->game_id == game);
  RC_ASSERT(notice->version == stored);
  const bool fits = change.size() + server.size() + game.size() + 24 < kMaxNoticeBytes;
  if (fits) RC_ASSERT(notice->change == change);
}

}  // namespace
}  // namespace ur::storage
