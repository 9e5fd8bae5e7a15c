// The API driven through GameHub directly: every request the HTTP layer would pass on.
#include "server/hub.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <atomic>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <random>

#include <sqlite3.h>

#include "protocol/game_update.h"
#include "server/test_agent.h"
#include "solver/solver.h"
#include "tables/table.h"

namespace ur::server {
namespace {

using nlohmann::json;

using testing::TempDir;

HubOptions options_for(const TempDir& dir) {
  return testing::hub_options(dir.path());
}

// The seat token each test game was created (or joined) with, by game id: requests act as
// that seat unless a test sends another token through hub.handle itself.
std::mutex tokens_mutex;
std::map<std::string, std::string> creator_tokens;

ApiResponse send(GameHub& hub, ApiRequest request) {
  if (request.seat_token.empty() && request.target.starts_with("/api/games/")) {
    const std::string id = request.target.substr(11, request.target.find('/', 11) - 11);
    std::lock_guard lock(tokens_mutex);
    if (const auto found = creator_tokens.find(id); found != creator_tokens.end()) {
      request.seat_token = found->second;
    }
  }
  ApiResponse answer = hub.handle(std::move(request));
  if (answer.body.is_object() && answer.body.contains("token") && answer.body.contains("game")) {
    std::lock_guard lock(tokens_mutex);
    creator_tokens[answer.body["game"]["id"].get<std::string>()] =
        answer.body["token"].get<std::string>();
  }
  return answer;
}

ApiResponse post(GameHub& hub, const std::string& target, const std::string& body = "") {
  return send(hub, {"POST", target, body});
}

// GET, without the state's clock ("server_time"), so that states compare as equal.
ApiResponse get(GameHub& hub, const std::string& target) {
  ApiResponse answer = send(hub, {"GET", target, ""});
  if (answer.body.contains("game")) answer.body["game"].erase("server_time");
  return answer;
}

std::string create_game(GameHub& hub, const json& settings) {
  const ApiResponse created = post(hub, "/api/games", json{{"settings", settings}}.dump());
  EXPECT_EQ(created.status, 201) << created.body.dump();
  return created.body["game"]["id"].get<std::string>();
}

// Plays the human's next action the obvious way: throw, the first legal move, or pass.
ApiResponse play_one_action(GameHub& hub, const std::string& id, const json& game) {
  const std::string base = "/api/games/" + id;
  const std::string phase = game["phase"];
  if (phase == "throw") return post(hub, base + "/throw");
  if (phase == "move") {
    return post(hub, base + "/move", json{{"from", game["legal_moves"][0]["from"]}}.dump());
  }
  return post(hub, base + "/pass", R"({"side":")" + game["to_move"].get<std::string>() + "\"}");
}

TEST(ServerHub, AWholeGameAgainstTheComputerThroughTheApi) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string id = create_game(hub, {{"opponent", "hard"}, {"pieces", 3}});
  json game = get(hub, "/api/games/" + id).body["game"];
  std::uint64_t version = game["version"];
  bool saw_computer_move = false;
  for (int i = 0; i < 2000 && game["phase"] != "game_over"; ++i) {
    const ApiResponse answer = play_one_action(hub, id, game);
    ASSERT_EQ(answer.status, 200) << answer.body.dump();
    game = answer.body["game"];
    ASSERT_GT(game["version"].get<std::uint64_t>(), version);
    version = game["version"];
    for (const json& event : answer.body["events"]) {
      if (event.value("side", "") == "dark" && event.value("type", "") == "move")
        saw_computer_move = true;
    }
    if (game["phase"] != "game_over") {
      ASSERT_EQ(game["to_move"], "light");
    }
  }
  ASSERT_EQ(game["phase"], "game_over");
  EXPECT_TRUE(saw_computer_move);
  const std::string winner = game["winner"];
  EXPECT_EQ(game["tally"][winner], 1);

  const ApiResponse next = post(hub, "/api/games/" + id + "/new");
  ASSERT_EQ(next.status, 200);
  EXPECT_EQ(next.body["game"]["game_number"], 2);
  EXPECT_EQ(next.body["game"]["tally"][winner], 1);
  // Dark opens game 2 under "alternate": the computer's first turn is already played.
  EXPECT_EQ(next.body["events"][0]["type"], "new_game");
  EXPECT_EQ(next.body["events"][1]["side"], "dark");
  EXPECT_EQ(next.body["game"]["to_move"], "light");
}

