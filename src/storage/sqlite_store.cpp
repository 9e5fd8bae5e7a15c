#include "storage/sqlite_store.h"

#include <sqlite3.h>

#include <chrono>
#include <stdexcept>

namespace ur::storage {

namespace {

long long unix_millis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Resets a prepared statement on every exit path so it can be reused.
class StatementUse {
 public:
  explicit StatementUse(sqlite3_stmt* statement) : statement_(statement) {}
  ~StatementUse() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  StatementUse(const StatementUse&) = delete;
  StatementUse& operator=(const StatementUse&) = delete;

 private:
  sqlite3_stmt* statement_;
};

void bind_text(sqlite3_stmt* statement, int at, const std::string& text) {
  sqlite3_bind_text(statement, at, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}

std::string column_text(sqlite3_stmt* statement, int at) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, at));
  return std::string(text ? text : "",
                     static_cast<std::size_t>(sqlite3_column_bytes(statement, at)));
}

}  // namespace

SqliteStore::SqliteStore(std::filesystem::path file) : file_(std::move(file)) {
  const int opened =
      sqlite3_open_v2(file_.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (opened != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(opened);
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open " + file_.string() + ": " + message);
  }
  try {
    sqlite3_busy_timeout(db_, 5000);
    // WAL with synchronous=NORMAL: each commit survives a crash of this process; only a
    // power loss may drop the last commits, in exchange for no fsync per move.
    execute("PRAGMA journal_mode=WAL");
    execute("PRAGMA synchronous=NORMAL");
    migrate();
    insert_ = prepare(
        "INSERT INTO games(id, format, head, version, updated_ms) VALUES(?1, ?2, ?3, ?4, ?5) "
        "ON CONFLICT(id) DO NOTHING");
    update_ = prepare(
        "UPDATE games SET format = ?2, head = ?3, version = ?4, updated_ms = ?5 "
        "WHERE id = ?1 AND version = ?6");
    load_ = prepare("SELECT format, head, version FROM games WHERE id = ?1");
    cut_events_ = prepare("DELETE FROM game_events WHERE game_id = ?1 AND seq >= ?2");
    put_event_ = prepare(
        "INSERT INTO game_events(game_id, seq, event) VALUES(?1, ?2, ?3) "
        "ON CONFLICT(game_id, seq) DO UPDATE SET event = excluded.event");
    load_events_ = prepare("SELECT event FROM game_events WHERE game_id = ?1 ORDER BY seq");
    version_ = prepare("SELECT version FROM games WHERE id = ?1");
    count_ = prepare("SELECT COUNT(*) FROM games");
    save_invite_ = prepare("INSERT INTO invites(code, game_id) VALUES(?1, ?2)");
    find_invite_ = prepare("SELECT game_id FROM invites WHERE code = ?1");
  } catch (...) {
    for (sqlite3_stmt* statement : {insert_, update_, load_, cut_events_, put_event_, load_events_,
                                    version_, count_, save_invite_, find_invite_}) {
      sqlite3_finalize(statement);
    }
    sqlite3_close(db_);
    throw;
  }
}

SqliteStore::~SqliteStore() {
  for (sqlite3_stmt* statement : {insert_, update_, load_, cut_events_, put_event_, load_events_,
                                  version_, count_, save_invite_, find_invite_}) {
    sqlite3_finalize(statement);
  }
  sqlite3_close(db_);
}

std::optional<std::string> SqliteStore::not_a_game_store(const std::filesystem::path& file) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    const std::string why = db ? sqlite3_errmsg(db) : "cannot open it";
    sqlite3_close(db);
    return why;
  }
  sqlite3_stmt* query = nullptr;
  const int prepared = sqlite3_prepare_v2(
      db, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'", -1, &query,
      nullptr);
  const bool has_games = prepared == SQLITE_OK && sqlite3_step(query) == SQLITE_ROW &&
                         sqlite3_column_int(query, 0) == 1;
  const std::string why = prepared == SQLITE_OK ? "" : sqlite3_errmsg(db);
  sqlite3_finalize(query);
  sqlite3_close(db);
  if (!why.empty()) return "not a SQLite database (" + why + ")";
  if (!has_games) return std::string("a SQLite database without a games table");
  return std::nullopt;
}

sqlite3_stmt* SqliteStore::prepare(const char* sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, nullptr) !=
      SQLITE_OK) {
    fail("preparing a statement");
  }
  return statement;
}

void SqliteStore::fail(const std::string& what) {
  throw std::runtime_error("game store " + file_.string() + ": " + what + ": " +
                           sqlite3_errmsg(db_));
}

void SqliteStore::execute(const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    throw std::runtime_error("game store " + file_.string() + ": " + sql + ": " + message);
  }
}

int SqliteStore::schema_version() {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, "PRAGMA user_version", -1, &statement, nullptr) != SQLITE_OK) {
    fail("reading the schema version");
  }
  const int step = sqlite3_step(statement);
  const int version = step == SQLITE_ROW ? sqlite3_column_int(statement, 0) : -1;
  sqlite3_finalize(statement);
  if (version < 0) fail("reading the schema version");
  return version;
}

