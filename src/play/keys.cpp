// Key decoding: the bytes a terminal sends (CSI / SS3 sequences included) into keys, and
// the names refusals use for them.
#include "play/keys.h"

#include <string_view>

namespace ur::play {
namespace {

constexpr char kEscape = '\x1b';

}  // namespace

std::string describe_key(const Key& key) {
  if (key.code == KeyCode::Char) {
    return key.character == ' ' ? "Space" : std::string("'") + key.character + "'";
  }
  switch (key.code) {
    case KeyCode::Enter:
      return "Enter";
    case KeyCode::Escape:
      return "Esc";
    case KeyCode::Up:
    case KeyCode::Down:
    case KeyCode::Left:
    case KeyCode::Right:
      return "That arrow";
    case KeyCode::Tab:
    case KeyCode::BackTab:
      return "Tab";
    case KeyCode::Backspace:
      return "Backspace";
    default:
      return "That key";
  }
}

std::vector<Key> decode_keys(std::string& bytes, bool flush) {
  std::vector<Key> keys;
  std::size_t i = 0;
  while (i < bytes.size()) {
    const char byte = bytes[i];
    if (byte == kEscape) {
      if (i + 1 >= bytes.size()) {
        if (!flush) break;
        keys.push_back({KeyCode::Escape});
        ++i;
        continue;
      }
      const char kind = bytes[i + 1];
      if (kind != '[' && kind != 'O') {
        keys.push_back({KeyCode::Escape});
        ++i;
        continue;
      }
      // CSI / SS3: parameters, then a final byte in 0x40..0x7E.
      std::size_t end = i + 2;
      while (end < bytes.size() && !(bytes[end] >= 0x40 && bytes[end] <= 0x7E)) ++end;
      if (end >= bytes.size()) {
        if (!flush) break;
        keys.push_back({KeyCode::Other});
        i = bytes.size();
        continue;
      }
      Key key{KeyCode::Other};
      const std::string_view parameter(bytes.data() + i + 2, end - i - 2);
      switch (bytes[end]) {
        case 'A':
          key.code = KeyCode::Up;
          break;
        case 'B':
          key.code = KeyCode::Down;
          break;
        case 'C':
          key.code = KeyCode::Right;
          break;
        case 'D':
          key.code = KeyCode::Left;
          break;
        case 'Z':
          key.code = KeyCode::BackTab;
          break;
        case 'H':
          key.code = KeyCode::Home;
          break;
        case 'F':
          key.code = KeyCode::End;
          break;
        case '~':  // VT220 editing keys: the parameter names the key
          if (parameter == "1" || parameter == "7") key.code = KeyCode::Home;
          if (parameter == "4" || parameter == "8") key.code = KeyCode::End;
          if (parameter == "5") key.code = KeyCode::PageUp;
          if (parameter == "6") key.code = KeyCode::PageDown;
          break;
        case 'M':
          if (kind == 'O') key.code = KeyCode::Enter;  // keypad Enter
          break;
        default:
          break;
      }
      keys.push_back(key);
      i = end + 1;
      continue;
    }
    const auto unsigned_byte = static_cast<unsigned char>(byte);
    if (byte == '\r' || byte == '\n') {
      keys.push_back({KeyCode::Enter});
    } else if (byte == '\t') {
      keys.push_back({KeyCode::Tab});
    } else if (byte == 0x7F || byte == 0x08) {
      keys.push_back({KeyCode::Backspace});
    } else if (unsigned_byte >= 0x20 && unsigned_byte < 0x7F) {
      keys.push_back(char_key(byte));
    } else {
      keys.push_back({KeyCode::Other});
    }
    ++i;
  }
  bytes.erase(0, i);
  return keys;
}

}  // namespace ur::play
