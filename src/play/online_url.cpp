#include "play/online_url.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace ur::play {
namespace {

constexpr std::string_view kExpected = "expected http://HOST:PORT/#join=CODE";
constexpr std::size_t kInviteDigits = 32;
constexpr std::size_t kTokenDigits = 64;

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool hex_digits(std::string_view text, std::size_t count) {
  return text.size() == count && std::all_of(text.begin(), text.end(),
                                             [](unsigned char c) { return std::isxdigit(c) != 0; });
}

// A host name or IPv4 address: letters, digits, dots and hyphens.
bool plain_host(std::string_view host) {
  return !host.empty() && std::all_of(host.begin(), host.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 || c == '.' || c == '-';
  });
}

bool ipv6_host(std::string_view host) {
  return !host.empty() && std::all_of(host.begin(), host.end(), [](unsigned char c) {
    return std::isxdigit(c) != 0 || c == ':' || c == '.';
  });
}

std::string quoted(std::string_view text) {
  std::string out = "\"";
  out += text;
  out += "\"";
  return out;
}

// Reads HOST[:PORT] into `server`; the error sentence, or "" when it reads.
std::string read_authority(std::string_view authority, ServerUrl& server) {
  if (authority.find('@') != std::string_view::npos) {
    return "the URL names a user (" + quoted(authority) + "); " + std::string(kExpected);
  }
  std::string_view host = authority, port;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) {
      return "the IPv6 address in " + quoted(authority) + " has no closing ]";
    }
    host = authority.substr(1, close - 1);
    const std::string_view rest = authority.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') {
      return "unexpected " + quoted(rest) + " after the IPv6 address";
    }
    if (!rest.empty()) port = rest.substr(1);
    if (!ipv6_host(host)) return quoted(host) + " is not an IPv6 address";
    if (!rest.empty() && port.empty()) return "the port after " + quoted(host) + " is missing";
  } else {
    const auto colon = authority.find(':');
    if (colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
      if (port.empty()) return "the port after " + quoted(host) + " is missing";
    }
    if (host.empty()) return "the URL has no host; " + std::string(kExpected);
    if (!plain_host(host)) return quoted(host) + " is not a host name or address";
  }
  server.host = lower(host);
  if (!port.empty()) {
    const bool digits = port.size() <= 5 && std::all_of(port.begin(), port.end(), [](char c) {
                          return c >= '0' && c <= '9';
                        });
    const long value = digits ? std::stol(std::string(port)) : 0;
    if (!digits || value < 1 || value > 65535) {
      return "the port " + quoted(port) + " is not a number from 1 to 65535";
    }
    server.port = static_cast<std::uint16_t>(value);
  }
  return "";
}

std::string read_fragment(std::string_view fragment, GameLink& link) {
  if (fragment.empty()) return "";
  const auto equals = fragment.find('=');
  const std::string key = lower(fragment.substr(0, equals));
  const std::string_view value =
      equals == std::string_view::npos ? std::string_view{} : fragment.substr(equals + 1);
  if (key == "join") {
    if (!hex_digits(value, kInviteDigits)) {
      return "the invite code " + quoted(value) + " is not 32 hex digits (copy the whole link)";
    }
    link.kind = LinkKind::Join;
    link.invite = lower(value);
    return "";
  }
  if (key == "seat") {
    // GAME.TOKEN, or GAME.TOKEN.SIDE as the page writes it.
    const auto dot = value.find('.');
    const std::string_view id = value.substr(0, dot);
    std::string_view token =
        dot == std::string_view::npos ? std::string_view{} : value.substr(dot + 1);
    std::optional<std::string_view> side;
    if (const auto second = token.find('.'); second != std::string_view::npos) {
      side = token.substr(second + 1);
      token = token.substr(0, second);
    }
    const bool id_ok =
        !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](unsigned char c) {
          return std::isalnum(c) != 0 || c == '-' || c == '_';
        });
    const bool side_ok = !side || *side == "light" || *side == "dark";
    if (!id_ok || !hex_digits(token, kTokenDigits) || !side_ok) {
      return "the seat link's " + quoted(value) +
             " is not GAME.TOKEN (a game id, a dot, 64 hex digits, and maybe .light or .dark)";
    }
    link.kind = LinkKind::Seat;
    link.game_id = std::string(id);
    link.token = lower(token);
    if (side) link.side = *side == "light" ? Side::Light : Side::Dark;
    return "";
  }
  if (key == "watch") {
    return "a #watch= link only watches a game (open it in a browser); ur play needs an "
           "invite (#join=CODE) or a seat (#seat=GAME.TOKEN)";
  }
  return "the link's #" +
         std::string(fragment.substr(0, std::min<std::size_t>(fragment.size(), 20))) +
         " is neither #join=CODE nor #seat=GAME.TOKEN";
}

}  // namespace

std::string ServerUrl::origin() const {
  std::string text = "http://";
  const bool ipv6 = host.find(':') != std::string::npos;
  if (ipv6) text += "[";
  text += host;
  if (ipv6) text += "]";
  if (port != 80) {
    text += ":";
    text += std::to_string(port);
  }
  return text;
}

std::variant<GameLink, std::string> parse_game_link(std::string_view url) {
  while (!url.empty() && std::isspace(static_cast<unsigned char>(url.front())))
    url.remove_prefix(1);
  while (!url.empty() && std::isspace(static_cast<unsigned char>(url.back()))) url.remove_suffix(1);
  if (url.empty()) return "the URL is empty; " + std::string(kExpected);
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) {
    return quoted(url) + " is not an http:// URL; " + std::string(kExpected);
  }
  const std::string scheme = lower(url.substr(0, scheme_end));
  if (scheme == "https") {
    return "https:// is not supported: ur play speaks plain http:// only, and an https server "
           "needs a TLS-terminating client, which ur does not have; use the server's http:// "
           "address (on its machine, or through an SSH tunnel)";
  }
  if (scheme != "http") {
    return quoted(scheme + "://") + " is not http://; " + std::string(kExpected);
  }
  std::string_view rest = url.substr(scheme_end + 3);
  std::string_view fragment;
  if (const auto hash = rest.find('#'); hash != std::string_view::npos) {
    fragment = rest.substr(hash + 1);
    rest = rest.substr(0, hash);
  }
  const std::string_view authority = rest.substr(0, rest.find_first_of("/?"));
  GameLink link;
  if (std::string problem = read_authority(authority, link.server); !problem.empty()) {
    return problem;
  }
  if (std::string problem = read_fragment(fragment, link); !problem.empty()) return problem;
  return link;
}

std::string join_link(const ServerUrl& server, const std::string& invite) {
  return server.origin() + "/#join=" + invite;
}

std::string seat_link(const ServerUrl& server, const std::string& game_id, const std::string& token,
                      Side side) {
  return server.origin() + "/#seat=" + game_id + "." + token +
         (side == Side::Light ? ".light" : ".dark");
}

std::string watch_link(const ServerUrl& server, const std::string& game_id) {
  return server.origin() + "/#watch=" + game_id;
}

}  // namespace ur::play
