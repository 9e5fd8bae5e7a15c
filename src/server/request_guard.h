// Who may talk to `ur serve`, decided before a request reaches a game: the Host header (a
// DNS-rebinding page names its own domain there), the Origin header (a foreign page's
// POST or WebSocket names the page's origin there), the body's media type (a cross-site
// form can only send text/plain or form encodings) and a per-connection action rate.
// Plain C++ without sockets, so every rule is tested directly (docs/deploying.md).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "server/api_error.h"

namespace ur::server {

// A web origin: scheme, host and port, as in an Origin header. Hosts are lower case and
// IPv6 addresses keep their brackets ("[::1]").
struct Origin {
  std::string scheme;  // "http" or "https"
  std::string host;
  std::uint16_t port = 0;  // the scheme's default (80, 443) when the text names none

  // "scheme://host" with ":port" only when it is not the scheme's default: the form a
  // browser sends.
  std::string text() const;
  bool operator==(const Origin&) const = default;
};

// A Host header's parts: the host in lower case, and the port when it names one.
struct Authority {
  std::string host;
  std::optional<std::uint16_t> port;
};

// "host[:port]" as in a Host header; nullopt when it is not one.
std::optional<Authority> parse_authority(std::string_view text);
// An Origin header's value; nullopt when it is not an http(s) origin (e.g. "null").
std::optional<Origin> parse_origin(std::string_view text);
// The value of --public-url or --allow-origin (named by `option`): an origin, where a
// single trailing "/" is allowed. Throws std::invalid_argument saying what is wrong and
// what is expected.
Origin parse_origin_option(std::string_view value, std::string_view option);

// The request target as the routes read it: origin form ("/path?query") with the path
// percent-decoded. An absolute-form target ("http://host:port/path", which HTTP/1.1 servers
// must accept) loses its scheme and authority; its authority must then name the host and port
// of `host_header`. The query stays as sent. The 400 bad_request, saying what is wrong, for a
// target of another form, a broken %XX, or a path that encodes /, ?, # or a control character
// (a route would read those otherwise than the client meant).
std::variant<std::string, ApiError> origin_form_target(std::string_view target,
                                                       std::optional<std::string_view> host_header);

// Whether a request of `method` may change something: everything but GET, HEAD and OPTIONS.
bool changes_state(std::string_view method);

struct GuardOptions {
  std::string listen_host;  // as given to --host: an IP address or "localhost"
  std::uint16_t port = 0;   // the bound port
  // --public-url, then every --allow-origin: origins whose pages may change games, and
  // whose hosts the server answers to.
  std::vector<Origin> trusted_origins;
};

// What an HTTP request says about itself, as far as the guard cares. Absent headers are
// nullopt.
struct RequestFacts {
  std::string_view method;
  std::optional<std::string_view> host;
  std::optional<std::string_view> origin;
  std::optional<std::string_view> content_type;
  std::size_t body_size = 0;
  bool websocket_upgrade = false;
};

class RequestGuard {
 public:
  explicit RequestGuard(GuardOptions options);

  // The refusal for a request that may not go on (421/400 bad_host, 403 bad_origin,
  // 415 bad_content_type), or nullopt.
  std::optional<ApiError> check(const RequestFacts& request) const;

  // Bound to 0.0.0.0 or ::: reachable at every address of the machine.
  bool wildcard() const { return wildcard_; }
  // The hosts and the origins accepted, as shown in refusals ("127.0.0.1:8080", ...).
  std::vector<std::string> accepted_hosts() const;
  std::vector<std::string> accepted_origins() const;

 private:
  bool host_accepted(const Authority& authority) const;
  bool origin_accepted(const Origin& origin, const std::optional<Authority>& host) const;

  GuardOptions options_;
  bool wildcard_ = false;
  bool loopback_ = false;
  std::string listen_host_;  // normalised: lower case, IPv6 in brackets
};

// At most `actions` within any `window`: a connection's actions are stamped as they come,
// and one beyond the limit is refused without counting, so the sender may go on once the
// window has moved past its oldest action.
class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  RateLimiter(std::size_t actions, Clock::duration window);
  bool allow(Clock::time_point now);

 private:
  std::size_t actions_;
  Clock::duration window_;
  std::deque<Clock::time_point> recent_;  // the last `actions_` allowed actions, oldest first
};

// The 429 for an action over the limit of `actions` per `window`.
ApiError rate_limited(std::size_t actions, RateLimiter::Clock::duration window);

// Who may start or stop a table build (POST and DELETE /api/tables/build): a 7-piece Finkel
// build takes both cores and up to 4 GiB for a minute, Masters' 7 GiB for several, so by
// default only a player on the server's own machine may (`ur serve --table-builds`).
enum class TableBuilds {
  kLocal,   // peers on a loopback address (the default)
  kAnyone,  // whoever can reach the server
  kOff,     // nobody: tables come from `ur solve` only
};

// --table-builds' value ("local", "anyone", "off"); nullopt for another.
std::optional<TableBuilds> parse_table_builds(std::string_view text);
std::string_view to_string(TableBuilds policy);

// The 403 builds_not_allowed for a request of `method` to start or stop a build, from a peer
// on a loopback address or not; nullopt when it may. Reading a build's state (GET) always may.
std::optional<ApiError> check_table_build(TableBuilds policy, std::string_view method,
                                          bool loopback_peer);

}  // namespace ur::server
