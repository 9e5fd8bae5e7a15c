#include "play/record_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "cli/output_path.h"
#include "records/rgn.h"

namespace ur::play {

namespace {

// check_record_path for `path`, whose links lead to `target`: resolved once by the caller, so
// that the file checked is the file written.
std::optional<std::string> check_target(const std::string& path,
                                        const std::filesystem::path& target) {
  namespace fs = std::filesystem;
  if (path.empty()) return "the record file name is empty";
  if (cli::is_link_loop(target)) {
    return "'" + path + "' is a loop of symbolic links (or more than 40 in a row): name a file";
  }
  std::error_code error;
  const fs::file_status status = fs::status(target, error);
  if (fs::is_directory(status)) return "'" + path + "' is a directory, not a file";
  // A device, pipe or socket would be replaced by the rename: a record needs a plain file.
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    return "'" + path + "' is not a regular file: give the name of a file to write the record to";
  }
  const fs::path parent = target.parent_path();
  const std::string dir = parent.empty() ? "." : parent.string();
  if (!fs::is_directory(dir, error)) return "the directory '" + dir + "' does not exist";
  // The file is replaced by renaming FILE.tmp over it, which needs write access to the
  // directory; an existing file we may not write is refused too, as the user expects.
  if (access(dir.c_str(), W_OK) != 0)
    return "cannot write into '" + dir + "': " + std::strerror(errno);
  if (fs::exists(status) && access(target.c_str(), W_OK) != 0) {
    return "cannot write '" + path + "': " + std::strerror(errno);
  }
  // Some places pass both checks and still take no file (/proc, as root): make the temporary
  // file now, so that the game is not played for a record that cannot be written.
  // O_EXCL and O_NOFOLLOW: a link left at FILE.tmp is neither followed nor taken for ours.
  const std::string temporary = target.string() + ".tmp";
  const int fd =
      ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  const int open_error = errno;
  if (fd >= 0) {
    ::close(fd);
    ::unlink(temporary.c_str());
    return std::nullopt;
  }
  if (open_error != EEXIST) return "cannot write '" + temporary + "': " + std::strerror(open_error);
  if (!fs::is_regular_file(fs::symlink_status(temporary, error)) ||
      access(temporary.c_str(), W_OK) != 0) {
    return "cannot write '" + temporary + "': it is in the way (not a file this user may write)";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_record_path(const std::string& path) {
  return check_target(path, cli::through_links(path));
}

std::optional<std::string> write_records(const PlaySession& game, const std::string& path) {
  const std::string target = cli::through_links(path).string();
  if (auto problem = check_target(path, target)) return problem;
  const std::string text = records::write_rgn(game.records());
  const std::string temporary = target + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return "cannot write '" + temporary + "': " + std::strerror(errno);
    out << text;
    out.close();  // a failed close (a full disk on some file systems) is a failed write
    if (!out) {
      std::remove(temporary.c_str());
      return "cannot write '" + temporary + "': " + std::strerror(errno);
    }
  }
  if (std::rename(temporary.c_str(), target.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    return "cannot replace '" + target + "': " + why;
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
