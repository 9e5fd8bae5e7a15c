#include "server/request_guard.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <stdexcept>

namespace ur::server {
namespace {

constexpr std::string_view kDeployingDoc = "docs/deploying.md";

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Joins its parts; GCC 12 warns (-Wrestrict, wrongly) on chains of operator+ that start
// with a literal.
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view part : parts) out += part;
  return out;
}

std::string quoted(std::string_view text) {
  // Header values come from clients: keep them short and printable in messages.
  std::string out = "\"";
  for (char c : text.substr(0, 200)) {
    out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  }
  out += '"';
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

std::optional<std::uint16_t> parse_port(std::string_view text) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  unsigned value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value == 0 || value > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

bool is_ipv4(std::string_view host) {
  int parts = 0;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = host.find('.', start);
    const std::string_view part =
        host.substr(start, dot == std::string_view::npos ? host.npos : dot - start);
    if (part.empty() || part.size() > 3) return false;
    int value = 0;
    for (char c : part) {
      if (c < '0' || c > '9') return false;
      value = value * 10 + (c - '0');
    }
    if (value > 255) return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts == 4;
}

// "[...]" holding hex digits, colons and (for an embedded IPv4 address) dots.
bool is_bracketed_ipv6(std::string_view host) {
  if (host.size() < 4 || host.front() != '[' || host.back() != ']') return false;
  const std::string_view inner = host.substr(1, host.size() - 2);
  return inner.find(':') != std::string_view::npos &&
         std::all_of(inner.begin(), inner.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0 || c == ':' || c == '.';
         });
}

bool is_ip_literal(std::string_view host) {
  return is_ipv4(host) || is_bracketed_ipv6(host);
}

bool is_host_name(std::string_view host) {
  if (host.empty() || host.size() > 253 || host.front() == '.' || host.front() == '-') {
    return false;
  }
  return std::all_of(host.begin(), host.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.';
  });
}

// The names a browser may use for this machine's loopback interface.
bool is_loopback_name(std::string_view host) {
  return host == "127.0.0.1" || host == "localhost" || host == "[::1]";
}

std::uint16_t default_port(std::string_view scheme) {
  return scheme == "https" ? 443 : 80;
}

// Why `text` is not an origin, or the origin.
struct OriginParse {
  std::optional<Origin> origin;
  std::string problem;
};

OriginParse parse_origin_text(std::string_view text) {
  const std::size_t separator = text.find("://");
  if (separator == std::string_view::npos) {
    return {std::nullopt, "it has no scheme (write http:// or https:// before the host)"};
  }
  const std::string scheme = lower(text.substr(0, separator));
  if (scheme != "http" && scheme != "https") {
    return {std::nullopt, cat({"the scheme is \"", scheme, "\", not http or https"})};
  }
  const std::string_view rest = text.substr(separator + 3);
  if (rest.find_first_of("/?#") != std::string_view::npos) {
    return {std::nullopt, "it has a path, query or fragment (an origin ends after the port)"};
  }
  if (rest.find('@') != std::string_view::npos) {
    return {std::nullopt, "it names a user (an origin has none)"};
  }
  const auto authority = parse_authority(rest);
  if (!authority) {
    return {std::nullopt, cat({"\"", rest, "\" is not a host with an optional port"})};
  }
  Origin origin;
  origin.scheme = scheme;
  origin.host = authority->host;
  origin.port = authority->port.value_or(default_port(scheme));
  return {std::move(origin), ""};
}

}  // namespace

std::string Origin::text() const {
  std::string out = scheme;
  out += "://";
  out += host;
  if (port != default_port(scheme)) {
    out += ':';
    out += std::to_string(port);
  }
  return out;
}

std::optional<Authority> parse_authority(std::string_view text) {
  std::string_view host = text;
  std::optional<std::uint16_t> port;
  if (text.starts_with('[')) {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = text.substr(0, close + 1);
    const std::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':' || !(port = parse_port(rest.substr(1)))) return std::nullopt;
    }
    if (!is_bracketed_ipv6(host)) return std::nullopt;
  } else {
    const std::size_t colon = text.find(':');
    if (colon != std::string_view::npos) {
      host = text.substr(0, colon);
      if (!(port = parse_port(text.substr(colon + 1)))) return std::nullopt;
    }
    if (!is_host_name(host)) return std::nullopt;
  }
  return Authority{lower(host), port};
}

