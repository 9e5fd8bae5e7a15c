// The store any number of servers share: one PostgreSQL database, through libpq. Every save
// is one statement guarded by the game's version; its NOTIFY follows in a transaction of its
// own once the save has committed, so the other servers hear only of committed changes (a
// notice lost to a server dying in between is made up by the hub's stale-game sweep). Several
// connections serve the worker threads; one more listens for the other servers' notices and
// keeps this server's heartbeat (presence of a server not heard from for a while is ignored).
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "storage/database_url.h"
#include "storage/game_store.h"

namespace ur::storage {

namespace pg {
class Connection;  // pg_connection.h
}

// Checks a postgresql:// or postgres:// URL as libpq reads it. Throws std::invalid_argument
// saying what is wrong.
void check_postgres_url(const std::string& url);

class PostgresStore final : public GameStore {
 public:
  // Connects, then creates or migrates the schema in one transaction (taking a lock, so
  // servers starting together migrate once). Throws std::runtime_error with one line saying
  // what failed: unreachable, refused login, newer schema.
  // `connections`: the most the pool opens (as work needs them) for the hub's workers, 16 on a
  // shared store, its stale-game sweep and health checks; the listener has one of its own.
  PostgresStore(std::string url, std::string server_id, int connections = 20);
  ~PostgresStore() override;
  PostgresStore(const PostgresStore&) = delete;
  PostgresStore& operator=(const PostgresStore&) = delete;

  const char* backend() const override { return "postgresql"; }
  std::string location() const override { return shown_url(url_); }
  bool shared() const override { return true; }

  bool save(const std::string& id, const GameWrite& write, std::int64_t version,
            std::int64_t expected, const std::string& change = "") override;
  std::optional<StoredGame> load(const std::string& id) override;
  std::int64_t version_of(const std::string& id) override;
  std::vector<std::int64_t> versions_of(const std::vector<std::string>& ids) override;
  void save_invite(const std::string& code, const std::string& game_id) override;
  std::optional<std::string> find_invite(const std::string& code) override;
  long long count() override;
  void ping() override;
  void for_each_game(
      const std::function<void(const std::string&, const StoredGame&)>& visit) override;
  void for_each_invite(
      const std::function<void(const std::string&, const std::string&)>& visit) override;
  Copied import_from(GameStore& source) override;

  void listen(std::function<void(const Notice&)> on_notice,
              std::function<void()> on_resumed) override;
  void stop_listening() override;
  void publish_presence(const std::string& id, const SeatPresence& here) override;
  std::vector<SeatPresence> others_presence(const std::string& id) override;

  bool has_queue() const override { return true; }
  std::optional<Ticket> queue_join(const Ticket& entry, std::int64_t alive_since) override;
  void queue_pair(const Ticket& paired) override;
  std::optional<Ticket> queue_poll(const std::string& ticket, std::int64_t now,
                                   std::int64_t alive_since, std::int64_t paired_since) override;
  bool queue_cancel(const std::string& ticket) override;

 private:
  class Lease;
  void migrate();
  static void create_tables(pg::Connection& connection);
  static void split_records(pg::Connection& connection);
  // save's work on `connection`, without the notice.
  static bool write_game(pg::Connection& connection, const std::string& id, const GameWrite& write,
                         std::int64_t version, std::int64_t expected);
  void listen_loop();

  std::string url_;
  std::string server_id_;
  std::mutex pool_mutex_;
  std::condition_variable pool_free_;
  const int max_connections_;
  int opened_ = 0;  // connections open, idle or leased (guarded by pool_mutex_)
  std::vector<std::unique_ptr<pg::Connection>> idle_;

  std::function<void(const Notice&)> on_notice_;
  std::function<void()> on_resumed_;
  std::atomic<bool> stopping_{false};
  std::mutex listening_mutex_;
  std::condition_variable listening_changed_;
  bool listening_ = false;  // the first LISTEN is active
  std::thread listener_;
};

}  // namespace ur::storage
