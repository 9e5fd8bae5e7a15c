#include "storage/postgres_store.h"

#include <poll.h>

#include <chrono>
#include <optional>
#include <stdexcept>

#include "storage/notice_payload.h"
#include "storage/pg_connection.h"

namespace ur::storage {

using pg::Connection;
using pg::first_line;
using pg::Result;

namespace {

// Servers taking the schema lock of a migration, so they migrate one after another.
constexpr long long kMigrationLock = 0x75722d736368656dLL;  // "ur-schem"
// A server whose heartbeat is older than this is taken for gone: its sockets count no more.
constexpr std::int64_t kServerAliveMs = 15'000;
constexpr auto kHeartbeatEvery = std::chrono::seconds(5);

// A game's row as a StoredGame: format, head, version, and its events comma-separated (NULL
// when none), read in the one statement, so of one snapshot.
constexpr const char* kStoredGame =
    "format, head, version, (SELECT string_agg(event, ',' ORDER BY seq) FROM game_events"
    " WHERE game_id = games.id)";

std::int64_t unix_millis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

// A connection of the pool, given back when the lease ends.
class PostgresStore::Lease {
 public:
  // Takes an idle connection, or opens one more while fewer than the pool's most are open
  // (throwing Unavailable when the database cannot be reached), or waits for one.
  explicit Lease(PostgresStore& store) : store_(store) {
    std::unique_lock lock(store_.pool_mutex_);
    if (store_.idle_.empty() && store_.opened_ < store_.max_connections_) {
      ++store_.opened_;
      lock.unlock();
      try {
        connection_ = std::make_unique<Connection>(store_.url_);
      } catch (...) {
        lock.lock();
        --store_.opened_;
        throw;
      }
      return;
    }
    store_.pool_free_.wait(lock, [this] { return !store_.idle_.empty(); });
    connection_ = std::move(store_.idle_.back());
    store_.idle_.pop_back();
  }
  ~Lease() {
    {
      std::lock_guard lock(store_.pool_mutex_);
      store_.idle_.push_back(std::move(connection_));
    }
    store_.pool_free_.notify_one();
  }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  Connection* operator->() { return connection_.get(); }
  Connection& operator*() { return *connection_; }

