// The store of one server: games.sqlite3, a local file (the default). Each save is one
// transaction, so a restart or a crash of the server loses no answered change. Opening a file
// of an older schema migrates it in one transaction.
#pragma once

#include <filesystem>
#include <mutex>

#include "storage/game_store.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ur::storage {

class SqliteStore final : public GameStore {
 public:
  // Opens (creating when missing, migrating when older) `file`, whose directory must exist.
  // Throws std::runtime_error saying what failed, also for a file of a newer schema.
  explicit SqliteStore(std::filesystem::path file);
  // Why `file` is not a games database of ur (opened read-only, nothing is written): not
  // SQLite, or without a games table. Nothing when it is one.
  static std::optional<std::string> not_a_game_store(const std::filesystem::path& file);
  ~SqliteStore() override;
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  const char* backend() const override { return "sqlite"; }
  std::string location() const override { return file_.string(); }
  bool shared() const override { return false; }

  bool save(const std::string& id, const GameWrite& write, std::int64_t version,
            std::int64_t expected, const std::string& change = "") override;
  std::optional<StoredGame> load(const std::string& id) override;
  std::int64_t version_of(const std::string& id) override;
  void save_invite(const std::string& code, const std::string& game_id) override;
  std::optional<std::string> find_invite(const std::string& code) override;
  long long count() override;
  void ping() override {}
  void for_each_game(
      const std::function<void(const std::string&, const StoredGame&)>& visit) override;
  void for_each_invite(
      const std::function<void(const std::string&, const std::string&)>& visit) override;
  Copied import_from(GameStore& source) override;

 private:
  void execute(const char* sql);
  int schema_version();
  void migrate();
  // save's work, inside a transaction the caller holds (mutex_ held).
  bool write_game(const std::string& id, const GameWrite& write, std::int64_t version,
                  std::int64_t expected);
  // Adds write's events with `put`, an INSERT of (game_id, seq, event).
  void put_events(sqlite3_stmt* put, const std::string& id, const GameWrite& write);
  // Runs `work` inside a savepoint, rolled back when it throws (mutex_ held).
  template <class Work>
  auto in_savepoint(Work&& work);
  // Migrating to schema 5: cuts every whole record into its head and events.
  void split_records();
  // load's work, inside its savepoint (mutex_ held).
  std::optional<StoredGame> load_head_and_events(const std::string& id);
  // The events of game `id`, comma-separated ("" when none), in their order (mutex_ held).
  std::string events_of(const std::string& id);
  sqlite3_stmt* prepare(const char* sql);
  [[noreturn]] void fail(const std::string& what);

  std::filesystem::path file_;
  std::mutex mutex_;  // one connection, used by one thread at a time
  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* update_ = nullptr;
  sqlite3_stmt* load_ = nullptr;
  sqlite3_stmt* cut_events_ = nullptr;
  sqlite3_stmt* put_event_ = nullptr;
  sqlite3_stmt* load_events_ = nullptr;
  sqlite3_stmt* version_ = nullptr;
  sqlite3_stmt* count_ = nullptr;
  sqlite3_stmt* save_invite_ = nullptr;
  sqlite3_stmt* find_invite_ = nullptr;
};

}  // namespace ur::storage
