#include <filesystem>
#include <stdexcept>

#include "storage/database_url.h"
#include "storage/game_store.h"
#include "storage/postgres_store.h"
#include "storage/sqlite_store.h"

namespace ur::storage {

std::unique_ptr<GameStore> open_store(const std::string& url, const std::string& data_dir,
                                      const std::string& server_id) {
  if (url.empty() || url == "sqlite:") {
    return std::make_unique<SqliteStore>(std::filesystem::path(data_dir) / "games.sqlite3");
  }
  if (url.starts_with("sqlite:")) {
    std::string path = url.substr(7);
    if (path.starts_with("//")) {
      throw std::invalid_argument(
          "a SQLite database is sqlite:PATH (e.g. sqlite:games.sqlite3 or "
          "sqlite:/var/lib/ur/games.sqlite3), got \"" +
          printable(url) + "\"");
    }
    const std::filesystem::path file(path);
    const std::filesystem::path directory =
        file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
    if (!std::filesystem::is_directory(directory)) {
      throw std::runtime_error("cannot open " + printable(path) + ": the directory " +
                               printable(directory.string()) + " does not exist");
    }
    return std::make_unique<SqliteStore>(file);
  }
  if (url.starts_with("postgresql://") || url.starts_with("postgres://")) {
    return std::make_unique<PostgresStore>(url, server_id);
  }
  throw std::invalid_argument(
      "expected sqlite:PATH or postgresql://user[:password]@host[:port]/database, "
      "got \"" +
      shown_url(url) + "\"");
}

}  // namespace ur::storage
