// The links of online games as `ur play --host/--join` reads and prints them: a server's
// address (http://HOST:PORT/), an invite (…/#join=CODE) and a seat to come back to
// (…/#seat=GAME.TOKEN or GAME.TOKEN.SIDE), the same links the web page makes. Pure text, no
// network.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/types.h"

namespace ur::play {

// Where a server listens, from an http:// URL.
struct ServerUrl {
  std::string host;  // a name or IPv4 address, or an IPv6 address without its brackets
  std::uint16_t port = 80;

  // "http://host:port" (the port left out when it is 80), the page's origin.
  std::string origin() const;
};

enum class LinkKind {
  Server,  // no fragment: the server alone
  Join,    // #join=CODE: an invite, 32 hex digits
  Seat,    // #seat=GAME.TOKEN[.SIDE]: a seat of game GAME, held by TOKEN (64 hex digits)
};

struct GameLink {
  ServerUrl server;
  LinkKind kind = LinkKind::Server;
  std::string invite;        // Join
  std::string game_id;       // Seat
  std::string token;         // Seat
  std::optional<Side> side;  // Seat: the side the token holds, when the link says (the page's
                             // links do, so the other device knows it without asking)
};

// Reads "http://HOST[:PORT][/PATH][#FRAGMENT]" (the path is ignored: the API is at the root).
// A bad link gives a sentence saying what is wrong and what is expected; https:// is refused
// with why (ur has no TLS client).
std::variant<GameLink, std::string> parse_game_link(std::string_view url);

// The links of the page for a game on `server`.
std::string join_link(const ServerUrl& server, const std::string& invite);
std::string seat_link(const ServerUrl& server, const std::string& game_id, const std::string& token,
                      Side side);
std::string watch_link(const ServerUrl& server, const std::string& game_id);

}  // namespace ur::play
