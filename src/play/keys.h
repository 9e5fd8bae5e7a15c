// Key decoding: terminal input bytes into keys, and how a refusal names a key. The game
// and the replay viewer read their keys through this; what a key does lives elsewhere.
#pragma once

#include <string>
#include <vector>

namespace ur::play {

enum class KeyCode {
  Char,
  Enter,
  Escape,
  Up,
  Down,
  Left,
  Right,
  PageUp,
  PageDown,
  Home,
  End,
  Tab,
  BackTab,
  Backspace,
  Other
};

struct Key {
  KeyCode code = KeyCode::Other;
  char character = 0;  // for KeyCode::Char: a printable ASCII character
};

inline Key char_key(char character) {
  return Key{KeyCode::Char, character};
}

inline bool is_char(const Key& key, char character) {
  return key.code == KeyCode::Char && key.character == character;
}

inline bool is_digit(const Key& key) {
  return key.code == KeyCode::Char && key.character >= '0' && key.character <= '9';
}

// Removes the complete keys at the front of `bytes` and returns them. An unfinished escape
// sequence stays in `bytes` unless `flush` (no more bytes came), when a lone ESC is Escape.
std::vector<Key> decode_keys(std::string& bytes, bool flush);

// How a refusal names a key: "'x'", "Space", "Enter", "That arrow".
std::string describe_key(const Key& key);

}  // namespace ur::play
