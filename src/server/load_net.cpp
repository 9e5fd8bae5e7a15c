#include "server/load_net.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <utility>

namespace ur::load {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

tcp::endpoint loopback(std::uint16_t port) {
  return {asio::ip::make_address_v4("127.0.0.1"), port};
}

std::string host_header(std::uint16_t port) {
  return "127.0.0.1:" + std::to_string(port);
}

class HttpExchange : public std::enable_shared_from_this<HttpExchange> {
 public:
  HttpExchange(Strand strand, std::function<void(HttpAnswer)> done)
      : stream_(strand), done_(std::move(done)) {}

  void start(std::uint16_t port, const HttpCall& call, std::chrono::milliseconds timeout) {
    what_ = call.method + " " + call.target;
    request_ = {http::string_to_verb(call.method), call.target, 11};
    request_.set(http::field::host, host_header(port));
    request_.set(http::field::origin, loopback_origin(port));
    if (!call.token.empty()) request_.set(http::field::authorization, "Bearer " + call.token);
    if (!call.body.empty()) request_.set(http::field::content_type, "application/json");
    request_.keep_alive(false);
    request_.body() = call.body;
    request_.prepare_payload();
    parser_.body_limit(64 * 1024 * 1024);
    stream_.expires_after(timeout);
    stream_.async_connect(loopback(port), [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->fail("connect", ec);
      http::async_write(self->stream_, self->request_, [self](beast::error_code ec2, std::size_t) {
        if (ec2) return self->fail("send", ec2);
        self->read();
      });
    });
  }

 private:
  void read() {
    http::async_read(stream_, buffer_, parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (ec) return self->fail("read the answer", ec);
                       self->finish();
                     });
  }

  void finish() {
    auto response = parser_.release();
    HttpAnswer answer;
    answer.status = static_cast<int>(response.result_int());
    answer.body = std::move(response.body());
    const auto timing = response.find("Server-Timing");
    if (timing != response.end()) {
      const std::string value(timing->value());
      const auto duration = value.find("dur=");
      if (duration != std::string::npos) {
        answer.server_millis = std::strtod(value.c_str() + duration + 4, nullptr);
      }
    }
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    done_(std::move(answer));
  }

  void fail(const char* step, beast::error_code ec) {
    HttpAnswer answer;
    answer.error = what_ + ": " + step + ": " +
                   (ec == beast::error::timeout ? std::string("timed out") : ec.message());
    done_(std::move(answer));
  }

  beast::tcp_stream stream_;
  std::function<void(HttpAnswer)> done_;
  std::string what_;
  http::request<http::string_body> request_;
  http::response_parser<http::string_body> parser_;
  beast::flat_buffer buffer_;
};

class BeastWebSocket final : public WebSocketClient {
 public:
  explicit BeastWebSocket(Strand strand) : socket_(strand) {}

  void open(std::uint16_t port, const std::string& target, std::chrono::milliseconds timeout,
            Handlers handlers) override {
    handlers_ = std::move(handlers);
    target_ = target;
    port_ = port;
    auto self = std::static_pointer_cast<BeastWebSocket>(shared_from_this());
    beast::get_lowest_layer(socket_).expires_after(timeout);
    beast::get_lowest_layer(socket_).async_connect(loopback(port), [self](beast::error_code ec) {
      if (ec) return self->finish("connect to " + self->target_ + ": " + ec.message());
      self->handshake();
    });
  }

  void send(std::string text) override {
    if (done_) return;
    outgoing_.push_back(std::move(text));
    write_next();
  }

  void close() override {
    closing_ = true;
    write_next();
  }

 private:
  void handshake() {
    socket_.set_option(websocket::stream_base::decorator(
        [origin = loopback_origin(port_)](websocket::request_type& request) {
          request.set(http::field::origin, origin);
        }));
    auto self = std::static_pointer_cast<BeastWebSocket>(shared_from_this());
    socket_.async_handshake(response_, host_header(port_), target_, [self](beast::error_code ec) {
      if (ec) {
        std::string why = "upgrade " + self->target_ + ": " + ec.message();
        if (self->response_.result_int() != 0 && self->response_.result_int() != 101) {
          why += " (HTTP " + std::to_string(self->response_.result_int()) + " " +
                 self->response_.body() + ")";
        }
        return self->finish(why);
      }
      // The socket stays open for the whole game: the TCP deadline gives way to the
      // WebSocket's own (the game's watchdog bounds silence).
      beast::get_lowest_layer(self->socket_).expires_never();
      self->socket_.set_option(
          websocket::stream_base::timeout::suggested(beast::role_type::client));
      self->opened_ = true;
      if (self->handlers_.opened) self->handlers_.opened();
      self->read();
      self->write_next();
    });
  }

  void read() {
    auto self = std::static_pointer_cast<BeastWebSocket>(shared_from_this());
    socket_.async_read(incoming_, [self](beast::error_code ec, std::size_t) {
      if (ec) {
        // After our close, the read ends as the server answers it (or drops the connection).
        if (self->close_sent_) return self->finish("");
        return self->finish(self->target_ + ": the socket dropped: " + ec.message());
      }
      std::string text = beast::buffers_to_string(self->incoming_.data());
      self->incoming_.consume(self->incoming_.size());
      if (!self->done_ && self->handlers_.message) self->handlers_.message(std::move(text));
      self->read();
    });
  }

  void write_next() {
    if (!opened_ || writing_ || done_ || close_sent_) return;
    auto self = std::static_pointer_cast<BeastWebSocket>(shared_from_this());
    if (outgoing_.empty()) {
      if (!closing_) return;
      close_sent_ = true;
      writing_ = true;
      socket_.async_close(websocket::close_code::normal, [self](beast::error_code ec) {
        self->writing_ = false;
        if (ec) self->finish(self->target_ + ": closing: " + ec.message());
        // Otherwise the read loop ends with `closed` once the server echoes the close.
      });
      return;
    }
    writing_ = true;
    socket_.text(true);
    socket_.async_write(asio::buffer(outgoing_.front()), [self](beast::error_code ec, std::size_t) {
      self->writing_ = false;
      if (ec) return self->finish(self->target_ + ": send: " + ec.message());
      self->outgoing_.pop_front();
      self->write_next();
    });
  }

  void finish(const std::string& why) {
    if (done_) return;
    done_ = true;
    if (!why.empty()) {
      beast::error_code ignored;
      beast::get_lowest_layer(socket_).socket().close(ignored);
    }
    // The handlers hold their owner, which holds this socket: dropped once done, so that the
    // two do not keep each other alive.
    const Handlers handlers = std::exchange(handlers_, {});
    if (handlers.closed) handlers.closed(why);
  }

  websocket::stream<beast::tcp_stream> socket_;
  Handlers handlers_;
  std::string target_;
  std::uint16_t port_ = 0;
  websocket::response_type response_;
  beast::flat_buffer incoming_;
  std::deque<std::string> outgoing_;
  bool opened_ = false;
  bool writing_ = false;
  bool closing_ = false;
  bool close_sent_ = false;
  bool done_ = false;
};

}  // namespace

void http_request(Strand strand, std::uint16_t port, HttpCall call,
                  std::chrono::milliseconds timeout, std::function<void(HttpAnswer)> done) {
  std::make_shared<HttpExchange>(strand, std::move(done))->start(port, call, timeout);
}

std::shared_ptr<WebSocketClient> WebSocketClient::create(Strand strand) {
  return std::make_shared<BeastWebSocket>(strand);
}

std::string loopback_origin(std::uint16_t port) {
  return "http://" + host_header(port);
}

}  // namespace ur::load
