// What the HTTP session (http_server.cpp) and the WebSocket session (websocket_session.cpp)
// share: Beast's namespaces, the server's name, the request log and the peer's address. Beast
// inside, like them; websocket_session.h includes it too, nothing else does.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <string_view>

namespace ur::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

inline constexpr std::string_view kServerName = "ur";

// One line per request on stdout, unless quiet.
class RequestLog {
 public:
  explicit RequestLog(bool quiet) : quiet_(quiet) {}

  void line(const std::string& remote, std::string_view method, std::string_view target,
            unsigned status, Clock::time_point begin) {
    if (quiet_) return;
    const double millis = std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
    char duration[32];
    std::snprintf(duration, sizeof duration, "%.1f ms", millis);
    // Targets come from clients: keep control characters out of the log.
    std::string clean_target;
    for (char c : target.substr(0, 200)) {
      clean_target += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
    }
    std::lock_guard lock(mutex_);
    std::cout << remote << " " << method << " " << clean_target << " " << status << " " << duration
              << "\n"
              << std::flush;
  }

 private:
  bool quiet_;
  std::mutex mutex_;
};

inline std::string remote_of(const beast::tcp_stream& stream) {
  beast::error_code ec;
  const auto endpoint = stream.socket().remote_endpoint(ec);
  return ec ? std::string("?") : endpoint.address().to_string();
}

// Whether the peer is on this machine's loopback (127.0.0.0/8, ::1, or ::ffff:127.x.y.z on a
// dual-stack socket). Behind a reverse proxy on the same machine every peer is.
inline bool from_loopback(const beast::tcp_stream& stream) {
  beast::error_code ec;
  const asio::ip::address address = stream.socket().remote_endpoint(ec).address();
  if (ec) return false;
  if (address.is_v6() && address.to_v6().is_v4_mapped()) {
    return asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6()).is_loopback();
  }
  return address.is_loopback();
}

}  // namespace ur::server
