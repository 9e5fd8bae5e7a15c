// Quick match: pairing by rules, who waited longest, cancelling and forgotten tickets.
#include "server/match_queue.h"

#include <gtest/gtest.h>

namespace ur::server {
namespace {

constexpr session::Time kNow = 1'800'000'000'000;

TEST(MatchQueue, TheFirstPlayerWaitsAndTheSecondIsPairedWithThem) {
  MatchQueue queue;
  const auto first = queue.join("finkel", "Ann", kNow);
  EXPECT_FALSE(first.partner);
  EXPECT_EQ(first.ticket.size(), 2 + kTicketHexDigits);
  EXPECT_EQ(queue.waiting(kNow), 1u);
  const auto second = queue.join("finkel", "Bob", kNow + 3000);
  ASSERT_TRUE(second.partner);
  EXPECT_EQ(second.partner->ticket, first.ticket);
  EXPECT_EQ(second.partner->name, "Ann");
  EXPECT_EQ(queue.waiting(kNow + 3000), 0u);
  queue.pair(first.ticket, Pairing{"g-1", "t", Side::Light}, kNow + 3000);
  const auto status = queue.poll(first.ticket, kNow + 3500);
  ASSERT_TRUE(status && status->pairing);
  EXPECT_EQ(status->pairing->game_id, "g-1");
  EXPECT_EQ(status->waiting_ms, 3500);
}

TEST(MatchQueue, PlayersAreOnlyPairedUnderTheSameRules) {
  MatchQueue queue;
  queue.join("finkel", "Ann", kNow);
  EXPECT_FALSE(queue.join("masters", "Bob", kNow + 1).partner);
  EXPECT_EQ(queue.waiting(kNow + 2), 2u);
}

TEST(MatchQueue, TheLongestWaitingPlayerIsPairedFirst) {
  MatchQueue queue;
  const auto early = queue.join("finkel-7", "Early", kNow);
  queue.poll(early.ticket, kNow + 4000);
  const auto late = queue.join("finkel-7", "Late", kNow + 5000);
  EXPECT_EQ(late.partner->ticket, early.ticket);
}

TEST(MatchQueue, ACancelledTicketIsGone) {
  MatchQueue queue;
  const auto ticket = queue.join("finkel", "Ann", kNow).ticket;
  EXPECT_TRUE(queue.cancel(ticket));
  EXPECT_FALSE(queue.cancel(ticket));
  EXPECT_FALSE(queue.poll(ticket, kNow));
  EXPECT_FALSE(queue.join("finkel", "Bob", kNow).partner);
}

TEST(MatchQueue, ATicketNobodyAsksAboutIsDroppedSoNobodyIsPairedWithAGonePage) {
  MatchQueue queue;
  const auto ticket = queue.join("finkel", "Ann", kNow).ticket;
  EXPECT_TRUE(queue.poll(ticket, kNow + kTicketIdleMs - 1));
  const session::Time later = kNow + 2 * kTicketIdleMs;
  EXPECT_FALSE(queue.join("finkel", "Bob", later).partner);
  EXPECT_FALSE(queue.poll(ticket, later));
}

}  // namespace
}  // namespace ur::server
