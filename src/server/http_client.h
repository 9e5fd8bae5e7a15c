// A small blocking HTTP/1.1 + WebSocket client for the server's end-to-end tests and the load
// tool. It talks to 127.0.0.1 only. Calls block without a timeout: callers bound their total
// time (the load tool's watchdog, CTest's timeout). Beast stays inside http_client.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace ur::server {

struct HttpReply {
  int status = 0;
  std::string body;
  double server_millis = -1;  // the server's own time for the request (Server-Timing), if sent
};

// One keep-alive connection to 127.0.0.1:port. Throws std::runtime_error on network errors.
class HttpConnection {
 public:
  explicit HttpConnection(std::uint16_t port);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  HttpReply request(const std::string& method, const std::string& target,
                    const std::string& body = "");
  // Sends raw bytes and returns everything the server answers until it closes (tests of
  // malformed HTTP).
  std::string raw_exchange(const std::string& bytes);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A WebSocket to 127.0.0.1:port/target. Throws std::runtime_error on failure (including a
// refused upgrade, whose status is in the message).
class SocketConnection {
 public:
  // `origin`, when not empty, is sent as the Origin header (as a browser would).
  SocketConnection(std::uint16_t port, const std::string& target, const std::string& origin = "");
  ~SocketConnection();
  SocketConnection(const SocketConnection&) = delete;
  SocketConnection& operator=(const SocketConnection&) = delete;

  void send(const std::string& text);
  std::string receive();  // waits for the next message

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ur::server
