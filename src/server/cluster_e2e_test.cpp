// End-to-end: two real `ur serve --database postgresql://...` processes on one throwaway
// PostgreSQL cluster (scripts/pg-cluster.sh: Unix socket only, run as `nobody` under root),
// one cluster for the suite and a database for each test. Players, spectators, races, faults (kill
// -9, a database restart), the SQLite import, bad input and the SIGTERM drain. Every wait is
// bounded; a missing PostgreSQL fails the tests. Labelled "e2e".
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <latch>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "server/http_client.h"

namespace {

using nlohmann::json;
using ur::server::HttpConnection;
using ur::server::HttpHeaders;
using ur::server::HttpReply;
using ur::server::ServerAddress;
using ur::server::SocketConnection;
using Clock = std::chrono::steady_clock;

const std::string kUr = UR_BINARY;
const std::string kPgCluster = UR_PG_CLUSTER_SCRIPT;

struct CommandRun {
  int status = -1;
  std::string output;  // stdout and stderr
};

// A shell command line, bounded by `timeout` (seconds); its output and exit status.
CommandRun run(const std::string& line, int timeout = 60) {
  CommandRun result;
  const std::string command = "timeout " + std::to_string(timeout) + " " + line + " 2>&1";
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) result.output += buffer;
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string unique_name(const std::string& what) {
  static int count = 0;
  return "/tmp/ur-cl-" + what + "-" + std::to_string(getpid()) + "-" + std::to_string(++count);
}

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// A directory removed at the end, whatever the test's outcome.
struct TempDir {
  explicit TempDir(std::string where) : path(std::move(where)) {
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string path;
};

// A throwaway PostgreSQL cluster, removed at the end.
class Cluster {
 public:
  Cluster() : dir_(unique_name("pg")) {
    const CommandRun started = run(kPgCluster + " start " + dir_);
    url_ = started.output.substr(0, started.output.find('\n'));
    ok_ = started.status == 0 && url_.starts_with("postgresql://");
    EXPECT_TRUE(ok_) << "no PostgreSQL cluster (is PostgreSQL installed? "
                        "scripts/install-deps.sh): "
                     << started.output;
  }
  ~Cluster() { run(kPgCluster + " stop " + dir_); }
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  bool ok() const { return ok_; }
  // The URL of database `name` (the cluster's own is "ur").
  std::string url(const std::string& name = "ur") const {
    std::string other = url_;
    other.replace(other.find("/ur?"), 4, "/" + name + "?");
    return other;
  }
  void down() const { EXPECT_EQ(run(kPgCluster + " down " + dir_).status, 0); }
  void up() const { EXPECT_EQ(run(kPgCluster + " up " + dir_).status, 0); }

 private:
  std::string dir_;
  std::string url_;
  bool ok_ = false;
};

CommandRun run_psql(const std::string& url, const std::string& sql) {
  return run("psql -X -q -t -A -v ON_ERROR_STOP=1 '" + url + "' -c \"" + sql + "\"", 20);
}

// One test's own database in the suite's cluster.
class Database {
 public:
  Database(const Cluster& cluster, std::string name)
      : cluster_(cluster), url_(cluster.url(std::move(name))) {}
  const std::string& url() const { return url_; }
  // The URL with another password (the same user and socket).
  std::string url_with_password(const std::string& password) const {
    std::string other = url_;
    other.replace(other.find(":ur-test@"), 9, ":" + password + "@");
    return other;
  }
  CommandRun psql(const std::string& sql) const { return run_psql(url_, sql); }
  // The whole cluster goes down and comes back (every test's database with it).
  void down() const { cluster_.down(); }
  void up() const { cluster_.up(); }