std::optional<Origin> parse_origin(std::string_view text) {
  return parse_origin_text(text).origin;
}

Origin parse_origin_option(std::string_view value, std::string_view option) {
  std::string_view text = value;
  if (text.ends_with('/') && !text.ends_with("://")) text.remove_suffix(1);
  OriginParse parsed = parse_origin_text(text);
  if (!parsed.origin) {
    std::string message(option);
    message += " ";
    message += quoted(value);
    message += ": ";
    message += parsed.problem;
    message +=
        "; expected an origin such as https://ur.example.org or http://192.168.1.5:8080 "
        "(http or https, a host, an optional port, no path)";
    throw std::invalid_argument(message);
  }
  return std::move(*parsed.origin);
}

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::variant<std::string, ApiError> origin_form_target(
    std::string_view target, std::optional<std::string_view> host_header) {
  std::string_view rest = target;
  if (!rest.starts_with('/')) {
    const std::string start = lower(rest.substr(0, 8));
    const std::size_t scheme_end = start.starts_with("http://")    ? 7
                                   : start.starts_with("https://") ? 8
                                                                   : 0;
    if (scheme_end == 0) {
      return bad_request(cat({"The request target ", quoted(target),
                              " is neither a path starting with / nor an http(s) URL."}));
    }
    const std::string_view scheme = rest.substr(0, scheme_end - 3);
    rest.remove_prefix(scheme_end);
    const std::size_t path_start = std::min(rest.find('/'), rest.find('?'));
    const std::string_view named = rest.substr(0, path_start);
    rest = path_start == std::string_view::npos ? std::string_view() : rest.substr(path_start);
    const auto authority = parse_authority(named);
    const auto host = host_header ? parse_authority(*host_header) : std::nullopt;
    const std::uint16_t port = default_port(lower(scheme));
    if (!authority || !host || authority->host != host->host ||
        authority->port.value_or(port) != host->port.value_or(port)) {
      return bad_request(
          cat({"The request target names the host ", quoted(named), " but the Host header says ",
               host_header ? quoted(*host_header) : "nothing",
               "; send the same host in both, or a path alone."}));
    }
  }
  const std::size_t query = rest.find('?');
  const std::string_view path = rest.substr(0, query);
  std::string out = path.empty() ? "/" : "";
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      out += path[i];
      continue;
    }
    const int high = i + 2 < path.size() ? hex_digit(path[i + 1]) : -1;
    const int low = high >= 0 ? hex_digit(path[i + 2]) : -1;
    if (low < 0) {
      return bad_request(cat({"The path ", quoted(path), " has a % not followed by two hex ",
                              "digits; write a % itself as %25."}));
    }
    const char decoded = static_cast<char>(high * 16 + low);
    if (decoded == '/' || decoded == '?' || decoded == '#' ||
        static_cast<unsigned char>(decoded) < 0x20 || decoded == 0x7f) {
      return bad_request(
          cat({"The path ", quoted(path), " encodes ", std::string_view(path).substr(i, 3),
               "; a path may not encode /, ?, # or control characters."}));
    }
    out += decoded;
    i += 2;
  }
  if (query != std::string_view::npos) out += rest.substr(query);
  return out;
}

bool changes_state(std::string_view method) {
  return method != "GET" && method != "HEAD" && method != "OPTIONS";
}

RequestGuard::RequestGuard(GuardOptions options) : options_(std::move(options)) {
  const std::string host = lower(options_.listen_host);
  wildcard_ = host == "0.0.0.0" || host == "::" || host == "[::]";
  if (host.find(':') != std::string::npos && !host.starts_with('[')) {
    listen_host_ = cat({"[", host, "]"});
  } else {
    listen_host_ = host;
  }
  loopback_ = is_loopback_name(listen_host_) || (is_ipv4(listen_host_) && host.starts_with("127."));
}

