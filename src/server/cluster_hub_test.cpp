// Two hubs on one PostgreSQL database, as two `ur serve` processes behind a balancer would be:
// a change made through one reaches the other's listeners, races for a game's version have
// exactly one winner, presence and quick match span both, and a database outage answers
// "try again" and changes nothing. The cluster is a throwaway one (scripts/pg-cluster.sh),
// started once for this binary.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <future>
#include <mutex>
#include <thread>

#include "server/hub.h"
#include "server/seating.h"
#include "server/test_agent.h"
#include "storage/game_store.h"
#include "storage/test_cluster.h"

namespace ur::server {
namespace {

using nlohmann::json;
using testing::TempDir;

using Cluster = storage::TestCluster;

const auto* const cluster = ::testing::AddGlobalTestEnvironment(new Cluster);

// A server's store, counting the games it loads; while `deaf`, it hears no notices (as
// when they are late). `last_heard` is the newest game version a notice brought, heard or not.
class WatchedStore final : public storage::GameStore {
 public:
  explicit WatchedStore(std::unique_ptr<storage::GameStore> store) : store_(std::move(store)) {}
  std::atomic<int> loads{0};
  std::atomic<bool> deaf{false};
  std::atomic<std::int64_t> last_heard{0};

  const char* backend() const override { return store_->backend(); }
  std::string location() const override { return store_->location(); }
  bool shared() const override { return store_->shared(); }
  bool save(const std::string& id, const storage::GameWrite& write, std::int64_t version,
            std::int64_t expected, const std::string& change = "") override {
    return store_->save(id, write, version, expected, change);
  }
  std::optional<storage::StoredGame> load(const std::string& id) override {
    ++loads;
    return store_->load(id);
  }
  std::int64_t version_of(const std::string& id) override { return store_->version_of(id); }
  std::vector<std::int64_t> versions_of(const std::vector<std::string>& ids) override {
    return store_->versions_of(ids);
  }
  void save_invite(const std::string& code, const std::string& game_id) override {
    store_->save_invite(code, game_id);
  }
  std::optional<std::string> find_invite(const std::string& code) override {
    return store_->find_invite(code);
  }
  long long count() override { return store_->count(); }
  void ping() override { store_->ping(); }
  void for_each_game(
      const std::function<void(const std::string&, const storage::StoredGame&)>& visit) override {
    store_->for_each_game(visit);
  }
  void for_each_invite(
      const std::function<void(const std::string&, const std::string&)>& visit) override {
    store_->for_each_invite(visit);
  }
  Copied import_from(GameStore& source) override { return store_->import_from(source); }
  void listen(std::function<void(const storage::Notice&)> on_notice,
              std::function<void()> on_resumed) override {
    store_->listen(
        [this, on_notice = std::move(on_notice)](const storage::Notice& notice) {
          if (!deaf) on_notice(notice);
          if (notice.kind == storage::Notice::Kind::Game) last_heard = notice.version;
        },
        std::move(on_resumed));
  }
  void stop_listening() override { store_->stop_listening(); }
  void publish_presence(const std::string& id, const storage::SeatPresence& here) override {
    store_->publish_presence(id, here);
  }
  std::vector<storage::SeatPresence> others_presence(const std::string& id) override {
    return store_->others_presence(id);
  }
  bool has_queue() const override { return store_->has_queue(); }
  std::optional<storage::Ticket> queue_join(const storage::Ticket& entry,
                                            std::int64_t alive_since) override {
    return store_->queue_join(entry, alive_since);
  }
  void queue_pair(const storage::Ticket& paired) override { store_->queue_pair(paired); }
  std::optional<storage::Ticket> queue_poll(const std::string& ticket, std::int64_t now,
                                            std::int64_t alive_since,
                                            std::int64_t paired_since) override {
    return store_->queue_poll(ticket, now, alive_since, paired_since);
  }
  bool queue_cancel(const std::string& ticket) override { return store_->queue_cancel(ticket); }

