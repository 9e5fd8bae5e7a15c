// End-to-end: `ur play --host` in a pseudo-terminal (a private tmux server) against a real
// `ur serve` on a free 127.0.0.1 port with a throw-away data directory; the friend is a C++
// client (server/http_client.h) that joins through the invite printed on the screen. Every
// wait is bounded. Labelled "e2e", not "unit".
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "play/tmux_test_support.h"
#include "server/http_client.h"

namespace {

using nlohmann::json;
using ur::play::testing::has_tmux;
using ur::play::testing::shell;
using ur::play::testing::Tmux;

const std::string kUr = UR_BINARY;

std::uint16_t free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

// The whole file at `path`, or "" when it cannot be read.
std::string read_text(const std::string& path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// `ur serve` on 127.0.0.1 with its own data directory, stopped (SIGTERM, then SIGKILL after
// 5 s) and removed at the end. The first start takes a port the system picks (--port 0, so no
// other process can take it between choosing and binding); a restart keeps that port.
class Server {
 public:
  Server()
      : dir_("/tmp/ur-online-e2e-" + std::to_string(getpid()) + "-" + std::to_string(++count_)) {
    shell("rm -rf " + dir_ + " && mkdir -p " + dir_);
    start();
  }
  ~Server() {
    stop();
    shell("rm -rf " + dir_);
  }

  // Starts the server on its port (the first time, one it picks and names in its "open
  // http://127.0.0.1:PORT/" line); waits up to 30 s for it to answer.
  void start() {
    const std::string log = dir_ + "/server.log";
    std::filesystem::remove(log);
    pid_ = fork();
    if (pid_ == 0) {
      setenv("XDG_DATA_HOME", dir_.c_str(), 1);
      if (freopen(log.c_str(), "a", stdout) == nullptr ||
          freopen(log.c_str(), "a", stderr) == nullptr)
        _exit(126);
      const std::string port = std::to_string(port_);
      execl(kUr.c_str(), "ur", "serve", "--host", "127.0.0.1", "--port", port.c_str(), "--data",
            dir_.c_str(), "--quiet", static_cast<char*>(nullptr));
      _exit(127);
    }
    const std::string marker = "open http://127.0.0.1:";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      if (port_ == 0) {
        const std::string text = read_text(log);
        if (const auto at = text.find(marker); at != std::string::npos) {
          port_ = static_cast<std::uint16_t>(std::stoi(text.substr(at + marker.size())));
        }
      }
      try {
        if (port_ != 0 && request("GET", "/api/health").status == 200) return;
      } catch (const std::runtime_error&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "ur serve did not answer within 30 s: " << read_text(log);
  }
  // SIGTERM, then SIGKILL after 5 s.
  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 50 && waitpid(pid_, &status, WNOHANG) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (waitpid(pid_, &status, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
    pid_ = -1;
  }

  std::uint16_t port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  ur::server::HttpReply request(const std::string& method, const std::string& target,
                                const json& body = nullptr, const std::string& token = "") {
    ur::server::HttpHeaders headers;
    if (!token.empty()) headers.emplace_back("Authorization", "Bearer " + token);
    ur::server::HttpConnection connection(ur::server::ServerAddress{"127.0.0.1", port_}, 10000);
    return connection.request(method, target, body.is_null() ? "" : body.dump(), headers);
  }
  json get(const std::string& target) { return json::parse(request("GET", target).body); }

 private:
  std::uint16_t port_ = 0;  // 0 until the first start has named it
  std::string dir_;
  pid_t pid_ = -1;
  static inline int count_ = 0;
};

// The invite code after "#join=" on the screen, or "".
std::string invite_on(const std::string& screen) {
  const auto at = screen.find("#join=");
  if (at == std::string::npos || at + 6 + 32 > screen.size()) return "";
  return screen.substr(at + 6, 32);
}

// Waits up to `timeout_ms` for the game's version to pass `version`; the new state.
json wait_for_change(Server& server, const std::string& id, std::uint64_t version,
                     int timeout_ms = 8000) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  json game;
  do {
    game = server.get("/api/games/" + id)["game"];
    if (game["version"].get<std::uint64_t>() > version) return game;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  } while (std::chrono::steady_clock::now() < deadline);
  return game;
}

// One step of the game by the side to move: the terminal's side (`terminal_side`) with keys
// in tmux once its screen asks for them, the other through the API with `token`.
struct Step {
  bool by_terminal = false;
  bool turn_done = false;  // a move or a pass (not a throw)
  bool moved = false;
};

Step play_step(Server& server, Tmux& tmux, const std::string& id, const json& game,
               const std::string& terminal_side, const std::string& token) {
  const std::string phase = game["phase"];
  Step step{game["to_move"] == terminal_side, phase != "throw", phase == "move"};
  if (!step.by_terminal) {
    const json body =
        phase == "move" ? json{{"from", game["legal_moves"][0]["from"]}} : json::object();
    server.request("POST", "/api/games/" + id + "/" + phase, body, token);
  } else {
    tmux.wait_for(phase == "throw"  ? "Your turn: throw the dice"
                  : phase == "move" ? "(Enter to move)"
                                    : "press p or Enter to pass");
    tmux.keys(phase == "throw" ? "t" : phase == "move" ? "Enter" : "p");
  }
  return step;
}

TEST(PlayOnlineE2E, HostInTheTerminalPlaysAFriendWhoJoinsByTheLink) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Server server;
  Tmux tmux;
  tmux.start(kUr + " play --host " + server.url() + "/ --name Ann --no-color");
  std::string screen = tmux.wait_for("Waiting for your friend to join…", 15000);
  const std::string code = invite_on(screen);
  ASSERT_EQ(code.size(), 32u) << screen;
  EXPECT_NE(screen.find(server.url() + "/#join=" + code), std::string::npos) << screen;
  EXPECT_NE(screen.find("ur play --join"), std::string::npos) << screen;
  EXPECT_NE(screen.find("○ Shell — you (Ann)"), std::string::npos) << screen;

  // The friend joins with the code from the screen and opens the game's socket.
  const auto joined = server.request("POST", "/api/join", json{{"invite", code}, {"name", "Bob"}});
  ASSERT_EQ(joined.status, 200) << joined.body;
  const json join = json::parse(joined.body);
  ASSERT_EQ(join["side"], "dark") << joined.body;
  const std::string id = join["game"]["id"];
  const std::string token = join["token"];
  auto bob =
      std::make_unique<ur::server::SocketConnection>(server.port(), "/api/games/" + id + "/ws");
  bob->send(json{{"action", "hello"}, {"token", token}}.dump());
  screen = tmux.wait_for("● Bitumen — Bob · connected");
  EXPECT_NE(screen.find("● Bitumen — Bob · connected"), std::string::npos) << screen;

  // Turns both ways: Ann with keys in the terminal, Bob through the API with his token.
  int ann_turns = 0, bob_turns = 0;
  bool saw_bob_narrated = false;
  json game = server.get("/api/games/" + id)["game"];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while ((ann_turns < 4 || bob_turns < 4) && game["phase"] != "game_over" &&
         std::chrono::steady_clock::now() < deadline) {
    while (bob->receive_for(0)) {
    }  // Bob's socket reads its updates (and answers pings)
    const std::uint64_t version = game["version"];
    const Step step = play_step(server, tmux, id, game, "light", token);
    if (step.turn_done) ++(step.by_terminal ? ann_turns : bob_turns);
    if (!step.by_terminal && step.moved && !saw_bob_narrated) {
      screen = tmux.wait_for("Bob moved");
      saw_bob_narrated = screen.find("Bob moved") != std::string::npos;
      EXPECT_TRUE(saw_bob_narrated) << screen;
    }
    game = wait_for_change(server, id, version);
    ASSERT_GT(game["version"].get<std::uint64_t>(), version) << "the game stalled\n"
                                                             << tmux.screen();
  }
  EXPECT_GE(ann_turns, 4) << tmux.screen();
  EXPECT_GE(bob_turns, 4) << tmux.screen();
  EXPECT_TRUE(saw_bob_narrated);

  // The server restarts: the terminal says so, reconnects by itself and plays on.
  if (game["phase"] != "game_over") {
    bob.reset();
    server.stop();
    screen = tmux.wait_for("reconnecting…");
    EXPECT_NE(screen.find("The connection to the server was lost: reconnecting…"),
              std::string::npos)
        << screen;
    server.start();
    // The terminal connects again by itself (it retries within 5 s) and draws the state.
    const std::string lost = "The connection to the server was lost";
    const auto reconnected_by = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    do {
      screen = tmux.screen();
      if (screen.find(lost) == std::string::npos &&
          screen.find("Bob has left") != std::string::npos)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    } while (std::chrono::steady_clock::now() < reconnected_by);
    EXPECT_EQ(screen.find(lost), std::string::npos) << screen;
    EXPECT_NE(screen.find("Bob has left"), std::string::npos) << screen;
    // And plays on: one more step, by whoever is to move.
    game = server.get("/api/games/" + id)["game"];
    const std::uint64_t version = game["version"];
    play_step(server, tmux, id, game, "light", token);
    game = wait_for_change(server, id, version);
    EXPECT_GT(game["version"].get<std::uint64_t>(), version) << tmux.screen();
    bob = std::make_unique<ur::server::SocketConnection>(server.port(), "/api/games/" + id + "/ws");
    bob->send(json{{"action", "hello"}, {"token", token}}.dump());
    screen = tmux.wait_for("Bob is connected");
    EXPECT_NE(screen.find("Bob is connected"), std::string::npos) << screen;
  }

  // Bob closes his socket: Ann sees him leave. He resigns from elsewhere: Ann wins.
  bob.reset();
  screen = tmux.wait_for("Bob has left");
  EXPECT_NE(screen.find("Bob has left"), std::string::npos) << screen;
  const auto resigned =
      server.request("POST", "/api/games/" + id + "/resign", json::object(), token);
  EXPECT_EQ(resigned.status, 200) << resigned.body;
  screen = tmux.wait_for("You win!");
  EXPECT_NE(screen.find("You win!"), std::string::npos) << screen;
  EXPECT_NE(screen.find("Bob resigned."), std::string::npos) << screen;

  // A rematch: Ann asks with n, Bob agrees; the next game is game 2.
  tmux.keys("n");
  screen = tmux.wait_for("rematch asked");
  EXPECT_NE(screen.find("rematch asked: waiting for Bob"), std::string::npos) << screen;
  const auto rematch =
      server.request("POST", "/api/games/" + id + "/rematch", json::object(), token);
  EXPECT_LT(rematch.status, 300) << rematch.body;
  screen = tmux.wait_for("game 2 ·");
  EXPECT_NE(screen.find("game 2 · Ann 1 – 0 Bob"), std::string::npos) << screen;

  // q leaves the seat, and says how to come back.
  tmux.keys("q");
  tmux.wait_for("DONE");
  screen = tmux.joined_screen();
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
  EXPECT_NE(screen.find("COOKED"), std::string::npos) << screen;
  const auto seat_at = screen.find("ur play --join " + server.url() + "/#seat=" + id + ".");
  ASSERT_NE(seat_at, std::string::npos) << screen;
  const std::string seat_link =
      screen.substr(seat_at + 15, screen.find('\n', seat_at) - seat_at - 15);

  // The seat link brings Ann back to her seat (light) of the same game.
  Tmux again;
  again.start(kUr + " play --join '" + seat_link + "' --no-color");
  screen = again.wait_for("game 2 ·", 15000);
  EXPECT_NE(screen.find("○ Shell — you (Ann)"), std::string::npos) << screen;
  EXPECT_NE(screen.find("● Bitumen — Bob"), std::string::npos) << screen;
  again.keys("q");
  screen = again.wait_for("DONE");
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
}

// The other way round: the host is a program, the terminal joins with the invite link.
TEST(PlayOnlineE2E, JoinInTheTerminalPlaysTheOtherSeat) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Server server;
  const auto hosted = server.request(
      "POST", "/api/games",
      json{{"settings", {{"opponent", "online"}, {"name", "Cy"}, {"seat", "light"}}}});
  ASSERT_EQ(hosted.status, 201) << hosted.body;
  const json host = json::parse(hosted.body);
  const std::string id = host["game"]["id"];
  const std::string token = host["token"];
  const std::string invite = host["invite"];

  Tmux tmux;
  tmux.start(kUr + " play --join " + server.url() + "/#join=" + invite + " --name Dee --no-color");
  std::string screen = tmux.wait_for("● Bitumen — you (Dee)", 15000);
  ASSERT_NE(screen.find("● Bitumen — you (Dee)"), std::string::npos) << screen;
  EXPECT_NE(screen.find("○ Shell — Cy"), std::string::npos) << screen;

  int dee_turns = 0, cy_turns = 0;
  json game = server.get("/api/games/" + id)["game"];
  EXPECT_EQ(game["seats"]["dark"]["name"], "Dee") << game.dump();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while ((dee_turns < 2 || cy_turns < 2) && game["phase"] != "game_over" &&
         std::chrono::steady_clock::now() < deadline) {
    const std::uint64_t version = game["version"];
    const Step step = play_step(server, tmux, id, game, "dark", token);
    if (step.turn_done) ++(step.by_terminal ? dee_turns : cy_turns);
    game = wait_for_change(server, id, version);
    ASSERT_GT(game["version"].get<std::uint64_t>(), version) << "the game stalled\n"
                                                             << tmux.screen();
  }
  EXPECT_GE(dee_turns, 2) << tmux.screen();
  EXPECT_GE(cy_turns, 2) << tmux.screen();

  // Resigning asks first, then the host wins.
  tmux.keys("r");
  screen = tmux.wait_for("Resign this game?");
  tmux.keys("y");
  screen = tmux.wait_for("Cy wins!");
  EXPECT_NE(screen.find("Cy wins!"), std::string::npos) << screen;
  game = server.get("/api/games/" + id)["game"];
  EXPECT_EQ(game["winner"], "light");
  EXPECT_EQ(game["resigned"], true);
  tmux.keys("q");
  tmux.wait_for("DONE");
  screen = tmux.joined_screen();
  EXPECT_NE(screen.find("#seat=" + id + "."), std::string::npos) << screen;
  EXPECT_NE(screen.find(".dark\n"), std::string::npos) << screen;
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
}

// A host who quit before the friend came comes back with the seat link: the invite shows
// again. A seat link with a token of no seat is refused.
TEST(PlayOnlineE2E, TheHostComesBackWhileWaitingAndSeesTheInviteAgain) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Server server;
  const auto hosted = server.request("POST", "/api/games",
                                     json{{"settings", {{"opponent", "online"}, {"name", "Eve"}}}});
  ASSERT_EQ(hosted.status, 201) << hosted.body;
  const json host = json::parse(hosted.body);
  const std::string id = host["game"]["id"];
  const std::string token = host["token"];
  const std::string invite = host["invite"];