TEST(ServerHub, EveryBadRequestGetsItsErrorAndLeavesTheGameUnchanged) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string id = create_game(hub, {{"opponent", "friend"}});
  const std::string base = "/api/games/" + id;
  const json before = get(hub, base).body;

  const std::vector<std::tuple<std::string, std::string, std::string, int, std::string>> cases = {
      {"POST", base + "/move", "{bad json", 400, "bad_json"},
      {"POST", base + "/move", "[1,2]", 400, "bad_json"},
      {"POST", base + "/move", R"({"from":4,"from":5})", 400, "bad_json"},
      {"POST", base + "/move", R"({"from":"three"})", 400, "bad_request"},
      {"POST", base + "/move", R"({"from":-1})", 400, "bad_request"},
      {"POST", base + "/move", R"({"from":2.5})", 400, "bad_request"},
      {"POST", base + "/move", R"({})", 400, "bad_request"},
      {"POST", base + "/throw", R"({"side":"blue"})", 400, "bad_request"},
      {"POST", base + "/throw", R"({"extra":1})", 400, "bad_request"},
      {"POST", base + "/settings", R"({})", 400, "bad_request"},
      {"POST", base + "/settings", R"({"settings":{"pieces":6}})", 400, "bad_settings"},
      {"POST", base + "/settings", R"({"settings":{"opponent":"perfect"}})", 400, "bad_settings"},
      {"POST", base + "/settings", R"({"settings":[]})", 400, "bad_request"},
      {"POST", base + "/new", R"({"settings":{"opponent":"perfect"}})", 400, "bad_settings"},
      {"POST", base + "/move", R"({"from":0})", 409, "no_throw_yet"},
      {"POST", base + "/pass", "", 409, "no_throw_yet"},
      {"POST", base + "/throw", R"({"side":"dark"})", 409, "not_your_turn"},
      {"POST", base + "/jump", "", 404, "not_found"},
      {"GET", base + "/throw", "", 405, "bad_method"},
      {"DELETE", base, "", 405, "bad_method"},
      {"GET", base + "/ws", "", 400, "bad_request"},
      {"POST", "/api/games/g-ffffffffffffffff/throw", "", 404, "unknown_game"},
      {"GET", "/api/games/nonsense", "", 404, "unknown_game"},
      {"GET", "/api/games/../../etc/passwd", "", 404, "not_found"},
      {"GET", "/api/nothing", "", 404, "not_found"},
      {"GET", "/api/games", "", 405, "bad_method"},
      {"POST", "/api/games", R"({"settings":{"seat":"green"}})", 400, "bad_settings"},
  };
  for (const auto& [method, target, body, status, code] : cases) {
    const ApiResponse answer = send(hub, {method, target, body});
    EXPECT_EQ(answer.status, status) << method << " " << target << " " << body;
    EXPECT_EQ(answer.body["code"], code) << method << " " << target << " " << body;
    EXPECT_TRUE(answer.body["error"].is_string());
    EXPECT_EQ(get(hub, base).body, before) << method << " " << target << " " << body;
  }

  // Once a throw waits: a second throw, an illegal move and a pass with a move are refused.
  json game = before["game"];
  while (game["phase"] != "move") game = play_one_action(hub, id, game).body["game"];
  const json waiting = get(hub, base).body;
  const ApiResponse second_throw = post(hub, base + "/throw");
  EXPECT_EQ(second_throw.status, 409);
  EXPECT_EQ(second_throw.body["code"], "throw_pending");
  const ApiResponse illegal = post(hub, base + "/move", R"({"from":13})");
  EXPECT_EQ(illegal.body["code"], "illegal_move");
  EXPECT_EQ(post(hub, base + "/pass").body["code"], "illegal_move");
  EXPECT_EQ(get(hub, base).body, waiting);
}

// Two windows on one game: an intent sent for a version the game has left is refused as
// such, not with the refusal the newer state would give, and changes nothing.
TEST(ServerHub, AnIntentForAnOlderVersionSaysTheGameMovedOn) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string id = create_game(hub, {{"opponent", "friend"}});
  const std::string base = "/api/games/" + id;
  const json seen = get(hub, base).body["game"];
  const std::uint64_t version = seen["version"];
  // The other window throws; this one still shows the throw phase and throws too.
  ASSERT_EQ(post(hub, base + "/throw", json{{"version", version}}.dump()).status, 200);
  const json after = get(hub, base).body;
  for (const auto& [action, body] :
       std::vector<std::pair<std::string, json>>{{"throw", {{"version", version}}},
                                                 {"move", {{"from", 0}, {"version", version}}},
                                                 {"pass", {{"version", version}}}}) {
    const ApiResponse stale = post(hub, base + "/" + action, body.dump());
    EXPECT_EQ(stale.status, 409) << action;
    EXPECT_EQ(stale.body["code"], "moved_on") << action;
    EXPECT_NE(stale.body["error"].get<std::string>().find("another window"), std::string::npos);
    EXPECT_EQ(get(hub, base).body, after) << action;
  }
  const ApiResponse bad = post(hub, base + "/throw", R"({"version":"new"})");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body["code"], "bad_request");
}

TEST(ServerHub, ARestartInTheMiddleOfAGameContinuesIt) {
  TempDir dir;
  std::string id;
  json game;
  {
    GameHub hub(options_for(dir));
    id = create_game(hub, {{"opponent", "medium"}, {"pieces", 5}, {"starts", "higher"}});
    game = get(hub, "/api/games/" + id).body["game"];
    for (int i = 0; i < 25; ++i) game = play_one_action(hub, id, game).body["game"];
    ASSERT_NE(game["phase"], "game_over");
  }
  GameHub reopened(options_for(dir));
  const ApiResponse resumed = get(reopened, "/api/games/" + id);
  ASSERT_EQ(resumed.status, 200);
  json expected = game;
  expected.erase("server_time");
  EXPECT_EQ(resumed.body["game"], expected);
  for (int i = 0; i < 2000 && game["phase"] != "game_over"; ++i) {
    const ApiResponse answer = play_one_action(reopened, id, game);
    ASSERT_EQ(answer.status, 200) << answer.body.dump();
    game = answer.body["game"];
  }
  EXPECT_EQ(game["phase"], "game_over");
}

