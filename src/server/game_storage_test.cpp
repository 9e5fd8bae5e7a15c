// The stored form of web games: format 2 round-trips at every step, damaged rows are
// refused with a reason, and rows of format 1 (servers before the session model) load and
// play on from where they were.
#include "server/game_storage.h"

#include <gtest/gtest.h>

#include "server/seating.h"
#include "server/test_agent.h"
#include "server/web_settings.h"

namespace ur::server {
namespace {

using nlohmann::json;
using session::Phase;
using session::Session;

constexpr session::Time kNow = 1'764'547'200'000;

void expect_same(const WebGame& a, const WebGame& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.session.history(), b.session.history());
  EXPECT_EQ(a.session.position(), b.session.position());
  EXPECT_EQ(a.session.phase(), b.session.phase());
  EXPECT_EQ(a.session.throws(), b.session.throws());
}

TEST(GameStorage, TheStoredFormRoundTripsAtEveryStepOfAGame) {
  session::Settings settings =
      merge_web_settings(default_web_settings(), {{"starts", "higher"}, {"pieces", 3}});
  WebGame game{"g-0000000000000005", 0, Session::start(settings, 5, kNow)};
  testing::LastMoveAgents agents;
  game.seating.claimable = true;     // no seating stored until step 7
  std::vector<std::string> written;  // the events saved so far, as a store keeps them
  for (int step = 0; step < 2000 && game.session.phase() != Phase::Over; ++step) {
    // Each save writes only the new events; head and events join into the whole record.
    const storage::GameWrite write = stored_write(game, written.size());
    ASSERT_EQ(write.first, written.size());
    written.insert(written.end(), write.events.begin(), write.events.end());
    std::string events;
    for (const std::string& event : written) events += (events.empty() ? "" : ",") + event;
    ASSERT_EQ(json::parse(storage::join_record(write.head, events)), stored_json(game));
    if (step == 7) game.seating = new_seating(game.session.settings(), std::nullopt);
    const json stored = json::parse(stored_json(game).dump());
    EXPECT_EQ(stored["format"], 2);
    expect_same(game_from_stored(stored), game);
    if (::testing::Test::HasFailure()) return;
    Session& s = game.session;
    if (s.computer_to_act()) {
      s.computer_step(agents, kNow);
    } else if (s.phase() == Phase::Throw) {
      s.act(session::ThrowIntent{}, s.to_move(), kNow);
    } else if (s.phase() == Phase::Move) {
      s.act(session::MoveIntent{s.legal_moves()[0].from}, s.to_move(), kNow);
    } else {
      s.act(session::PassIntent{}, s.to_move(), kNow);
    }
    ++game.version;
  }
  ASSERT_EQ(game.session.phase(), Phase::Over);
  expect_same(game_from_stored(stored_json(game)), game);
}

TEST(GameStorage, DamagedRowsAreRefusedWithAReason) {
  WebGame game{"g-0000000000000006", 3, Session::start(default_web_settings(), 6, kNow)};
  game.session.act(session::ThrowIntent{}, Side::Light, kNow);
  const json good = stored_json(game);
  const std::vector<std::pair<std::string, json>> damage = {{"format", 3},
                                                            {"format", "2"},
                                                            {"id", 4},
                                                            {"version", -1},
                                                            {"history", json::object()},
                                                            {"history", json::array()},
                                                            {"history", json::array({1, 2})}};
  for (const auto& [key, value] : damage) {
    json record = good;
    record[key] = value;
    EXPECT_THROW(game_from_stored(record), std::runtime_error) << key << " " << value;
    record.erase(key);
    EXPECT_THROW(game_from_stored(record), std::runtime_error) << key;
  }
  // An event that breaks the rules is caught by the fold.
  json broken = good;
  broken["history"].push_back(broken["history"].back());  // a second throw in a row
  try {
    game_from_stored(broken);
    FAIL() << "a history with two throws in a row loaded";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("event 3"), std::string::npos) << error.what();
  }
  EXPECT_THROW(game_from_stored(json::array()), std::runtime_error);
}

TEST(GameStorage, EachChangeCarriesTheLastVersionToWhatItsRecordHolds) {
  session::Settings settings = merge_web_settings(default_web_settings(), {{"pieces", 3}});
  settings.seats[1].agent.clear();  // two people
  WebGame game{"g-0000000000000007", 1, Session::start(settings, 7, kNow),
               new_seating(settings, Side::Light)};
  WebGame follower = game_from_stored(stored_json(game));
  for (int step = 0; step < 2000 && game.session.phase() != Phase::Over; ++step) {
    const std::size_t known = game.session.history().size();
    Session& s = game.session;
    if (s.phase() == Phase::Throw) {
      s.act(session::ThrowIntent{}, s.to_move(), kNow);
    } else if (s.phase() == Phase::Move) {
      s.act(session::MoveIntent{s.legal_moves()[0].from}, s.to_move(), kNow);
    } else {
      s.act(session::PassIntent{}, s.to_move(), kNow);
    }
    if (step == 3) game.seating.invite_used = true;  // the friend joined
    ++game.version;
    const json change = json::parse(stored_change(game, known).dump());
    follower = game_with_change(follower, change, game.version);
    expect_same(follower, game);
    EXPECT_EQ(follower.seating.tokens, game.seating.tokens);
    EXPECT_EQ(follower.seating.invite_used, game.seating.invite_used);
    if (::testing::Test::HasFailure()) return;
  }
  ASSERT_EQ(game.session.phase(), Phase::Over);
}

