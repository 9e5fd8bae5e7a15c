// The page's files, compiled into the binary from web/ (see embed_assets.cmake).
#pragma once

#include <span>
#include <string_view>

namespace ur::server {

struct Asset {
  std::string_view path;  // URL path, e.g. "/index.html" or "/js/app.js"
  std::string_view body;
};

// Every embedded file, sorted by path (generated).
std::span<const Asset> embedded_assets();

// The asset a GET of `url_path` serves ("/" and "/dir/" mean their index.html), or null.
const Asset* find_asset(std::string_view url_path);

// The Content-Type for a file name, by extension; "application/octet-stream" if unknown.
std::string_view content_type_for(std::string_view path);

}  // namespace ur::server