// A socket's view: each update completed against the one before (protocol/game_update.h).
struct Recorder : GameListener {
  std::mutex mutex;
  std::vector<json> updates;  // as received
  std::vector<json> games;    // completed, whole
  std::atomic<int> computer_steps{0};
  bool incomplete = false;  // an update that could not be completed
  void on_game_update(std::shared_ptr<const std::string> message, bool computer) override {
    std::lock_guard lock(mutex);
    updates.push_back(json::parse(*message));
    auto whole =
        protocol::complete_update(updates.back()["game"], games.empty() ? nullptr : &games.back());
    if (whole) {
      games.push_back(std::move(*whole));
    } else {
      incomplete = true;
    }
    if (computer) ++computer_steps;
  }
};

std::shared_ptr<Recorder> listen_to(GameHub& hub, const std::string& id) {
  auto recorder = std::make_shared<Recorder>();
  std::promise<bool> subscribed;
  hub.subscribe(id, recorder, [&](GameHub::Subscription s) { subscribed.set_value(s != nullptr); });
  EXPECT_TRUE(subscribed.get_future().get());
  return recorder;
}

TEST(ServerHub, ListenersHearEveryChange) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string id = create_game(hub, {{"opponent", "easy"}});
  auto recorder = listen_to(hub, id);
  json game = get(hub, "/api/games/" + id).body["game"];
  for (int i = 0; i < 20; ++i) game = play_one_action(hub, id, game).body["game"];
  hub.drain();
  std::lock_guard lock(recorder->mutex);
  ASSERT_GE(recorder->updates.size(), 21u);
  EXPECT_EQ(recorder->updates.front()["type"], "update");
  ASSERT_FALSE(recorder->incomplete);
  json last = recorder->games.back();
  last.erase("server_time");  // stamped when each was made
  game.erase("server_time");
  EXPECT_EQ(last, game);
  for (std::size_t i = 1; i < recorder->updates.size(); ++i) {
    EXPECT_EQ(recorder->updates[i]["game"]["version"],
              recorder->updates[i - 1]["game"]["version"].get<int>() + 1);
  }
  EXPECT_GT(recorder->computer_steps.load(), 0);

  std::promise<bool> unknown;
  hub.subscribe("g-0123456789abcdef", recorder,
                [&](GameHub::Subscription s) { unknown.set_value(s != nullptr); });
  EXPECT_FALSE(unknown.get_future().get());
}

// Updates leave out the geometry while the rules stay and the log lines a socket has; a
// socket that comes in the middle, a take-back and a new game under other rules included,
// every socket completes each update into the whole state.
TEST(ServerHub, UpdatesCarryWhatChangedAndEverySocketCompletesThem) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string id =
      create_game(hub, {{"opponent", "easy"}, {"pieces", 5}, {"take_back", true}});
  const std::string base = "/api/games/" + id;
  auto early = listen_to(hub, id);
  json game = get(hub, base).body["game"];
  for (int i = 0; i < 12; ++i) game = play_one_action(hub, id, game).body["game"];
  auto late = listen_to(hub, id);
  for (int i = 0; i < 200 && !game["can_take_back"].get<bool>(); ++i) {
    game = play_one_action(hub, id, game).body["game"];
  }
  ASSERT_TRUE(game["can_take_back"].get<bool>());
  ASSERT_EQ(post(hub, base + "/take_back").status, 200);
  ASSERT_EQ(post(hub, base + "/new", R"({"settings":{"pieces":7}})").status, 200);
  game = get(hub, base).body["game"];
  for (int i = 0; i < 6; ++i) game = play_one_action(hub, id, game).body["game"];
  hub.drain();
  game.erase("server_time");
  for (const auto* recorder : {early.get(), late.get()}) {
    ASSERT_FALSE(recorder->incomplete);
    json last = recorder->games.back();
    last.erase("server_time");
    EXPECT_EQ(last, game);
    EXPECT_TRUE(recorder->updates.front()["game"].contains("geometry")) << "the first is whole";
  }
  int without_geometry = 0;
  bool new_rules_drawn = false;
  for (const json& update : early->updates) {
    if (!update["game"].contains("geometry")) ++without_geometry;
    if (update["game"]["rules"]["pieces"] == 7 && update["game"].contains("geometry")) {
      new_rules_drawn = true;
    }
  }
  EXPECT_GT(without_geometry, 20);
  EXPECT_TRUE(new_rules_drawn) << "the update that changed the rules carried their geometry";
}

TEST(ServerHub, SocketMessagesBecomeIntents) {
  const ApiRequest move = request_from_socket_message("g-1", R"({"action":"move","from":4})");
  EXPECT_EQ(move.method, "POST");
  EXPECT_EQ(move.target, "/api/games/g-1/move");
  EXPECT_EQ(json::parse(move.body), (json{{"from", 4}}));
  for (const char* bad : {"", "{", "[]", "{}", R"({"action":"fly"})", R"({"action":7})"}) {
    EXPECT_THROW(request_from_socket_message("g-1", bad), ApiError) << bad;
  }
  EXPECT_EQ(socket_game_id("/api/games/g-1/ws?x=1"), "g-1");
  EXPECT_EQ(socket_game_id("/api/games/g-1/throw"), std::nullopt);
  EXPECT_EQ(socket_game_id("/api/games/ws"), std::nullopt);
}