bool RequestGuard::host_accepted(const Authority& authority) const {
  const bool direct_host =
      wildcard_ ? is_ip_literal(authority.host) || is_loopback_name(authority.host)
                : authority.host == listen_host_ || (loopback_ && is_loopback_name(authority.host));
  // A Host without a port (a proxy's, or curl's) names the host only; a browser reaching the
  // port directly always names it.
  if (direct_host && (!authority.port || *authority.port == options_.port)) return true;
  return std::any_of(
      options_.trusted_origins.begin(), options_.trusted_origins.end(), [&](const Origin& origin) {
        return origin.host == authority.host && (!authority.port || *authority.port == origin.port);
      });
}

bool RequestGuard::origin_accepted(const Origin& origin,
                                   const std::optional<Authority>& host) const {
  if (std::find(options_.trusted_origins.begin(), options_.trusted_origins.end(), origin) !=
      options_.trusted_origins.end()) {
    return true;
  }
  if (origin.scheme != "http" || origin.port != options_.port) return false;
  if (is_loopback_name(origin.host)) return wildcard_ || loopback_;
  if (wildcard_) {
    // Any of the machine's addresses, but only the one this request was sent to: the page
    // was loaded from the address it now posts to.
    return is_ip_literal(origin.host) && host && host->host == origin.host;
  }
  return origin.host == listen_host_;
}

std::vector<std::string> RequestGuard::accepted_hosts() const {
  const std::string port = cat({":", std::to_string(options_.port)});
  std::vector<std::string> hosts;
  if (wildcard_) {
    hosts.push_back(cat({"any IP address of this machine", port}));
    hosts.push_back(cat({"localhost", port}));
  } else {
    hosts.push_back(cat({listen_host_, port}));
    if (loopback_) {
      for (const char* name : {"127.0.0.1", "localhost", "[::1]"}) {
        if (name != listen_host_) hosts.push_back(cat({name, port}));
      }
    }
  }
  for (const auto& origin : options_.trusted_origins) {
    std::string host = origin.host;
    host += ':';
    host += std::to_string(origin.port);
    if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  }
  return hosts;
}

std::vector<std::string> RequestGuard::accepted_origins() const {
  const std::string port = cat({":", std::to_string(options_.port)});
  std::vector<std::string> origins;
  if (wildcard_) {
    origins.push_back(cat({"http://<the IP address the page was opened at>", port}));
    origins.push_back(cat({"http://localhost", port}));
  } else {
    origins.push_back(cat({"http://", listen_host_, port}));
    if (loopback_) {
      for (const char* name : {"127.0.0.1", "localhost", "[::1]"}) {
        if (name != listen_host_) origins.push_back(cat({"http://", name, port}));
      }
    }
  }
  for (const auto& origin : options_.trusted_origins) {
    std::string text = origin.text();
    if (std::find(origins.begin(), origins.end(), text) == origins.end()) {
      origins.push_back(std::move(text));
    }
  }
  return origins;
}

