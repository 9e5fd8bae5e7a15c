// Real HTTP and WebSocket round trips against an in-process server on a free port.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "protocol/game_update.h"
#include "server/assets.h"

#include "server/http_client.h"
#include "server/http_server.h"
#include "server/test_agent.h"

namespace ur::server {
namespace {

using nlohmann::json;

// A game state without its clock ("server_time"), to compare states made at other times.
json timeless(json state) {
  state.erase("server_time");
  return state;
}

class ServerFixture : public ::testing::Test {
 protected:
  ServerFixture()
      : data_dir_(std::filesystem::temp_directory_path() /
                  ("ur-http-test-" + std::to_string(std::random_device{}()))) {
    std::filesystem::create_directories(data_dir_);
    start();
  }
  ~ServerFixture() override {
    server_.reset();
    std::filesystem::remove_all(data_dir_);
  }

  void start(ServerOptions options = quiet_options()) {
    HubOptions hub;
    hub.data_dir = data_dir_;
    hub.make_agent = testing::test_agent_maker();
    hub.worker_threads = 2;
    server_ = std::make_unique<HttpServer>(std::move(hub), options);
    server_->start();
  }

  static ServerOptions quiet_options() {
    ServerOptions options;
    options.port = 0;
    options.quiet = true;
    return options;
  }

  void restart(const ServerOptions& options) {
    server_.reset();
    start(options);
  }

  std::uint16_t port() const { return server_->port(); }
  std::string own_origin() const { return "http://127.0.0.1:" + std::to_string(port()); }

  // One request on its own connection, with `headers` (each ending in \r\n) as given;
  // answers the whole response.
  std::string raw(const std::string& method, const std::string& target, const std::string& headers,
                  const std::string& body = "") {
    std::string bytes = method;
    bytes += " ";
    bytes += target;
    bytes += " HTTP/1.1\r\nConnection: close\r\n";
    bytes += headers;
    bytes += "Content-Length: ";
    bytes += std::to_string(body.size());
    bytes += "\r\n\r\n";
    bytes += body;
    return HttpConnection(port()).raw_exchange(bytes);
  }
  std::string host_header() const { return "Host: 127.0.0.1:" + std::to_string(port()) + "\r\n"; }

  // The game's state; its creator's seat token goes to token_.
  json create_game(HttpConnection& connection, const json& settings) {
    const HttpReply reply =
        connection.request("POST", "/api/games", json{{"settings", settings}}.dump());
    EXPECT_EQ(reply.status, 201) << reply.body;
    const json answer = json::parse(reply.body);
    token_ = answer.value("token", "");
    return answer["game"];
  }

  // A request carrying the seat token (Authorization: Bearer), on its own connection.
  HttpReply authorized(const std::string& method, const std::string& target,
                       const std::string& body = "", const std::string& token = "") {
    std::string headers =
        host_header() + "Authorization: Bearer " + (token.empty() ? token_ : token) + "\r\n";
    if (!body.empty()) headers += "Content-Type: application/json\r\n";
    const std::string response = raw(method, target, headers, body);
    HttpReply reply;
    reply.status = std::stoi(response.substr(response.find(' ') + 1, 3));
    reply.body = response.substr(response.find("\r\n\r\n") + 4);
    const std::string timing = "Server-Timing: app;dur=";
    if (const auto at = response.find(timing); at != std::string::npos) {
      reply.server_millis = std::stod(response.substr(at + timing.size(), 12));
    }
    return reply;
  }

  // {"token": the creator's token} merged into a WebSocket message.
  std::string with_token(json message) const {
    message["token"] = token_;
    return message.dump();
  }

