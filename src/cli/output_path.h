// Output files named by the user, which are written whole beside their name and renamed
// into place (tables, game records).
#pragma once

#include <filesystem>
#include <system_error>

namespace ur::cli {

// The file `path` names once symbolic links are followed, whether or not it exists yet: a
// rename onto a link would replace the link instead of writing the file it points to. A loop
// of links (more than 40) is left as it is and fails when written.
inline std::filesystem::path through_links(std::filesystem::path path) {
  std::error_code error;
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(path, error); ++hops) {
    const std::filesystem::path next = std::filesystem::read_symlink(path, error);
    if (error) break;
    path = next.is_absolute() ? next : path.parent_path() / next;
  }
  return path;
}

}  // namespace ur::cli
