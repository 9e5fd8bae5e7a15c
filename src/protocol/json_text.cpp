#include "protocol/json_text.h"

#include <unordered_set>
#include <vector>

namespace ur::protocol {

using nlohmann::json;

bool nests_too_deeply(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonNesting) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

namespace {

// The library's message without its "[json.exception...] " prefix, and with the bytes it
// quotes from the text ("last read: '\xff'") shown as \xNN when they are not printable
// ASCII: the sentence goes back to whoever sent them, inside JSON. A long quote (a number of a
// million digits) is cut: the answer stays a line, not a copy of the request.
std::string library_message(const json::exception& error) {
  constexpr std::size_t kMaxMessage = 200;
  std::string_view why = error.what();
  if (const auto end = why.find("] "); end != std::string_view::npos) why.remove_prefix(end + 2);
  std::string out;
  for (const char c : why) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7F) {
      out += c;
    } else {
      constexpr std::string_view kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
    if (out.size() >= kMaxMessage) {
      out += "... (cut; " + std::to_string(why.size()) + " bytes in all)";
      break;
    }
  }
  return out;
}

}  // namespace

std::string wire_text(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

json parse_json_text(std::string_view text) {
  // The library stops at a NUL byte as at the end of the text, and would ignore what follows.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    throw JsonTextError(
        "a NUL byte at byte " + std::to_string(nul + 1) + ", which JSON text never holds", nul + 1);
  }
  // The keys met so far in each object being read, innermost last (a set: a hostile object may
  // hold a hundred thousand keys).
  std::vector<std::unordered_set<std::string>> open;
  std::optional<std::string> repeated;
  const json::parser_callback_t check = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      open.emplace_back();
    } else if (event == json::parse_event_t::object_end) {
      open.pop_back();
    } else if (event == json::parse_event_t::key && !repeated) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!open.back().insert(key).second) repeated = key;
    }
    return true;
  };
  json value;
  try {
    value = json::parse(text.begin(), text.end(), check);
  } catch (const json::parse_error& error) {
    throw JsonTextError(library_message(error), error.byte);
  } catch (const json::exception& error) {  // a number out of range (1e400)
    throw JsonTextError(library_message(error), 0);
  }
  if (repeated) {
    throw JsonTextError("the key " +
                            json(*repeated).dump(-1, ' ', false, json::error_handler_t::replace) +
                            " appears twice in one object; each key may appear once",
                        0);
  }
  return value;
}

std::string quote_json(const json& value, std::size_t limit) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > limit) text = text.substr(0, limit) + "...";
  return text;
}

namespace {

// A SAX reader that keeps one member of the top-level object while the text is read: what it
// has built stays whatever fault the reader meets later. Depth counts the open containers, so
// the top-level object's members are at depth 1.
class MemberReader {
 public:
  explicit MemberReader(std::string_view name) : name_(name) {}

  std::optional<json> found() const {
    if (times_named_ != 1 || !complete_) return std::nullopt;
    return value_;
  }

  bool null() { return scalar(json(nullptr)); }
  bool boolean(bool value) { return scalar(json(value)); }
  bool number_integer(json::number_integer_t value) { return scalar(json(value)); }
  bool number_unsigned(json::number_unsigned_t value) { return scalar(json(value)); }
  bool number_float(json::number_float_t value, const std::string&) { return scalar(json(value)); }
  bool string(std::string& value) { return scalar(json(std::move(value))); }
  bool binary(json::binary_t& value) { return scalar(json::binary(std::move(value))); }

  bool start_object(std::size_t) {
    if (depth_ == 0) top_is_object_ = true;
    return open(json::object());
  }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& key) {
    if (depth_ == 1 && top_is_object_) {
      reading_ = key == name_;
      if (reading_) ++times_named_;
    } else if (!building_.empty()) {
      key_ = std::move(key);
    }
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const json::exception&) { return false; }

 private:
  // Where a value read at the current depth belongs: the member itself, a place inside it, or
  // nowhere (nullptr).
  json* place() {
    if (depth_ == 1 && reading_) {
      reading_ = false;
      complete_ = false;
      value_ = json();
      return &value_;
    }
    if (building_.empty()) return nullptr;
    json& parent = *building_.back();
    return parent.is_object() ? &parent[key_] : &parent.emplace_back();
  }

  bool scalar(json value) {
    if (json* target = place()) {
      *target = std::move(value);
      if (building_.empty()) complete_ = true;
    }
    return true;
  }

  bool open(json empty) {
    json* target = depth_ >= 1 ? place() : nullptr;
    ++depth_;
    if (target == nullptr) return true;
    if (building_.size() >= static_cast<std::size_t>(kMaxJsonNesting)) {
      building_.clear();  // too deep to keep: the member stays incomplete
      return true;
    }
    *target = std::move(empty);
    building_.push_back(target);
    building_depth_ = depth_;
    return true;
  }

  bool close() {
    if (!building_.empty() && depth_ == building_depth_) {
      building_.pop_back();
      --building_depth_;
      if (building_.empty()) complete_ = true;
    }
    --depth_;
    return true;
  }

  std::string_view name_;
  int depth_ = 0;
  bool top_is_object_ = false;
  bool reading_ = false;         // the next value at depth 1 is the member's
  int times_named_ = 0;          // how often the member was named at depth 1
  json value_;                   // the member as built so far
  bool complete_ = false;        // value_ has been read whole
  std::vector<json*> building_;  // the containers of value_ still open, innermost last
  int building_depth_ = 0;       // the depth of building_.back()
  std::string key_;              // the key of the next value inside an open object of value_
};

}  // namespace

std::optional<json> member_before_fault(std::string_view text, std::string_view name) {
  MemberReader reader(name);
  try {
    json::sax_parse(text.begin(), text.end(), &reader);
  } catch (const json::exception&) {
    // A number beyond a double's range throws past the SAX reader; what was read stands.
  }
  return reader.found();
}

}  // namespace ur::protocol
