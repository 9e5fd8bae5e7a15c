#include "server/seating.h"

#include <algorithm>

#include "core/notation.h"
#include "protocol/json.h"
#include "server/api_error.h"
#include "server/os_random.h"
#include "server/web_game.h"

namespace ur::server {

using nlohmann::json;

std::string random_hex(std::size_t digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  text.reserve(digits);
  while (text.size() < digits) {
    std::uint64_t value = os_random_u64();
    for (int i = 0; i < 16 && text.size() < digits; ++i, value >>= 4) text += kHex[value & 15];
  }
  return text;
}

bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  // Every byte is compared whatever the earlier ones gave: the time says nothing of where
  // a guess first goes wrong. volatile keeps the compiler from cutting the loop short.
  volatile unsigned char difference = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    difference = static_cast<unsigned char>(
        difference | (static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i])));
  }
  return difference == 0;
}

bool is_hex_text(std::string_view text, std::size_t digits) {
  return text.size() == digits && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

Seating new_seating(const session::Settings& settings, std::optional<Side> online_host) {
  Seating seating;
  seating.online = online_host.has_value();
  seating.host = online_host;
  if (online_host) {
    seating.tokens[index_of(*online_host)] = random_hex(kTokenHexDigits);
    seating.invite = random_hex(kInviteHexDigits);
    return seating;
  }
  const std::string token = random_hex(kTokenHexDigits);
  for (Side side : {Side::Light, Side::Dark}) {
    if (settings.is_person(side)) seating.tokens[index_of(side)] = token;
  }
  return seating;
}

void follow_settings(Seating& seating, const session::Session& session, const std::string& token) {
  if (seating.online) return;
  const auto& pending = session.pending_settings();
  for (Side side : {Side::Light, Side::Dark}) {
    const bool person = session.settings().is_person(side) || (pending && pending->is_person(side));
    seating.tokens[index_of(side)] = person ? token : std::string();
  }
}

std::optional<Side> free_seat(const Seating& seating) {
  if (!seating.online) return std::nullopt;
  for (Side side : {Side::Light, Side::Dark}) {
    if (seating.token(side).empty()) return side;
  }
  return std::nullopt;
}

std::array<bool, 2> held_sides(const Seating& seating, std::string_view token) {
  std::array<bool, 2> held{false, false};
  if (!is_hex_text(token, kTokenHexDigits)) return held;
  for (Side side : {Side::Light, Side::Dark}) {
    const std::string& mine = seating.token(side);
    held[index_of(side)] = !mine.empty() && same_secret(mine, token);
  }
  return held;
}

std::array<bool, 2> require_seat(const Seating& seating, std::string_view token) {
  if (token.empty()) {
    throw ApiError(401, "seat_token_missing",
                   seating.claimable
                       ? "This game was stored before seats had tokens: claim its seats first "
                         "with POST /api/games/{id}/claim."
                       : "Only the players of this game may act in it, and this request carries "
                         "no seat token (Authorization: Bearer TOKEN, or \"token\" in a "
                         "WebSocket message). You can watch the game.");
  }
  if (!is_hex_text(token, kTokenHexDigits)) {
    throw ApiError(401, "bad_seat_token",
                   "A seat token is 64 lowercase hexadecimal digits; the one sent is not.");
  }
  const std::array<bool, 2> held = held_sides(seating, token);
  if (!held[0] && !held[1]) {
    throw ApiError(403, "wrong_seat_token",
                   "This seat token holds no seat of this game: you can watch it, but not act.");
  }
  return held;
}

Side authorize(const Seating& seating, const session::Session& session, const WebIntent& intent,
               std::string_view token) {
  const std::array<bool, 2> held = require_seat(seating, token);
  if (held[0] && held[1]) return acting_seat(session, intent);  // friends on one device
  const Side mine = held[0] ? Side::Light : Side::Dark;
  if (intent.side && *intent.side != mine) {
    const std::string& who = page_voice().names[index_of(*intent.side)];
    throw ApiError(403, "not_your_seat",
                   "Your seat is " + page_voice().names[index_of(mine)] + "; only " + who +
                       "'s player may act for " + who + ".");
  }
  return mine;
}

std::string player_name(const json& value, std::string_view member) {
  std::string what = "\"";
  what += member;
  what += '"';
  if (!value.is_string()) {
    throw bad_request(what + " must be a player's name (a string of 1 to 24 characters), got " +
                      protocol::quote_json(value));
  }
  const std::string& text = value.get_ref<const std::string&>();
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  std::string name = text.substr(first, last - first + 1);
  // Count UTF-8 characters (the parser has checked the encoding); refuse control characters,
  // which would break the terminal and the record's tags, and the marks that reverse the
  // direction of text, which could show the other player a name that reads otherwise.
  std::size_t chars = 0;
  for (std::size_t i = 0; i < name.size();) {
    const auto lead = static_cast<unsigned char>(name[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    char32_t point = length == 1 ? lead : lead & (0x7f >> length);
    for (std::size_t k = 1; k < length && i + k < name.size(); ++k) {
      point = (point << 6) | (static_cast<unsigned char>(name[i + k]) & 0x3f);
    }
    const bool control = point < 0x20 || (point >= 0x7f && point <= 0x9f);
    const bool direction = point == 0x61c || point == 0x200e || point == 0x200f ||
                           (point >= 0x202a && point <= 0x202e) ||
                           (point >= 0x2066 && point <= 0x2069);
    if (control || direction || point == '"') {
      throw bad_request(what + " may not hold control characters, marks that change the " +
                        "direction of text, or quotes.");
    }
    ++chars;
    i += length;
  }
  if (chars > kMaxPlayerNameChars) {
    throw bad_request(what + " is " + std::to_string(chars) + " characters long; a name has " +
                      std::to_string(kMaxPlayerNameChars) + " at most.");
  }
  return name;
}

std::optional<session::Time> claim_win_after(const Seating& seating, const Presence& presence,
                                             const session::Session& session) {
  if (!seating.online || seating.waiting_for_opponent()) return std::nullopt;
  if (session.phase() == session::Phase::Over || session.history().empty()) return std::nullopt;
  const Side absent = session.to_move();
  if (presence.connected(absent)) return std::nullopt;
  // The turn started at the last event (the one that handed it the dice).
  const session::Time since =
      std::max(presence.left_at[index_of(absent)], session.history().back().time);
  return since + kClaimWinAfterMs;
}

json seats_json(const Seating& seating, const Presence& presence, const session::Session& session,
                session::Time now) {
  json seats = json::object();
  for (Side side : {Side::Light, Side::Dark}) {
    const session::Seat& seat = session.settings().seat(side);
    const bool connected = presence.connected(side);
    const bool person = seat.is_person();
    seats[std::string(side_name(side))] = {
        {"name", seat.name},
        {"player", person ? "person" : "computer"},
        {"taken", !person || !seating.token(side).empty()},
        {"connected", connected},
        {"left_at", connected || !person || !presence.seen[index_of(side)]
                        ? json(nullptr)
                        : json(presence.left_at[index_of(side)])}};
  }
  const auto claim = claim_win_after(seating, presence, session);
  return {{"online", seating.online},
          {"seats", std::move(seats)},
          {"waiting_for_opponent", seating.waiting_for_opponent()},
          {"rematch_offer",
           seating.rematch_offer ? json(side_name(*seating.rematch_offer)) : json(nullptr)},
          {"claim_win_after", claim ? json(*claim) : json(nullptr)},
          {"claimable", seating.claimable},
          {"server_time", now}};
}

}  // namespace ur::server
