#include "play/record_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "records/rgn.h"

namespace ur::play {

std::optional<std::string> check_record_path(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return "the record file name is empty";
  std::error_code error;
  if (fs::is_directory(path, error)) return "'" + path + "' is a directory, not a file";
  const fs::path parent = fs::path(path).parent_path();
  const std::string dir = parent.empty() ? "." : parent.string();
  if (!fs::is_directory(dir, error)) return "the directory '" + dir + "' does not exist";
  // The file is replaced by renaming FILE.tmp over it, which needs write access to the
  // directory; an existing file we may not write is refused too, as the user expects.
  if (access(dir.c_str(), W_OK) != 0)
    return "cannot write into '" + dir + "': " + std::strerror(errno);
  if (fs::exists(path, error) && access(path.c_str(), W_OK) != 0) {
    return "cannot write '" + path + "': " + std::strerror(errno);
  }
  return std::nullopt;
}

std::optional<std::string> write_records(const PlaySession& game, const std::string& path) {
  const std::string text = records::write_rgn(game.records());
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return "cannot write '" + temporary + "': " + std::strerror(errno);
    out << text;
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      return "cannot write '" + temporary + "': " + std::strerror(errno);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    return "cannot replace '" + path + "': " + why;
  }
  return std::nullopt;
}

std::string default_record_name(session::Time time) {
  const std::time_t seconds = static_cast<std::time_t>(time / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char name[40];
  std::strftime(name, sizeof name, "ur-game-%Y%m%d-%H%M%S.rgn", &utc);
  return name;
}

}  // namespace ur::play