 private:
  const Cluster& cluster_;
  std::string url_;
};

// One `ur serve` process on 127.0.0.1 (a free port), its output in its own log file.
class Server {
 public:
  // `storage`: the arguments that say where games are kept, e.g. {"--database", URL}.
  explicit Server(std::vector<std::string> storage) : dir_(unique_name("serve")) {
    std::filesystem::create_directories(dir_);
    arguments_ = {"ur", "serve", "--host", "127.0.0.1", "--port", "0", "--quiet"};
    // Solved tables (and the default SQLite file) go under a --data of its own unless given.
    if (std::find(storage.begin(), storage.end(), "--data") == storage.end()) {
      arguments_.insert(arguments_.end(), {"--data", dir_});
    }
    arguments_.insert(arguments_.end(), storage.begin(), storage.end());
    start();
  }
  ~Server() {
    stop();
    std::filesystem::remove_all(dir_);
  }
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Starts the process; waits up to 20 s for its "open http://127.0.0.1:PORT/" line.
  void start() {
    const std::string log = dir_ + "/server.log";
    std::filesystem::remove(log);
    pid_ = fork();
    if (pid_ == 0) {
      setenv("XDG_DATA_HOME", dir_.c_str(), 1);
      const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd < 0) _exit(126);
      dup2(fd, 1);
      dup2(fd, 2);
      std::vector<char*> argv;
      for (std::string& argument : arguments_) argv.push_back(argument.data());
      argv.push_back(nullptr);
      execv(kUr.c_str(), argv.data());
      _exit(127);
    }
    const std::string marker = "open http://127.0.0.1:";
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    while (Clock::now() < deadline) {
      const std::string text = read_file(log);
      if (const auto at = text.find(marker); at != std::string::npos) {
        port_ = static_cast<std::uint16_t>(std::stoi(text.substr(at + marker.size())));
        return;
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        ADD_FAILURE() << "ur serve exited at start: " << text;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "ur serve did not start within 20 s: " << read_file(log);
  }
  // SIGTERM; SIGKILL after 10 s. The exit status, or -1 when it had to be killed.
  int stop() {
    if (pid_ <= 0) return -1;
    kill(pid_, SIGTERM);
    return wait_exit(10000);
  }
  // Waits up to `timeout_ms` for the process to exit by itself, then kills it.
  int wait_exit(int timeout_ms) {
    int status = 0;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (Clock::now() < deadline) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill_hard();
    return -1;
  }
  void kill_hard() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  void signal(int number) const { kill(pid_, number); }

  std::uint16_t port() const { return port_; }
  std::string log() const { return read_file(dir_ + "/server.log"); }

  HttpReply request(const std::string& method, const std::string& target,
                    const json& body = nullptr, const std::string& token = "") const {
    HttpHeaders headers;
    if (!token.empty()) headers.emplace_back("Authorization", "Bearer " + token);
    if (!body.is_null()) headers.emplace_back("Content-Type", "application/json");
    HttpConnection connection(ServerAddress{"127.0.0.1", port_}, 10000);
    return connection.request(method, target, body.is_null() ? "" : body.dump(), headers);
  }
  json game(const std::string& id) const {
    const HttpReply reply = request("GET", "/api/games/" + id);
    EXPECT_EQ(reply.status, 200) << reply.body;
    return json::parse(reply.body)["game"];
  }
  std::unique_ptr<SocketConnection> socket(const std::string& id) const {
    return std::make_unique<SocketConnection>(ServerAddress{"127.0.0.1", port_},
                                              "/api/games/" + id + "/ws", 10000);
  }

 private:
  std::string dir_;
  std::vector<std::string> arguments_;
  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
};

std::vector<std::string> on(const Database& database) {
  return {"--database", database.url()};
}

json body_of(const HttpReply& reply) {
  try {
    return json::parse(reply.body);
  } catch (const json::exception&) {
    return json{{"unparsed", reply.body}};
  }
}

// One seat of an online game: its token, its server and its socket there.
struct Player {
  const Server* server = nullptr;
  std::string token;
  std::string side;
  std::unique_ptr<SocketConnection> socket;