// Found by the garbage test under ASan (seed 5174046174046059228): quoting a deeply nested
// body in the error message recursed once per level and overflowed a worker thread's stack.
TEST(ServerHub, DeeplyNestedBodiesAreRefusedBeforeParsing) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string id = create_game(hub, {{"opponent", "friend"}});
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  for (const std::string& target : {std::string("/api/games"), "/api/games/" + id + "/move"}) {
    const ApiResponse answer = send(hub, {"POST", target, deep});
    EXPECT_EQ(answer.status, 400) << target;
    EXPECT_EQ(answer.body["code"], "bad_json") << target;
    EXPECT_NE(answer.body["error"].get<std::string>().find("64 levels"), std::string::npos)
        << answer.body.dump();
  }
  // A body just within the limit is parsed (and refused for what it is, not for its depth).
  const std::string shallow = "{\"x\":" + std::string(63, '[') + std::string(63, ']') + "}";
  const ApiResponse answer = send(hub, {"POST", "/api/games/" + id + "/move", shallow});
  EXPECT_EQ(answer.status, 400);
  EXPECT_EQ(answer.body["error"].get<std::string>().find("64 levels"), std::string::npos);
}

TEST(ServerHub, GarbageRequestsNeverCrashOrFailInternally) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string id = create_game(hub, {{"opponent", "friend"}});
  const ApiResponse online = post(hub, "/api/games", R"({"settings":{"opponent":"online"}})");
  const std::string online_id = online.body["game"]["id"];
  const std::string invite = online.body["invite"];
  rc::check("random requests get a 2xx or 4xx JSON answer", [&] {
    const auto method = *rc::gen::element<std::string>("GET", "POST", "PUT", "DELETE", "", "post");
    const auto suffix = *rc::gen::element<std::string>(
        "", "/throw", "/move", "/pass", "/new", "/settings", "/ws", "/", "//", "/move/x", "/claim",
        "/claim_win", "/rematch", "/invite", "/hello", "/record", "/hints");
    const auto prefix = *rc::gen::element<std::string>(
        "/api/games/" + id, "/api/games/" + online_id, "/api/games", "/api/games/", "/api",
        "/api/health", "/api/join", "/api/queue", "/api/queue/q-" + std::string(32, '0'),
        "/api/qr");
    const auto body = *rc::gen::oneOf(
        rc::gen::arbitrary<std::string>(),
        rc::gen::element<std::string>(
            R"({"from":1e400})", R"({"from":null})", R"({"settings":{"pieces":true}})",
            "[[[[[[[[[[", std::string(3000, '[') + std::string(3000, ']'),
            R"({"side":"light","from":0})", "\xff\xfe", R"({"invite":")" + invite + R"("})",
            R"({"invite":")" + invite + R"(","name":"\u0000"})", R"({"name":[1]})",
            R"({"text":"http://x/#join=1"})", R"({"rules":{"name":"masters"},"name":"Q"})"));
    // No token, a malformed one, a stranger's, or a real one from the creator (send()'s).
    const auto token = *rc::gen::element<std::string>("", "-", std::string(64, 'f'),
                                                      std::string(64, 'G'), "creator");
    ApiRequest request{method, prefix + suffix, body, token == "creator" ? "" : token};
    const ApiResponse answer =
        token == "creator" ? send(hub, std::move(request)) : hub.handle(std::move(request));
    RC_ASSERT(answer.status >= 200);
    RC_ASSERT(answer.status < 500);
    RC_ASSERT(answer.body.is_object());
    if (answer.status >= 400) {
      RC_ASSERT(answer.body["code"].is_string());
    }
  });
}

TEST(ServerHub, GarbageSocketMessagesAreRefusedWithAnApiError) {
  rc::check("random socket messages parse or are refused with an ApiError", [] {
    const auto message = *rc::gen::oneOf(
        rc::gen::arbitrary<std::string>(),
        rc::gen::element<std::string>(R"({"action":"hello","token":5})",
                                      R"({"action":"hello","token":"x","extra":1})",
                                      R"({"action":"throw","token":null})", R"({"action":7})",
                                      R"({"token":"ab"})", R"({"action":"rematch","token":"a"})"));
    try {
      const ApiRequest request = request_from_socket_message("g-0123456789abcdef", message);
      RC_ASSERT(request.method == "POST");
      RC_ASSERT(request.target.starts_with("/api/games/g-0123456789abcdef/"));
    } catch (const ApiError& error) {
      RC_ASSERT(error.status() == 400);
    }
  });
}

TEST(ServerHub, ACustomSetWhosePathCrossesItselfPlaysButPerfectPlayIsRefused) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const ApiResponse sets = get(hub, "/api/rule-sets");
  ASSERT_EQ(sets.status, 200);
  EXPECT_EQ(sets.body["rule_sets"].size(), 4u);
  EXPECT_EQ(sets.body["rule_sets"][1]["name"], "masters");

  const std::string id = create_game(
      hub, {{"rules", {{"name", "masters"}, {"path", "murray"}}}, {"opponent", "easy"}});
  json game = get(hub, "/api/games/" + id).body["game"];
  EXPECT_EQ(game["geometry"]["dice"]["count"], 3);
  for (int step = 0; step < 6 && game["phase"] != "game_over"; ++step) {
    const ApiResponse answer = play_one_action(hub, id, game);
    ASSERT_EQ(answer.status, 200) << answer.body.dump();
    game = answer.body["game"];
  }
  // Hints are the search's estimate, and say why.
  const ApiResponse hints = get(hub, "/api/games/" + id + "/hints");
  ASSERT_EQ(hints.status, 200) << hints.body.dump();
  EXPECT_FALSE(hints.body["exact"].get<bool>());
  EXPECT_NE(hints.body["perfect_play"].get<std::string>().find("crosses itself"),
            std::string::npos);
  // Perfect is refused with that sentence, and nothing changes.
  const ApiResponse perfect =
      post(hub, "/api/games/" + id + "/new", R"({"settings":{"opponent":"perfect"}})");
  EXPECT_EQ(perfect.status, 400);
  EXPECT_EQ(perfect.body["code"], "bad_settings");
  EXPECT_TRUE(perfect.body["perfect_play"].is_string()) << perfect.body.dump();
  // The review: no exact one, the search's on request; the record carries its geometry.
  const ApiResponse downloaded = get(hub, "/api/games/" + id + "/record");
  json record = downloaded.body["records"][0];
  EXPECT_EQ(record["geometry"]["name"], "custom");
  // The seed foretells every later throw of the series (a rematch goes on from it).
  EXPECT_FALSE(record["tags"].contains("Seed")) << record["tags"].dump();
  EXPECT_EQ(downloaded.body["rgn"].get<std::string>().find("[Seed"), std::string::npos);
  record.erase("geometry");
  const ApiResponse exact = post(hub, "/api/review", json{{"record", record}}.dump());
  EXPECT_EQ(exact.status, 400);
  EXPECT_TRUE(exact.body["perfect_play"].is_string()) << exact.body.dump();
  const ApiResponse estimated =
      post(hub, "/api/review", json{{"record", record}, {"estimate", true}}.dump());
  ASSERT_EQ(estimated.status, 200) << estimated.body.dump();
  EXPECT_FALSE(estimated.body["exact"].get<bool>());
  EXPECT_EQ(estimated.body["geometry"]["name"], "custom");
}

