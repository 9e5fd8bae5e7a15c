#include "server/http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <stdexcept>

namespace ur::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

tcp::endpoint loopback(std::uint16_t port) {
  return {asio::ip::make_address("127.0.0.1"), port};
}

[[noreturn]] void fail(const std::string& what, const beast::error_code& ec) {
  throw std::runtime_error(what + ": " + ec.message());
}

}  // namespace

struct HttpConnection::Impl {
  explicit Impl(std::uint16_t port) : stream(io) {
    beast::error_code ec;
    stream.connect(loopback(port), ec);
    if (ec) fail("connect to 127.0.0.1:" + std::to_string(port), ec);
  }
  asio::io_context io;
  beast::tcp_stream stream;
  beast::flat_buffer buffer;
};

HttpConnection::HttpConnection(std::uint16_t port) : impl_(std::make_unique<Impl>(port)) {}
HttpConnection::~HttpConnection() = default;

HttpReply HttpConnection::request(const std::string& method, const std::string& target,
                                  const std::string& body) {
  http::request<http::string_body> request(http::string_to_verb(method), target, 11);
  if (request.method() == http::verb::unknown) request.method_string(method);
  request.set(http::field::host, "127.0.0.1");
  request.keep_alive(true);
  if (!body.empty()) request.set(http::field::content_type, "application/json");
  request.body() = body;
  request.prepare_payload();
  beast::error_code ec;
  http::write(impl_->stream, request, ec);
  if (ec) fail(method + " " + target, ec);
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  http::read(impl_->stream, impl_->buffer, parser, ec);
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
};

SocketConnection::SocketConnection(std::uint16_t port, const std::string& target,
                                   const std::string& origin)
    : impl_(std::make_unique<Impl>()) {
  if (!origin.empty()) {
    impl_->socket.set_option(websocket::stream_base::decorator(
        [origin](websocket::request_type& request) { request.set(http::field::origin, origin); }));
  }
  auto& lowest = beast::get_lowest_layer(impl_->socket);
  beast::error_code ec;
  lowest.connect(loopback(port), ec);
  if (ec) fail("connect to 127.0.0.1:" + std::to_string(port), ec);
  websocket::response_type response;
  impl_->socket.handshake(response, "127.0.0.1", target, ec);
  if (ec) {
    throw std::runtime_error("WebSocket upgrade of " + target + " refused with status " +
                             std::to_string(response.result_int()) + ": " + ec.message());
  }
}

SocketConnection::~SocketConnection() = default;

void SocketConnection::send(const std::string& text) {
  beast::error_code ec;
  impl_->socket.text(true);
  impl_->socket.write(asio::buffer(text), ec);
  if (ec) fail("WebSocket send", ec);
}

std::string SocketConnection::receive() {
  beast::error_code ec;
  impl_->buffer.consume(impl_->buffer.size());
  impl_->socket.read(impl_->buffer, ec);
  if (ec) fail("WebSocket receive", ec);
  return beast::buffers_to_string(impl_->buffer.data());
}

}  // namespace ur::server