  Tmux tmux;
  // Without the side in the link, as an older page might have written it.
  tmux.start(kUr + " play --join " + server.url() + "/#seat=" + id + "." + std::string(64, 'e') +
             "; echo A=$?; " + kUr + " play --join " + server.url() + "/#seat=" + id + "." + token +
             " --no-color");
  std::string screen = tmux.wait_for("Waiting for your friend to join…", 15000);
  EXPECT_NE(screen.find(server.url() + "/#join=" + invite), std::string::npos) << screen;
  EXPECT_NE(screen.find("○ Shell — you (Eve)"), std::string::npos) << screen;
  tmux.keys("q");
  tmux.wait_for("DONE");
  screen = tmux.joined_screen();
  EXPECT_NE(screen.find("ur play --join: this seat link's token holds no seat of game " + id),
            std::string::npos)
      << screen;
  EXPECT_NE(screen.find("A=1"), std::string::npos) << screen;
  EXPECT_NE(screen.find("EXIT=0"), std::string::npos) << screen;
}

TEST(PlayOnlineE2E, BadLinksUsedInvitesAndAnUnreachableServerAreOneLineErrors) {
  if (!has_tmux()) GTEST_SKIP() << "tmux is not installed";
  Server server;
  // A used invite: a game hosted and joined through the API.
  const auto hosted = server.request("POST", "/api/games",
                                     json{{"settings", {{"opponent", "online"}, {"name", "Cy"}}}});
  ASSERT_EQ(hosted.status, 201) << hosted.body;
  const std::string used = json::parse(hosted.body)["invite"];
  ASSERT_EQ(server.request("POST", "/api/join", json{{"invite", used}}).status, 200);
  const std::string unknown(32, 'f');
  const std::uint16_t closed = free_port();  // nothing listens there

  Tmux tmux;
  tmux.start(kUr + " play --join " + server.url() + "/#join=" + used + "; echo A=$?; " + kUr +
             " play --join " + server.url() + "/#join=" + unknown + "; echo B=$?; " + kUr +
             " play --join http://127.0.0.1:" + std::to_string(closed) + "/#join=" + unknown +
             "; echo C=$?; " + kUr + " play --join https://127.0.0.1/#join=" + unknown +
             "; echo D=$?; " + kUr + " play --join http://127.0.0.1:8080/ ; echo E=$?; " + kUr +
             " play --host http://127.0.0.1:99999/");
  tmux.wait_for("DONE", 30000);
  const std::string screen = tmux.joined_screen();
  EXPECT_NE(screen.find("ur play --join: this invite was used already: watch the game in a "
                        "browser at " +
                        server.url() + "/#watch="),
            std::string::npos)
      << screen;
  EXPECT_NE(screen.find("A=1"), std::string::npos) << screen;
  EXPECT_NE(screen.find("has no game with this invite"), std::string::npos) << screen;
  EXPECT_NE(screen.find("B=1"), std::string::npos) << screen;
  EXPECT_NE(screen.find("ur play --join: cannot reach the server at http://127.0.0.1:" +
                        std::to_string(closed)),
            std::string::npos)
      << screen;
  EXPECT_NE(screen.find("C=1"), std::string::npos) << screen;
  EXPECT_NE(screen.find("ur play --join: https:// is not supported"), std::string::npos) << screen;
  EXPECT_NE(screen.find("D=2"), std::string::npos) << screen;
  EXPECT_NE(screen.find("has no invite: expected http://HOST:PORT/#join=CODE"), std::string::npos)
      << screen;
  EXPECT_NE(screen.find("E=2"), std::string::npos) << screen;
  EXPECT_NE(screen.find("ur play --host: the port \"99999\" is not a number from 1 to 65535"),
            std::string::npos)
      << screen;
  EXPECT_NE(screen.find("EXIT=2"), std::string::npos) << screen;
}

}  // namespace