TEST(GameStorage, AChangeThatDoesNotFollowIsRefusedWithAReason) {
  session::Settings settings = default_web_settings();
  settings.seats[1].agent.clear();
  const WebGame game{"g-0000000000000008", 4, Session::start(settings, 8, kNow),
                     new_seating(settings, Side::Light)};
  WebGame next = game;
  next.session.act(session::ThrowIntent{}, Side::Light, kNow);
  const std::size_t known = game.session.history().size();
  const json good = stored_change(next, known);
  EXPECT_EQ(game_with_change(game, good, 5).session.history(), next.session.history());
  std::vector<json> bad(6, good);
  bad[0]["from"] = known - 1;                     // the saver knew another history
  bad[1]["events"].push_back(good["events"][0]);  // a second throw in a row
  bad[2]["events"] = json::object();
  bad[3]["seating"]["tokens"]["dark"] = "not a token";
  bad[4].erase("from");
  bad[5] = json::array();
  for (const json& change : bad) {
    EXPECT_THROW(game_with_change(game, change, 5), std::runtime_error) << change.dump();
  }
  try {
    game_with_change(game, bad[1], 5);
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("event " + std::to_string(known + 1)),
              std::string::npos)
        << error.what();
  }
}

// A row as servers before the session model wrote it: game 3 of a series against the hard
// computer, light (the person) to move a throw of 2, a tally of 1-1 and 31 dice drawn.
json format_1_row() {
  return json::parse(R"({"format":1,"id":"g-00000000000000a1","version":57,
    "settings":{"opponent":"hard","pieces":7,"bear_off":"exact","starts":"alternate",
                "auto_play":false,"auto_pass":false,"seat":"light"},
    "next_settings":{"opponent":"hard","pieces":5,"bear_off":"exact","starts":"alternate",
                     "auto_play":false,"auto_pass":false,"seat":"light"},
    "position":"L:3/2,5,9/1:5/7,14/0","phase":"move","dice":[true,false,true,false],
    "winner":null,"tally":[1,1],"game_number":3,"starting_side":"light","opening":null,
    "thrown_this_game":true,"log":["Shell threw 2."],"seed":1234,"draws":31})");
}

TEST(GameStorage, AFormat1RowCarriesOverIntoTheSession) {
  const WebGame game = game_from_stored(format_1_row());
  const Session& s = game.session;
  EXPECT_EQ(game.id, "g-00000000000000a1");
  EXPECT_EQ(game.version, 57u);
  EXPECT_EQ(s.game_number(), 3);
  EXPECT_EQ(s.tally(), (std::array<int, 2>{1, 1}));
  EXPECT_EQ(s.phase(), Phase::Move);
  EXPECT_EQ(s.pending_throw()->roll, 2);
  EXPECT_EQ(s.pending_throw()->dice.marks, 0b0101);
  EXPECT_EQ(s.throws(), 31u);
  EXPECT_EQ(opponent_of(s.settings()), "hard");
  ASSERT_TRUE(s.pending_settings().has_value());
  EXPECT_EQ(s.pending_settings()->rules.pieces, 5);
  const json state = game_state_json(game);
  EXPECT_EQ(state["position_text"], "L:3/2,5,9/1:5/7,14/0");
  EXPECT_EQ(state["phase"], "move");
  // It plays on, and stores in the new format from then on.
  WebGame next = game;
  apply_intent(next, parse_intent(Action::Move, {{"from", 5}}), kNow);
  EXPECT_EQ(next.session.position().turn, Side::Dark);
  expect_same(game_from_stored(stored_json(next)), next);
}

TEST(GameStorage, AFinishedFormat1GameCountsItsWinOnce) {
  json row = format_1_row();
  row["position"] = "D:0/-/7:4/3/2";
  row["phase"] = "game_over";
  row["dice"] = json::array();
  row["winner"] = "light";
  row["tally"] = {2, 1};
  row["next_settings"] = nullptr;
  const WebGame game = game_from_stored(row);
  EXPECT_EQ(game.session.phase(), Phase::Over);
  EXPECT_EQ(game.session.tally(), (std::array<int, 2>{2, 1}));
  WebGame next = game;
  apply_intent(next, parse_intent(Action::New, json::object()), kNow);
  EXPECT_EQ(next.session.game_number(), 4);
  EXPECT_EQ(next.session.tally(), (std::array<int, 2>{2, 1}));
}

TEST(GameStorage, DamagedFormat1RowsAreRefused) {
  const std::vector<std::pair<std::string, json>> damage = {{"position", "L:9/-/0:7/-/0"},
                                                            {"phase", "pass"},
                                                            {"phase", "game_over"},
                                                            {"dice", json::array()},
                                                            {"winner", "dark"},
                                                            {"settings", "hard"},
                                                            {"seed", "x"},
                                                            {"tally", {1}},
                                                            {"game_number", 0},
                                                            {"draws", 0}};
  for (const auto& [key, value] : damage) {
    json record = format_1_row();
    record[key] = value;
    EXPECT_THROW(game_from_stored(record), std::runtime_error) << key << " " << value;
  }
}

}  // namespace
}  // namespace ur::server
