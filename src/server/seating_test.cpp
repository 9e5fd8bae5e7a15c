// Seats and tokens: who may act for which side, and when a win may be claimed.
#include "server/seating.h"

#include <gtest/gtest.h>

#include <set>

#include "server/api_error.h"
#include "server/web_settings.h"

namespace ur::server {
namespace {

using nlohmann::json;

constexpr session::Time kNow = 1'800'000'000'000;

WebIntent intent_of(Action action, std::optional<Side> side = std::nullopt) {
  return WebIntent{action, side, 0, nullptr, true, std::nullopt};
}

std::string refusal_code(const std::function<void()>& action) {
  try {
    action();
  } catch (const ApiError& error) {
    return error.code() + " " + std::to_string(error.status());
  }
  return "accepted";
}

TEST(Seating, TokensAre256RandomBitsInHexAndNeverRepeat) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    const std::string token = random_hex(kTokenHexDigits);
    EXPECT_TRUE(is_hex_text(token, kTokenHexDigits)) << token;
    EXPECT_TRUE(seen.insert(token).second);
  }
  EXPECT_TRUE(is_hex_text(random_hex(kInviteHexDigits), 32));
}

TEST(Seating, SameSecretComparesWholeStrings) {
  const std::string token = random_hex(kTokenHexDigits);
  std::string other = token;
  other.back() = other.back() == '0' ? '1' : '0';
  EXPECT_TRUE(same_secret(token, token));
  EXPECT_FALSE(same_secret(token, other));
  EXPECT_FALSE(same_secret(token, token.substr(0, 63)));
  EXPECT_FALSE(same_secret("", "a"));
  EXPECT_TRUE(same_secret("", ""));
}

TEST(Seating, AComputerGameHasOneTokenForThePersonsSeat) {
  const session::Settings settings = session::against_computer("hard", Side::Dark);
  const Seating seating = new_seating(settings, std::nullopt);
  EXPECT_TRUE(seating.token(Side::Light).empty());
  EXPECT_TRUE(is_hex_text(seating.token(Side::Dark), kTokenHexDigits));
  EXPECT_FALSE(seating.online);
  EXPECT_TRUE(seating.invite.empty());
}

TEST(Seating, FriendsOnOneDeviceShareOneTokenForBothSeats) {
  const Seating seating = new_seating(session::between_friends(), std::nullopt);
  EXPECT_EQ(seating.token(Side::Light), seating.token(Side::Dark));
  const auto held = held_sides(seating, seating.token(Side::Light));
  EXPECT_TRUE(held[0] && held[1]);
}

TEST(Seating, AnOnlineGameHoldsTheHostsSeatAndAnInviteForTheOther) {
  const Seating seating = new_seating(session::between_friends(), Side::Dark);
  EXPECT_TRUE(seating.online);
  EXPECT_TRUE(seating.token(Side::Light).empty());
  EXPECT_FALSE(seating.token(Side::Dark).empty());
  EXPECT_TRUE(is_hex_text(seating.invite, kInviteHexDigits));
  EXPECT_TRUE(seating.waiting_for_opponent());
  EXPECT_EQ(free_seat(seating), Side::Light);
}

TEST(Seating, OnlyTheSeatsTokenActsForIt) {
  const session::Session game = session::Session::start(session::between_friends(), 1, kNow);
  Seating seating = new_seating(session::between_friends(), Side::Light);
  seating.tokens[1] = random_hex(kTokenHexDigits);
  seating.invite_used = true;
  const std::string light = seating.token(Side::Light);
  const std::string dark = seating.token(Side::Dark);
  EXPECT_EQ(authorize(seating, game, intent_of(Action::Throw), light), Side::Light);
  EXPECT_EQ(authorize(seating, game, intent_of(Action::Resign), dark), Side::Dark);
  EXPECT_EQ(refusal_code([&] { authorize(seating, game, intent_of(Action::Throw), ""); }),
            "seat_token_missing 401");
  EXPECT_EQ(refusal_code([&] { authorize(seating, game, intent_of(Action::Throw), "abc"); }),
            "bad_seat_token 401");
  EXPECT_EQ(refusal_code([&] {
              authorize(seating, game, intent_of(Action::Throw), random_hex(kTokenHexDigits));
            }),
            "wrong_seat_token 403");
  // Light's token naming dark's side is refused, not taken as dark.
  EXPECT_EQ(
      refusal_code([&] { authorize(seating, game, intent_of(Action::Throw, Side::Dark), light); }),
      "not_your_seat 403");
  std::string upper = light;
  for (char& c : upper) c = static_cast<char>(std::toupper(c));
  if (upper != light) {
    EXPECT_EQ(refusal_code([&] { authorize(seating, game, intent_of(Action::Throw), upper); }),
              "bad_seat_token 401");
  }
}

