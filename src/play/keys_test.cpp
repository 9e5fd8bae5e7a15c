// Key decoding (keys.cpp): terminal byte sequences into keys, and the names refusals use.
#include "play/keys.h"

#include <gtest/gtest.h>

namespace ur::play {
namespace {

TEST(DecodeKeys, ArrowsEnterAndEscape) {
  std::string bytes = "\x1b[A\x1b[B\x1b[C\x1b[D\x1bOA\r\tx\x7f\x1b[Z\x1b";
  const auto keys = decode_keys(bytes, false);
  ASSERT_EQ(keys.size(), 10u);
  EXPECT_EQ(keys[0].code, KeyCode::Up);
  EXPECT_EQ(keys[1].code, KeyCode::Down);
  EXPECT_EQ(keys[2].code, KeyCode::Right);
  EXPECT_EQ(keys[3].code, KeyCode::Left);
  EXPECT_EQ(keys[4].code, KeyCode::Up);
  EXPECT_EQ(keys[5].code, KeyCode::Enter);
  EXPECT_EQ(keys[6].code, KeyCode::Tab);
  EXPECT_EQ(keys[7].character, 'x');
  EXPECT_EQ(keys[8].code, KeyCode::Backspace);
  EXPECT_EQ(keys[9].code, KeyCode::BackTab);
  EXPECT_EQ(bytes, "\x1b") << "a lone ESC waits for the rest of a sequence";
  const auto flushed = decode_keys(bytes, true);
  ASSERT_EQ(flushed.size(), 1u);
  EXPECT_EQ(flushed[0].code, KeyCode::Escape);
  EXPECT_TRUE(bytes.empty());
}

TEST(DecodeKeys, UnfinishedSequenceWaits) {
  std::string bytes = "\x1b[1;";
  EXPECT_TRUE(decode_keys(bytes, false).empty());
  bytes += "5C";
  const auto keys = decode_keys(bytes, false);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].code, KeyCode::Right);
}

TEST(DecodeKeys, PageKeysHomeAndEndInTheirCommonForms) {
  std::string bytes = "\x1b[5~\x1b[6~\x1b[H\x1b[1~\x1b[7~\x1bOH\x1b[F\x1b[4~\x1b[8~\x1bOF\x1b[3~";
  const auto keys = decode_keys(bytes, false);
  ASSERT_EQ(keys.size(), 11u);
  EXPECT_EQ(keys[0].code, KeyCode::PageUp);
  EXPECT_EQ(keys[1].code, KeyCode::PageDown);
  for (int i = 2; i < 6; ++i) EXPECT_EQ(keys[i].code, KeyCode::Home) << i;
  for (int i = 6; i < 10; ++i) EXPECT_EQ(keys[i].code, KeyCode::End) << i;
  EXPECT_EQ(keys[10].code, KeyCode::Other) << "Delete has no use";
}

TEST(DescribeKey, NamesKeysTheWayRefusalsDo) {
  EXPECT_EQ(describe_key(char_key('x')), "'x'");
  EXPECT_EQ(describe_key(char_key(' ')), "Space");
  EXPECT_EQ(describe_key(Key{KeyCode::Enter}), "Enter");
  EXPECT_EQ(describe_key(Key{KeyCode::Escape}), "Esc");
  EXPECT_EQ(describe_key(Key{KeyCode::Left}), "That arrow");
  EXPECT_EQ(describe_key(Key{KeyCode::BackTab}), "Tab");
  EXPECT_EQ(describe_key(Key{KeyCode::PageUp}), "That key");
}

}  // namespace
}  // namespace ur::play
