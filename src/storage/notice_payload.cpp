#include "storage/notice_payload.h"

#include <charconv>

namespace ur::storage {

std::string game_notice_payload(const std::string& server_id, const std::string& game_id,
                                std::int64_t version, const std::string& change) {
  std::string payload = "g " + server_id + " " + game_id + " " + std::to_string(version);
  if (!change.empty() && payload.size() + 1 + change.size() < kMaxNoticeBytes) {
    payload += ' ';
    payload += change;
  }
  return payload;
}

std::string presence_notice_payload(const std::string& server_id, const std::string& game_id) {
  return "p " + server_id + " " + game_id;
}

std::optional<Notice> read_notice_payload(const std::string& payload,
                                          const std::string& own_server_id) {
  // KIND SERVER GAME ...: one-letter kind, then two non-empty words.
  if (payload.size() < 2 || payload[1] != ' ') return std::nullopt;
  const auto server_end = payload.find(' ', 2);
  if (server_end == std::string::npos || server_end == 2) return std::nullopt;
  if (payload.compare(2, server_end - 2, own_server_id) == 0) return std::nullopt;
  const auto game_end = payload.find(' ', server_end + 1);
  Notice notice;
  notice.game_id =
      payload.substr(server_end + 1,
                     game_end == std::string::npos ? std::string::npos : game_end - server_end - 1);
  if (notice.game_id.empty()) return std::nullopt;
  if (payload[0] == 'p') {
    if (game_end != std::string::npos) return std::nullopt;
    notice.kind = Notice::Kind::Presence;
    return notice;
  }
  if (payload[0] != 'g' || game_end == std::string::npos) return std::nullopt;
  notice.kind = Notice::Kind::Game;
  const auto version_end = payload.find(' ', game_end + 1);
  const char* first = payload.data() + game_end + 1;
  const char* last = version_end == std::string::npos ? payload.data() + payload.size()
                                                      : payload.data() + version_end;
  const auto [stop, error] = std::from_chars(first, last, notice.version);
  if (error != std::errc{} || stop != last || first == last || notice.version < 1) {
    return std::nullopt;
  }
  if (version_end != std::string::npos) notice.change = payload.substr(version_end + 1);
  return notice;
}

}  // namespace ur::storage
