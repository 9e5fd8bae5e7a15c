// Who may act for each side of a web game: seat tokens, online games with their invite, and
// the presence of each seat's sockets. A token is a 256-bit secret from the OS random source
// that the server hands to a seat's holder once; every intent must carry the token of the
// seat it acts for. Pure logic (no sockets, no storage): the hub stores `Seating` with the
// game and keeps `Presence` in memory.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/types.h"
#include "server/requests.h"
#include "session/session.h"

namespace ur::server {

inline constexpr std::size_t kTokenHexDigits = 64;   // 256 bits
inline constexpr std::size_t kInviteHexDigits = 32;  // 128 bits
// A seat gone this long on its turn may be claimed by the other player (UTC ms).
inline constexpr session::Time kClaimWinAfterMs = 120'000;
inline constexpr std::size_t kMaxPlayerNameChars = 24;

// `digits` lowercase hex digits from getrandom(2) (4 bits each).
std::string random_hex(std::size_t digits);
// Whether `a` equals `b`, in time that depends only on their lengths (no early exit).
bool same_secret(std::string_view a, std::string_view b);
bool is_hex_text(std::string_view text, std::size_t digits);

// The seats of one web game. Invariants: a token is empty or kTokenHexDigits hex digits; a
// computer seat has no token; `invite` is empty unless `online`; `invite_used` once both
// seats of an online game are held.
struct Seating {
  std::array<std::string, 2> tokens;  // by index_of(Side); empty: nobody holds the seat yet
  bool online = false;                // two devices, each holding one seat
  std::string invite;                 // online: the code that fills the free seat once
  bool invite_used = false;
  std::optional<Side> rematch_offer;  // online, game over: this seat asked for the next game
  // Online: the side of the player who created the game (the settings name it and its
  // player). Absent in games stored before it was kept; those were hosted on light.
  std::optional<Side> host;
  // A game stored before seats existed: its person seats go to the first to claim them.
  bool claimable = false;

  const std::string& token(Side side) const { return tokens[index_of(side)]; }
  // Online and a seat still free: no game can be played yet.
  bool waiting_for_opponent() const { return online && !invite_used; }
};

// Seating for a new game of `settings`: one token for every person seat (the same one for
// both seats of a game between friends on one device). An online game instead holds only
// `online_host`'s seat and an invite for the other.
Seating new_seating(const session::Settings& settings, std::optional<Side> online_host);
// After a settings change on one device: `token` (the one who changed them) holds every seat
// a person plays now or in the waiting settings, and no computer seat. Online games keep
// their seats.
void follow_settings(Seating& seating, const session::Session& session, const std::string& token);
// The free seat of an online game, if any.
std::optional<Side> free_seat(const Seating& seating);

// The seat `token` may act for with `intent`, or ApiError (401 seat_token_missing /
// bad_seat_token, 403 wrong_seat_token / not_your_seat) when it may act for none.
Side authorize(const Seating& seating, const session::Session& session, const WebIntent& intent,
               std::string_view token);
// The sides `token` holds, at least one, or ApiError (401 seat_token_missing /
// bad_seat_token, 403 wrong_seat_token).
std::array<bool, 2> require_seat(const Seating& seating, std::string_view token);
// The sides `token` holds (checks only; no error). An empty or malformed token holds none.
std::array<bool, 2> held_sides(const Seating& seating, std::string_view token);

// A player's name as given (1..24 printable characters once trimmed; empty when absent), or
// bad_request naming the problem.
std::string player_name(const nlohmann::json& value, std::string_view member);

// The connected sockets of each seat (in memory only: a restarted server starts with none).
// `left_at` is the UTC ms its last socket closed, or when the server took the game up;
// `seen` says a socket said hello for the seat since then.
struct Presence {
  std::array<int, 2> sockets{0, 0};
  std::array<session::Time, 2> left_at{0, 0};
  std::array<bool, 2> seen{false, false};

  // Presence as a server taking the game up at `now` finds it: nobody there yet.
  static Presence since(session::Time now) { return {{0, 0}, {now, now}, {false, false}}; }

  bool connected(Side side) const { return sockets[index_of(side)] > 0; }
};

// When the seat not to move may claim the win: the side to move is a person of an online
// game, gone since the later of its leaving and its turn's start, plus two minutes. Nothing
// when no claim applies (not online, over, waiting, or the side to move connected).
std::optional<session::Time> claim_win_after(const Seating& seating, const Presence& presence,
                                             const session::Session& session);

// The members of GameState about seats (docs/web-api.md): online, seats with names and
// presence, waiting_for_opponent, rematch_offer, claim_win_after, claimable, server_time.
nlohmann::json seats_json(const Seating& seating, const Presence& presence,
                          const session::Session& session, session::Time now);

}  // namespace ur::server