  std::filesystem::path data_dir_;
  std::unique_ptr<HttpServer> server_;
  std::string token_;  // the last created game's seat token
};

TEST_F(ServerFixture, ServesThePageAndTheApiOnOnePort) {
  HttpConnection connection(port());
  EXPECT_EQ(connection.request("GET", "/api/health").body,
            R"({"database":{"backend":"sqlite","reachable":true},"ok":true})");
  EXPECT_EQ(connection.request("GET", "/api/ready").body, R"({"ready":true})");
  const HttpReply page = connection.request("GET", "/");
  EXPECT_TRUE(page.status == 200 || page.status == 404);  // 404 only while web/ is empty
  if (page.status == 200) {
    EXPECT_NE(page.body.find("<html"), std::string::npos);
  }
  EXPECT_EQ(connection.request("GET", "/no-such-file.js").status, 404);
  EXPECT_EQ(connection.request("POST", "/index.html").status, 405);

  const json game = create_game(connection, {{"opponent", "hard"}});
  const std::string base = "/api/games/" + game["id"].get<std::string>();
  // Only the seat's token acts: the page holds it, a bare request does not.
  const HttpReply bare = connection.request("POST", base + "/throw");
  EXPECT_EQ(bare.status, 401);
  EXPECT_EQ(json::parse(bare.body)["code"], "seat_token_missing");
  const HttpReply thrown = authorized("POST", base + "/throw");
  ASSERT_EQ(thrown.status, 200) << thrown.body;
  EXPECT_GE(thrown.server_millis, 0);
  EXPECT_EQ(json::parse(thrown.body)["events"][0]["type"], "throw");
  const HttpReply again = authorized("POST", base + "/throw");
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(json::parse(again.body)["code"], "throw_pending");
}

// A HEAD answer carried the JSON body of its error after the headers (73 bytes for
// /api/health), which a keep-alive client reads as the start of the next answer.
TEST_F(ServerFixture, AnswersToHeadHaveNoBody) {
  for (const std::string target : {"/api/health", "/no-such-file", "/"}) {
    const std::string response = raw("HEAD", target, host_header());
    const std::size_t end = response.find("\r\n\r\n");
    ASSERT_NE(end, std::string::npos) << response;
    EXPECT_EQ(response.size(), end + 4) << target << ":\n" << response;
  }
  // HEAD reads wherever GET does (it was 405 on the API, which breaks HEAD health checks).
  for (const std::string target : {"/api/health", "/api/rule-sets", "/api/ready"}) {
    const std::string head = raw("HEAD", target, host_header());
    EXPECT_TRUE(head.starts_with("HTTP/1.1 200")) << target << ":\n" << head;
    const std::string get = raw("GET", target, host_header());
    const auto length = [](const std::string& response) {
      const std::size_t at = response.find("Content-Length: ");
      return response.substr(at, response.find("\r\n", at) - at);
    };
    EXPECT_EQ(length(head), length(get)) << target;
  }
  // An Allow header lists methods (it said "POST to create a game").
  const std::string options = raw("OPTIONS", "/api/games", host_header());
  EXPECT_TRUE(options.starts_with("HTTP/1.1 405")) << options;
  EXPECT_NE(options.find("\r\nAllow: POST\r\n"), std::string::npos) << options;
  const std::string post_health = raw("POST", "/api/health", host_header());
  EXPECT_NE(post_health.find("\r\nAllow: GET, HEAD\r\n"), std::string::npos) << post_health;
}

// From a security review: a second Origin or Host header slipped past the checks (only the
// first was read), any site could frame the page, and a 405 had no Allow header.
TEST_F(ServerFixture, RefusesRepeatedHostOrOriginAndForbidsFraming) {
  const std::string twice_origin =
      raw("POST", "/api/games",
          host_header() + "Origin: " + own_origin() +
              "\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\n",
          "{}");
  EXPECT_TRUE(twice_origin.starts_with("HTTP/1.1 400")) << twice_origin;
  EXPECT_NE(twice_origin.find("more than one Origin header"), std::string::npos) << twice_origin;
  const std::string twice_type =
      raw("POST", "/api/games",
          host_header() + "Content-Type: application/json\r\nContent-Type: text/plain\r\n", "{}");
  EXPECT_TRUE(twice_type.starts_with("HTTP/1.1 400")) << twice_type;
  const std::string twice_host =
      raw("GET", "/api/health", host_header() + "Host: evil.example\r\n");
  EXPECT_TRUE(twice_host.starts_with("HTTP/1.1 400")) << twice_host;
  const std::string page = raw("GET", "/", host_header());
  EXPECT_NE(page.find("Content-Security-Policy: frame-ancestors 'self'"), std::string::npos);
  EXPECT_NE(page.find("X-Frame-Options: SAMEORIGIN"), std::string::npos);
  const std::string asset = raw("POST", "/", host_header());
  EXPECT_TRUE(asset.starts_with("HTTP/1.1 405")) << asset;
  EXPECT_NE(asset.find("Allow: GET, HEAD"), std::string::npos) << asset;
  const std::string api = raw("PUT", "/api/games", host_header());
  EXPECT_TRUE(api.starts_with("HTTP/1.1 405")) << api;
  EXPECT_NE(api.find("\r\nAllow: "), std::string::npos) << api;
}

// Targets are routed in origin form with the path decoded (RequestTarget has the rules): an
// absolute-form target and an encoded game id reach their routes; an encoded / is refused.
TEST_F(ServerFixture, RoutesAbsoluteFormAndPercentEncodedTargets) {
  const std::string absolute = raw("GET", own_origin() + "/api/health", host_header());
  EXPECT_TRUE(absolute.starts_with("HTTP/1.1 200")) << absolute;
  const std::string other_host = raw("GET", "http://evil.example/api/health", host_header());
  EXPECT_TRUE(other_host.starts_with("HTTP/1.1 400")) << other_host;
  EXPECT_NE(other_host.find("names the host"), std::string::npos) << other_host;
  HttpConnection connection(port());
  const std::string id = create_game(connection, json{{"opponent", "friend"}})["id"];
  std::string encoded = "/api/games/";
  for (const char c : id) {
    char hex[4];
    std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
    encoded += hex;
  }
  const HttpReply game = authorized("GET", encoded);
  EXPECT_EQ(game.status, 200) << game.body;
  EXPECT_EQ(json::parse(game.body)["game"]["id"], id) << game.body;
  const std::string slash = raw("GET", "/api/games/%2F" + id, host_header());
  EXPECT_TRUE(slash.starts_with("HTTP/1.1 400")) << slash;
}

// Anyone who could reach the port could start or cancel a table build. The peer's address is
// judged in the HTTP layer (check_table_build has the policy's own test); here, that the
// policy reaches the build route, whatever the query, and only it.
TEST_F(ServerFixture, TableBuildsFollowTheServersPolicy) {
  const std::string json_type = "Content-Type: application/json\r\n";
  const std::string body = R"({"pieces": 0, "bear_off": "exact"})";
  // By default a peer on this machine reaches the build (and its body is checked there).
  const std::string local = raw("POST", "/api/tables/build", host_header() + json_type, body);
  EXPECT_TRUE(local.starts_with("HTTP/1.1 400")) << local;
  EXPECT_EQ(local.find("builds_not_allowed"), std::string::npos) << local;
  ServerOptions off = quiet_options();
  off.table_builds = TableBuilds::kOff;
  restart(off);
  for (const std::string target : {"/api/tables/build", "/api/tables/build?now=1"}) {
    const std::string post = raw("POST", target, host_header() + json_type, body);
    EXPECT_TRUE(post.starts_with("HTTP/1.1 403")) << post;
    EXPECT_NE(post.find("\"code\":\"builds_not_allowed\""), std::string::npos) << post;
    EXPECT_NE(post.find("--table-builds off"), std::string::npos) << post;
    const std::string stop = raw("DELETE", target, host_header());
    EXPECT_TRUE(stop.starts_with("HTTP/1.1 403")) << stop;
  }
  const std::string state = raw("GET", "/api/tables/build", host_header());
  EXPECT_TRUE(state.starts_with("HTTP/1.1 200")) << state;
  const std::string game = raw("POST", "/api/games", host_header() + json_type, "{}");
  EXPECT_TRUE(game.starts_with("HTTP/1.1 201")) << game;
}

// The build offer said "build it now" to peers the server then refused (403): it now says
// whether this peer may build, and names the command for the server's operator.
TEST_F(ServerFixture, TheBuildOfferSaysWhetherThisPeerMayBuild) {
  const auto home = std::filesystem::temp_directory_path() /
                    ("ur-offer-test-" + std::to_string(std::random_device{}()));
  const char* before = std::getenv("XDG_DATA_HOME");
  const std::string kept = before ? before : "";
  ::setenv("XDG_DATA_HOME", home.c_str(), 1);  // no solved tables here
  const auto offer = [&] {
    const std::string answer =
        raw("POST", "/api/games", host_header() + "Content-Type: application/json\r\n",
            R"({"settings": {"opponent": "perfect", "pieces": 5, "bear_off": "any"}})");
    EXPECT_TRUE(answer.starts_with("HTTP/1.1 400")) << answer;
    return json::parse(answer.substr(answer.find("\r\n\r\n") + 4))["table_missing"];
  };
  const json local = offer();
  EXPECT_EQ(local["can_build"], true) << local;
  EXPECT_EQ(local["command"], "ur solve --pieces 5 --bear-off any") << local;
  ServerOptions off = quiet_options();
  off.table_builds = TableBuilds::kOff;
  restart(off);
  EXPECT_EQ(offer()["can_build"], false);
  if (before) {
    ::setenv("XDG_DATA_HOME", kept.c_str(), 1);
  } else {
    ::unsetenv("XDG_DATA_HOME");
  }
  std::filesystem::remove_all(home);
}

TEST(ServerAssets, EmbedEveryFileOfTheWebDirectoryByteForByte) {
  std::size_t files = 0;
  if (std::filesystem::is_directory(UR_WEB_DIR)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(UR_WEB_DIR)) {
      const std::string relative =
          std::filesystem::relative(entry.path(), UR_WEB_DIR).generic_string();
      if (!entry.is_regular_file() || relative.starts_with(".") ||
          relative.find("/.") != std::string::npos) {
        continue;
      }
      ++files;
      const Asset* asset = find_asset("/" + relative);
      ASSERT_NE(asset, nullptr) << relative;
      std::ifstream file(entry.path(), std::ios::binary);
      std::ostringstream bytes;
      bytes << file.rdbuf();
      EXPECT_EQ(asset->body, bytes.str()) << relative;
    }
  }
  EXPECT_EQ(embedded_assets().size(), files);
  EXPECT_EQ(content_type_for("/js/app.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type_for("/x.unknown"), "application/octet-stream");
  EXPECT_EQ(find_asset("/no/such/file"), nullptr);
}

TEST_F(ServerFixture, RefusesMalformedAndOversizedHttp) {
  const std::string garbage = HttpConnection(port()).raw_exchange("GARBAGE\r\n\r\n");
  EXPECT_TRUE(garbage.starts_with("HTTP/1.1 400")) << garbage;

  // Refused as soon as the header announces the size (the body is never read).
  const std::string oversized = HttpConnection(port()).raw_exchange(
      "POST /api/games/g-0000000000000000/throw HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
      "100000\r\n\r\n");
  EXPECT_TRUE(oversized.starts_with("HTTP/1.1 413")) << oversized.substr(0, 200);
  EXPECT_NE(oversized.find("too_large"), std::string::npos);
  // A new game may carry a record to play on from (1 MiB), but no more.
  const std::string oversized_game = HttpConnection(port()).raw_exchange(
      "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000\r\n\r\n");
  EXPECT_TRUE(oversized_game.starts_with("HTTP/1.1 413")) << oversized_game.substr(0, 200);
  // Record files may be larger: 40 KiB of text reaches the record reader.
  const std::string text = nlohmann::json{{"text", std::string(40000, 'x')}}.dump();
  const std::string record = HttpConnection(port()).raw_exchange(
      "POST /api/records HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
      "Content-Type: application/json\r\nContent-Length: " +
      std::to_string(text.size()) + "\r\n\r\n" + text);
  EXPECT_TRUE(record.starts_with("HTTP/1.1 400")) << record.substr(0, 200);
  EXPECT_NE(record.find("bad_record"), std::string::npos) << record.substr(0, 400);

  const std::string long_header = HttpConnection(port()).raw_exchange(
      "GET / HTTP/1.1\r\nX-Long: " + std::string(20000, 'a') + "\r\n\r\n");
  EXPECT_TRUE(long_header.starts_with("HTTP/1.1 413")) << long_header.substr(0, 200);

  // The server still serves everyone else.
  HttpConnection connection(port());
  EXPECT_EQ(connection.request("GET", "/api/health").status, 200);
}

// From a review: a byte that is not UTF-8, echoed in an error sentence (the JSON library's
// "last read", a Host header, a game id in the path), made the answer's JSON unwritable and
// the exception ended the whole server. Each of these must be answered, with JSON, and the
// server must go on serving.
TEST_F(ServerFixture, BytesThatAreNotUtf8AreAnsweredAndTheServerLives) {
  const auto answered = [&](const std::string& response, const std::string& status) {
    EXPECT_TRUE(response.starts_with("HTTP/1.1 " + status)) << response.substr(0, 300);
    const std::string body = response.substr(response.find("\r\n\r\n") + 4);
    EXPECT_NO_THROW(json::parse(body)) << body;
    EXPECT_EQ(HttpConnection(port()).request("GET", "/api/health").status, 200);
  };
  const std::string json_type = "Content-Type: application/json\r\n";
  answered(raw("POST", "/api/games", host_header() + json_type,
               "{\"settings\":{\"opponent\":\"\xff\"}}"),
           "400");
  answered(raw("POST", "/api/games", host_header() + json_type, "{\"\xc0\xaf\":1}"), "400");
  answered(raw("GET", "/api/health", "Host: \xff\r\n"), "400");
  answered(raw("POST", "/api/games", host_header() + "Origin: http://\xff\r\n" + json_type, "{}"),
           "403");
  answered(raw("POST", "/api/games", host_header() + "Content-Type: \xff\r\n", "{}"), "415");
  answered(raw("GET", "/api/games/g-\xff\xfe", host_header()), "404");
  answered(HttpConnection(port()).raw_exchange(
               "GET /api/games/g-\xff/ws HTTP/1.1\r\n" + host_header() +
               "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"),
           "404");
  // A binary frame is refused on its socket, which goes on.
  HttpConnection connection(port());
  const std::string id = create_game(connection, {{"opponent", "friend"}})["id"];
  SocketConnection socket(port(), "/api/games/" + id + "/ws");
  EXPECT_EQ(json::parse(socket.receive())["type"], "update");
  socket.send_binary("{\"action\":\"\xff\"}");
  const json refused = json::parse(socket.receive());
  EXPECT_EQ(refused["code"], "bad_json") << refused;
  socket.send(with_token({{"action", "throw"}}));
  EXPECT_EQ(json::parse(socket.receive())["type"], "update");
  EXPECT_EQ(HttpConnection(port()).request("GET", "/api/health").status, 200);
}

TEST_F(ServerFixture, WebSocketSendsUpdatesAndAnswersIntents) {
  HttpConnection connection(port());
  const json game = create_game(connection, {{"opponent", "friend"}});
  const std::string id = game["id"];
  SocketConnection socket(port(), "/api/games/" + id + "/ws");
  const json first = json::parse(socket.receive());
  EXPECT_EQ(first["type"], "update");
  EXPECT_EQ(timeless(first["game"]), timeless(game));

  socket.send(with_token({{"action", "throw"}}));
  const json thrown = json::parse(socket.receive());
  EXPECT_EQ(thrown["type"], "update");
  EXPECT_EQ(thrown["events"][0]["type"], "throw");
  EXPECT_EQ(thrown["game"]["version"], game["version"].get<int>() + 1);

  socket.send(with_token({{"action", "move"}, {"from", 99}}));
  const json refused = json::parse(socket.receive());
  EXPECT_EQ(refused["type"], "error");
  EXPECT_EQ(refused["code"], "bad_request");
  EXPECT_EQ(refused["action"], "move");
  socket.send("not json");
  EXPECT_EQ(json::parse(socket.receive())["code"], "bad_json");

  // An intent over HTTP reaches the socket too.
  const HttpReply moved = authorized(
      "POST", "/api/games/" + id + "/" + (thrown["game"]["phase"] == "move" ? "move" : "pass"),
      thrown["game"]["phase"] == "move"
          ? json{{"from", thrown["game"]["legal_moves"][0]["from"]}}.dump()
          : "");
  ASSERT_EQ(moved.status, 200) << moved.body;
  // The update leaves out what the socket has (protocol/game_update.h); completed, it is the
  // HTTP answer's whole state.
  const json pushed = json::parse(socket.receive())["game"];
  EXPECT_FALSE(pushed.contains("geometry"));
  EXPECT_TRUE(pushed.contains("log_kept"));
  const auto thrown_whole = protocol::complete_update(thrown["game"], &first["game"]);
  ASSERT_TRUE(thrown_whole);
  const auto moved_whole = protocol::complete_update(pushed, &*thrown_whole);
  ASSERT_TRUE(moved_whole);
  EXPECT_EQ(timeless(*moved_whole), timeless(json::parse(moved.body)["game"]));

  EXPECT_THROW(SocketConnection(port(), "/api/games/g-0123456789abcdef/ws"), std::runtime_error);
  EXPECT_THROW(SocketConnection(port(), "/api/health"), std::runtime_error);
}

TEST_F(ServerFixture, ComputerTurnsArriveOneStepPerUpdate) {
  HttpConnection connection(port());
  const json game = create_game(connection, {{"opponent", "easy"}, {"auto_pass", true}});
  SocketConnection socket(port(), "/api/games/" + game["id"].get<std::string>() + "/ws");
  socket.receive();
  // Play light until the computer has taken a turn with at least one step.
  json state = game;
  int computer_updates = 0;
  for (int i = 0; i < 50 && computer_updates == 0; ++i) {
    const std::string phase = state["phase"];
    socket.send(phase == "move"
                    ? with_token({{"action", "move"}, {"from", state["legal_moves"][0]["from"]}})
                    : with_token({{"action", "throw"}}));
    do {
      const json update = json::parse(socket.receive());
      ASSERT_EQ(update["type"], "update") << update.dump();
      state = update["game"];
      if (!update["events"].empty() && update["events"][0].value("side", "") == "dark") {
        EXPECT_EQ(update["events"].size(), 1u);  // one throw, move or pass per update
        ++computer_updates;
      }
    } while (state["to_move"] == "dark");
  }
  EXPECT_GT(computer_updates, 0);
}

TEST_F(ServerFixture, AGameSurvivesARestartOfTheServer) {
  json game;
  {
    HttpConnection connection(port());
    game = create_game(connection, {{"opponent", "medium"}});
    const HttpReply thrown =
        authorized("POST", "/api/games/" + game["id"].get<std::string>() + "/throw");
    game = json::parse(thrown.body)["game"];
    game.erase("server_time");
  }
  server_.reset();
  start();
  HttpConnection connection(port());
  const HttpReply resumed =
      connection.request("GET", "/api/games/" + game["id"].get<std::string>());
  ASSERT_EQ(resumed.status, 200);
  json after = json::parse(resumed.body)["game"];
  after.erase("server_time");
  EXPECT_EQ(after, game);
}

TEST_F(ServerFixture, APortInUseIsAClearError) {
  HubOptions hub;
  hub.data_dir = data_dir_;
  hub.make_agent = testing::test_agent_maker();
  ServerOptions options;
  options.port = port();
  try {
    HttpServer second(std::move(hub), options);
    FAIL() << "a second server bound the same port";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("in use"), std::string::npos) << error.what();
  }
}

TEST_F(ServerFixture, ChangesComeOnlyFromTheServersOwnOrAllowedOrigins) {
  ServerOptions options = quiet_options();
  options.trusted_origins.push_back(parse_origin_option("https://ur.example.org", "--public-url"));
  restart(options);
  const std::string json_type = "Content-Type: application/json\r\n";
  const std::string body = R"({"settings":{"opponent":"friend"}})";

  const std::string foreign = raw(
      "POST", "/api/games", host_header() + json_type + "Origin: http://evil.example\r\n", body);
  EXPECT_TRUE(foreign.starts_with("HTTP/1.1 403")) << foreign;
  EXPECT_NE(foreign.find("bad_origin"), std::string::npos) << foreign;
  EXPECT_NE(foreign.find("http://evil.example"), std::string::npos) << foreign;
  EXPECT_NE(foreign.find(own_origin()), std::string::npos) << foreign;
  for (const std::string& origin : {own_origin(), "http://localhost:" + std::to_string(port()),
                                    std::string("https://ur.example.org")}) {
    const std::string created =
        raw("POST", "/api/games", host_header() + json_type + "Origin: " + origin + "\r\n", body);
    EXPECT_TRUE(created.starts_with("HTTP/1.1 201")) << origin << ": " << created;
  }

  HttpConnection connection(port());
  const json game = create_game(connection, {{"opponent", "friend"}});
  const std::string ws = "/api/games/" + game["id"].get<std::string>() + "/ws";
  try {
    SocketConnection refused(port(), ws, "http://evil.example");
    ADD_FAILURE() << "a foreign page opened the game's WebSocket";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("403"), std::string::npos) << error.what();
  }
  for (const std::string& origin : {own_origin(), std::string("https://ur.example.org")}) {
    SocketConnection socket(port(), ws, origin);
    EXPECT_EQ(json::parse(socket.receive())["type"], "update") << origin;
  }
  EXPECT_EQ(json::parse(connection.request("GET", "/api/games/" + game["id"].get<std::string>())
                            .body)["game"]["version"],
            game["version"]);
}

TEST_F(ServerFixture, RefusesUnknownHostsAndNonJsonBodies) {
  const std::string rebound =
      raw("GET", "/api/health", "Host: evil.example:" + std::to_string(port()) + "\r\n");
  EXPECT_TRUE(rebound.starts_with("HTTP/1.1 421")) << rebound;
  EXPECT_NE(rebound.find("bad_host"), std::string::npos) << rebound;
  EXPECT_TRUE(raw("GET", "/", "").starts_with("HTTP/1.1 400"));  // no Host at all
  EXPECT_TRUE(raw("GET", "/api/health", host_header()).starts_with("HTTP/1.1 200"));
  EXPECT_TRUE(raw("GET", "/api/health", "Host: localhost:" + std::to_string(port()) + "\r\n")
                  .starts_with("HTTP/1.1 200"));

  const std::string form = raw("POST", "/api/games", host_header() + "Content-Type: text/plain\r\n",
                               R"({"settings":{}})");
  EXPECT_TRUE(form.starts_with("HTTP/1.1 415")) << form;
  EXPECT_NE(form.find("bad_content_type"), std::string::npos) << form;
  EXPECT_NE(form.find("application/json"), std::string::npos) << form;
}

TEST_F(ServerFixture, TheTwentyFirstActionWithinTheWindowIsRefusedAndChangesNothing) {
  using namespace std::chrono_literals;
  ServerOptions options = quiet_options();
  options.rate_limit_window = 5s;  // 20 actions within 5 s: room for a slow machine
  restart(options);
  const auto begin = std::chrono::steady_clock::now();
  HttpConnection connection(port());
  const json game = create_game(connection, {{"opponent", "friend"}});  // action 1
  const std::string base = "/api/games/" + game["id"].get<std::string>();
  const json thrown = timeless(json::parse(authorized("POST", base + "/throw").body)["game"]);
  // Refused for want of a seat token, each still counts as an action of this connection.
  for (int action = 2; action <= 20; ++action) {
    EXPECT_EQ(connection.request("POST", base + "/throw").status, 401) << action;
  }
  const bool can_move = thrown["phase"] == "move";
  const std::string intent = base + (can_move ? "/move" : "/pass");
  const std::string intent_body =
      can_move ? json{{"from", thrown["legal_moves"][0]["from"]}}.dump() : "";
  const HttpReply limited = connection.request("POST", intent, intent_body);
  ASSERT_LT(std::chrono::steady_clock::now() - begin, 5s) << "the machine was too slow to test";
  EXPECT_EQ(limited.status, 429) << limited.body;
  EXPECT_EQ(json::parse(limited.body)["code"], "rate_limited");
  // Reading still works on the same connection, and the game is as it was.
  const HttpReply unchanged = connection.request("GET", base);
  ASSERT_EQ(unchanged.status, 200);
  EXPECT_EQ(timeless(json::parse(unchanged.body)["game"]), thrown);

  // A WebSocket counts its own messages, bad ones included.
  SocketConnection socket(port(), base + "/ws");
  socket.receive();
  const auto socket_begin = std::chrono::steady_clock::now();
  for (int message = 1; message <= 20; ++message) socket.send("not json");
  socket.send(with_token({{"action", "resign"}}));
  for (int message = 1; message <= 20; ++message) {
    EXPECT_EQ(json::parse(socket.receive())["code"], "bad_json") << message;
  }
  const json refused = json::parse(socket.receive());
  EXPECT_EQ(refused["type"], "error");
  EXPECT_EQ(refused["code"], "rate_limited");
  EXPECT_EQ(refused["action"], "resign");
  EXPECT_EQ(timeless(json::parse(connection.request("GET", base).body)["game"]), thrown);

  // Once the window has passed its oldest action, each connection is heard again. The server
  // stamps an action when it reads it, a little after it was sent, so the first try may still
  // fall within the window: `act` is tried again shortly while `still_limited` says it was refused.
  const auto after_window = [](std::chrono::steady_clock::time_point window_began, auto act,
                               auto still_limited) {
    std::this_thread::sleep_until(window_began + 5100ms);
    auto answer = act();
    for (int attempt = 1; attempt < 50 && still_limited(answer); ++attempt) {
      std::this_thread::sleep_for(200ms);
      answer = act();
    }
    return answer;
  };
  const int status = after_window(
      begin, [&] { return connection.request("POST", intent, intent_body).status; },
      [](int code) { return code == 429; });
  EXPECT_EQ(status, 401);
  const json socket_intent =
      can_move ? json{{"action", "move"}, {"from", thrown["legal_moves"][0]["from"]}}
               : json{{"action", "pass"}};
  const json answer = after_window(
      socket_begin,
      [&] {
        socket.send(with_token(socket_intent));
        return json::parse(socket.receive());
      },
      [](const json& reply) { return reply.value("code", "") == "rate_limited"; });
  EXPECT_EQ(answer["type"], "update") << answer;
}

TEST_F(ServerFixture, ASilentWebSocketIsDropped) {
  using namespace std::chrono_literals;
  ServerOptions options = quiet_options();
  options.socket_idle_timeout = 1s;
  restart(options);
  HttpConnection connection(port());
  const json game = create_game(connection, {{"opponent", "friend"}});
  SocketConnection socket(port(), "/api/games/" + game["id"].get<std::string>() + "/ws");
  socket.receive();
  // Not reading, this client answers no ping: the server gives up on it.
  std::this_thread::sleep_for(2500ms);
  EXPECT_THROW(
      {
        for (int i = 0; i < 10; ++i) socket.receive();
      },
      std::runtime_error);
}

}  // namespace
}  // namespace ur::server