void SqliteStore::migrate() {
  const int version = schema_version();
  if (version > kSchemaVersion) {
    throw std::runtime_error(file_.string() + " has schema version " + std::to_string(version) +
                             ", newer than the " + std::to_string(kSchemaVersion) +
                             " this ur reads; upgrade ur or use another database");
  }
  if (version == kSchemaVersion) return;
  // One transaction: a migration stopped half-way leaves the old schema as it was.
  execute("BEGIN IMMEDIATE");
  try {
    if (version == 0) {
      execute(
          "CREATE TABLE IF NOT EXISTS games ("
          " id TEXT PRIMARY KEY NOT NULL,"
          " format INTEGER NOT NULL,"
          " record TEXT NOT NULL,"
          " version INTEGER NOT NULL,"
          " updated_ms INTEGER NOT NULL)");
    } else if (version < 4) {
      // Schema 1 rows hold format-1 records; the server rewrites each in format 2 when the
      // game next changes.
      if (version == 1) execute("ALTER TABLE games ADD COLUMN format INTEGER NOT NULL DEFAULT 1");
      // The version each record carries becomes a column, so a save can be guarded by it.
      execute("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 1");
      execute("UPDATE games SET version = MAX(1, COALESCE(json_extract(record, '$.version'), 1))");
    }
    execute(
        "CREATE TABLE IF NOT EXISTS invites ("
        " code TEXT PRIMARY KEY NOT NULL,"
        " game_id TEXT NOT NULL)");
    execute(
        "CREATE TABLE IF NOT EXISTS game_events ("
        " game_id TEXT NOT NULL,"
        " seq INTEGER NOT NULL,"
        " event TEXT NOT NULL,"
        " PRIMARY KEY (game_id, seq)) WITHOUT ROWID");
    // Schema 5 keeps each history one event a row: every whole record is cut in two. The
    // column's new name makes a server of an older schema still running fail on every game
    // rather than write whole records beside the events.
    if (version > 0) split_records();
    execute("ALTER TABLE games RENAME COLUMN record TO head");
    execute(("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str());
    execute("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void SqliteStore::split_records() {
  // One row at a time. Should the scan meet an updated row again, it is all head by then and
  // is skipped: cutting a record is done once whatever the order.
  sqlite3_stmt* games = nullptr;
  sqlite3_stmt* head = nullptr;
  sqlite3_stmt* put = nullptr;
  try {
    games = prepare("SELECT id, format, record FROM games");
    head = prepare("UPDATE games SET record = ?2 WHERE id = ?1");
    put = prepare("INSERT INTO game_events(game_id, seq, event) VALUES(?1, ?2, ?3)");
    int step;
    while ((step = sqlite3_step(games)) == SQLITE_ROW) {
      const std::string id = column_text(games, 0);
      const GameWrite write = split_record(column_text(games, 2), sqlite3_column_int(games, 1));
      if (write.events.empty()) continue;  // all head: left as it is
      StatementUse use(head);
      bind_text(head, 1, id);
      bind_text(head, 2, write.head);
      if (sqlite3_step(head) != SQLITE_DONE) fail("migrating game " + id + " to schema 5");
      put_events(put, id, write);
    }
    if (step != SQLITE_DONE) fail("migrating the games to schema 5");
  } catch (...) {
    for (sqlite3_stmt* statement : {games, head, put}) sqlite3_finalize(statement);
    throw;
  }
  for (sqlite3_stmt* statement : {games, head, put}) sqlite3_finalize(statement);
}

void SqliteStore::put_events(sqlite3_stmt* put, const std::string& id, const GameWrite& write) {
  for (std::size_t i = 0; i < write.events.size(); ++i) {
    StatementUse use(put);
    bind_text(put, 1, id);
    sqlite3_bind_int64(put, 2, static_cast<sqlite3_int64>(write.first + i));
    bind_text(put, 3, write.events[i]);
    if (sqlite3_step(put) != SQLITE_DONE) fail("saving the events of game " + id);
  }
}

bool SqliteStore::write_game(const std::string& id, const GameWrite& write, std::int64_t version,
                             std::int64_t expected) {
  {
    sqlite3_stmt* statement = expected == 0 ? insert_ : update_;
    StatementUse use(statement);
    bind_text(statement, 1, id);
    sqlite3_bind_int(statement, 2, write.format);
    bind_text(statement, 3, write.head);
    sqlite3_bind_int64(statement, 4, version);
    sqlite3_bind_int64(statement, 5, unix_millis());
    if (expected != 0) sqlite3_bind_int64(statement, 6, expected);
    if (sqlite3_step(statement) != SQLITE_DONE) fail("saving game " + id);
    if (sqlite3_changes(db_) != 1) return false;
  }
  {
    StatementUse use(cut_events_);
    bind_text(cut_events_, 1, id);
    sqlite3_bind_int64(cut_events_, 2,
                       static_cast<sqlite3_int64>(write.first + write.events.size()));
    if (sqlite3_step(cut_events_) != SQLITE_DONE) fail("saving the events of game " + id);
  }
  put_events(put_event_, id, write);
  return true;
}

template <class Work>
auto SqliteStore::in_savepoint(Work&& work) {
  // A savepoint is a transaction of its own outside one, and nests inside import_from's.
  execute("SAVEPOINT store");
  try {
    auto result = work();
    execute("RELEASE store");
    return result;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK TO store; RELEASE store", nullptr, nullptr, nullptr);
    throw;
  }
}

bool SqliteStore::save(const std::string& id, const GameWrite& write, std::int64_t version,
                       std::int64_t expected, const std::string&) {
  // No other server reads this file: the change is for nobody.
  std::lock_guard lock(mutex_);
  // The head and the events together or not at all.
  return in_savepoint([&] { return write_game(id, write, version, expected); });
}

std::string SqliteStore::events_of(const std::string& id) {
  StatementUse use(load_events_);
  bind_text(load_events_, 1, id);
  std::string events;
  int step;
  while ((step = sqlite3_step(load_events_)) == SQLITE_ROW) {
    if (!events.empty()) events += ',';
    events += column_text(load_events_, 0);
  }
  if (step != SQLITE_DONE) fail("loading the events of game " + id);
  return events;
}

std::optional<StoredGame> SqliteStore::load(const std::string& id) {
  std::lock_guard lock(mutex_);
  // The head and its events of one commit, should another connection write between the two.
  return in_savepoint([&] { return load_head_and_events(id); });
}

std::optional<StoredGame> SqliteStore::load_head_and_events(const std::string& id) {
  StoredGame game;
  {
    StatementUse use(load_);
    bind_text(load_, 1, id);
    const int step = sqlite3_step(load_);
    if (step == SQLITE_DONE) return std::nullopt;
    if (step != SQLITE_ROW) fail("loading game " + id);
    game = StoredGame{sqlite3_column_int(load_, 0), column_text(load_, 1),
                      sqlite3_column_int64(load_, 2)};
  }
  game.record = join_record(game.record, events_of(id));
  return game;
}

std::int64_t SqliteStore::version_of(const std::string& id) {
  std::lock_guard lock(mutex_);
  StatementUse use(version_);
  bind_text(version_, 1, id);
  const int step = sqlite3_step(version_);
  if (step == SQLITE_DONE) return 0;
  if (step != SQLITE_ROW) fail("reading the version of game " + id);
  return sqlite3_column_int64(version_, 0);
}

void SqliteStore::save_invite(const std::string& code, const std::string& game_id) {
  std::lock_guard lock(mutex_);
  StatementUse use(save_invite_);
  bind_text(save_invite_, 1, code);
  bind_text(save_invite_, 2, game_id);
  if (sqlite3_step(save_invite_) != SQLITE_DONE) fail("saving the invite of game " + game_id);
}

std::optional<std::string> SqliteStore::find_invite(const std::string& code) {
  std::lock_guard lock(mutex_);
  StatementUse use(find_invite_);
  bind_text(find_invite_, 1, code);
  const int step = sqlite3_step(find_invite_);
  if (step == SQLITE_DONE) return std::nullopt;
  if (step != SQLITE_ROW) fail("finding an invite");
  return column_text(find_invite_, 0);
}

long long SqliteStore::count() {
  std::lock_guard lock(mutex_);
  StatementUse use(count_);
  if (sqlite3_step(count_) != SQLITE_ROW) fail("counting games");
  return sqlite3_column_int64(count_, 0);
}

void SqliteStore::for_each_game(
    const std::function<void(const std::string&, const StoredGame&)>& visit) {
  std::lock_guard lock(mutex_);
  sqlite3_stmt* statement = prepare("SELECT id, format, head, version FROM games ORDER BY id");
  int step;
  while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
    const std::string id = column_text(statement, 0);
    visit(id, StoredGame{sqlite3_column_int(statement, 1),
                         join_record(column_text(statement, 2), events_of(id)),
                         sqlite3_column_int64(statement, 3)});
  }
  sqlite3_finalize(statement);
  if (step != SQLITE_DONE) fail("reading the games");
}

void SqliteStore::for_each_invite(
    const std::function<void(const std::string&, const std::string&)>& visit) {
  std::lock_guard lock(mutex_);
  sqlite3_stmt* statement = prepare("SELECT code, game_id FROM invites ORDER BY code");
  int step;
  while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
    visit(column_text(statement, 0), column_text(statement, 1));
  }
  sqlite3_finalize(statement);
  if (step != SQLITE_DONE) fail("reading the invites");
}

GameStore::Copied SqliteStore::import_from(GameStore& source) {
  Copied copied;
  execute("BEGIN IMMEDIATE");
  try {
    source.for_each_game([&](const std::string& id, const StoredGame& game) {
      if (save(id, split_record(game.record, game.format), game.version, 0)) {
        ++copied.games;
      } else {
        ++copied.kept;
      }
    });
    source.for_each_invite([&](const std::string& code, const std::string& game_id) {
      if (!find_invite(code)) {
        save_invite(code, game_id);
        ++copied.invites;
      }
    });
    execute("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return copied;
}

}  // namespace ur::storage
