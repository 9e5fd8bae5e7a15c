// The load tool's asynchronous clients (Boost.Beast on one io_context): a one-shot HTTP
// request and a WebSocket, both to 127.0.0.1 only. Every completion runs on the executor
// given (a game's strand), so a game's state needs no lock. Each sends the Host and Origin
// headers a browser on the server's own page would send.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace ur::load {

using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;

struct HttpAnswer {
  std::string error;  // empty on success; else what failed (connect, timeout, ...)
  int status = 0;
  std::string body;
  double server_millis = -1;  // Server-Timing app;dur=, when sent
};

struct HttpCall {
  std::string method = "GET";
  std::string target;
  std::string body;   // sent as application/json when not empty
  std::string token;  // sent as Authorization: Bearer when not empty
};

// Sends `call` on a connection of its own to 127.0.0.1:port and calls `done` once, on
// `strand`, with the answer or what failed. Gives up after `timeout`.
void http_request(Strand strand, std::uint16_t port, HttpCall call,
                  std::chrono::milliseconds timeout, std::function<void(HttpAnswer)> done);

// A WebSocket to 127.0.0.1:port. `closed` is called once: with an empty string after close()
// completed, else with what failed (a refused upgrade, a dropped connection).
class WebSocketClient : public std::enable_shared_from_this<WebSocketClient> {
 public:
  struct Handlers {
    std::function<void()> opened;
    std::function<void(std::string)> message;
    std::function<void(std::string)> closed;
  };

  static std::shared_ptr<WebSocketClient> create(Strand strand);
  virtual ~WebSocketClient() = default;

  // Connects and upgrades within `timeout`, then reads until the socket closes.
  virtual void open(std::uint16_t port, const std::string& target,
                    std::chrono::milliseconds timeout, Handlers handlers) = 0;
  // Queues a text message; messages go out in order.
  virtual void send(std::string text) = 0;
  // Sends the closing handshake after the queued messages.
  virtual void close() = 0;
};

// "http://127.0.0.1:PORT": the origin of the server's own page.
std::string loopback_origin(std::uint16_t port);

}  // namespace ur::load