TEST(ServerHub, ReviewsARecordFromTheSolvedTableAndRefusesBadOnes) {
  TempDir dir;
  GameHub hub(options_for(dir));
  // Up to 4 pieces the table is solved on first use (about a second), as for hints.
  const std::string game = "[Rules \"Finkel with Two Pieces\"]\n\n1. A@A2 / C@C2\n";
  const ApiResponse reviewed = post(hub, "/api/review", json{{"rgn", game}}.dump());
  ASSERT_EQ(reviewed.status, 200) << reviewed.body.dump();
  EXPECT_EQ(reviewed.body["throws"].size(), 2u);
  EXPECT_TRUE(reviewed.body["exact"].get<bool>());
  // Bigger tables are never solved on the spot: the answer says how to build the table and
  // carries the build offer; "estimate" reviews with the search instead.
  const std::string five = "[Rules Finkel]\n[Pieces \"5\"]\n\n1. A@A2 / C@C2\n";
  const ApiResponse missing = post(hub, "/api/review", json{{"rgn", five}}.dump());
  EXPECT_EQ(missing.status, 400);
  EXPECT_NE(missing.body["error"].get<std::string>().find("ur solve --pieces 5"), std::string::npos)
      << missing.body.dump();
  EXPECT_EQ(missing.body["table_missing"]["pieces"], 5) << missing.body.dump();
  const ApiResponse estimated =
      post(hub, "/api/review", json{{"rgn", five}, {"estimate", true}}.dump());
  ASSERT_EQ(estimated.status, 200) << estimated.body.dump();
  EXPECT_FALSE(estimated.body["exact"].get<bool>());
  const ApiResponse broken = post(hub, "/api/review", json{{"rgn", "1. A@A9"}}.dump());
  EXPECT_EQ(broken.status, 400);
  EXPECT_NE(broken.body["error"].get<std::string>().find("line 1, column 4"), std::string::npos);
  EXPECT_EQ(post(hub, "/api/review", json{{"rgn", game}, {"cmd", "x"}}.dump()).status, 400);
  EXPECT_EQ(get(hub, "/api/review").status, 405);
}

