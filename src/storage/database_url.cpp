#include "storage/database_url.h"

namespace ur::storage {

std::string printable(std::string_view text) {
  std::string shown;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      shown += "\\n";
    } else if (c == '\t') {
      shown += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      constexpr std::string_view kHex = "0123456789abcdef";
      shown += "\\x";
      shown += kHex[byte >> 4];
      shown += kHex[byte & 0xf];
    } else {
      shown += c;
    }
  }
  return shown;
}

std::string shown_url(const std::string& url) {
  // scheme://user:password@host...: the password is between the first ':' after "//" and
  // the last '@' of the authority.
  const auto authority = url.find("//");
  if (authority == std::string::npos) return printable(url);
  const auto authority_end = url.find_first_of("/?", authority + 2);
  const std::string_view part = std::string_view(url).substr(
      authority + 2,
      authority_end == std::string::npos ? std::string::npos : authority_end - authority - 2);
  const auto at = part.rfind('@');
  if (at == std::string_view::npos) return printable(url);
  const auto colon = part.substr(0, at).find(':');
  if (colon == std::string_view::npos) return printable(url);
  std::string shown = url.substr(0, authority + 2 + colon + 1);
  shown += "***";
  shown += url.substr(authority + 2 + at);
  return printable(shown);
}

}  // namespace ur::storage
