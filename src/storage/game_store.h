// Where `ur serve` keeps its games: one interface, two backends (sqlite_store.h for one server
// on a local file, postgres_store.h for any number of servers sharing one PostgreSQL). The
// store holds each game's JSON record (server/game_storage.h) with its version, as a head and
// one row per event of its history (stored_record.h), the invites of
// online games, and, for a shared store, what the servers must tell each other: changes of a
// game (notices), the seats connected to each server, and the quick-match queue.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "storage/stored_record.h"

namespace ur::storage {

// The schema both backends create (SQLite's user_version, PostgreSQL's ur_schema table).
// 1: games; 2: games.format; 3: invites; 4: games.version (and, in PostgreSQL, the shared
// presence and queue tables); 5: game_events, the history one event a row (games.record keeps
// the head).
inline constexpr int kSchemaVersion = 5;

// The database cannot be reached now (down, restarting, connection lost). Nothing was
// changed; the caller may try again later. Other failures are std::runtime_error.
class Unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct StoredGame {
  int format = 0;
  std::string record;        // the whole record, head and history joined
  std::int64_t version = 0;  // the record's version: 1 after the first save, +1 a change
};

// A change another server made, received through the database.
struct Notice {
  enum class Kind { Game, Presence };
  Kind kind = Kind::Game;
  std::string game_id;
  std::int64_t version = 0;  // Game: the version now stored
  // Game: what changed since version - 1, as the saver gave it, when it fitted in the notice;
  // empty otherwise (load the game).
  std::string change;
};

// One server's sockets on the seats of one game (index 0 light, 1 dark). Times are UTC ms.
struct SeatPresence {
  std::array<int, 2> sockets{0, 0};
  std::array<std::int64_t, 2> left_at{0, 0};  // when the seat's last socket here closed
  std::array<bool, 2> seen{false, false};     // a socket of the seat came here at all
};

// A quick-match ticket as the shared queue keeps it.
struct Ticket {
  std::string ticket;
  std::string rules_key;
  std::string name;
  std::int64_t since = 0;   // joined, UTC ms
  std::int64_t polled = 0;  // last asked about
  // Set once paired: the game, the seat and its token.
  std::string game_id;
  std::string token;
  std::string side;
  std::int64_t paired_at = 0;
};

class GameStore {
 public:
  virtual ~GameStore() = default;

  // "sqlite" or "postgresql".
  virtual const char* backend() const = 0;
  // Where the games are, for people: a path, or the URL without its password.
  virtual std::string location() const = 0;
  // True when other servers may write the same games (their changes arrive as notices).
  virtual bool shared() const = 0;

  // Writes game `id` at `version` if the stored version is `expected` (0: no such game yet),
  // atomically: the head, and the history's events from `write.first` on. Then tells the
  // other servers, passing them `change` (what changed since `expected`, so that they need
  // not load the game) when it fits in a notice. False when another writer got there first;
  // nothing is changed then.
  virtual bool save(const std::string& id, const GameWrite& write, std::int64_t version,
                    std::int64_t expected, const std::string& change = "") = 0;
  virtual std::optional<StoredGame> load(const std::string& id) = 0;
  // The stored version of game `id` (0 when there is none): cheaper than load.
  virtual std::int64_t version_of(const std::string& id) = 0;
  // The stored versions of games `ids` (0 for one that is not there), in their order: one
  // query where the backend can.
  virtual std::vector<std::int64_t> versions_of(const std::vector<std::string>& ids) {
    std::vector<std::int64_t> versions;
    versions.reserve(ids.size());
    for (const std::string& id : ids) versions.push_back(version_of(id));
    return versions;
  }
  // Files an invite code (codes are unique).
  virtual void save_invite(const std::string& code, const std::string& game_id) = 0;
  virtual std::optional<std::string> find_invite(const std::string& code) = 0;
  virtual long long count() = 0;
  // Throws Unavailable when the database cannot be reached now.
  virtual void ping() = 0;

  // Every stored game and invite, for copying a store into another (--import-sqlite).
  virtual void for_each_game(
      const std::function<void(const std::string& id, const StoredGame&)>& visit) = 0;
  virtual void for_each_invite(
      const std::function<void(const std::string& code, const std::string& game_id)>& visit) = 0;
  // Copies games and invites in one transaction, keeping what is already there. Returns the
  // number of games and invites copied.
  struct Copied {
    long long games = 0;
    long long invites = 0;
    long long kept = 0;  // games already there, left as they were
  };
  virtual Copied import_from(GameStore& source) = 0;

  // --- Only for a shared store; a store one server owns keeps these defaults. ---

  // Starts receiving other servers' notices on a thread of the store's own: `on_notice` for
  // each, `on_resumed` after the connection was lost and is back (notices may have been
  // missed). Stops in the destructor.
  virtual void listen(std::function<void(const Notice&)> on_notice,
                      std::function<void()> on_resumed) {
    (void)on_notice;
    (void)on_resumed;
  }
  // Ends listen()'s thread: no callback runs once this returns. Idempotent.
  virtual void stop_listening() {}
  // This server's sockets on game `id`'s seats; the other servers get a Presence notice.
  virtual void publish_presence(const std::string& id, const SeatPresence& here) {
    (void)id, (void)here;
  }
  // The sockets other live servers hold on game `id`'s seats.
  virtual std::vector<SeatPresence> others_presence(const std::string& id) {
    (void)id;
    return {};
  }

  // The shared quick-match queue (has_queue() false: the server keeps its own in memory).
  virtual bool has_queue() const { return false; }
  // Adds `entry` and, when someone else waits with the same rules key (polled since
  // `alive_since`), takes the longest waiting one off the queue and returns it. One
  // transaction: two servers never take the same partner.
  virtual std::optional<Ticket> queue_join(const Ticket& entry, std::int64_t alive_since) {
    (void)entry, (void)alive_since;
    return std::nullopt;
  }
  virtual void queue_pair(const Ticket& paired) { (void)paired; }
  // The ticket, marked polled at `now`; nothing when unknown or expired (not polled since
  // `alive_since`, or paired before `paired_since`).
  virtual std::optional<Ticket> queue_poll(const std::string& ticket, std::int64_t now,
                                           std::int64_t alive_since, std::int64_t paired_since) {
    (void)ticket, (void)now, (void)alive_since, (void)paired_since;
    return std::nullopt;
  }
  virtual bool queue_cancel(const std::string& ticket) {
    (void)ticket;
    return false;
  }
};

// Opens (creating or migrating the schema) the store a --database URL names:
//   "" or "sqlite:"      games.sqlite3 under `data_dir`;
//   "sqlite:PATH"        that file;
//   "postgresql://..." or "postgres://..."  through libpq.
// `server_id` names this server in a shared store. Throws std::invalid_argument for a URL
// that is not one of these, std::runtime_error (one line) when the database cannot be
// opened, reached, logged into or is of a newer schema.
std::unique_ptr<GameStore> open_store(const std::string& url, const std::string& data_dir,
                                      const std::string& server_id);

}  // namespace ur::storage
