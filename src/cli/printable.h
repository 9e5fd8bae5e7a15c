// Text from a file or a peer, made safe to print on a terminal.
#pragma once

#include <string>
#include <string_view>

namespace ur::cli {

// `text` with its control characters (C0 but tab, DEL, and C1 as UTF-8 encodes them) shown as
// \xNN: a record's tag or a bad line read back in an error must not move the cursor, recolour
// the screen or end a line (a tag value "\x1b[31m" did all of it).
inline std::string printable(std::string_view text) {
  constexpr std::string_view kHex = "0123456789abcdef";
  const auto escape = [&](std::string& out, unsigned char byte) {
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte < 0x20 && byte != '\t') || byte == 0x7f) {
      escape(out, byte);
    } else if (byte == 0xc2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      escape(out, static_cast<unsigned char>(text[++i]));  // U+0080-U+009F
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace ur::cli