  void connect(const std::string& id) {
    socket = server->socket(id);
    socket->send(json{{"action", "hello"}, {"token", token}}.dump());
  }
};

// Waits up to `timeout_ms` on `socket` for an update whose game version is at least
// `version`; that update's game, or null. Every update's version goes to `seen`.
json await_version(SocketConnection& socket, std::uint64_t version, int timeout_ms = 30000,
                   std::set<std::uint64_t>* seen = nullptr) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (Clock::now() < deadline) {
    const int left = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
    const auto message = socket.receive_for(std::max(left, 1));
    if (!message) break;
    const json update = json::parse(*message);
    if (update.value("type", "") != "update") continue;
    const std::uint64_t got = update["game"]["version"];
    if (seen != nullptr) seen->insert(got);
    if (got >= version) return update["game"];
  }
  return nullptr;
}

// An online game: the host on `host_server` (light), the friend joining on `friend_server`.
struct OnlineGame {
  std::string id;
  Player light;
  Player dark;
  json game;
  std::string invite;
};

OnlineGame host_game(const Server& host_server, const json& extra = json::object()) {
  OnlineGame online;
  json settings = {{"opponent", "online"}, {"name", "Ann"}, {"pieces", 3}};
  settings.update(extra);
  const HttpReply created = host_server.request("POST", "/api/games", {{"settings", settings}});
  EXPECT_EQ(created.status, 201) << created.body;
  const json answer = body_of(created);
  online.id = answer["game"].value("id", "");
  online.invite = answer.value("invite", "");
  online.light = Player{&host_server, answer.value("token", ""), "light", nullptr};
  online.game = answer["game"];
  return online;
}

void join_game(OnlineGame& online, const Server& friend_server) {
  const HttpReply joined =
      friend_server.request("POST", "/api/join", {{"invite", online.invite}, {"name", "Bob"}});
  EXPECT_EQ(joined.status, 200) << joined.body;
  const json answer = body_of(joined);
  EXPECT_EQ(answer.value("side", ""), "dark") << joined.body;
  online.dark = Player{&friend_server, answer.value("token", ""), "dark", nullptr};
  online.game = answer["game"];
}

OnlineGame start_online_game(const Server& host_server, const Server& friend_server) {
  OnlineGame online = host_game(host_server);
  join_game(online, friend_server);
  return online;
}

// The side to move acts once through its own server (its phase's intent, the first legal
// move); the reply.
HttpReply act(OnlineGame& online) {
  Player& player = online.game["to_move"] == "light" ? online.light : online.dark;
  const std::string phase = online.game["phase"];
  json intent = {{"side", player.side}, {"version", online.game["version"]}};
  if (phase == "move") intent["from"] = online.game["legal_moves"][0]["from"];
  return player.server->request("POST", "/api/games/" + online.id + "/" + phase, intent,
                                player.token);
}

// Plays up to `actions` actions (all of them when negative), each by the side to move on its
// own server; after each, the other player's socket (on the other server) gets the update.
// Versions the replies reached go to `reached`.
void play(OnlineGame& online, int actions, std::set<std::uint64_t>* reached = nullptr) {
  const auto deadline = Clock::now() + std::chrono::seconds(90);
  for (int done = 0; actions < 0 || done < actions; ++done) {
    if (online.game["phase"] == "game_over") return;
    ASSERT_LT(Clock::now(), deadline) << "the game did not end within 90 s";
    const HttpReply reply = act(online);
    ASSERT_EQ(reply.status, 200) << reply.body;
    online.game = body_of(reply)["game"];
    const std::uint64_t version = online.game["version"];
    if (reached != nullptr) reached->insert(version);
    // The mover is the side that moved before this reply; the other side is told.
    for (Player* other : {&online.light, &online.dark}) {
      if (other->socket == nullptr || other->server == nullptr) continue;
      const json pushed = await_version(*other->socket, version);
      ASSERT_FALSE(pushed.is_null()) << other->side << " was not told of version " << version;
    }
  }
}

// A state without what differs between servers and times: the clock and presence.
json comparable(json game) {
  game.erase("server_time");
  game.erase("seats");
  game.erase("claim_win_after");
  return game;
}

// One cluster for the suite (initdb takes seconds), a fresh database for each test.
class ClusterE2E : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { shared_ = new Cluster(); }
  static void TearDownTestSuite() {
    delete shared_;
    shared_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(shared_->ok());
    const std::string name = "t" + std::to_string(++databases_);
    const CommandRun created = run_psql(shared_->url(), "CREATE DATABASE " + name);
    ASSERT_EQ(created.status, 0) << created.output;
    database_ = std::make_unique<Database>(*shared_, name);
  }

