// Output files named by the user, which are written whole beside their name and renamed
// into place (tables, game records).
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace ur::cli {

// The file `path` names once symbolic links are followed, whether or not it exists yet: a
// rename onto a link would replace the link instead of writing the file it points to. A loop
// of links (or more than 40 in a row) ends on a link: see is_link_loop.
inline std::filesystem::path through_links(std::filesystem::path path) {
  std::error_code error;
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(path, error); ++hops) {
    const std::filesystem::path next = std::filesystem::read_symlink(path, error);
    if (error) break;
    path = next.is_absolute() ? next : path.parent_path() / next;
  }
  return path;
}

// True when through_links gave up on a link (a loop): writing there would replace the link.
inline bool is_link_loop(const std::filesystem::path& resolved) {
  std::error_code error;
  return std::filesystem::is_symlink(resolved, error);
}

// A file as the user typed it, with where its links lead when that differs: "a.table ->
// /data/t.table".
inline std::string shown_through_links(const std::filesystem::path& typed,
                                       const std::filesystem::path& resolved) {
  return typed == resolved ? typed.string() : typed.string() + " -> " + resolved.string();
}

}  // namespace ur::cli
