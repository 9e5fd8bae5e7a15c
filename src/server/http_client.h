// A small blocking HTTP/1.1 + WebSocket client: for the server's end-to-end tests and the load
// tool (127.0.0.1, the port-only constructors), and for `ur play --host/--join`, which talks to
// a server named by a URL. Without a timeout calls block until done: callers bound their total
// time (the load tool's watchdog, CTest's timeout). Beast stays inside http_client.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ur::server {

struct HttpReply {
  int status = 0;
  std::string body;
  double server_millis = -1;  // the server's own time for the request (Server-Timing), if sent
};

// Where a server listens: a host name or IP address (IPv6 without brackets) and a port.
struct ServerAddress {
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
};

// The Host header for `address`: "host:port", an IPv6 address in brackets.
std::string host_header(const ServerAddress& address);

// Extra request headers, e.g. {"Authorization", "Bearer ..."}.
using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

// One keep-alive connection. Throws std::runtime_error on network errors (and timeouts).
class HttpConnection {
 public:
  // To 127.0.0.1:port, sending "Host: 127.0.0.1", no timeout.
  explicit HttpConnection(std::uint16_t port);
  // To `address` (a host name is resolved); `timeout_ms` > 0 bounds the connect and each
  // request, 0 waits as long as it takes.
  HttpConnection(const ServerAddress& address, int timeout_ms);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  HttpReply request(const std::string& method, const std::string& target,
                    const std::string& body = "", const HttpHeaders& headers = {});
  // Sends raw bytes and returns everything the server answers until it closes (tests of
  // malformed HTTP).
  std::string raw_exchange(const std::string& bytes);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A WebSocket to a server's `target`. Throws std::runtime_error on failure (including a
// refused upgrade, whose status is in the message).
class SocketConnection {
 public:
  // To 127.0.0.1:port. `origin`, when not empty, is sent as the Origin header (as a browser
  // would).
  SocketConnection(std::uint16_t port, const std::string& target, const std::string& origin = "");
  // To `address`; `timeout_ms` > 0 bounds the connect and the upgrade.
  SocketConnection(const ServerAddress& address, const std::string& target, int timeout_ms,
                   const std::string& origin = "");
  ~SocketConnection();
  SocketConnection(const SocketConnection&) = delete;
  SocketConnection& operator=(const SocketConnection&) = delete;

  void send(const std::string& text);
  void send_binary(const std::string& bytes);  // in a binary frame (the page never does)
  std::string receive();                       // waits for the next message
  // Waits up to `timeout_ms` for the next message; nullopt when none came in time (the read
  // goes on, so nothing is lost, and the socket keeps answering the server's pings).
  std::optional<std::string> receive_for(int timeout_ms);
  // The code of the close frame the server sent (e.g. 1012, service restart), once a receive
  // has thrown because the socket closed; 0 before that or when it closed without a frame.
  int close_code() const;

 private:
  void write_frame(const std::string& bytes);  // in the kind the socket is set to
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ur::server