  static inline Cluster* shared_ = nullptr;
  static inline int databases_ = 0;
  std::unique_ptr<Database> database_;
};

TEST_F(ClusterE2E, OnlineGameWithOnePlayerOnEachServerAndASpectatorOnTheFirst) {
  Server first(on(*database_));
  Server second(on(*database_));
  OnlineGame online = start_online_game(first, second);
  ASSERT_FALSE(online.id.empty());
  // Each seat connected on its own server shows as connected on both (presence is shared).
  online.light.connect(online.id);
  online.dark.connect(online.id);
  auto spectator = first.socket(online.id);
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  json seats;
  for (; Clock::now() < deadline; std::this_thread::sleep_for(std::chrono::milliseconds(50))) {
    seats = second.game(online.id)["seats"];
    if (seats["light"]["connected"] == true && seats["dark"]["connected"] == true) break;
  }
  EXPECT_EQ(seats["light"]["connected"], true) << seats;
  EXPECT_EQ(seats["dark"]["connected"], true) << seats;

  std::set<std::uint64_t> reached;
  play(online, -1, &reached);
  ASSERT_EQ(online.game["phase"], "game_over");
  EXPECT_FALSE(online.game["winner"].is_null());

  // The spectator on the first server saw every version, those made on the second included.
  std::set<std::uint64_t> watched;
  const std::uint64_t last = online.game["version"];
  EXPECT_FALSE(await_version(*spectator, last, 30000, &watched).is_null());
  for (const std::uint64_t version : reached) {
    EXPECT_TRUE(watched.count(version)) << "the spectator missed version " << version;
  }
  EXPECT_EQ(comparable(first.game(online.id)), comparable(second.game(online.id)));
}

TEST_F(ClusterE2E, TwoHundredConcurrentThrowsOverBothServersAcceptExactlyOne) {
  Server first(on(*database_));
  Server second(on(*database_));
  OnlineGame online = start_online_game(first, second);
  ASSERT_EQ(online.game["phase"], "throw");
  const std::string token =
      online.game["to_move"] == "light" ? online.light.token : online.dark.token;
  const std::uint64_t version = online.game["version"];

  constexpr int kThrows = 200;
  std::vector<std::unique_ptr<HttpConnection>> connections;
  for (int i = 0; i < kThrows; ++i) {
    const Server& server = i % 2 == 0 ? first : second;
    connections.push_back(
        std::make_unique<HttpConnection>(ServerAddress{"127.0.0.1", server.port()}, 15000));
  }
  std::vector<HttpReply> replies(kThrows);
  std::vector<std::string> failures(kThrows);
  std::latch ready(kThrows);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThrows; ++i) {
    threads.emplace_back([&, i] {
      ready.arrive_and_wait();
      try {
        replies[i] = connections[i]->request(
            "POST", "/api/games/" + online.id + "/throw", "{}",
            {{"Authorization", "Bearer " + token}, {"Content-Type", "application/json"}});
      } catch (const std::exception& error) {
        failures[i] = error.what();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();

  int accepted = 0;
  std::map<std::string, int> refusals;
  for (int i = 0; i < kThrows; ++i) {
    ASSERT_TRUE(failures[i].empty()) << "throw " << i << ": " << failures[i];
    ASSERT_LT(replies[i].status, 500) << replies[i].body;
    if (replies[i].status == 200) {
      ++accepted;
    } else {
      EXPECT_EQ(replies[i].status, 409) << replies[i].body;
      ++refusals[body_of(replies[i]).value("code", "")];
    }
  }
  EXPECT_EQ(accepted, 1);
  // Every loser is refused as a second tab is: the throw already waits.
  EXPECT_EQ(refusals["throw_pending"], kThrows - 1) << json(refusals);
  const json after = second.game(online.id);
  EXPECT_EQ(after["version"], version + 1);
  EXPECT_NE(after["phase"], "throw");
}

TEST_F(ClusterE2E, KilledServersPlayerFinishesOnTheOtherWithNothingLost) {
  Server first(on(*database_));
  auto second = std::make_unique<Server>(on(*database_));
  OnlineGame online = start_online_game(first, *second);
  online.light.connect(online.id);
  online.dark.connect(online.id);
  play(online, 8);
  ASSERT_NE(online.game["phase"], "game_over");
  const json before = comparable(online.game);

  // Kill -9 the friend's server while an action of the host may be in flight on the first.
  std::thread in_flight([&] {
    try {
      (void)act(online);
    } catch (const std::exception&) {
    }
  });
  second->kill_hard();
  in_flight.join();
  second.reset();

  // The friend reconnects to the first server; the game is as it was, or one action on.
  json game = first.game(online.id);
  const std::uint64_t version = game["version"];
  ASSERT_TRUE(version == before["version"].get<std::uint64_t>() ||
              version == before["version"].get<std::uint64_t>() + 1)
      << game["version"] << " after " << before["version"];
  if (version == before["version"].get<std::uint64_t>()) {
    EXPECT_EQ(comparable(game), before);
  }
  // The story so far is kept, word for word.
  ASSERT_GE(game["log"].size(), before["log"].size());
  for (std::size_t i = 0; i < before["log"].size(); ++i) {
    EXPECT_EQ(game["log"][i], before["log"][i]) << i;
  }
  online.game = game;
  online.dark.server = &first;
  online.dark.connect(online.id);
  play(online, -1);
  EXPECT_EQ(online.game["phase"], "game_over");
  EXPECT_FALSE(online.game["winner"].is_null());
}

TEST_F(ClusterE2E, DatabaseRestartAnswersTryAgainThenCarriesOn) {
  Server first(on(*database_));
  Server second(on(*database_));
  OnlineGame online = start_online_game(first, second);
  online.light.connect(online.id);
  online.dark.connect(online.id);
  play(online, 6);
  ASSERT_NE(online.game["phase"], "game_over");
  const json before = comparable(online.game);

  database_->down();
  for (const Server* server : {&first, &second}) {
    const HttpReply health = server->request("GET", "/api/health");
    EXPECT_EQ(health.status, 503) << health.body;
    EXPECT_EQ(body_of(health)["database"]["reachable"], false) << health.body;
    // The side to move's action, which would change the game: "try again", nothing changed.
    const Player& mover = online.game["to_move"] == "light" ? online.light : online.dark;
    const std::string phase = online.game["phase"];
    json intent = {{"version", online.game["version"]}};
    if (phase == "move") intent["from"] = online.game["legal_moves"][0]["from"];
    const HttpReply refused =
        server->request("POST", "/api/games/" + online.id + "/" + phase, intent, mover.token);
    EXPECT_EQ(refused.status, 503) << refused.body;
    EXPECT_EQ(body_of(refused).value("code", ""), "database_unavailable") << refused.body;
  }
  database_->up();
  // Both servers reconnect by themselves.
  for (const Server* server : {&first, &second}) {
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    int status = 0;
    for (; Clock::now() < deadline; std::this_thread::sleep_for(std::chrono::milliseconds(100))) {
      status = server->request("GET", "/api/health").status;
      if (status == 200) break;
    }
    EXPECT_EQ(status, 200) << server->log();
  }
  EXPECT_EQ(comparable(first.game(online.id)), before);
  EXPECT_EQ(comparable(second.game(online.id)), before);
  // Moves still cross between the servers (both listen again), to the end of the game.
  play(online, -1);
  EXPECT_EQ(online.game["phase"], "game_over");
}

// Plays `actions` actions of a one-device game (a friend game or against the computer) with
// its one token; the last state.
json play_alone(const Server& server, const std::string& id, const std::string& token,
                int actions) {
  json game = server.game(id);
  for (int i = 0; i < actions && game["phase"] != "game_over"; ++i) {
    const std::string phase = game["phase"];
    json intent = {{"version", game["version"]}};
    if (phase == "move") intent["from"] = game["legal_moves"][0]["from"];
    const HttpReply reply = server.request("POST", "/api/games/" + id + "/" + phase, intent, token);
    EXPECT_EQ(reply.status, 200) << reply.body;
    if (reply.status != 200) break;
    game = body_of(reply)["game"];
  }
  return game;
}

TEST_F(ClusterE2E, ImportedSqliteGamesContinueOnPostgresql) {
  // Games made by this release on SQLite: online ones (under way, waiting for the friend,
  // over), one against the computer and one between friends on one device.
  const TempDir sqlite(unique_name("sqlite"));
  const std::string& sqlite_dir = sqlite.path;
  std::map<std::string, json> states;
  OnlineGame running, waiting, over;
  std::string computer_id, computer_token, friends_id, friends_token;
  {
    Server old({"--data", sqlite_dir});
    running = start_online_game(old, old);
    play(running, 7);
    waiting = host_game(old);
    over = start_online_game(old, old);
    play(over, -1);
    ASSERT_EQ(over.game["phase"], "game_over");
    for (const char* opponent : {"easy", "friend"}) {
      const HttpReply created = old.request(
          "POST", "/api/games", {{"settings", {{"opponent", opponent}, {"pieces", 3}}}});
      ASSERT_EQ(created.status, 201) << created.body;
      const json answer = body_of(created);
      (opponent == std::string("easy") ? computer_id : friends_id) = answer["game"]["id"];
      (opponent == std::string("easy") ? computer_token : friends_token) = answer["token"];
    }
    play_alone(old, computer_id, computer_token, 3);
    play_alone(old, friends_id, friends_token, 5);
    for (const std::string& id : {running.id, waiting.id, over.id, computer_id, friends_id}) {
      states[id] = comparable(old.game(id));
    }
    EXPECT_EQ(old.stop(), 0);
  }

  const std::string file = sqlite_dir + "/games.sqlite3";
  const CommandRun imported =
      run("'" + kUr + "' serve --database '" + database_->url() + "' --import-sqlite " + file);
  EXPECT_EQ(imported.status, 0) << imported.output;
  EXPECT_NE(imported.output.find("ur serve: imported 5 games and 3 invites from " + file +
                                 " (0 already there"),
            std::string::npos)
      << imported.output;
  // Importing again changes nothing.
  const CommandRun again =
      run("'" + kUr + "' serve --database '" + database_->url() + "' --import-sqlite " + file);
  EXPECT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find("imported 0 games and 0 invites from " + file + " (5 already there"),
            std::string::npos)
      << again.output;

  Server first(on(*database_));
  Server second(on(*database_));
  for (const auto& [id, state] : states) {
    EXPECT_EQ(comparable(second.game(id)), state) << id;
  }
  // Every game continues: the online game to its end over both servers, the waiting one once
  // the friend joins by the old invite, the others with their old tokens.
  running.light.server = &first;
  running.dark.server = &second;
  running.game = first.game(running.id);
  play(running, -1);
  EXPECT_EQ(running.game["phase"], "game_over");
  join_game(waiting, second);
  waiting.light.server = &first;
  play(waiting, -1);
  EXPECT_EQ(waiting.game["phase"], "game_over");
  const HttpReply rematch =
      first.request("POST", "/api/games/" + over.id + "/rematch", json::object(), over.light.token);
  EXPECT_EQ(rematch.status, 200) << rematch.body;
  const json computer = play_alone(first, computer_id, computer_token, 2);
  EXPECT_GT(computer["version"], states[computer_id]["version"]);
  const json friends = play_alone(second, friends_id, friends_token, 2);
  EXPECT_EQ(friends["version"], states[friends_id]["version"].get<std::uint64_t>() + 2);
}

// `ur serve ARGUMENTS`: its output and exit status.
CommandRun serve(const std::string& arguments) {
  return run("'" + kUr + "' serve --host 127.0.0.1 --port 0 --quiet " + arguments, 10);
}

void expect_one_line_refusal(const CommandRun& refused, const std::string& says) {
  EXPECT_EQ(refused.status, 2) << refused.output;
  EXPECT_TRUE(refused.output.starts_with("ur serve: ")) << refused.output;
  EXPECT_EQ(std::count(refused.output.begin(), refused.output.end(), '\n'), 1) << refused.output;
  EXPECT_NE(refused.output.find(says), std::string::npos) << refused.output;
}

TEST_F(ClusterE2E, BadDatabasesGetOneLineAndStatusTwo) {
  const TempDir data_dir(unique_name("data"));
  const std::string data = "--data " + data_dir.path;
  expect_one_line_refusal(serve(data + " --database mysql://ur@localhost/ur"), "mysql");
  expect_one_line_refusal(serve(data + " --database ''"), "--database");
  expect_one_line_refusal(
      serve(data + " --database 'postgresql://ur:ur-test@/ur?host=/tmp/ur-no-such-cluster'"),
      "/tmp/ur-no-such-cluster");
  expect_one_line_refusal(
      serve(data + " --database '" + database_->url_with_password("wrong") + "'"), "password");

  const CommandRun migrated = serve(data + " --database '" + database_->url() + "' --migrate-only");
  EXPECT_EQ(migrated.status, 0) << migrated.output;
  const std::string at = "ur serve: database schema is at version ";
  ASSERT_NE(migrated.output.find(at), std::string::npos) << migrated.output;
  const int version = std::stoi(migrated.output.substr(migrated.output.find(at) + at.size()));
  EXPECT_GE(version, 1);
  // Running it again is harmless.
  const CommandRun again = serve(data + " --database '" + database_->url() + "' --migrate-only");
  EXPECT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find(at + std::to_string(version)), std::string::npos) << again.output;

  // A database of a newer schema (a later ur wrote it) is refused with both versions.
  const CommandRun raised =
      database_->psql("UPDATE ur_schema SET version = " + std::to_string(version + 5));
  ASSERT_EQ(raised.status, 0) << raised.output;
  const CommandRun newer = serve(data + " --database '" + database_->url() + "'");
  expect_one_line_refusal(newer, "schema version " + std::to_string(version + 5));
  EXPECT_NE(newer.output.find("newer than the " + std::to_string(version)), std::string::npos)
      << newer.output;
  expect_one_line_refusal(serve(data + " --database '" + database_->url() + "' --migrate-only"),
                          "schema version " + std::to_string(version + 5));
}

TEST_F(ClusterE2E, HealthReadinessAndTheSigtermDrain) {
  // Two seconds of draining: long enough for a loaded machine to ask /api/ready in it.
  std::vector<std::string> storage = on(*database_);
  storage.insert(storage.end(), {"--drain-seconds", "2"});
  Server first(storage);
  const HttpReply health = first.request("GET", "/api/health");
  EXPECT_EQ(health.status, 200) << health.body;
  EXPECT_EQ(body_of(health)["ok"], true) << health.body;
  EXPECT_EQ(body_of(health)["database"]["backend"], "postgresql") << health.body;
  EXPECT_EQ(body_of(health)["database"]["reachable"], true) << health.body;
  const HttpReply ready = first.request("GET", "/api/ready");
  EXPECT_EQ(ready.status, 200) << ready.body;
  EXPECT_EQ(body_of(ready), json({{"ready", true}})) << ready.body;
  // Where games are kept is said without the password.
  EXPECT_NE(first.log().find("games are kept in postgresql://ur"), std::string::npos)
      << first.log();
  EXPECT_EQ(first.log().find("ur-test"), std::string::npos) << first.log();

  OnlineGame online = host_game(first);
  auto socket = first.socket(online.id);
  ASSERT_FALSE(await_version(*socket, 0).is_null());
  HttpConnection kept(ServerAddress{"127.0.0.1", first.port()}, 5000);
  EXPECT_EQ(kept.request("GET", "/api/ready").status, 200);

  first.signal(SIGTERM);
  // A balancer's check on a connection it holds hears "not ready" while the server drains.
  bool unready = false;
  const auto signalled = Clock::now();
  while (!unready && Clock::now() < signalled + std::chrono::seconds(30)) {
    try {
      const HttpReply draining = kept.request("GET", "/api/ready");
      if (draining.status == 200) {  // the signal is not handled yet (asked under 20 a second)
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        continue;
      }
      EXPECT_EQ(draining.status, 503) << draining.body;
      EXPECT_EQ(body_of(draining), json({{"ready", false}, {"draining", true}})) << draining.body;
      unready = true;
    } catch (const std::runtime_error& error) {
      ADD_FAILURE() << "the connection closed before /api/ready turned 503: " << error.what();
      break;
    }
  }
  EXPECT_TRUE(unready);
  // The socket is told to reconnect elsewhere: close code 1012, service restart.
  bool closed = false;
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  while (!closed && Clock::now() < deadline) {
    try {
      (void)socket->receive_for(200);
    } catch (const std::runtime_error&) {
      closed = true;
    }
  }
  ASSERT_TRUE(closed);
  EXPECT_EQ(socket->close_code(), 1012);
  EXPECT_EQ(first.wait_exit(30000), 0) << first.log();
}

}  // namespace