 private:
  std::unique_ptr<storage::GameStore> store_;
};

// One server of the pair: its own data directory, the shared database.
struct Server {
  Server(const std::string& url, const std::string& name, std::atomic<std::int64_t>& clock,
         std::chrono::milliseconds sweep_every = HubOptions{}.stale_sweep_every)
      : hub(options(url, name, clock, sweep_every)) {}
  HubOptions options(const std::string& url, const std::string& name,
                     std::atomic<std::int64_t>& clock, std::chrono::milliseconds sweep_every) {
    HubOptions made = testing::hub_options(dir.path());
    made.stale_sweep_every = sweep_every;
    store = std::make_shared<WatchedStore>(storage::open_store(url, dir.path().string(), name));
    made.store = store;
    made.clock = [&clock] { return clock.load(); };
    return made;
  }
  ApiResponse post(const std::string& target, const json& body = nullptr,
                   const std::string& token = "") {
    return hub.handle({"POST", target, body.is_null() ? "" : body.dump(), token});
  }
  json state(const std::string& id) {
    return hub.handle({"GET", "/api/games/" + id, "", ""}).body["game"];
  }
  TempDir dir;
  std::shared_ptr<WatchedStore> store;
  GameHub hub;
};

// How long a test waits for what another server or thread does: far beyond its usual
// milliseconds, for a loaded CI machine.
constexpr auto kPatience = std::chrono::seconds(30);

// Waits until `done` holds or kPatience has passed; returns whether it holds.
bool eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + kPatience;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Collects what a subscribed socket would be sent.
class Listener final : public GameListener {
 public:
  void on_game_update(std::shared_ptr<const std::string> message, bool) override {
    std::lock_guard lock(mutex_);
    messages_.push_back(json::parse(*message));
    changed_.notify_all();
  }
  // Waits for a message matching `wanted`.
  bool wait_for(const std::function<bool(const json&)>& wanted) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(
        lock, kPatience, [&] { return std::any_of(messages_.begin(), messages_.end(), wanted); });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<json> messages_;
};

GameHub::Subscription subscribe(GameHub& hub, const std::string& id,
                                const std::shared_ptr<Listener>& listener) {
  std::promise<GameHub::Subscription> done;
  hub.subscribe(id, listener, [&](GameHub::Subscription s) { done.set_value(std::move(s)); });
  return done.get_future().get();
}

// The stale-game sweep of a pair, unless a test sets it: an hour, so that no sweep loads a game
// whose notice is still on its way while a test counts the loads.
constexpr std::chrono::milliseconds kNoSweep = std::chrono::hours(1);

struct Pair {
  explicit Pair(std::chrono::milliseconds sweep_every = kNoSweep)
      : url(Cluster::new_database()),
        a(url, "a", clock, sweep_every),
        b(url, "b", clock, sweep_every) {
    // Both listeners are up before the test acts.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  std::atomic<std::int64_t> clock{1'800'000'000'000};
  std::string url;
  Server a;
  Server b;
};

struct Online {
  std::string id;
  std::string host;   // light, on server a
  std::string guest;  // dark, joined through server b
};

Online start_online(Pair& servers) {
  const ApiResponse created = servers.a.post(
      "/api/games", {{"settings", {{"opponent", "online"}, {"name", "Ann"}, {"pieces", 3}}}});
  EXPECT_EQ(created.status, 201) << created.body.dump();
  const ApiResponse joined =
      servers.b.post("/api/join", {{"invite", created.body["invite"]}, {"name", "Bob"}});
  EXPECT_EQ(joined.status, 200) << joined.body.dump();
  const std::string id = created.body["game"]["id"];
  // Server a hears of the join by a notice; until it has, a's first action would be judged on
  // the game without its guest and reloaded, which the tests counting loads must not see.
  EXPECT_TRUE(eventually([&] {
    return servers.a.state(id)["version"] == joined.body["game"]["version"];
  })) << "server a never took up the join";
  return {id, created.body["token"], joined.body.value("token", "")};
}

TEST(ClusterHubs, AMoveThroughOneServerReachesTheOthersListeners) {
  Pair servers;
  const Online game = start_online(servers);
  auto on_b = std::make_shared<Listener>();
  const auto subscription = subscribe(servers.b.hub, game.id, on_b);
  ASSERT_TRUE(subscription);
  const ApiResponse thrown = servers.a.post("/api/games/" + game.id + "/throw", nullptr, game.host);
  ASSERT_EQ(thrown.status, 200) << thrown.body.dump();
  const auto version = thrown.body["game"]["version"];
  EXPECT_TRUE(on_b->wait_for([&](const json& message) {
    return message["type"] == "update" && message["game"]["version"] == version &&
           !message["events"].empty();
  }));
  // And b acts on the new state at once.
  json state = servers.b.state(game.id);
  EXPECT_EQ(state["version"], version);
}

// Plays `side`'s turn through `server` (the first legal move each time) until it is the other
// side's turn.
void play_turn(Server& server, const Online& game, const std::string& side) {
  const std::string& token = side == "light" ? game.host : game.guest;
  for (int step = 0; step < 20; ++step) {
    const json state = server.state(game.id);
    if (state["to_move"] != side) return;
    const std::string phase = state["phase"];
    const json body =
        phase == "move" ? json{{"from", state["legal_moves"][0]["from"]}} : json(nullptr);
    const ApiResponse done = server.post("/api/games/" + game.id + "/" + phase, body, token);
    ASSERT_EQ(done.status, 200) << phase << " " << done.body.dump();
  }
  FAIL() << side << "'s turn did not end";
}

TEST(ClusterHubs, MovesAreTakenUpFromTheirNoticesWithoutLoadingTheGame) {
  Pair servers;
  const Online game = start_online(servers);
  auto on_a = std::make_shared<Listener>();
  auto on_b = std::make_shared<Listener>();
  ASSERT_TRUE(subscribe(servers.a.hub, game.id, on_a));
  ASSERT_TRUE(subscribe(servers.b.hub, game.id, on_b));
  const int loads_a = servers.a.store->loads;
  const int loads_b = servers.b.store->loads;
  for (int round = 0; round < 3; ++round) {
    play_turn(servers.a, game, "light");
    json state = servers.a.state(game.id);
    EXPECT_TRUE(on_b->wait_for([&](const json& message) {
      return message["type"] == "update" && message["game"]["version"] == state["version"];
    }));
    EXPECT_EQ(servers.b.state(game.id), state);
    play_turn(servers.b, game, "dark");
    state = servers.b.state(game.id);
    EXPECT_TRUE(on_a->wait_for([&](const json& message) {
      return message["type"] == "update" && message["game"]["version"] == state["version"];
    }));
    EXPECT_EQ(servers.a.state(game.id), state);
  }
  EXPECT_EQ(servers.a.store->loads, loads_a);
  EXPECT_EQ(servers.b.store->loads, loads_b);
}

TEST(ClusterHubs, AMissedNoticeIsMadeUpByLoadingTheGameOnTheNext) {
  Pair servers;
  const Online game = start_online(servers);
  auto on_b = std::make_shared<Listener>();
  ASSERT_TRUE(subscribe(servers.b.hub, game.id, on_b));
  const int loads = servers.b.store->loads;
  servers.b.store->deaf = true;
  play_turn(servers.a, game, "light");
  // b has let every notice of that turn pass before it listens again.
  const std::int64_t missed = servers.a.state(game.id)["version"];
  ASSERT_TRUE(eventually([&] { return servers.b.store->last_heard >= missed; }));
  servers.b.store->deaf = false;
  // The next notice follows versions b never heard of: b loads the game.
  ASSERT_EQ(servers.a.post("/api/games/" + game.id + "/throw", nullptr, game.guest).status, 200);
  const json state = servers.a.state(game.id);
  EXPECT_TRUE(on_b->wait_for([&](const json& message) {
    return message["type"] == "update" && message["game"]["version"] == state["version"];
  }));
  EXPECT_EQ(servers.b.store->loads, loads + 1);
  EXPECT_EQ(servers.b.state(game.id), state);
}

// A change whose notice never comes (its server died between saving and notifying) still
// reaches the other server's sockets: the stale-game sweep finds the newer stored version.
TEST(ClusterHubs, AChangeWhoseNoticeIsLostReachesTheOtherServerBySweep) {
  Pair servers(std::chrono::milliseconds(200));
  const Online game = start_online(servers);
  auto on_b = std::make_shared<Listener>();
  ASSERT_TRUE(subscribe(servers.b.hub, game.id, on_b));
  servers.b.store->deaf = true;  // no notice reaches b from now on
  play_turn(servers.a, game, "light");
  const json state = servers.a.state(game.id);
  EXPECT_TRUE(on_b->wait_for([&](const json& message) {
    return message["type"] == "update" && message["game"]["version"] == state["version"];
  }));
  servers.b.store->deaf = false;
}

TEST(ClusterHubs, AnActionOnAServerNotYetToldOfTheLastMoveIsJudgedOnTheStoredGame) {
  Pair servers;
  const Online game = start_online(servers);
  ASSERT_EQ(servers.b.state(game.id)["to_move"], "light");
  servers.b.store->deaf = true;  // b goes on thinking it is light's turn
  play_turn(servers.a, game, "light");
  ASSERT_EQ(servers.a.state(game.id)["to_move"], "dark");
  const ApiResponse thrown =
      servers.b.post("/api/games/" + game.id + "/throw", nullptr, game.guest);
  EXPECT_EQ(thrown.status, 200) << thrown.body.dump();
  EXPECT_EQ(thrown.body["game"]["version"], servers.a.state(game.id)["version"]);
  // A refusal on the stored game stands: it is not light's turn.
  const ApiResponse refused =
      servers.b.post("/api/games/" + game.id + "/throw", nullptr, game.host);
  EXPECT_EQ(refused.status, 409) << refused.body.dump();
  EXPECT_EQ(refused.body["code"], "not_your_turn");
  servers.b.store->deaf = false;
}

TEST(ClusterHubs, ConcurrentThrowsOverBothServersExactlyOneIsAccepted) {
  Pair servers;
  const Online game = start_online(servers);
  std::atomic<int> accepted{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> players;
  for (int i = 0; i < 40; ++i) {
    players.emplace_back([&, i] {
      Server& server = i % 2 == 0 ? servers.a : servers.b;
      const ApiResponse answer =
          server.post("/api/games/" + game.id + "/throw", nullptr, game.host);
      if (answer.status == 200) ++accepted;
      if (answer.status >= 500) ++failed;
    });
  }
  for (auto& player : players) player.join();
  EXPECT_EQ(accepted.load(), 1);
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(servers.a.state(game.id)["version"], servers.b.state(game.id)["version"]);
}

TEST(ClusterHubs, ASeatConnectedOnOneServerIsConnectedOnTheOther) {
  Pair servers;
  const Online game = start_online(servers);
  std::promise<GameHub::Subscription> said;
  servers.a.hub.hello(game.id, game.host,
                      [&](GameHub::Subscription s, auto) { said.set_value(std::move(s)); });
  const auto presence = said.get_future().get();
  ASSERT_TRUE(presence);
  auto on_b = std::make_shared<Listener>();
  const auto subscription = subscribe(servers.b.hub, game.id, on_b);
  EXPECT_TRUE(on_b->wait_for([](const json& message) {
    const json& seats = message["type"] == "update" ? message["game"]["seats"] : message["seats"];
    return seats["light"]["connected"] == true;
  }));
  // Minutes later the host is still there (on a): Bob on b cannot claim the win.
  servers.clock += 10 * 60 * 1000;
  EXPECT_EQ(
      servers.b.post("/api/games/" + game.id + "/claim_win", nullptr, game.guest).body["code"],
      "opponent_present");
}

TEST(ClusterHubs, QuickMatchPairsPlayersWaitingOnDifferentServers) {
  Pair servers;
  const ApiResponse first = servers.a.post("/api/queue", {{"name", "Ann"}});
  ASSERT_EQ(first.status, 200) << first.body.dump();
  EXPECT_FALSE(first.body.contains("game_id"));
  const ApiResponse second = servers.b.post("/api/queue", {{"name", "Bob"}});
  ASSERT_EQ(second.status, 200) << second.body.dump();
  ASSERT_TRUE(second.body.contains("game_id")) << second.body.dump();
  // Ann's page polls server b this time.
  const ApiResponse polled = servers.b.hub.handle(
      {"GET", "/api/queue/" + first.body["ticket"].get<std::string>(), "", ""});
  ASSERT_EQ(polled.status, 200) << polled.body.dump();
  EXPECT_EQ(polled.body["game_id"], second.body["game_id"]);
  EXPECT_EQ(polled.body["side"], "light");
  const json state = servers.a.state(polled.body["game_id"]);
  EXPECT_EQ(state["seats"]["light"]["name"], "Ann");
  EXPECT_EQ(state["seats"]["dark"]["name"], "Bob");
}

TEST(ClusterHubs, WhileTheDatabaseIsDownActionsAnswerTryAgainAndChangeNothing) {
  Pair servers;
  const Online game = start_online(servers);
  const json before = servers.a.state(game.id);
  Cluster::outage("down");
  const ApiResponse refused =
      servers.a.post("/api/games/" + game.id + "/throw", nullptr, game.host);
  Cluster::outage("up");
  EXPECT_EQ(refused.status, 503) << refused.body.dump();
  EXPECT_EQ(refused.body["code"], "database_unavailable");
  // Back up: the same throw goes through, once.
  ApiResponse thrown;
  for (int attempt = 0; attempt < 50; ++attempt) {
    thrown = servers.a.post("/api/games/" + game.id + "/throw", nullptr, game.host);
    if (thrown.status != 503) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(thrown.status, 200) << thrown.body.dump();
  EXPECT_EQ(thrown.body["game"]["version"], before["version"].get<int>() + 1);
  EXPECT_EQ(servers.b.state(game.id)["version"], thrown.body["game"]["version"]);
}

}  // namespace
}  // namespace ur::server
