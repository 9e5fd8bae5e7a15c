// Durable storage of games in one SQLite file (`games.sqlite3` under the data directory).
// Each game is one row holding its JSON record and the record's format; every save is its
// own transaction, so a restart (or a crash of the server process) loses no change that was
// answered. Opening a file of an older schema migrates it in one transaction. Invite codes of
// online games are kept beside the games, to find a game by its invite.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace ur::server {

class GameStore {
 public:
  // Opens (creating when missing, migrating when older) the database under `data_dir`,
  // which must exist. Throws std::runtime_error saying what failed, also for a file of a
  // newer schema than this ur reads.
  explicit GameStore(const std::filesystem::path& data_dir);
  ~GameStore();
  GameStore(const GameStore&) = delete;
  GameStore& operator=(const GameStore&) = delete;

  // Inserts or replaces the record of game `id`, of record format `format`. Throws
  // std::runtime_error on failure.
  void save(const std::string& id, int format, const std::string& record);
  // The stored record of game `id`, if any. Throws std::runtime_error on failure.
  std::optional<std::string> load(const std::string& id);
  // Files the invite `code` of online game `game_id` (codes are unique). Throws
  // std::runtime_error on failure.
  void save_invite(const std::string& code, const std::string& game_id);
  // The game whose invite is `code`, if any.
  std::optional<std::string> find_invite(const std::string& code);
  // Number of stored games.
  long long count();

  const std::filesystem::path& file() const { return file_; }

 private:
  void execute(const char* sql);
  int schema_version();
  void migrate();
  [[noreturn]] void fail(const std::string& what);

  std::filesystem::path file_;
  std::mutex mutex_;  // one connection, used by one thread at a time
  sqlite3* db_ = nullptr;
  sqlite3_stmt* save_ = nullptr;
  sqlite3_stmt* load_ = nullptr;
  sqlite3_stmt* count_ = nullptr;
  sqlite3_stmt* save_invite_ = nullptr;
  sqlite3_stmt* find_invite_ = nullptr;
};

}  // namespace ur::server
