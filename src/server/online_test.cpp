// Online games through the hub: invites, seat tokens, presence, fairness, rematch, claiming a
// win, quick match and QR codes. Every forged request is refused and changes nothing.
#include <gtest/gtest.h>

#include <future>
#include <mutex>

#include "records/rgn.h"
#include "server/hub.h"
#include "server/seating.h"
#include "server/test_agent.h"

namespace ur::server {
namespace {

using nlohmann::json;
using testing::TempDir;

// A hub on a clock the tests move by hand (UTC ms).
struct OnlineHub {
  OnlineHub() : hub(options()) {}
  HubOptions options() {
    HubOptions made = testing::hub_options(dir.path());
    made.clock = [this] { return clock.load(); };
    return made;
  }
  ApiResponse call(const std::string& method, const std::string& target, const json& body,
                   const std::string& token = "") {
    return hub.handle({method, target, body.is_null() ? "" : body.dump(), token});
  }
  ApiResponse post(const std::string& target, const json& body = nullptr,
                   const std::string& token = "") {
    return call("POST", target, body, token);
  }
  json state(const std::string& id) {
    json game = call("GET", "/api/games/" + id, nullptr).body["game"];
    game.erase("server_time");
    return game;
  }

  std::atomic<std::int64_t> clock{1'800'000'000'000};
  TempDir dir;
  GameHub hub;
};

struct Online {
  std::string id;
  std::string host_token;   // light
  std::string guest_token;  // dark
};

// Ann hosts on light, Bob joins through the invite.
Online start_online(OnlineHub& server, const json& extra = json::object()) {
  json settings = {{"opponent", "online"}, {"name", "Ann"}, {"pieces", 3}};
  settings.update(extra);
  const ApiResponse created = server.post("/api/games", {{"settings", settings}});
  EXPECT_EQ(created.status, 201) << created.body.dump();
  Online game{created.body["game"]["id"], created.body["token"], ""};
  const ApiResponse joined =
      server.post("/api/join", {{"invite", created.body["invite"]}, {"name", "Bob"}});
  EXPECT_EQ(joined.status, 200) << joined.body.dump();
  game.guest_token = joined.body.value("token", "");
  return game;
}

// The token of the side to move, and the action it takes.
ApiResponse play_turn(OnlineHub& server, const Online& game, const json& state) {
  const std::string token = state["to_move"] == "light" ? game.host_token : game.guest_token;
  const std::string base = "/api/games/" + game.id;
  const std::string phase = state["phase"];
  if (phase == "throw") return server.post(base + "/throw", nullptr, token);
  if (phase == "move") {
    return server.post(base + "/move", {{"from", state["legal_moves"][0]["from"]}}, token);
  }
  return server.post(base + "/pass", nullptr, token);
}

json play_to_the_end(OnlineHub& server, const Online& game) {
  json state = server.state(game.id);
  for (int i = 0; i < 3000 && state["phase"] != "game_over"; ++i) {
    const ApiResponse answer = play_turn(server, game, state);
    EXPECT_EQ(answer.status, 200) << answer.body.dump();
    if (answer.status != 200) break;
    state = answer.body["game"];
  }
  return state;
}

TEST(OnlineGames, TheHostWaitsWithAnInviteThatFillsTheOtherSeatOnce) {
  OnlineHub server;
  const ApiResponse created =
      server.post("/api/games", {{"settings", {{"opponent", "online"}, {"name", "Ann"}}}});
  ASSERT_EQ(created.status, 201) << created.body.dump();
  const std::string id = created.body["game"]["id"];
  const std::string host = created.body["token"];
  const std::string invite = created.body["invite"];
  EXPECT_TRUE(is_hex_text(host, kTokenHexDigits));
  EXPECT_TRUE(is_hex_text(invite, kInviteHexDigits));
  const json waiting = created.body["game"];
  EXPECT_EQ(waiting["online"], true);
  EXPECT_EQ(waiting["waiting_for_opponent"], true);
  EXPECT_EQ(waiting["settings"]["opponent"], "online");
  EXPECT_EQ(waiting["seats"]["light"]["name"], "Ann");
  EXPECT_EQ(waiting["seats"]["dark"]["taken"], false);
  EXPECT_EQ(server.post("/api/games/" + id + "/throw", nullptr, host).body["code"],
            "waiting_for_opponent");
  // The host finds the invite again after a reload; nobody else can.
  const ApiResponse again = server.call("GET", "/api/games/" + id + "/invite", nullptr, host);
  EXPECT_EQ(again.body, (json{{"invite", invite}, {"used", false}, {"side", "light"}}));
  EXPECT_EQ(server.call("GET", "/api/games/" + id + "/invite", nullptr).status, 401);

  const ApiResponse joined = server.post("/api/join", {{"invite", invite}, {"name", " Bob "}});
  ASSERT_EQ(joined.status, 200) << joined.body.dump();
  EXPECT_EQ(joined.body["side"], "dark");
  EXPECT_NE(joined.body["token"], host);
  const json started = joined.body["game"];
  EXPECT_EQ(started["waiting_for_opponent"], false);
  EXPECT_EQ(started["seats"]["dark"]["name"], "Bob");
  EXPECT_EQ(started["phase"], "throw");
  EXPECT_EQ(started["to_move"], "light");

  const ApiResponse reused = server.post("/api/join", {{"invite", invite}, {"name", "Eve"}});
  EXPECT_EQ(reused.status, 409);
  EXPECT_EQ(reused.body["code"], "invite_used");
  EXPECT_EQ(reused.body["game_id"], id);
  EXPECT_EQ(server.post("/api/join", {{"invite", std::string(32, 'a')}}).body["code"],
            "unknown_invite");
  EXPECT_EQ(server.post("/api/join", {{"invite", "short"}}).status, 400);
  EXPECT_EQ(server.post("/api/join", {{"invite", invite}, {"name", 3}}).status, 400);
  EXPECT_EQ(server.post("/api/join", {{"invite", invite}, {"extra", 1}}).status, 400);
  EXPECT_EQ(server.state(id)["seats"]["dark"]["name"], "Bob");
}

TEST(OnlineGames, EveryForgedIntentIsRefusedAndChangesNothing) {
  OnlineHub server;
  const Online game = start_online(server);
  const std::string base = "/api/games/" + game.id;
  const json before = server.state(game.id);
  const std::string stranger = random_hex(kTokenHexDigits);
  const std::vector<std::tuple<std::string, json, std::string, int, std::string>> cases = {
      {"/throw", nullptr, "", 401, "seat_token_missing"},
      {"/throw", nullptr, "not-a-token", 401, "bad_seat_token"},
      {"/throw", nullptr, stranger, 403, "wrong_seat_token"},
      // Dark's player may not throw for light, nor name light's side.
      {"/throw", nullptr, game.guest_token, 409, "not_your_turn"},
      {"/throw", {{"side", "light"}}, game.guest_token, 403, "not_your_seat"},
      {"/resign", nullptr, "", 401, "seat_token_missing"},
      {"/resign", {{"side", "dark"}}, game.host_token, 403, "not_your_seat"},
      {"/hints", {{"on", true}}, game.host_token, 409, "online_fairness"},
      {"/take_back", nullptr, game.host_token, 409, "online_fairness"},
      {"/new", nullptr, game.host_token, 409, "online_fairness"},
      {"/settings", {{"settings", {{"pieces", 5}}}}, game.host_token, 409, "online_fairness"},
      {"/rematch", nullptr, game.host_token, 409, "game_running"},
      // Light (to move) has no socket open here, but two minutes have not passed.
      {"/claim_win", nullptr, game.guest_token, 409, "claim_too_early"},
      {"/claim_win", nullptr, game.host_token, 409, "not_their_turn"},
  };
  for (const auto& [action, body, token, status, code] : cases) {
    const ApiResponse answer = server.post(base + action, body, token);
    EXPECT_EQ(answer.status, status) << action << " " << answer.body.dump();
    EXPECT_EQ(answer.body["code"], code) << action << " " << answer.body.dump();
    EXPECT_EQ(server.state(game.id), before) << action;
  }
  EXPECT_EQ(server.call("GET", base + "/hints", nullptr).body["code"], "online_fairness");
  EXPECT_EQ(server.call("GET", base + "/record", nullptr).body["code"], "online_fairness");
  // Anyone with the id may watch.
  EXPECT_EQ(server.call("GET", base, nullptr).status, 200);
}

TEST(OnlineGames, BothPlayersPlayToTheEndAndTheRecordNamesThem) {
  OnlineHub server;
  const Online game = start_online(server);
  const json over = play_to_the_end(server, game);
  ASSERT_EQ(over["phase"], "game_over");
  const ApiResponse record = server.call("GET", "/api/games/" + game.id + "/record", nullptr);
  ASSERT_EQ(record.status, 200) << record.body.dump();
  const std::string rgn = record.body["rgn"];
  EXPECT_NE(rgn.find("Ann"), std::string::npos) << rgn;
  EXPECT_NE(rgn.find("Bob"), std::string::npos) << rgn;
  auto read = records::read_rgn(rgn);
  ASSERT_TRUE(std::holds_alternative<std::vector<records::GameRecord>>(read));
  // Hints and review are there once the game is over.
  EXPECT_EQ(server.call("GET", "/api/games/" + game.id + "/hints", nullptr).status, 200);
}

TEST(OnlineGames, ARematchNeedsBothPlayersAndTheOtherOneOpens) {
  OnlineHub server;
  const Online game = start_online(server);
  ASSERT_EQ(play_to_the_end(server, game)["phase"], "game_over");
  const std::string base = "/api/games/" + game.id;
  const ApiResponse offered = server.post(base + "/rematch", nullptr, game.guest_token);
  ASSERT_EQ(offered.status, 200) << offered.body.dump();
  EXPECT_EQ(offered.body["game"]["rematch_offer"], "dark");
  EXPECT_EQ(offered.body["game"]["phase"], "game_over");
  // Asking twice changes nothing, not even the version; a stranger cannot accept.
  const ApiResponse twice = server.post(base + "/rematch", nullptr, game.guest_token);
  EXPECT_EQ(twice.body["game"]["phase"], "game_over");
  EXPECT_EQ(twice.body["game"]["version"], offered.body["game"]["version"]);
  EXPECT_EQ(server.post(base + "/rematch", nullptr, random_hex(kTokenHexDigits)).status, 403);
  const ApiResponse accepted = server.post(base + "/rematch", nullptr, game.host_token);
  ASSERT_EQ(accepted.status, 200) << accepted.body.dump();
  EXPECT_EQ(accepted.body["game"]["game_number"], 2);
  EXPECT_EQ(accepted.body["game"]["starting_side"], "dark");
  EXPECT_EQ(accepted.body["game"]["rematch_offer"], nullptr);
}

TEST(OnlineGames, PresenceFollowsTheSocketsAndAGoneSideMayLoseOnItsTurnAfterTwoMinutes) {
  struct Recorder : GameListener {
    std::mutex mutex;
    std::vector<json> messages;
    void on_game_update(std::shared_ptr<const std::string> message, bool) override {
      std::lock_guard lock(mutex);
      messages.push_back(json::parse(*message));
    }
  };
  OnlineHub server;
  const Online game = start_online(server);
  auto watcher = std::make_shared<Recorder>();
  std::promise<GameHub::Subscription> subscribed;
  server.hub.subscribe(game.id, watcher, [&](GameHub::Subscription s) { subscribed.set_value(s); });
  const auto subscription = subscribed.get_future().get();
  ASSERT_TRUE(subscription);

  const auto hello = [&](const std::string& token) {
    std::promise<std::pair<GameHub::Subscription, std::optional<ApiResponse>>> done;
    server.hub.hello(game.id, token, [&](GameHub::Subscription s, std::optional<ApiResponse> e) {
      done.set_value({s, e});
    });
    return done.get_future().get();
  };
  auto light = hello(game.host_token);
  auto dark = hello(game.guest_token);
  ASSERT_TRUE(light.first && dark.first);
  EXPECT_FALSE(light.second);
  EXPECT_EQ(hello(random_hex(kTokenHexDigits)).second->body["code"], "wrong_seat_token");
  // A hello without a token marks nobody, and says why (it went unanswered: a client that
  // forgot its token could not tell that it was only watching).
  const auto tokenless = hello("");
  EXPECT_FALSE(tokenless.first);
  ASSERT_TRUE(tokenless.second);
  EXPECT_EQ(tokenless.second->body["code"], "seat_token_missing");
  json state = server.state(game.id);
  EXPECT_EQ(state["seats"]["light"]["connected"], true);
  EXPECT_EQ(state["seats"]["dark"]["connected"], true);
  EXPECT_EQ(state["claim_win_after"], nullptr);

  // Light throws and moves until it is dark's turn; then dark leaves.
  for (int i = 0; i < 20 && state["to_move"] != "dark"; ++i) {
    state = play_turn(server, game, state).body["game"];
  }
  ASSERT_EQ(state["to_move"], "dark");
  dark.first.reset();
  server.hub.drain();
  for (int i = 0; i < 100 && server.state(game.id)["seats"]["dark"]["connected"] == true; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  state = server.state(game.id);
  EXPECT_EQ(state["seats"]["dark"]["connected"], false);
  EXPECT_EQ(state["seats"]["dark"]["left_at"], server.clock.load());
  ASSERT_TRUE(state["claim_win_after"].is_number());
  const std::string base = "/api/games/" + game.id;
  server.clock += 119'500;
  const ApiResponse early = server.post(base + "/claim_win", nullptr, game.host_token);
  EXPECT_EQ(early.body["code"], "claim_too_early");
  // Gone 1:59.5 is not yet "gone for 2:00" (it was, rounded up, beside "after 2:00").
  const std::string sentence = early.body["error"].get<std::string>();
  EXPECT_NE(sentence.find("gone for 1:59 on their turn"), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("after 2:00 (in 0:01)"), std::string::npos) << sentence;
  // The absent side cannot claim against the present one.
  EXPECT_EQ(server.post(base + "/claim_win", nullptr, game.guest_token).body["code"],
            "not_their_turn");
  server.clock += 1'500;
  const ApiResponse claimed = server.post(base + "/claim_win", nullptr, game.host_token);
  ASSERT_EQ(claimed.status, 200) << claimed.body.dump();
  EXPECT_EQ(claimed.body["game"]["phase"], "game_over");
  EXPECT_EQ(claimed.body["game"]["winner"], "light");
  EXPECT_EQ(claimed.body["game"]["resigned"], true);

  std::lock_guard lock(watcher->mutex);
  int presence_messages = 0;
  for (const json& message : watcher->messages) presence_messages += message["type"] == "presence";
  EXPECT_GE(presence_messages, 3);  // light came, dark came, dark left
}

TEST(OnlineGames, QuickMatchPairsTwoPlayersWithTheSameRules) {
  OnlineHub server;
  const ApiResponse first = server.post("/api/queue", {{"name", "Ann"}});
  ASSERT_EQ(first.status, 200) << first.body.dump();
  const std::string ticket = first.body["ticket"];
  EXPECT_FALSE(first.body.contains("game_id"));
  EXPECT_EQ(server.post("/api/queue", {{"rules", {{"name", "masters"}}}}).body.contains("game_id"),
            false);
  server.clock += 4'000;
  const ApiResponse waiting = server.call("GET", "/api/queue/" + ticket, nullptr);
  EXPECT_EQ(waiting.body["waiting_ms"], 4'000);
  const ApiResponse second = server.post("/api/queue", {{"name", "Bob"}});
  ASSERT_TRUE(second.body.contains("game_id")) << second.body.dump();
  EXPECT_EQ(second.body["side"], "dark");
  const ApiResponse paired = server.call("GET", "/api/queue/" + ticket, nullptr);
  ASSERT_EQ(paired.body["game_id"], second.body["game_id"]);
  EXPECT_EQ(paired.body["side"], "light");
  const Online game{second.body["game_id"], paired.body["token"], second.body["token"]};
  const json state = server.state(game.id);
  EXPECT_EQ(state["online"], true);
  EXPECT_EQ(state["seats"]["light"]["name"], "Ann");
  EXPECT_EQ(state["seats"]["dark"]["name"], "Bob");
  EXPECT_EQ(play_turn(server, game, state).status, 200);

  const std::string alone = server.post("/api/queue", {{"name", "Cy"}}).body["ticket"];
  EXPECT_EQ(server.call("DELETE", "/api/queue/" + alone, nullptr).body["cancelled"], true);
  EXPECT_EQ(server.call("GET", "/api/queue/" + alone, nullptr).body["code"], "unknown_ticket");
  EXPECT_EQ(server.call("GET", "/api/queue/nonsense", nullptr).status, 400);
  EXPECT_EQ(server.post("/api/queue", {{"rules", {{"name", "chess"}}}}).status, 400);
}

TEST(OnlineGames, SingleDeviceGamesNeedTheirTokenToo) {
  OnlineHub server;
  const ApiResponse created = server.post("/api/games", {{"settings", {{"opponent", "friend"}}}});
  const std::string id = created.body["game"]["id"];
  const std::string token = created.body["token"];
  EXPECT_EQ(server.post("/api/games/" + id + "/throw").body["code"], "seat_token_missing");
  EXPECT_EQ(server.post("/api/games/" + id + "/throw", nullptr, token).status, 200);
  EXPECT_EQ(server.post("/api/games/" + id + "/rematch", nullptr, token).body["code"],
            "not_online");
  EXPECT_EQ(server.post("/api/games/" + id + "/claim").body["code"], "already_claimed");
  EXPECT_EQ(server.call("GET", "/api/games/" + id + "/invite", nullptr, token).body["code"],
            "not_online");
}

TEST(OnlineGames, TheCreatorsTokenFollowsTheSeatsTheSettingsGiveThePerson) {
  OnlineHub server;
  const ApiResponse created = server.post("/api/games", {{"settings", {{"opponent", "easy"}}}});
  const std::string id = created.body["game"]["id"];
  const std::string token = created.body["token"];
  const std::string base = "/api/games/" + id;
  // The person moves to dark for the next game, then plays it.
  ASSERT_EQ(server.post(base + "/settings", {{"settings", {{"seat", "dark"}}}}, token).status, 200);
  const ApiResponse next = server.post(base + "/new", nullptr, token);
  ASSERT_EQ(next.status, 200) << next.body.dump();
  EXPECT_EQ(next.body["game"]["human_sides"], json::array({"dark"}));
  json state = next.body["game"];
  ASSERT_EQ(state["to_move"], "dark");
  EXPECT_EQ(server.post(base + "/throw", nullptr, token).status, 200);
  // A friend on this device: the same token holds both seats.
  ASSERT_EQ(server.post(base + "/new", {{"settings", {{"opponent", "friend"}}}}, token).status,
            200);
  state = server.state(id);
  const std::string to_move = state["to_move"];
  EXPECT_EQ(server.post(base + "/throw", nullptr, token).status, 200) << to_move;
  EXPECT_EQ(server.post(base + "/throw", nullptr, random_hex(kTokenHexDigits)).status, 403);
}

TEST(OnlineGames, QrCodesOfLinks) {
  OnlineHub server;
  const ApiResponse qr = server.post("/api/qr", {{"text", "http://127.0.0.1:8080/#join=ab"}});
  ASSERT_EQ(qr.status, 200);
  EXPECT_TRUE(qr.body["svg"].get<std::string>().starts_with("<svg"));
  EXPECT_EQ(server.post("/api/qr", {{"text", ""}}).status, 400);
  EXPECT_EQ(server.post("/api/qr", {{"text", std::string(600, 'x')}}).status, 400);
  EXPECT_EQ(server.post("/api/qr", {{"link", "x"}}).status, 400);
  EXPECT_EQ(server.call("GET", "/api/qr", nullptr).status, 405);
}

TEST(OnlineGames, AnOnlineGameAndItsSeatsSurviveARestart) {
  TempDir dir;
  Online game;
  {
    GameHub hub(testing::hub_options(dir.path()));
    const ApiResponse created =
        hub.handle({"POST", "/api/games", json{{"settings", {{"opponent", "online"}}}}.dump(), ""});
    game.id = created.body["game"]["id"];
    game.host_token = created.body["token"];
    const ApiResponse joined =
        hub.handle({"POST", "/api/join", json{{"invite", created.body["invite"]}}.dump(), ""});
    game.guest_token = joined.body["token"];
  }
  GameHub hub(testing::hub_options(dir.path()));
  const std::string base = "/api/games/" + game.id;
  EXPECT_EQ(hub.handle({"POST", base + "/throw", "", game.guest_token}).body["code"],
            "not_your_turn");
  EXPECT_EQ(hub.handle({"POST", base + "/throw", "", game.host_token}).status, 200);
  const json state = hub.handle({"GET", base, "", ""}).body["game"];
  EXPECT_EQ(state["online"], true);
  EXPECT_EQ(state["seats"]["light"]["connected"], false);
}

// A game hosted on dark said "seat": "light" and "name": "" in its settings (both seats are
// people's, and the person's side defaulted to light), so the host's page after a reload took
// itself for the guest and lost its invite button. The settings name the host, after a
// restart too.
TEST(OnlineGames, TheSettingsNameTheHostsSeatAndName) {
  TempDir dir;
  std::string id;
  {
    GameHub hub(testing::hub_options(dir.path()));
    const json settings = {{"opponent", "online"}, {"seat", "dark"}, {"name", "Ann"}};
    const ApiResponse created =
        hub.handle({"POST", "/api/games", json{{"settings", settings}}.dump(), ""});
    ASSERT_EQ(created.status, 201) << created.body.dump();
    id = created.body["game"]["id"];
    EXPECT_EQ(created.body["game"]["settings"]["seat"], "dark");
    EXPECT_EQ(created.body["game"]["settings"]["name"], "Ann");
    const ApiResponse joined =
        hub.handle({"POST", "/api/join",
                    json{{"invite", created.body["invite"]}, {"name", "Bob"}}.dump(), ""});
    ASSERT_EQ(joined.status, 200) << joined.body.dump();
    EXPECT_EQ(joined.body["game"]["settings"]["seat"], "dark");
    EXPECT_EQ(joined.body["game"]["seats"]["light"]["name"], "Bob");
  }
  GameHub hub(testing::hub_options(dir.path()));
  const json state = hub.handle({"GET", "/api/games/" + id, "", ""}).body["game"];
  EXPECT_EQ(state["settings"]["seat"], "dark");
  EXPECT_EQ(state["settings"]["name"], "Ann");
  OnlineHub light_host;
  const Online game = start_online(light_host);
  EXPECT_EQ(light_host.state(game.id)["settings"]["seat"], "light");
  EXPECT_EQ(light_host.state(game.id)["settings"]["name"], "Ann");
}

}  // namespace
}  // namespace ur::server
