#include "server/assets.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace ur::server {

const Asset* find_asset(std::string_view url_path) {
  std::string path(url_path.substr(0, url_path.find_first_of("?#")));
  if (path.empty() || path.back() == '/') path += "index.html";
  const auto assets = embedded_assets();
  const auto found = std::lower_bound(
      assets.begin(), assets.end(), path,
      [](const Asset& asset, const std::string& wanted) { return asset.path < wanted; });
  return found != assets.end() && found->path == path ? &*found : nullptr;
}

std::string_view content_type_for(std::string_view path) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kTypes = {{
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".json", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".webp", "image/webp"},
      {".woff2", "font/woff2"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/plain; charset=utf-8"},
      {".mp3", "audio/mpeg"},
      {".ogg", "audio/ogg"},
      {".wav", "audio/wav"},
  }};
  for (const auto& [extension, type] : kTypes) {
    if (path.ends_with(extension)) return type;
  }
  return "application/octet-stream";
}

}  // namespace ur::server