TEST(ServerHub, ReadsRecordTextIntoJsonRecordsAndRefusesBadText) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string text =
      "[Light Ann]\n\n1. A@A1 * A1B2 / C@C3\n2. 0 -- / C3C1 * C@C2\n\n"
      "[Rules \"Finkel with Two Pieces\"]\n\n1. A@A2 / C@C2\n";
  const ApiResponse read = post(hub, "/api/records", json{{"text", text}}.dump());
  ASSERT_EQ(read.status, 200) << read.body.dump();
  ASSERT_EQ(read.body["games"].size(), 2u);
  const json& first = read.body["games"][0];
  EXPECT_EQ(first["tags"]["Light"], "Ann");
  ASSERT_EQ(first["plies"].size(), 6u);
  EXPECT_EQ(first["plies"][1]["rgn"], "A1B2");
  EXPECT_EQ(first["plies"][3]["move"], nullptr);
  EXPECT_EQ(first["plies"][5]["position"]["dark"]["board"], json({3, 4}));
  EXPECT_EQ(read.body["games"][1]["rules"]["pieces"], 2);
  // The position before the first ply comes along: the opening, or the Position tag's.
  EXPECT_EQ(first["start"]["light"]["start"], 7);
  const ApiResponse given =
      post(hub, "/api/records", json{{"text", "[Position \"L:5/4/1:7/-/0\"]\n"}}.dump());
  ASSERT_EQ(given.status, 200) << given.body.dump();
  EXPECT_EQ(given.body["games"][0]["start"]["light"]["board"], json({4}));
  EXPECT_EQ(given.body["games"][0]["start"]["light"]["home"], 1);

  const ApiResponse bad =
      post(hub, "/api/records", json{{"text", "1. A@A2 / C@C2\n3. A2B1\n"}}.dump());
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body["code"], "bad_record");
  EXPECT_NE(bad.body["error"].get<std::string>().find("line 2, column 1"), std::string::npos)
      << bad.body.dump();
  EXPECT_EQ(get(hub, "/api/records").status, 405);
  EXPECT_EQ(post(hub, "/api/records", R"({"text": 3})").body["code"], "bad_request");
  EXPECT_EQ(post(hub, "/api/records", "{}").body["code"], "bad_request");
  EXPECT_EQ(post(hub, "/api/records", json{{"text", text}, {"x", 1}}.dump()).status, 400);

  // From a review: the records given out (with their board drawing) read back; and a text of
  // many short games, each answered with its drawing, is refused past 1,000 games.
  const ApiResponse again =
      post(hub, "/api/records", json{{"text", read.body["games"][0].dump()}}.dump());
  ASSERT_EQ(again.status, 200) << again.body.dump();
  EXPECT_EQ(again.body["games"][0]["plies"], first["plies"]);
  std::string many;
  for (int i = 0; i < 1001; ++i) many += "1. A@A2 / C@C2\n\n";
  const ApiResponse flood = post(hub, "/api/records", json{{"text", many}}.dump());
  EXPECT_EQ(flood.status, 400);
  EXPECT_NE(flood.body["error"].get<std::string>().find("1001 games; send at most 1000"),
            std::string::npos)
      << flood.body.dump();
}

// The page's Take back: against the computer, back to the person's last choice.
TEST(ServerHub, TakeBackReturnsThePersonToTheirLastChoice) {
  TempDir dir;
  GameHub hub(options_for(dir));
  for (int attempt = 0; attempt < 50; ++attempt) {
    const std::string id = create_game(hub, {{"opponent", "easy"}});
    const std::string base = "/api/games/" + id;
    json game = get(hub, base).body["game"];
    EXPECT_FALSE(game["can_take_back"].get<bool>());
    const ApiResponse refused = post(hub, base + "/take_back");
    EXPECT_EQ(refused.status, 409);
    EXPECT_EQ(refused.body["code"], "nothing_to_take_back");
    for (int i = 0; i < 300 && game["phase"] != "game_over"; ++i) {
      if (game["phase"] == "move" && game["legal_moves"].size() >= 2) {
        const json before = game;
        const ApiResponse moved =
            post(hub, base + "/move", json{{"from", game["legal_moves"][1]["from"]}}.dump());
        ASSERT_EQ(moved.status, 200);
        if (moved.body["game"]["phase"] == "game_over") break;
        ASSERT_TRUE(moved.body["game"]["can_take_back"].get<bool>());
        const ApiResponse back =
            post(hub, base + "/take_back", json{{"version", moved.body["game"]["version"]}}.dump());
        ASSERT_EQ(back.status, 200) << back.body.dump();
        EXPECT_EQ(back.body["events"].front()["type"], "take_back");
        EXPECT_EQ(back.body["game"]["position_text"], before["position_text"]);
        EXPECT_EQ(back.body["game"]["roll"], before["roll"]);
        EXPECT_EQ(back.body["game"]["dice"], before["dice"]);
        // The record marks it.
        const ApiResponse record = get(hub, base + "/record");
        EXPECT_NE(record.body["rgn"].get<std::string>().find("[TakeBacks \"1\"]"),
                  std::string::npos)
            << record.body["rgn"];
        return;
      }
      game = play_one_action(hub, id, game).body["game"];
    }
  }
  FAIL() << "no game offered a choice";
}

TEST(ServerHub, TakeBackIsOffBetweenFriendsAndWhenTurnedOff) {
  TempDir dir;
  GameHub hub(options_for(dir));
  for (const json& settings : {json{{"opponent", "friend"}}, json{{"take_back", false}}}) {
    const std::string id = create_game(hub, settings);
    const ApiResponse refused = post(hub, "/api/games/" + id + "/take_back");
    EXPECT_EQ(refused.status, 409);
    EXPECT_EQ(refused.body["code"], "take_back_off");
    EXPECT_FALSE(refused.body["error"].get<std::string>().empty());
  }
}

TEST(ServerHub, ResigningEndsTheGameForTheOtherSide) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string id = create_game(hub, {{"opponent", "medium"}});
  const ApiResponse resigned = post(hub, "/api/games/" + id + "/resign");
  ASSERT_EQ(resigned.status, 200) << resigned.body.dump();
  EXPECT_EQ(resigned.body["events"][0]["type"], "resign");
  EXPECT_EQ(resigned.body["events"][1]["type"], "game_over");
  EXPECT_EQ(resigned.body["events"][1]["by_resignation"], true);
  EXPECT_EQ(resigned.body["game"]["winner"], "dark");
  EXPECT_EQ(resigned.body["game"]["tally"]["dark"], 1);
}

