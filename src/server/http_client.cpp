#include "server/http_client.h"

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <stdexcept>

namespace ur::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

[[noreturn]] void fail(const std::string& what, const beast::error_code& ec) {
  const std::string why = ec == beast::error::timeout ? "timed out" : ec.message();
  throw std::runtime_error(what + ": " + why);
}

// Runs `io` until the operation that sets `done` has finished (other operations, such as a
// WebSocket read left waiting, may be pending and go on).
void run_until(asio::io_context& io, const bool& done) {
  while (!done) {
    if (io.stopped()) io.restart();
    io.run_one();
  }
}

std::string describe(const ServerAddress& address) {
  return host_header(address);
}

// Connects `stream` to `address` within `timeout_ms` (0: no limit).
void connect(asio::io_context& io, beast::tcp_stream& stream, const ServerAddress& address,
             int timeout_ms) {
  beast::error_code ec;
  tcp::resolver resolver(io);
  const auto endpoints = resolver.resolve(address.host, std::to_string(address.port), ec);
  if (ec) fail("cannot find the host " + address.host, ec);
  if (timeout_ms > 0) {
    stream.expires_after(std::chrono::milliseconds(timeout_ms));
  } else {
    stream.expires_never();
  }
  bool done = false;
  stream.async_connect(endpoints, [&](const beast::error_code& error, const tcp::endpoint&) {
    ec = error;
    done = true;
  });
  run_until(io, done);
  stream.expires_never();
  if (ec) fail("connect to " + describe(address), ec);
}

}  // namespace

std::string host_header(const ServerAddress& address) {
  const bool ipv6 = address.host.find(':') != std::string::npos;
  std::string host;
  if (ipv6) host += "[";
  host += address.host;
  if (ipv6) host += "]";
  host += ":";
  host += std::to_string(address.port);
  return host;
}

struct HttpConnection::Impl {
  Impl(const ServerAddress& server, std::string host, int timeout)
      : stream(io), host_field(std::move(host)), timeout_ms(timeout) {
    connect(io, stream, server, timeout_ms);
  }
  asio::io_context io;
  beast::tcp_stream stream;
  beast::flat_buffer buffer;
  std::string host_field;  // the Host header sent
  int timeout_ms = 0;
};

HttpConnection::HttpConnection(std::uint16_t port)
    : impl_(std::make_unique<Impl>(ServerAddress{"127.0.0.1", port}, "127.0.0.1", 0)) {}
HttpConnection::HttpConnection(const ServerAddress& address, int timeout_ms)
    : impl_(std::make_unique<Impl>(address, host_header(address), timeout_ms)) {}
HttpConnection::~HttpConnection() = default;

HttpReply HttpConnection::request(const std::string& method, const std::string& target,
                                  const std::string& body, const HttpHeaders& headers) {
  http::request<http::string_body> request(http::string_to_verb(method), target, 11);
  if (request.method() == http::verb::unknown) request.method_string(method);
  request.set(http::field::host, impl_->host_field);
  request.keep_alive(true);
  if (!body.empty()) request.set(http::field::content_type, "application/json");
  for (const auto& [name, value] : headers) request.set(name, value);
  request.body() = body;
  request.prepare_payload();
  if (impl_->timeout_ms > 0) {
    impl_->stream.expires_after(std::chrono::milliseconds(impl_->timeout_ms));
  }
  beast::error_code ec;
  bool done = false;
  http::async_write(impl_->stream, request, [&](const beast::error_code& error, std::size_t) {
    ec = error;
    done = true;
  });
  run_until(impl_->io, done);
  if (ec) fail(method + " " + target, ec);
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  done = false;
  http::async_read(impl_->stream, impl_->buffer, parser,
                   [&](const beast::error_code& error, std::size_t) {
                     ec = error;
                     done = true;
                   });
  run_until(impl_->io, done);
  impl_->stream.expires_never();
  if (ec) fail(method + " " + target + " (reading the answer)", ec);
  auto response = parser.release();
  HttpReply reply{static_cast<int>(response.result_int()), std::move(response.body()), -1};
  const auto timing = response.find("Server-Timing");
  if (timing != response.end()) {
    const std::string value(timing->value());
    const auto duration = value.find("dur=");
    if (duration != std::string::npos) reply.server_millis = std::stod(value.substr(duration + 4));
  }
  return reply;
}