std::optional<ApiError> RequestGuard::check(const RequestFacts& request) const {
  // Host first: a DNS-rebinding page is same-origin with itself, so only the Host header
  // it sends (its own domain) gives it away.
  if (!request.host || request.host->empty()) {
    return ApiError(400, "bad_host",
                    cat({"The request has no Host header; HTTP/1.1 requires one (e.g. Host: ",
                         accepted_hosts().front(), ")."}));
  }
  const std::optional<Authority> host = parse_authority(*request.host);
  if (!host) {
    return ApiError(
        400, "bad_host",
        cat({"The Host header ", quoted(*request.host),
             " is not a host with an optional port (e.g. ", accepted_hosts().front(), ")."}));
  }
  if (!host_accepted(*host)) {
    std::string message = "This server does not answer to the Host ";
    message += quoted(*request.host);
    message += "; it answers to ";
    message += joined(accepted_hosts());
    message += ". To reach it under another name, start it with --public-url or --allow-origin (";
    message += kDeployingDoc;
    message += ").";
    return ApiError(421, "bad_host", message).with_detail("host", std::string(*request.host));
  }

  const bool state_changing = changes_state(request.method);
  // Browsers send Origin on every cross-site POST and on every WebSocket upgrade, so a
  // foreign page always shows its origin. A request without one comes from a program such as
  // curl, which any local user could run anyway: it may go on.
  if ((state_changing || request.websocket_upgrade) && request.origin) {
    const std::optional<Origin> origin = parse_origin(*request.origin);
    if (!origin || !origin_accepted(*origin, host)) {
      std::string message = "Refused: the page at the origin ";
      message += quoted(*request.origin);
      message +=
          request.websocket_upgrade ? " may not open a game's WebSocket" : " may not change games";
      message += "; this server accepts ";
      message += joined(accepted_origins());
      message += ". To allow another origin, start it with --allow-origin (";
      message += kDeployingDoc;
      message += ").";
      return ApiError(403, "bad_origin", message)
          .with_detail("origin", std::string(*request.origin))
          .with_detail("allowed", accepted_origins());
    }
  }

  // A cross-site form may send text/plain or form encodings without asking; only a script
  // of the site itself can send application/json.
  if (state_changing) {
    if (request.content_type) {
      std::string_view media = request.content_type->substr(0, request.content_type->find(';'));
      while (!media.empty() && (media.back() == ' ' || media.back() == '\t'))
        media.remove_suffix(1);
      while (!media.empty() && (media.front() == ' ' || media.front() == '\t')) {
        media.remove_prefix(1);
      }
      if (lower(media) != "application/json") {
        return ApiError(415, "bad_content_type",
                        cat({"The body must be JSON sent with Content-Type: application/json; "
                             "this request says Content-Type: ",
                             quoted(*request.content_type), "."}));
      }
    } else if (request.body_size > 0) {
      return ApiError(415, "bad_content_type",
                      "The request has a body but no Content-Type; send JSON with Content-Type: "
                      "application/json.");
    }
  }
  return std::nullopt;
}

RateLimiter::RateLimiter(std::size_t actions, Clock::duration window)
    : actions_(std::max<std::size_t>(1, actions)), window_(window) {}

bool RateLimiter::allow(Clock::time_point now) {
  if (recent_.size() >= actions_) {
    if (now - recent_.front() < window_) return false;
    recent_.pop_front();
  }
  recent_.push_back(now);
  return true;
}

ApiError rate_limited(std::size_t actions, RateLimiter::Clock::duration window) {
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(window).count();
  std::string message = "Too many actions: a connection may send ";
  message += std::to_string(actions);
  message +=
      millis == 1000 ? std::string(" a second") : cat({" every ", std::to_string(millis), " ms"});
  message += ", so this one was refused and changed nothing. Wait a moment and send it again.";
  return ApiError(429, "rate_limited", message);
}

std::optional<TableBuilds> parse_table_builds(std::string_view text) {
  for (const TableBuilds policy : {TableBuilds::kLocal, TableBuilds::kAnyone, TableBuilds::kOff}) {
    if (text == to_string(policy)) return policy;
  }
  return std::nullopt;
}

std::string_view to_string(TableBuilds policy) {
  switch (policy) {
    case TableBuilds::kLocal:
      return "local";
    case TableBuilds::kAnyone:
      return "anyone";
    case TableBuilds::kOff:
      return "off";
  }
  return "local";
}

std::optional<ApiError> check_table_build(TableBuilds policy, std::string_view method,
                                          bool loopback_peer) {
  if (!changes_state(method) || policy == TableBuilds::kAnyone) return std::nullopt;
  if (policy == TableBuilds::kLocal && loopback_peer) return std::nullopt;
  const std::string_view what = method == "DELETE" ? "stop a table build" : "build tables";
  return ApiError(403, "builds_not_allowed",
                  policy == TableBuilds::kOff
                      ? cat({"This server does not ", what,
                             ": its tables are built with `ur solve` on its machine (it was "
                             "started with --table-builds off)."})
                      : cat({"Only a player on the server's own machine may ", what,
                             " here: a build takes every core and gigabytes of memory. Its host "
                             "can run `ur solve`, or start `ur serve --table-builds anyone`."}));
}

}  // namespace ur::server
