#include "server/store.h"

#include <sqlite3.h>

#include <chrono>
#include <stdexcept>

namespace ur::server {

namespace {

// Schema 1: games(id, record, updated_ms). Schema 2 adds `format`, the format of the
// record's JSON (game_storage.h), so rows of either format can be told apart in SQL.
constexpr int kSchemaVersion = 2;

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

}  // namespace

GameStore::GameStore(const std::filesystem::path& data_dir) : file_(data_dir / "games.sqlite3") {
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
    auto prepare = [this](const char* sql, sqlite3_stmt** statement) {
      if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, statement, nullptr) !=
          SQLITE_OK) {
        fail("preparing a statement");
      }
    };
    prepare(
        "INSERT INTO games(id, format, record, updated_ms) VALUES(?1, ?2, ?3, ?4) "
        "ON CONFLICT(id) DO UPDATE SET format = excluded.format, record = excluded.record, "
        "updated_ms = excluded.updated_ms",
        &save_);
    prepare("SELECT record FROM games WHERE id = ?1", &load_);
    prepare("SELECT COUNT(*) FROM games", &count_);
    prepare("INSERT INTO invites(code, game_id) VALUES(?1, ?2)", &save_invite_);
    prepare("SELECT game_id FROM invites WHERE code = ?1", &find_invite_);
  } catch (...) {
    sqlite3_finalize(save_invite_);
    sqlite3_finalize(find_invite_);
    sqlite3_finalize(save_);
    sqlite3_finalize(load_);
    sqlite3_finalize(count_);
    sqlite3_close(db_);
    throw;
  }
}

GameStore::~GameStore() {
  sqlite3_finalize(save_invite_);
  sqlite3_finalize(find_invite_);
  sqlite3_finalize(save_);
  sqlite3_finalize(load_);
  sqlite3_finalize(count_);
  sqlite3_close(db_);
}

void GameStore::fail(const std::string& what) {
  throw std::runtime_error("game store " + file_.string() + ": " + what + ": " +
                           sqlite3_errmsg(db_));
}

void GameStore::execute(const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    throw std::runtime_error("game store " + file_.string() + ": " + sql + ": " + message);
  }
}

int GameStore::schema_version() {
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

void GameStore::migrate() {
  const int version = schema_version();
  if (version > kSchemaVersion) {
    throw std::runtime_error(file_.string() + " has schema " + std::to_string(version) +
                             ", written by a newer ur; this one reads schemas up to " +
                             std::to_string(kSchemaVersion) +
                             ". Upgrade ur or use another --data.");
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
          " updated_ms INTEGER NOT NULL)");
    } else if (version == 1) {
      // Schema 1 rows hold format-1 records; the server rewrites each in format 2 when the
      // game next changes.
      execute("ALTER TABLE games ADD COLUMN format INTEGER NOT NULL DEFAULT 1");
    }
    execute(
        "CREATE TABLE IF NOT EXISTS invites ("
        " code TEXT PRIMARY KEY NOT NULL,"
        " game_id TEXT NOT NULL)");
    execute(("PRAGMA user_version=" + std::to_string(kSchemaVersion)).c_str());
    execute("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

void GameStore::save(const std::string& id, int format, const std::string& record) {
  std::lock_guard lock(mutex_);
  // One statement is one implicit transaction: the row is replaced whole or not at all.
  StatementUse use(save_);
  sqlite3_bind_text(save_, 1, id.data(), static_cast<int>(id.size()), SQLITE_STATIC);
  sqlite3_bind_int(save_, 2, format);
  sqlite3_bind_text(save_, 3, record.data(), static_cast<int>(record.size()), SQLITE_STATIC);
  sqlite3_bind_int64(save_, 4, unix_millis());
  if (sqlite3_step(save_) != SQLITE_DONE) fail("saving game " + id);
}

std::optional<std::string> GameStore::load(const std::string& id) {
  std::lock_guard lock(mutex_);
  StatementUse use(load_);
  sqlite3_bind_text(load_, 1, id.data(), static_cast<int>(id.size()), SQLITE_STATIC);
  const int step = sqlite3_step(load_);
  if (step == SQLITE_DONE) return std::nullopt;
  if (step != SQLITE_ROW) fail("loading game " + id);
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(load_, 0));
  return std::string(text ? text : "", static_cast<std::size_t>(sqlite3_column_bytes(load_, 0)));
}

void GameStore::save_invite(const std::string& code, const std::string& game_id) {
  std::lock_guard lock(mutex_);
  StatementUse use(save_invite_);
  sqlite3_bind_text(save_invite_, 1, code.data(), static_cast<int>(code.size()), SQLITE_STATIC);
  sqlite3_bind_text(save_invite_, 2, game_id.data(), static_cast<int>(game_id.size()),
                    SQLITE_STATIC);
  if (sqlite3_step(save_invite_) != SQLITE_DONE) fail("saving the invite of game " + game_id);
}

std::optional<std::string> GameStore::find_invite(const std::string& code) {
  std::lock_guard lock(mutex_);
  StatementUse use(find_invite_);
  sqlite3_bind_text(find_invite_, 1, code.data(), static_cast<int>(code.size()), SQLITE_STATIC);
  const int step = sqlite3_step(find_invite_);
  if (step == SQLITE_DONE) return std::nullopt;
  if (step != SQLITE_ROW) fail("finding an invite");
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(find_invite_, 0));
  return std::string(text ? text : "");
}

long long GameStore::count() {
  std::lock_guard lock(mutex_);
  StatementUse use(count_);
  if (sqlite3_step(count_) != SQLITE_ROW) fail("counting games");
  return sqlite3_column_int64(count_, 0);
}

}  // namespace ur::server