TEST(Seating, AClaimableGameSaysHowToClaimIt) {
  Seating seating;
  seating.claimable = true;
  try {
    require_seat(seating, "");
    FAIL() << "an unclaimed game accepted a request without a token";
  } catch (const ApiError& error) {
    EXPECT_EQ(error.code(), "seat_token_missing");
    EXPECT_NE(std::string(error.what()).find("/claim"), std::string::npos);
  }
}

TEST(Seating, PlayerNamesAreTrimmedAndBounded) {
  EXPECT_EQ(player_name(json("  Ann "), "name"), "Ann");
  EXPECT_EQ(player_name(json("   "), "name"), "");
  EXPECT_EQ(player_name(json("Enheduanna of Ur"), "name"), "Enheduanna of Ur");
  EXPECT_EQ(player_name(json("\xc5\xa0ulgi"), "name"), "\xc5\xa0ulgi");  // counts characters
  EXPECT_EQ(refusal_code([] { player_name(json(std::string(25, 'a')), "name"); }),
            "bad_request 400");
  EXPECT_EQ(refusal_code([] { player_name(json("a\nb"), "name"); }), "bad_request 400");
  EXPECT_EQ(refusal_code([] { player_name(json(7), "name"); }), "bad_request 400");
  // From a review: C1 controls (U+0085) and the right-to-left override (U+202E), which can
  // disguise a name shown to the other player, were let through.
  for (const char* name : {"\xc2\x85x", "Ann\xe2\x80\xae", "\xe2\x81\xa6" "Bob", "x\xc2\x9f"}) {
    EXPECT_EQ(refusal_code([&] { player_name(json(name), "name"); }), "bad_request 400") << name;
  }
  // Other letters of other scripts are names (Hebrew shin, a CJK character, an emoji).
  EXPECT_EQ(player_name(json("\xd7\xa9\xe4\xb8\xad\xf0\x9f\x8e\xb2"), "name"),
            "\xd7\xa9\xe4\xb8\xad\xf0\x9f\x8e\xb2");
  EXPECT_EQ(
      refusal_code([] { player_name(json(std::string(24, 'a') + "\xf0\x9f\x8e\xb2"), "name"); }),
      "bad_request 400");
}

TEST(Seating, AWinMayBeClaimedTwoMinutesAfterTheSideToMoveLeftOnItsTurn) {
  const session::Session game = session::Session::start(session::between_friends(), 1, kNow);
  Seating seating = new_seating(session::between_friends(), Side::Light);
  seating.tokens[1] = random_hex(kTokenHexDigits);
  seating.invite_used = true;
  Presence presence = Presence::since(kNow - 60'000);
  const Side absent = game.to_move();
  // Gone since before the turn began: the two minutes count from the turn's start.
  EXPECT_EQ(claim_win_after(seating, presence, game), kNow + kClaimWinAfterMs);
  presence.sockets[index_of(absent)] = 1;
  EXPECT_EQ(claim_win_after(seating, presence, game), std::nullopt);
  presence.sockets[index_of(absent)] = 0;
  presence.left_at[index_of(absent)] = kNow + 5'000;
  EXPECT_EQ(claim_win_after(seating, presence, game), kNow + 5'000 + kClaimWinAfterMs);
  // Not an online game, or still waiting for the friend: nothing to claim.
  Seating local = new_seating(session::between_friends(), std::nullopt);
  EXPECT_EQ(claim_win_after(local, presence, game), std::nullopt);
  seating.invite_used = false;
  EXPECT_EQ(claim_win_after(seating, presence, game), std::nullopt);
}

TEST(Seating, SeatsJsonShowsNamesPresenceAndTheClaim) {
  session::Settings settings = session::between_friends();
  settings.seats[0].name = "Ann";
  const session::Session game = session::Session::start(settings, 1, kNow);
  Seating seating = new_seating(settings, Side::Light);
  Presence presence = Presence::since(kNow);
  presence.sockets[0] = 1;
  presence.seen[0] = true;
  const json waiting = seats_json(seating, presence, game, kNow + 1);
  EXPECT_EQ(waiting["online"], true);
  EXPECT_EQ(waiting["waiting_for_opponent"], true);
  EXPECT_EQ(waiting["seats"]["light"]["name"], "Ann");
  EXPECT_EQ(waiting["seats"]["light"]["connected"], true);
  EXPECT_EQ(waiting["seats"]["dark"]["taken"], false);
  EXPECT_EQ(waiting["seats"]["dark"]["left_at"], nullptr);  // never came
  EXPECT_EQ(waiting["claim_win_after"], nullptr);
  EXPECT_EQ(waiting["server_time"], kNow + 1);
}

}  // namespace
}  // namespace ur::server
