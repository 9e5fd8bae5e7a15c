#include "server/websocket_session.h"

#include <chrono>
#include <cstddef>
#include <optional>
#include <utility>

#include "protocol/json.h"
#include "server/table_job.h"

namespace ur::server {

namespace {

// A client that lets this many WebSocket messages pile up unread is dropped.
constexpr std::size_t kMaxQueuedMessages = 2000;
// Gap before each step of the computer's turn on a WebSocket, so the page can animate it.
constexpr auto kComputerStepPace = std::chrono::milliseconds(600);

std::shared_ptr<const std::string> socket_error_message(const ApiResponse& response,
                                                        const std::string& action) {
  nlohmann::json message = response.body;
  message["type"] = "error";
  if (!action.empty()) message["action"] = action;
  return std::make_shared<const std::string>(protocol::wire_text(message));
}

}  // namespace

SocketSession::SocketSession(beast::tcp_stream&& stream, GameHub& hub, RequestLog& log,
                             const ServerOptions& options, std::string game_id)
    : socket_(std::move(stream)),
      hub_(hub),
      log_(log),
      options_(options),
      limiter_(options.rate_limit_actions, options.rate_limit_window),
      game_id_(std::move(game_id)),
      pace_timer_(socket_.get_executor()),
      remote_(remote_of(socket_.next_layer())),
      may_build_tables_(
          !check_table_build(options.table_builds, "POST", from_loopback(socket_.next_layer()))) {}

void SocketSession::start(http::request<http::string_body> request, Clock::time_point begin) {
  request_ = std::move(request);
  begin_ = begin;
  auto self = shared_from_this();
  hub_.subscribe(game_id_, self, [self](GameHub::Subscription subscription) {
    asio::post(self->socket_.get_executor(), [self, subscription = std::move(subscription)] {
      if (subscription) {
        self->subscription_ = subscription;
        self->accept();
      } else {
        self->refuse_unknown_game();
      }
    });
  });
}

void SocketSession::close_for_restart() {
  closing_ = true;
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    if (!self->accepted_ || self->closed_) {
      self->closing_ = false;
      return;
    }
    self->closed_ = true;
    self->presence_.reset();
    self->socket_.async_close(
        websocket::close_reason(websocket::close_code::service_restart, "server restarting"),
        [self](beast::error_code) { self->closing_ = false; });
  });
}

void SocketSession::on_game_update(std::shared_ptr<const std::string> message, bool computer_step) {
  asio::post(socket_.get_executor(), [self = shared_from_this(), message = std::move(message),
                                      computer_step] { self->enqueue(message, computer_step); });
}

void SocketSession::refuse_unknown_game() {
  auto response = std::make_shared<http::response<http::string_body>>(http::status::not_found,
                                                                      request_.version());
  response->set(http::field::server, kServerName);
  response->set(http::field::content_type, "application/json");
  response->body() = protocol::wire_text(nlohmann::json{
      {"error", "No game has the id \"" + game_id_ + "\"; start a new game with POST /api/games."},
      {"code", "unknown_game"}});
  response->keep_alive(false);
  response->prepare_payload();
  log_.line(remote_, request_.method_string(), request_.target(), 404, begin_);
  http::async_write(socket_.next_layer(), *response,
                    [self = shared_from_this(), response](beast::error_code, std::size_t) {
                      beast::error_code ignored;
                      self->socket_.next_layer().socket().shutdown(tcp::socket::shutdown_send,
                                                                   ignored);
                    });
}

void SocketSession::accept() {
  socket_.next_layer().expires_never();  // the WebSocket's own timeouts take over
  auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
  // A page that is gone (a laptop closed, a network lost) says nothing: ping it halfway
  // through the idle time, and drop it when even the pong does not come. Browsers answer
  // pings, so an idle page that is still open stays connected.
  timeouts.idle_timeout = options_.socket_idle_timeout;
  timeouts.keep_alive_pings = true;
  socket_.set_option(timeouts);
  socket_.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& response) { response.set(http::field::server, kServerName); }));
  socket_.read_message_max(kMaxBodyBytes);
  socket_.async_accept(request_, [self = shared_from_this()](beast::error_code ec) {
    self->log_.line(self->remote_, self->request_.method_string(), self->request_.target(),
                    ec ? 400 : 101, self->begin_);
    if (ec) return;
    self->accepted_ = true;
    self->read();
    self->write_next();
  });
}