// Download record: every game of the series as RGN and JSON records that read back alike.
TEST(ServerHub, TheSeriesRecordReadsBackToTheSamePlies) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string id = create_game(hub, {{"opponent", "medium"}, {"pieces", 3}});
  json game = get(hub, "/api/games/" + id).body["game"];
  for (int i = 0; i < 2000 && game["phase"] != "game_over"; ++i) {
    game = play_one_action(hub, id, game).body["game"];
  }
  post(hub, "/api/games/" + id + "/new");
  const ApiResponse record = get(hub, "/api/games/" + id + "/record");
  ASSERT_EQ(record.status, 200) << record.body.dump();
  EXPECT_EQ(record.body["file_name"], "ur-" + id + ".rgn");
  const std::string rgn = record.body["rgn"];
  EXPECT_TRUE(rgn.starts_with("[Rules Finkel]")) << rgn;
  EXPECT_NE(rgn.find("[Pieces \"3\"]"), std::string::npos);
  EXPECT_NE(rgn.find("[DarkLevel medium]"), std::string::npos);
  ASSERT_EQ(record.body["records"].size(), 2u);
  const ApiResponse read = post(hub, "/api/records", json{{"text", rgn}}.dump());
  ASSERT_EQ(read.status, 200) << read.body.dump();
  ASSERT_EQ(read.body["games"].size(), 2u);
  for (std::size_t g = 0; g < 2; ++g) {
    EXPECT_EQ(read.body["games"][g]["plies"], record.body["records"][g]["plies"]);
  }
  EXPECT_EQ(read.body["games"][0]["result"], record.body["records"][0]["result"]);
  EXPECT_EQ(post(hub, "/api/games/" + id + "/record").status, 405);
}

// Play from here: a record's game after k plies, played on against the computer or a friend.
TEST(ServerHub, PlayFromHereContinuesARecordAtAnyPly) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string source = create_game(hub, {{"opponent", "friend"}});
  json game = get(hub, "/api/games/" + source).body["game"];
  for (int i = 0; i < 60; ++i) game = play_one_action(hub, source, game).body["game"];
  const json record = get(hub, "/api/games/" + source + "/record").body["records"][0];
  const std::size_t plies = record["plies"].size();
  ASSERT_GT(plies, 10u);
  for (const json& settings : {json{{"opponent", "friend"}}, json{{"opponent", "hard"}}}) {
    const std::size_t k = 10;
    const ApiResponse made =
        post(hub, "/api/games",
             json{{"settings", settings}, {"from", {{"record", record}, {"ply", k}}}}.dump());
    ASSERT_EQ(made.status, 201) << made.body.dump();
    const json& state = made.body["game"];
    if (settings["opponent"] == "friend" || record["plies"][k - 1]["position"]["turn"] == "light") {
      EXPECT_EQ(state["position"], record["plies"][k - 1]["position"]);
    }
    EXPECT_EQ(state["settings"]["opponent"], settings["opponent"]);
    EXPECT_NE(state["id"], source);
    const json again = get(hub, "/api/games/" + state["id"].get<std::string>() + "/record").body;
    const json continued = again["records"][0]["plies"];
    for (std::size_t i = 0; i < k; ++i) EXPECT_EQ(continued[i], record["plies"][i]);
  }
  const auto refused = [&](const json& from) {
    return post(hub, "/api/games", json{{"from", from}}.dump());
  };
  EXPECT_EQ(refused({{"record", record}, {"ply", plies + 1}}).body["code"], "bad_record");
  EXPECT_EQ(refused({{"record", record}, {"ply", -1}}).body["code"], "bad_request");
  EXPECT_EQ(refused({{"record", 3}, {"ply", 1}}).body["code"], "bad_record");
  EXPECT_EQ(refused({{"ply", 1}}).body["code"], "bad_request");
  EXPECT_EQ(refused({{"record", record}, {"ply", 1}, {"x", 1}}).body["code"], "bad_request");
}

