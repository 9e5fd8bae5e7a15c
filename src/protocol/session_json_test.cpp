#include "protocol/session_json.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <random>

#include "protocol/json.h"
#include "session/session.h"

namespace ur::protocol {
namespace {

using nlohmann::json;
using session::Phase;
using session::Session;

constexpr session::Time kNow = 1'764'547'200'000;

// A series that uses every kind of event: opening rounds, throws, moves, passes, a
// take-back, a settings change, a resignation and a second game.
Session eventful_series() {
  session::Settings settings = session::against_computer("first");
  settings.starts = session::StartRule::HigherThrow;
  Session game = Session::start(settings, 11, kNow);
  bool took_back = false;
  for (int i = 0; i < 300 && game.phase() != Phase::Over; ++i) {
    if (game.computer_to_act()) {
      game.drive(session::standard_agents(), kNow);
      continue;
    }
    if (!took_back && game.can_take_back(Side::Light)) {
      took_back = game.act(session::TakeBackIntent{}, Side::Light, kNow).accepted();
    }
    if (game.phase() == Phase::Throw) game.act(session::ThrowIntent{}, Side::Light, kNow);
    if (game.phase() == Phase::Pass) game.act(session::PassIntent{}, Side::Light, kNow);
    if (game.phase() == Phase::Move) {
      const auto moves = game.legal_moves();
      game.act(session::MoveIntent{moves[static_cast<int>(moves.size()) - 1].from}, Side::Light,
               kNow + i);
    }
    if (i == 40) {
      session::Settings five = game.settings();
      five.rules.pieces = 5;
      game.act(session::ChangeSettingsIntent{five}, Side::Light, kNow);
    }
    if (i == 60) game.act(session::ResignIntent{}, Side::Light, kNow);
  }
  game.act(session::NewGameIntent{}, Side::Light, kNow);
  game.drive(session::standard_agents(), kNow);
  EXPECT_TRUE(took_back);
  return game;
}

TEST(SessionJson, AHistoryRoundTripsAndFoldsToTheSameSession) {
  const Session game = eventful_series();
  const json stored = json::parse(to_json(game.history()).dump());
  const session::Events back = events_from_json(stored);
  EXPECT_EQ(back, game.history());
  auto rebuilt = Session::from_history(back);
  ASSERT_TRUE(std::holds_alternative<Session>(rebuilt));
  EXPECT_EQ(std::get<Session>(rebuilt).position(), game.position());
  EXPECT_EQ(std::get<Session>(rebuilt).settings(), game.settings());
}

TEST(SessionJson, EveryTailOfAHistoryReadsAfterItsHead) {
  // The series changes to five pieces midway: a tail is read under the rules then in force.
  const session::Events history = eventful_series().history();
  const json stored = to_json(history);
  for (std::size_t split = 1; split <= history.size(); ++split) {
    const session::Events head(history.begin(),
                               history.begin() + static_cast<std::ptrdiff_t>(split));
    const json tail(stored.begin() + static_cast<std::ptrdiff_t>(split), stored.end());
    session::Events read = events_from_json(tail, head);
    read.insert(read.begin(), head.begin(), head.end());
    ASSERT_EQ(read, history) << "split at " << split;
  }
  json bad = json::array({stored.back()});
  bad[0]["type"] = "nonsense";
  try {
    events_from_json(bad, history);
    ADD_FAILURE() << "an unknown event was read";
  } catch (const RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("event " + std::to_string(history.size())),
              std::string::npos)
        << error.what();
  }
}

TEST(SessionJson, SettingsRoundTripAndBadOnesAreNamed) {
  session::Settings settings = session::against_computer("hard", Side::Dark);
  settings.rules = finkel_rules(5, BearOff::Any);
  settings.seats[0].name = "Ana";
  EXPECT_EQ(settings_from_json(to_json(settings)), settings);
  json bad = to_json(settings);
  bad["starts"] = "sometimes";
  EXPECT_THROW(settings_from_json(bad), RequestError);
  bad = to_json(settings);
  bad["seats"] = json::array();
  EXPECT_THROW(settings_from_json(bad), RequestError);
}

TEST(SessionJson, GarbageAndMutatedHistoriesAreRefusedWithAReason) {
  const json good = to_json(eventful_series().history());
  std::mt19937_64 random(5);
  const std::vector<json> junk = {
      nullptr, 1, "x", json::array({1}), json::object(), json::array({json::object()}), -3.5, true};
  for (int round = 0; round < 2000; ++round) {
    json history = good;
    json& event = history[random() % history.size()];
    auto member = event.begin();
    std::advance(member, static_cast<long>(random() % event.size()));
    *member = junk[random() % junk.size()];
    try {
      const session::Events events = events_from_json(history);
      Session::from_history(events);  // may still be refused as a whole; must not crash
    } catch (const RequestError& error) {
      EXPECT_NE(std::string(error.what()).find("event "), std::string::npos) << error.what();
    }
  }
  EXPECT_THROW(events_from_json(json::object()), RequestError);
}

}  // namespace
}  // namespace ur::protocol