void SocketSession::read() {
  socket_.async_read(incoming_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) {
      self->closed_ = true;
      self->presence_.reset();  // its seats are gone now, not when the last write ends
      return;
    }
    if (self->socket_.got_text()) {
      self->on_message(beast::buffers_to_string(self->incoming_.data()));
    } else if (self->limiter_.allow(Clock::now())) {  // every message counts
      // Beast checks a text frame's UTF-8; a binary frame's bytes are not ours to read.
      self->enqueue(socket_error_message(
                        error_response(ApiError(400, "bad_json",
                                                "WebSocket messages are JSON in text frames; "
                                                "this one came in a binary frame.")),
                        ""),
                    false);
    }
    self->incoming_.consume(self->incoming_.size());
    self->read();
  });
}

void SocketSession::on_message(const std::string& text) {
  // Every message counts, even one that is not an intent: each costs the server work.
  const bool allowed = limiter_.allow(Clock::now());
  ApiRequest request;
  try {
    request = request_from_socket_message(game_id_, text);
  } catch (const ApiError& error) {
    enqueue(socket_error_message(error_response(allowed ? error
                                                        : rate_limited(options_.rate_limit_actions,
                                                                       options_.rate_limit_window)),
                                 ""),
            false);
    return;
  }
  const std::string action = request.target.substr(request.target.rfind('/') + 1);
  if (!allowed) {
    enqueue(socket_error_message(error_response(rate_limited(options_.rate_limit_actions,
                                                             options_.rate_limit_window)),
                                 action),
            false);
    return;
  }
  auto self = shared_from_this();
  if (action == kHelloAction) {
    // The socket's seat: connected while it is open (a second hello replaces the first).
    hub_.hello(game_id_, request.seat_token,
               [self](GameHub::Subscription presence, std::optional<ApiResponse> refusal) {
                 asio::post(self->socket_.get_executor(),
                            [self, presence = std::move(presence), refusal = std::move(refusal)] {
                              if (refusal) {
                                self->enqueue(socket_error_message(*refusal, "hello"), false);
                                return;
                              }
                              self->presence_ = presence;
                            });
               });
    return;
  }
  hub_.submit(std::move(request), [self, action](ApiResponse response) {
    if (response.status < 400) return;  // the updates it caused are the answer
    mark_build_permission(response.body, self->may_build_tables_);
    auto message = socket_error_message(response, action);
    asio::post(self->socket_.get_executor(),
               [self, message = std::move(message)] { self->enqueue(message, false); });
  });
}

void SocketSession::enqueue(std::shared_ptr<const std::string> text, bool paced) {
  if (closed_) return;
  if (outgoing_.size() >= kMaxQueuedMessages) {
    closed_ = true;
    beast::get_lowest_layer(socket_).close();
    return;
  }
  outgoing_.push_back({std::move(text), paced});
  write_next();
}

void SocketSession::write_next() {
  if (!accepted_ || writing_ || closed_ || outgoing_.empty()) return;
  writing_ = true;
  const auto due = last_sent_ + kComputerStepPace;
  if (outgoing_.front().paced && due > Clock::now()) {
    pace_timer_.expires_at(due);
    pace_timer_.async_wait([self = shared_from_this()](beast::error_code) { self->send_front(); });
  } else {
    send_front();
  }
}

void SocketSession::send_front() {
  socket_.text(true);
  socket_.async_write(asio::buffer(*outgoing_.front().text),
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        self->writing_ = false;
                        if (ec) {
                          self->closed_ = true;
                          return;
                        }
                        self->outgoing_.pop_front();
                        self->last_sent_ = Clock::now();
                        self->write_next();
                      });
}

}  // namespace ur::server