std::string HttpConnection::raw_exchange(const std::string& bytes) {
  beast::error_code ec;
  // A server may answer and close before taking everything; read its answer regardless.
  asio::write(impl_->stream, asio::buffer(bytes), ec);
  std::string answer;
  char chunk[4096];
  for (;;) {
    const std::size_t read = impl_->stream.read_some(asio::buffer(chunk), ec);
    answer.append(chunk, read);
    if (ec) break;
  }
  return answer;
}

struct SocketConnection::Impl {
  asio::io_context io;
  websocket::stream<beast::tcp_stream> socket{io};
  beast::flat_buffer buffer;
  // receive_for leaves a read waiting when no message came in time; the next call (or
  // receive) picks it up.
  bool reading = false;
  bool read_done = false;
  beast::error_code read_error;

  void open(const ServerAddress& address, const std::string& host, const std::string& target,
            int timeout_ms, const std::string& origin) {
    if (!origin.empty()) {
      socket.set_option(
          websocket::stream_base::decorator([origin](websocket::request_type& request) {
            request.set(http::field::origin, origin);
          }));
    }
    connect(io, beast::get_lowest_layer(socket), address, timeout_ms);
    // The WebSocket has timeouts of its own: only the upgrade is bounded, never the silence
    // between messages (the server pings; reading answers its pings).
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout =
        timeout_ms > 0 ? std::chrono::milliseconds(timeout_ms) : websocket::stream_base::none();
    timeouts.idle_timeout = websocket::stream_base::none();
    timeouts.keep_alive_pings = false;
    socket.set_option(timeouts);
    websocket::response_type response;
    beast::error_code ec;
    bool done = false;
    socket.async_handshake(response, host, target, [&](const beast::error_code& error) {
      ec = error;
      done = true;
    });
    run_until(io, done);
    if (ec) {
      throw std::runtime_error("WebSocket upgrade of " + target + " refused with status " +
                               std::to_string(response.result_int()) + ": " + ec.message());
    }
  }

  void start_read() {
    buffer.consume(buffer.size());
    reading = true;
    read_done = false;
    socket.async_read(buffer, [this](const beast::error_code& error, std::size_t) {
      read_error = error;
      read_done = true;
    });
  }

  std::string finish_read() {
    reading = false;
    if (read_error) fail("WebSocket receive", read_error);
    return beast::buffers_to_string(buffer.data());
  }
};

SocketConnection::SocketConnection(std::uint16_t port, const std::string& target,
                                   const std::string& origin)
    : impl_(std::make_unique<Impl>()) {
  impl_->open(ServerAddress{"127.0.0.1", port}, "127.0.0.1", target, 0, origin);
}

SocketConnection::SocketConnection(const ServerAddress& address, const std::string& target,
                                   int timeout_ms, const std::string& origin)
    : impl_(std::make_unique<Impl>()) {
  impl_->open(address, host_header(address), target, timeout_ms, origin);
}

SocketConnection::~SocketConnection() = default;

void SocketConnection::send_binary(const std::string& bytes) {
  impl_->socket.binary(true);
  write_frame(bytes);
  impl_->socket.text(true);
}

void SocketConnection::send(const std::string& text) {
  impl_->socket.text(true);
  write_frame(text);
}

void SocketConnection::write_frame(const std::string& text) {
  beast::error_code ec;
  bool done = false;
  // Asynchronous, so that a read left waiting by receive_for may go on beside it.
  impl_->socket.async_write(asio::buffer(text), [&](const beast::error_code& error, std::size_t) {
    ec = error;
    done = true;
  });
  run_until(impl_->io, done);
  if (ec) fail("WebSocket send", ec);
}

std::string SocketConnection::receive() {
  if (!impl_->reading) impl_->start_read();
  run_until(impl_->io, impl_->read_done);
  return impl_->finish_read();
}

std::optional<std::string> SocketConnection::receive_for(int timeout_ms) {
  if (!impl_->reading) impl_->start_read();
  if (!impl_->read_done) {
    impl_->io.restart();
    impl_->io.run_for(std::chrono::milliseconds(std::max(timeout_ms, 1)));
  }
  if (!impl_->read_done) return std::nullopt;
  return impl_->finish_read();
}

int SocketConnection::close_code() const {
  return impl_->socket.reason().code;
}

}  // namespace ur::server