// A games.sqlite3 of schema 1 with a format-1 row, as servers before the session model
// wrote it, opens, migrates and plays on; the game is stored in format 2 from then on.
TEST(ServerHub, ADatabaseOfTheOldFormatKeepsItsGames) {
  TempDir dir;
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir.path() / "games.sqlite3").c_str(), &db), SQLITE_OK);
    const std::string row = R"({"format":1,"id":"g-00000000000000a1","version":57,
      "settings":{"opponent":"hard","pieces":7,"bear_off":"exact","starts":"alternate",
                  "auto_play":false,"auto_pass":false,"seat":"light"},
      "next_settings":null,"position":"L:3/2,5,9/1:5/7,14/0","phase":"move",
      "dice":[true,false,true,false],"winner":null,"tally":[1,1],"game_number":3,
      "starting_side":"light","opening":null,"thrown_this_game":true,
      "log":["Shell threw 2."],"seed":1234,"draws":31})";
    const std::string sql =
        "CREATE TABLE games (id TEXT PRIMARY KEY NOT NULL, record TEXT NOT NULL,"
        " updated_ms INTEGER NOT NULL); PRAGMA user_version=1;"
        " INSERT INTO games VALUES('g-00000000000000a1', '" +
        row + "', 0);";
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  const std::string base = "/api/games/g-00000000000000a1";
  {
    GameHub hub(options_for(dir));
    const ApiResponse loaded = get(hub, base);
    ASSERT_EQ(loaded.status, 200) << loaded.body.dump();
    EXPECT_EQ(loaded.body["game"]["position_text"], "L:3/2,5,9/1:5/7,14/0");
    EXPECT_EQ(loaded.body["game"]["roll"], 2);
    EXPECT_EQ(loaded.body["game"]["version"], 57);
    EXPECT_EQ(loaded.body["game"]["game_number"], 3);
    EXPECT_EQ(loaded.body["game"]["tally"], (json{{"light", 1}, {"dark", 1}}));
    // Stored before seats had tokens: the browser that has its id claims the person's seat.
    EXPECT_EQ(loaded.body["game"]["claimable"], true);
    EXPECT_EQ(post(hub, base + "/move", R"({"from":5})").body["code"], "seat_token_missing");
    const ApiResponse claimed = post(hub, base + "/claim");
    ASSERT_EQ(claimed.status, 200) << claimed.body.dump();
    EXPECT_EQ(claimed.body["game"]["claimable"], false);
    EXPECT_EQ(hub.handle({"POST", base + "/claim", ""}).body["code"], "already_claimed");
    const ApiResponse moved = post(hub, base + "/move", R"({"from":5})");
    ASSERT_EQ(moved.status, 200) << moved.body.dump();
    EXPECT_EQ(moved.body["events"][0]["capture"], true);
  }
  GameHub reopened(options_for(dir));
  const ApiResponse again = get(reopened, base);
  ASSERT_EQ(again.status, 200) << again.body.dump();
  EXPECT_EQ(again.body["game"]["to_move"], "light");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir.path() / "games.sqlite3").c_str(), &db), SQLITE_OK);
  sqlite3_stmt* query = nullptr;
  sqlite3_prepare_v2(db, "SELECT format FROM games", -1, &query, nullptr);
  ASSERT_EQ(sqlite3_step(query), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(query, 0), 2);
  sqlite3_finalize(query);
  sqlite3_close(db);
}

TEST(ServerHub, ADatabaseOfANewerSchemaIsRefusedWithAReason) {
  TempDir dir;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir.path() / "games.sqlite3").c_str(), &db), SQLITE_OK);
  sqlite3_exec(db, "PRAGMA user_version=9", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  try {
    GameHub hub(options_for(dir));
    FAIL() << "a newer schema was opened";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("schema version 9, newer than the"), std::string::npos)
        << error.what();
  }
}

// Live hints: exact for small rules (solved on the spot), recorded in the game's record.
TEST(ServerHub, HintsGiveEveryMovesChanceAndTheRecordNotesThem) {
  TempDir dir;
  GameHub hub(options_for(dir));
  const std::string id = create_game(hub, {{"opponent", "medium"}, {"pieces", 3}});
  const std::string base = "/api/games/" + id;
  const ApiResponse on = post(hub, base + "/hints", R"({"on":true})");
  ASSERT_EQ(on.status, 200) << on.body.dump();
  EXPECT_TRUE(on.body["game"]["hints_on"].get<bool>());
  EXPECT_EQ(on.body["events"][0]["type"], "hints");
  // Asked on again, nothing changes, and the version stays: another window that still holds
  // it must not be told the game moved on.
  const ApiResponse again = post(hub, base + "/hints", R"({"on":true})");
  ASSERT_EQ(again.status, 200) << again.body.dump();
  EXPECT_EQ(again.body["events"], json::array());
  EXPECT_EQ(again.body["game"]["version"], on.body["game"]["version"]);
  json game = post(hub, base + "/throw").body["game"];
  for (int i = 0; i < 50 && game["phase"] != "move"; ++i) {
    game = play_one_action(hub, id, game).body["game"];
  }
  ASSERT_EQ(game["phase"], "move");
  const ApiResponse hints = get(hub, base + "/hints");
  ASSERT_EQ(hints.status, 200) << hints.body.dump();
  EXPECT_TRUE(hints.body["exact"].get<bool>());
  EXPECT_NEAR(hints.body["win"]["light"].get<double>() + hints.body["win"]["dark"].get<double>(),
              1.0, 1e-12);
  ASSERT_EQ(hints.body["moves"].size(), game["legal_moves"].size());
  for (std::size_t i = 1; i < hints.body["moves"].size(); ++i) {
    EXPECT_GE(hints.body["moves"][i - 1]["win"], hints.body["moves"][i]["win"]);
  }
  EXPECT_EQ(hints.body["roll"], game["roll"]);
  const std::string rgn = get(hub, base + "/record").body["rgn"];
  EXPECT_NE(rgn.find("[Hints light]"), std::string::npos) << rgn;
  EXPECT_EQ(post(hub, base + "/hints", R"({"on":"yes"})").body["code"], "bad_request");
  EXPECT_EQ(post(hub, base + "/hints", "{}").body["code"], "bad_request");
  const ApiResponse off = post(hub, base + "/hints", R"({"on":false})");
  EXPECT_FALSE(off.body["game"]["hints_on"].get<bool>());
}

}  // namespace
}  // namespace ur::server