 private:
  PostgresStore& store_;
  std::unique_ptr<Connection> connection_;
};

void check_postgres_url(const std::string& url) {
  if (!url.starts_with("postgresql://") && !url.starts_with("postgres://")) {
    throw std::invalid_argument(
        "a PostgreSQL URL starts with postgresql:// or postgres://, got \"" + shown_url(url) +
        "\"");
  }
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
  if (options == nullptr) {
    const std::string why = error ? first_line(error) : "it cannot be read";
    PQfreemem(error);
    throw std::invalid_argument("the database URL " + shown_url(url) + " is not valid: " + why);
  }
  PQconninfoFree(options);
}

PostgresStore::PostgresStore(std::string url, std::string server_id, int connections)
    : url_(std::move(url)),
      server_id_(std::move(server_id)),
      max_connections_(std::max(1, connections)) {
  check_postgres_url(url_);
  try {
    // One at once, to fail here when the database is unusable; the rest as work needs them.
    idle_.push_back(std::make_unique<Connection>(url_));
    opened_ = 1;
  } catch (const Unavailable& error) {
    throw std::runtime_error("cannot use the database " + shown_url(url_) + ": " + error.what());
  }
  migrate();
  // This server counts as alive from the start, so presence it publishes before its listener's
  // first heartbeat is not ignored by the others.
  try {
    Lease connection(*this);
    connection->run(
        "INSERT INTO servers (server_id, seen_ms) VALUES ($1, $2::bigint)"
        " ON CONFLICT (server_id) DO UPDATE SET seen_ms = excluded.seen_ms",
        {server_id_, std::to_string(unix_millis())});
  } catch (const Unavailable& error) {
    throw std::runtime_error("cannot use the database " + shown_url(url_) + ": " + error.what());
  }
}

void PostgresStore::stop_listening() {
  stopping_ = true;
  if (listener_.joinable()) listener_.join();
}

PostgresStore::~PostgresStore() {
  stop_listening();
  // A server that stops cleanly takes its sockets off the shared presence.
  try {
    Lease connection(*this);
    connection->run("DELETE FROM presence WHERE server_id = $1", {server_id_});
    connection->run("DELETE FROM servers WHERE server_id = $1", {server_id_});
  } catch (const std::exception&) {
    // The heartbeat's expiry does the same for a database that is gone.
  }
}

void PostgresStore::migrate() {
  Lease connection(*this);
  try {
    connection->transaction([&] {
      connection->run("SELECT pg_advisory_xact_lock($1)", {std::to_string(kMigrationLock)});
      connection->run("CREATE TABLE IF NOT EXISTS ur_schema (version integer NOT NULL)");
      const Result found = connection->run("SELECT version FROM ur_schema");
      const int version = found.rows() == 0 ? 0 : static_cast<int>(found.number(0, 0));
      if (version > kSchemaVersion) {
        throw std::runtime_error("the database has schema version " + std::to_string(version) +
                                 ", newer than the " + std::to_string(kSchemaVersion) +
                                 " this ur reads; upgrade ur or use another database");
      }
      if (version == kSchemaVersion) return;
      if (version < 4) create_tables(*connection);
      // Schema 5 keeps each history one event a row; the records of schema 4 are cut in two.
      connection->run(
          "CREATE TABLE game_events (game_id text NOT NULL, seq integer NOT NULL,"
          " event text NOT NULL, PRIMARY KEY (game_id, seq))");
      if (version == 4) split_records(*connection);
      // The column's new name makes a server of schema 4 still running fail on every game
      // rather than write whole records beside the events.
      connection->run("ALTER TABLE games RENAME COLUMN record TO head");
      connection->run("DELETE FROM ur_schema");
      connection->run("INSERT INTO ur_schema VALUES ($1)", {std::to_string(kSchemaVersion)});
    });
  } catch (const Unavailable& error) {
    throw std::runtime_error("cannot use the database " + shown_url(url_) + ": " + error.what());
  }
}

// Version 4 was the first PostgreSQL schema: every table at once.
void PostgresStore::create_tables(Connection& connection) {
  connection.run(
      "CREATE TABLE games (id text PRIMARY KEY, format integer NOT NULL, record text NOT "
      "NULL, version bigint NOT NULL, updated_ms bigint NOT NULL)");
  connection.run("CREATE TABLE invites (code text PRIMARY KEY, game_id text NOT NULL)");
  connection.run("CREATE TABLE servers (server_id text PRIMARY KEY, seen_ms bigint NOT NULL)");
  connection.run(
      "CREATE TABLE presence (game_id text NOT NULL, server_id text NOT NULL,"
      " light_sockets integer NOT NULL, dark_sockets integer NOT NULL,"
      " light_left_ms bigint NOT NULL, dark_left_ms bigint NOT NULL,"
      " light_seen boolean NOT NULL, dark_seen boolean NOT NULL,"
      " PRIMARY KEY (game_id, server_id))");
  connection.run(
      "CREATE TABLE queue (ticket text PRIMARY KEY, rules_key text NOT NULL,"
      " name text NOT NULL, since_ms bigint NOT NULL, polled_ms bigint NOT NULL,"
      " taken boolean NOT NULL, game_id text, token text, side text, paired_ms bigint)");
  connection.run("CREATE INDEX queue_waiting ON queue (rules_key, since_ms) WHERE NOT taken");
}

void PostgresStore::split_records(Connection& connection) {
  // A cursor, so that a large database is cut a batch at a time rather than read whole; it
  // reads the snapshot of its declaration, so the rows updated here do not come back.
  connection.run("DECLARE split_games NO SCROLL CURSOR FOR SELECT id, format, record FROM games");
  for (;;) {
    const Result games = connection.run("FETCH 256 FROM split_games");
    if (games.rows() == 0) break;
    for (int row = 0; row < games.rows(); ++row) {
      const GameWrite write =
          split_record(games.text(row, 2), static_cast<int>(games.number(row, 1)));
      if (write.events.empty()) continue;  // all head: left as it is
      connection.run("UPDATE games SET record = $2 WHERE id = $1",
                     {games.text(row, 0), write.head});
      connection.run(
          "INSERT INTO game_events (game_id, seq, event)"
          " SELECT $1, ordinality - 1, event FROM unnest($2::text[]) WITH ORDINALITY AS e(event)",
          {games.text(row, 0), pg::text_array(write.events)});
    }
  }
  connection.run("CLOSE split_games");
}

bool PostgresStore::save(const std::string& id, const GameWrite& write, std::int64_t version,
                         std::int64_t expected, const std::string& change) {
  const std::string notice = game_notice_payload(server_id_, id, version, change);
  Lease connection(*this);
  const bool saved = write_game(*connection, id, write, version, expected);
  if (!saved) return false;
  // The notice goes in a transaction of its own, after the save has committed. PostgreSQL
  // holds one lock for every notifying transaction from its NOTIFY until its commit is flushed
  // to disk, so a NOTIFY inside the save made every save of every server wait for the others'
  // fsyncs one by one (the 1,000-game cluster load queued on it). A notify-only transaction
  // writes nothing and flushes nothing. Should this server die between the two, the others
  // learn of the change at their next look at the game (any request for it, an action refused
  // on a stale state, or the stale-game sweep of the hub).
  try {
    connection->run("SELECT pg_notify('ur_games', $1)", {notice});
  } catch (const Unavailable&) {
    // Saved all the same: the notice is lost, as if this server had died right after the save.
  }
  return true;
}

// One statement: the head and its events are written together or not at all.
bool PostgresStore::write_game(Connection& connection, const std::string& id,
                               const GameWrite& write, std::int64_t version,
                               std::int64_t expected) {
  // The head first; the events only when the head was written (the version guard held). The
  // events from `first` on are put in place, and any stored after them dropped.
  static constexpr const char* kEvents =
      " cut AS (DELETE FROM game_events WHERE game_id = $1 AND seq >= $6::integer + $8::integer"
      "  AND EXISTS (SELECT 1 FROM saved)),"
      " put AS (INSERT INTO game_events (game_id, seq, event)"
      "  SELECT $1, $6::integer + ordinality - 1, event"
      "  FROM unnest($7::text[]) WITH ORDINALITY AS e(event) WHERE EXISTS (SELECT 1 FROM saved)"
      "  ON CONFLICT (game_id, seq) DO UPDATE SET event = excluded.event)"
      " SELECT count(*) FROM saved";
  static const std::string kInsert =
      std::string(
          "WITH saved AS (INSERT INTO games (id, format, head, version, updated_ms)"
          " VALUES ($1, $2::integer, $3, $4::bigint, $5::bigint)"
          " ON CONFLICT (id) DO NOTHING RETURNING id),") +
      kEvents;
  static const std::string kUpdate =
      std::string(
          "WITH saved AS (UPDATE games SET format = $2::integer, head = $3,"
          " version = $4::bigint, updated_ms = $5::bigint"
          " WHERE id = $1 AND version = $9::bigint RETURNING id),") +
      kEvents;
  const std::string format = std::to_string(write.format);
  const std::string at = std::to_string(version);
  const std::string now = std::to_string(unix_millis());
  const std::string first = std::to_string(write.first);
  const std::string events = pg::text_array(write.events);
  const std::string count = std::to_string(write.events.size());
  const Result saved =
      expected == 0
          ? connection.run(kInsert.c_str(), {id, format, write.head, at, now, first, events, count})
          : connection.run(kUpdate.c_str(), {id, format, write.head, at, now, first, events, count,
                                             std::to_string(expected)});
  return saved.number(0, 0) == 1;
}

std::optional<StoredGame> PostgresStore::load(const std::string& id) {
  static const std::string kLoad =
      std::string("SELECT ") + kStoredGame + " FROM games WHERE id = $1";
  Lease connection(*this);
  const Result found = connection->run(kLoad.c_str(), {id});
  if (found.rows() == 0) return std::nullopt;
  return StoredGame{static_cast<int>(found.number(0, 0)),
                    join_record(found.text(0, 1), found.text(0, 3)), found.number(0, 2)};
}

std::int64_t PostgresStore::version_of(const std::string& id) {
  Lease connection(*this);
  const Result found = connection->run("SELECT version FROM games WHERE id = $1", {id});
  return found.rows() == 0 ? 0 : found.number(0, 0);
}

std::vector<std::int64_t> PostgresStore::versions_of(const std::vector<std::string>& ids) {
  std::vector<std::int64_t> versions(ids.size(), 0);
  if (ids.empty()) return versions;
  std::unordered_map<std::string, std::vector<std::size_t>> where;
  for (std::size_t i = 0; i < ids.size(); ++i) where[ids[i]].push_back(i);
  Lease connection(*this);
  const Result found = connection->run("SELECT id, version FROM games WHERE id = ANY($1::text[])",
                                       {pg::text_array(ids)});
  for (int row = 0; row < found.rows(); ++row) {
    for (const std::size_t i : where[found.text(row, 0)]) versions[i] = found.number(row, 1);
  }
  return versions;
}

void PostgresStore::save_invite(const std::string& code, const std::string& game_id) {
  Lease connection(*this);
  connection->run("INSERT INTO invites (code, game_id) VALUES ($1, $2)", {code, game_id});
}

std::optional<std::string> PostgresStore::find_invite(const std::string& code) {
  Lease connection(*this);
  const Result found = connection->run("SELECT game_id FROM invites WHERE code = $1", {code});
  if (found.rows() == 0) return std::nullopt;
  return found.text(0, 0);
}

long long PostgresStore::count() {
  Lease connection(*this);
  return connection->run("SELECT COUNT(*) FROM games").number(0, 0);
}

void PostgresStore::ping() {
  Lease connection(*this);
  connection->run("SELECT 1");
}

void PostgresStore::for_each_game(
    const std::function<void(const std::string&, const StoredGame&)>& visit) {
  Lease connection(*this);
  const Result games = connection->run(
      (std::string("SELECT id, ") + kStoredGame + " FROM games ORDER BY id").c_str());
  for (int row = 0; row < games.rows(); ++row) {
    visit(games.text(row, 0),
          StoredGame{static_cast<int>(games.number(row, 1)),
                     join_record(games.text(row, 2), games.text(row, 4)), games.number(row, 3)});
  }
}

void PostgresStore::for_each_invite(
    const std::function<void(const std::string&, const std::string&)>& visit) {
  Lease connection(*this);
  const Result invites = connection->run("SELECT code, game_id FROM invites ORDER BY code");
  for (int row = 0; row < invites.rows(); ++row) visit(invites.text(row, 0), invites.text(row, 1));
}

GameStore::Copied PostgresStore::import_from(GameStore& source) {
  Lease connection(*this);
  return connection->transaction([&] {
    Copied copied;
    source.for_each_game([&](const std::string& id, const StoredGame& game) {
      if (write_game(*connection, id, split_record(game.record, game.format), game.version, 0)) {
        ++copied.games;
      } else {
        ++copied.kept;
      }
    });
    source.for_each_invite([&](const std::string& code, const std::string& game_id) {
      copied.invites +=
          connection
              ->run("INSERT INTO invites (code, game_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    {code, game_id})
              .affected();
    });
    return copied;
  });
}

void PostgresStore::listen(std::function<void(const Notice&)> on_notice,
                           std::function<void()> on_resumed) {
  on_notice_ = std::move(on_notice);
  on_resumed_ = std::move(on_resumed);
  listener_ = std::thread([this] { listen_loop(); });
  // A notice sent before the LISTEN is active would be lost: serve only once it is (bounded,
  // for a database that went away since the constructor connected).
  std::unique_lock lock(listening_mutex_);
  listening_changed_.wait_for(lock, std::chrono::seconds(10), [this] { return listening_; });
}

void PostgresStore::listen_loop() {
  bool lost = false;  // a connection was up before: notices may have been missed
  while (!stopping_) {
    std::unique_ptr<Connection> connection;
    try {
      connection = std::make_unique<Connection>(url_);
      connection->run("LISTEN ur_games");
      {
        std::lock_guard lock(listening_mutex_);
        listening_ = true;
      }
      listening_changed_.notify_all();
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      lost = true;
      continue;
    }
    if (lost && on_resumed_) on_resumed_();
    auto next_heartbeat = std::chrono::steady_clock::now();
    while (!stopping_) {
      try {
        if (std::chrono::steady_clock::now() >= next_heartbeat) {
          connection->run(
              "INSERT INTO servers (server_id, seen_ms) VALUES ($1, $2::bigint)"
              " ON CONFLICT (server_id) DO UPDATE SET seen_ms = excluded.seen_ms",
              {server_id_, std::to_string(unix_millis())});
          next_heartbeat += kHeartbeatEvery;
        }
      } catch (const std::exception&) {
        break;
      }
      pollfd watched{PQsocket(connection->native()), POLLIN, 0};
      if (watched.fd < 0) break;
      ::poll(&watched, 1, 200);
      if (PQconsumeInput(connection->native()) == 0) break;  // the connection is gone
      while (PGnotify* raw = PQnotifies(connection->native())) {
        const std::string payload = raw->extra ? raw->extra : "";
        PQfreemem(raw);
        const std::optional<Notice> notice = read_notice_payload(payload, server_id_);
        if (notice && on_notice_) on_notice_(*notice);
      }
    }
    lost = true;
  }
}

void PostgresStore::publish_presence(const std::string& id, const SeatPresence& here) {
  Lease connection(*this);
  const auto flag = [](bool value) { return std::string(value ? "true" : "false"); };
  connection->run(
      "WITH saved AS (INSERT INTO presence (game_id, server_id, light_sockets, dark_sockets,"
      " light_left_ms, dark_left_ms, light_seen, dark_seen)"
      " VALUES ($1, $2, $3::integer, $4::integer, $5::bigint, $6::bigint, $7::boolean,"
      " $8::boolean)"
      " ON CONFLICT (game_id, server_id) DO UPDATE SET light_sockets = excluded.light_sockets,"
      " dark_sockets = excluded.dark_sockets, light_left_ms = excluded.light_left_ms,"
      " dark_left_ms = excluded.dark_left_ms, light_seen = excluded.light_seen,"
      " dark_seen = excluded.dark_seen RETURNING game_id)"
      " SELECT pg_notify('ur_games', $9) FROM saved",
      {id, server_id_, std::to_string(here.sockets[0]), std::to_string(here.sockets[1]),
       std::to_string(here.left_at[0]), std::to_string(here.left_at[1]), flag(here.seen[0]),
       flag(here.seen[1]), presence_notice_payload(server_id_, id)});
}

std::vector<SeatPresence> PostgresStore::others_presence(const std::string& id) {
  Lease connection(*this);
  const Result rows = connection->run(
      "SELECT p.light_sockets, p.dark_sockets, p.light_left_ms, p.dark_left_ms,"
      " p.light_seen, p.dark_seen, s.seen_ms FROM presence p"
      " JOIN servers s ON s.server_id = p.server_id"
      " WHERE p.game_id = $1 AND p.server_id <> $2",
      {id, server_id_});
  std::vector<SeatPresence> found;
  const std::int64_t alive_since = unix_millis() - kServerAliveMs;
  for (int row = 0; row < rows.rows(); ++row) {
    SeatPresence seats;
    const std::int64_t seen = rows.number(row, 6);
    for (int side = 0; side < 2; ++side) {
      seats.sockets[side] = static_cast<int>(rows.number(row, side));
      seats.left_at[side] = rows.number(row, 2 + side);
      seats.seen[side] = rows.text(row, 4 + side) == "t";
      // A server gone silent holds no sockets: they ended when it was last heard of.
      if (seen < alive_since && seats.sockets[side] > 0) {
        seats.sockets[side] = 0;
        seats.left_at[side] = seen;
      }
    }
    found.push_back(seats);
  }
  return found;
}

namespace {

Ticket ticket_of(const Result& rows, int row) {
  Ticket ticket;
  ticket.ticket = rows.text(row, 0);
  ticket.rules_key = rows.text(row, 1);
  ticket.name = rows.text(row, 2);
  ticket.since = rows.number(row, 3);
  ticket.polled = rows.number(row, 4);
  if (!rows.null(row, 5)) {
    ticket.game_id = rows.text(row, 5);
    ticket.token = rows.text(row, 6);
    ticket.side = rows.text(row, 7);
    ticket.paired_at = rows.number(row, 8);
  }
  return ticket;
}

constexpr const char* kTicketColumns =
    "ticket, rules_key, name, since_ms, polled_ms, game_id, token, side, paired_ms";

}  // namespace

std::optional<Ticket> PostgresStore::queue_join(const Ticket& entry, std::int64_t alive_since) {
  Lease connection(*this);
  return connection->transaction([&]() -> std::optional<Ticket> {
    // The longest waiting live ticket of these rules; SKIP LOCKED: one another server is
    // taking right now is left to it.
    const Result partner = connection->run(
        (std::string("SELECT ") + kTicketColumns +
         " FROM queue WHERE rules_key = $1 AND NOT taken AND polled_ms >= $2::bigint"
         " ORDER BY since_ms, ticket LIMIT 1 FOR UPDATE SKIP LOCKED")
            .c_str(),
        {entry.rules_key, std::to_string(alive_since)});
    std::optional<Ticket> found;
    if (partner.rows() == 1) {
      found = ticket_of(partner, 0);
      connection->run("UPDATE queue SET taken = true WHERE ticket = $1", {found->ticket});
    }
    connection->run(
        "INSERT INTO queue (ticket, rules_key, name, since_ms, polled_ms, taken)"
        " VALUES ($1, $2, $3, $4::bigint, $4::bigint, $5::boolean)",
        {entry.ticket, entry.rules_key, entry.name, std::to_string(entry.since),
         std::string(found ? "true" : "false")});
    return found;
  });
}

void PostgresStore::queue_pair(const Ticket& paired) {
  Lease connection(*this);
  connection->run(
      "UPDATE queue SET taken = true, game_id = $2, token = $3, side = $4, paired_ms = "
      "$5::bigint WHERE ticket = $1",
      {paired.ticket, paired.game_id, paired.token, paired.side, std::to_string(paired.paired_at)});
}

std::optional<Ticket> PostgresStore::queue_poll(const std::string& ticket, std::int64_t now,
                                                std::int64_t alive_since,
                                                std::int64_t paired_since) {
  Lease connection(*this);
  // Expired tickets go first, on whichever server asks.
  connection->run(
      "DELETE FROM queue WHERE (game_id IS NULL AND NOT taken AND polled_ms < $1::bigint)"
      " OR (game_id IS NOT NULL AND paired_ms < $2::bigint)",
      {std::to_string(alive_since), std::to_string(paired_since)});
  const Result found = connection->run(
      (std::string("UPDATE queue SET polled_ms = $2::bigint WHERE ticket = $1 RETURNING ") +
       kTicketColumns)
          .c_str(),
      {ticket, std::to_string(now)});
  if (found.rows() == 0) return std::nullopt;
  return ticket_of(found, 0);
}

bool PostgresStore::queue_cancel(const std::string& ticket) {
  Lease connection(*this);
  return connection->run("DELETE FROM queue WHERE ticket = $1", {ticket}).affected() == 1;
}

}  // namespace ur::storage
