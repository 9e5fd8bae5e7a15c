#include "server/http_server.h"

#include <algorithm>
#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <future>
#include <optional>
#include <thread>
#include <vector>

#include "protocol/json.h"
#include "server/assets.h"
#include "server/session_common.h"
#include "server/table_job.h"
#include "server/websocket_session.h"

namespace ur::server {

namespace {

constexpr std::size_t kMaxHeaderBytes = 8 * 1024;
constexpr auto kReadTimeout = std::chrono::seconds(30);  // per request, and keep-alive idle
constexpr auto kLingerTime = std::chrono::seconds(2);
constexpr auto kAcceptPause = std::chrono::milliseconds(100);
constexpr std::size_t kMaxLingerBytes = 1 << 20;

// One HTTP connection: reads requests one after another and answers each.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, GameHub& hub, RequestLog& log, const ServerOptions& options,
              const RequestGuard& guard, SocketRegistry& sockets)
      : stream_(std::move(socket)),
        hub_(hub),
        log_(log),
        options_(options),
        guard_(guard),
        sockets_(sockets),
        limiter_(options.rate_limit_actions, options.rate_limit_window),
        remote_(remote_of(stream_)),
        loopback_(from_loopback(stream_)) {}

  void start() {
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read(); });
  }

 private:
  using Response = http::response<http::string_body>;

  void read() {
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    // The header is read under the largest limit; the path's own limit follows it.
    parser_->body_limit(kMaxRecordBodyBytes);
    stream_.expires_after(kReadTimeout);
    http::async_read_header(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
  }

  void on_header(beast::error_code ec) {
    if (ec || parser_->is_done()) {
      on_read(ec);
      return;
    }
    // The limit follows the route, so it reads the target as the routes do.
    const auto& head = parser_->get();
    const auto host = head.find(http::field::host);
    const std::string_view sent(head.target().data(), head.target().size());
    const auto routed = origin_form_target(
        sent, host == head.end() ? std::nullopt
                                 : std::optional<std::string_view>(std::string_view(
                                       host->value().data(), host->value().size())));
    const auto* route = std::get_if<std::string>(&routed);
    const std::size_t limit = max_body_bytes(route ? std::string_view(*route) : sent);
    // Beast checks an announced length against the limit only while reading the header.
    if (parser_->content_length() && *parser_->content_length() > limit) {
      on_read(http::error::body_limit);
      return;
    }
    parser_->body_limit(limit);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code error, std::size_t) {
                       self->on_read(error);
                     });
  }

  void on_read(beast::error_code ec) {
    begin_ = Clock::now();
    if (ec == http::error::end_of_stream || ec == beast::error::timeout ||
        ec == asio::error::operation_aborted || ec == asio::error::connection_reset ||
        ec == asio::error::eof) {
      close();
      return;
    }
    if (ec) {
      // A request the parser refused: answer once, then drop the connection.
      const bool too_large = ec == http::error::body_limit || ec == http::error::header_limit ||
                             ec == http::error::buffer_overflow;
      send_error(too_large ? 413 : 400, too_large ? "too_large" : "bad_request",
                 too_large ? "The request is too large: headers may take 8 KiB and a body 16 KiB "
                             "(1 MiB for /api/records and /api/review)."
                           : "The request is not valid HTTP/1.1: " + ec.message() + ".",
                 "?", "?", false);
      return;
    }
    request_ = parser_->release();
    const std::string sent_target(request_.target());
    const std::string method(request_.method_string());
    const bool upgrade = websocket::is_upgrade(request_);
    const auto header = [this](http::field field) -> std::optional<std::string_view> {
      const auto found = request_.find(field);
      if (found == request_.end()) return std::nullopt;
      return std::string_view(found->value().data(), found->value().size());
    };
    // One Host and at most one Origin: the checks below read the first, and a second one
    // (Origin: ours, then Origin: evil.example) must not slip past them.
    for (const http::field field :
         {http::field::host, http::field::origin, http::field::content_type}) {
      if (request_.count(field) > 1) {
        send_error(400, "bad_request",
                   "The request has more than one " + std::string(http::to_string(field)) +
                       " header; send one.",
                   method, sent_target, false);
        return;
      }
    }
    // Host, Origin and media type before anything else: a refused request reaches no game.
    if (auto refused =
            guard_.check({method, header(http::field::host), header(http::field::origin),
                          header(http::field::content_type), request_.body().size(), upgrade})) {
      send_refusal(*refused, method, sent_target, request_.keep_alive() && !upgrade);
      return;
    }
    auto routed = origin_form_target(sent_target, header(http::field::host));
    if (const auto* refused = std::get_if<ApiError>(&routed)) {
      send_refusal(*refused, method, sent_target, request_.keep_alive() && !upgrade);
      return;
    }
    const std::string target = std::get<std::string>(std::move(routed));
    // Reading is not limited; the WebSocket counts its own messages.
    if (changes_state(method) && !limiter_.allow(Clock::now())) {
      send_refusal(rate_limited(options_.rate_limit_actions, options_.rate_limit_window), method,
                   target, request_.keep_alive());
      return;
    }
    if (upgrade) {
      const auto game_id = socket_game_id(target);
      if (!game_id || request_.method() != http::verb::get) {
        send_error(404, "not_found", "WebSockets are served on /api/games/{id}/ws only.", method,
                   target, false);
        return;
      }
      auto session =
          std::make_shared<SocketSession>(std::move(stream_), hub_, log_, options_, *game_id);
      sockets_.add(session);
      session->start(std::move(request_), begin_);
      return;
    }
    if (target.substr(0, target.find('?')) == kTableBuildPath) {
      if (auto refused = check_table_build(options_.table_builds, method, loopback_)) {
        send_refusal(*refused, method, target, request_.keep_alive());
        return;
      }
    }
    if (target.starts_with("/api/") || target == "/api") {
      stream_.expires_never();  // the hub may take a while (a computer turn at expert)
      auto self = shared_from_this();
      const auto authorization = header(http::field::authorization);
      // HEAD is GET without the body (dropped in send): wherever GET reads, HEAD does.
      hub_.submit(
          {method == "HEAD" ? std::string("GET") : method, target, std::move(request_.body()),
           authorization ? bearer_token(*authorization) : std::string()},
          [self, method, target](ApiResponse response) {
            mark_build_permission(response.body, !check_table_build(self->options_.table_builds,
                                                                    "POST", self->loopback_));
            asio::post(self->stream_.get_executor(),
                       [self, method, target, response = std::move(response)] {
                         self->send_json(response, method, target);
                       });
          });
      return;
    }
    serve_asset(method, target);
  }

  void serve_asset(const std::string& method, const std::string& target) {
    const bool head = request_.method() == http::verb::head;
    if (request_.method() != http::verb::get && !head) {
      send_error(405, "bad_method", "The page's files answer GET and HEAD only.", method, target,
                 request_.keep_alive(), "GET, HEAD");
      return;
    }
    const Asset* asset = find_asset(target);
    if (asset == nullptr) {
      send_error(404, "not_found", "No such file: " + target.substr(0, 200), method, target,
                 request_.keep_alive());
      return;
    }
    auto response = std::make_shared<Response>(http::status::ok, request_.version());
    response->set(http::field::content_type, content_type_for(asset->path));
    // Always revalidate: a rebuilt binary may serve a new page under the same names.
    response->set(http::field::cache_control, "no-cache");
    if (head) {
      response->content_length(asset->body.size());
    } else {
      response->body().assign(asset->body);
      response->prepare_payload();
    }
    send(std::move(response), method, target, request_.keep_alive());
  }

  void send_json(const ApiResponse& api_response, const std::string& method,
                 const std::string& target) {
    auto response = std::make_shared<Response>(static_cast<http::status>(api_response.status),
                                               request_.version());
    response->set(http::field::content_type, "application/json");
    response->set(http::field::cache_control, "no-store");
    if (api_response.status == 405 && api_response.body.contains("allow") &&
        api_response.body["allow"].is_string()) {
      std::string allow = api_response.body["allow"].get<std::string>();
      if (allow.find("GET") != std::string::npos) allow += ", HEAD";
      response->set(http::field::allow, allow);
    }
    response->body() = protocol::wire_text(api_response.body);
    response->prepare_payload();
    send(std::move(response), method, target, request_.keep_alive());
  }

  void send_refusal(const ApiError& error, const std::string& method, const std::string& target,
                    bool keep_alive) {
    const ApiResponse api_response = error_response(error);
    auto response = std::make_shared<Response>(static_cast<http::status>(api_response.status),
                                               request_.version());
    response->set(http::field::content_type, "application/json");
    response->set(http::field::cache_control, "no-store");
    if (api_response.status == 429) response->set(http::field::retry_after, "1");
    response->body() = protocol::wire_text(api_response.body);
    response->prepare_payload();
    send(std::move(response), method, target, keep_alive);
  }

  // `allow`: the methods the target answers, for a 405 (HTTP requires the Allow header there).
  void send_error(int status, const std::string& code, const std::string& message,
                  const std::string& method, const std::string& target, bool keep_alive,
                  const std::string& allow = "") {
    auto response =
        std::make_shared<Response>(static_cast<http::status>(status), request_.version());
    if (!allow.empty()) response->set(http::field::allow, allow);
    response->set(http::field::content_type, "application/json");
    response->body() = protocol::wire_text(nlohmann::json{{"error", message}, {"code", code}});
    response->prepare_payload();
    send(std::move(response), method, target, keep_alive);
  }

  void send(std::shared_ptr<Response> response, const std::string& method,
            const std::string& target, bool keep_alive) {
    response->set(http::field::server, kServerName);
    response->set("X-Content-Type-Options", "nosniff");
    // No other site may frame the page: framed, it still holds the player's seat tokens, and a
    // disguised click could resign or move for them (the Origin check cannot see it).
    response->set("Content-Security-Policy", "frame-ancestors 'self'");
    response->set("X-Frame-Options", "SAMEORIGIN");
    // The server's own time for the request, for the load tool and browser dev tools.
    char timing[48];
    std::snprintf(timing, sizeof timing, "app;dur=%.3f",
                  std::chrono::duration<double, std::milli>(Clock::now() - begin_).count());
    response->set("Server-Timing", timing);
    response->keep_alive(keep_alive);
    // An answer to HEAD has the headers of the answer to GET and no body: bytes after them
    // would be read as the start of the connection's next answer.
    if (method == "HEAD" && !response->body().empty()) {
      const std::size_t length = response->body().size();
      response->body().clear();
      response->content_length(length);
    }
    log_.line(remote_, method, target, response->result_int(), begin_);
    stream_.expires_after(kReadTimeout);
    http::async_write(
        stream_, *response,
        [self = shared_from_this(), response, keep_alive](beast::error_code ec, std::size_t) {
          if (ec || !keep_alive) {
            self->close();
            return;
          }
          self->read();
        });
  }

  // Ends the connection gracefully: no more sending, and whatever the client still sends is
  // read and dropped for a moment ("lingering close"), so closing with unread data does not
  // reset the connection before the client has read our last answer.
  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kLingerTime);
    discard_rest(0);
  }

  void discard_rest(std::size_t discarded) {
    if (discarded > kMaxLingerBytes) return;
    stream_.async_read_some(
        asio::buffer(linger_buffer_),
        [self = shared_from_this(), discarded](beast::error_code ec, std::size_t read) {
          if (!ec) self->discard_rest(discarded + read);
        });
  }

  beast::tcp_stream stream_;
  GameHub& hub_;
  RequestLog& log_;
  const ServerOptions& options_;
  const RequestGuard& guard_;
  SocketRegistry& sockets_;
  RateLimiter limiter_;
  std::string remote_;
  bool loopback_;  // the peer is on this machine: it may start and stop table builds
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::request<http::string_body> request_;
  Clock::time_point begin_;
  std::array<char, 4096> linger_buffer_;
};

}  // namespace

struct HttpServer::Impl {
  Impl(HubOptions hub_options, const ServerOptions& server_options)
      : options(server_options),
        log(server_options.quiet),
        hub(std::move(hub_options)),
        io(server_options.io_threads),
        acceptor(io),
        accept_pause(io) {
    const std::string host = options.host == "localhost" ? "127.0.0.1" : options.host;
    beast::error_code ec;
    const auto address = asio::ip::make_address(host, ec);
    if (ec) {
      throw std::runtime_error("--host " + options.host +
                               " is not an IP address (use e.g. 127.0.0.1 or 0.0.0.0)");
    }
    const tcp::endpoint endpoint(address, options.port);
    const std::string where = options.host + ":" + std::to_string(options.port);
    if (acceptor.open(endpoint.protocol(), ec)) {
      throw std::runtime_error("cannot open a socket for " + where + ": " + ec.message());
    }
    acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    if (acceptor.bind(endpoint, ec)) {
      throw std::runtime_error("cannot listen on " + where + ": " + ec.message() +
                               (ec == asio::error::address_in_use
                                    ? " (another server uses this port; choose another with --port)"
                                    : ""));
    }
    if (acceptor.listen(asio::socket_base::max_listen_connections, ec)) {
      throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
    }
    port = acceptor.local_endpoint().port();
    guard.emplace(GuardOptions{options.host, port, options.trusted_origins});
  }

  void accept() {
    acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
      if (!acceptor.is_open()) return;
      if (ec) {
        // Out of file descriptors (too many connections) fails every accept at once: pause
        // instead of spinning, and let the open connections finish.
        accept_pause.expires_after(kAcceptPause);
        accept_pause.async_wait([this](beast::error_code) { accept(); });
        return;
      }
      // An update is one small write the other player waits for: send it at once rather than
      // hold it for the previous write's ACK (Nagle), which costs a delayed ACK's 40 ms.
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<HttpSession>(std::move(socket), hub, log, options, *guard, sockets)->start();
      accept();
    });
  }

  void start_threads() {
    accept();
    for (int i = 0; i < std::max(1, options.io_threads); ++i) {
      threads.emplace_back([this] { io.run(); });
    }
  }

  void stop() {
    io.stop();
    for (auto& thread : threads) thread.join();
    threads.clear();
    beast::error_code ignored;
    acceptor.close(ignored);
  }

  ServerOptions options;
  RequestLog log;
  // Declared before `io` so it is destroyed after it: sessions still queued in `io` hold
  // game slots whose strands belong to the hub's thread pool. ~HttpServer joins the hub's
  // workers first, so they finish before the sessions they post to go away.
  GameHub hub;
  asio::io_context io;
  tcp::acceptor acceptor;
  asio::steady_timer accept_pause;
  std::vector<std::thread> threads;
  std::uint16_t port = 0;
  std::optional<RequestGuard> guard;  // once the port is known
  SocketRegistry sockets;
};

HttpServer::HttpServer(HubOptions hub_options, const ServerOptions& options)
    : impl_(std::make_unique<Impl>(std::move(hub_options), options)) {}

HttpServer::~HttpServer() {
  stop();
  impl_->hub.join_workers();
}

std::uint16_t HttpServer::port() const {
  return impl_->port;
}

const RequestGuard& HttpServer::guard() const {
  return *impl_->guard;
}

GameHub& HttpServer::hub() {
  return impl_->hub;
}

void HttpServer::start() {
  impl_->start_threads();
}

void HttpServer::run_until_signal(const std::function<void()>& on_ready) {
  asio::signal_set signals(impl_->io, SIGINT, SIGTERM);
  std::promise<void> stop_requested;
  signals.async_wait([&](beast::error_code, int) { stop_requested.set_value(); });
  start();
  on_ready();
  stop_requested.get_future().wait();
  drain();
  stop();
}

void HttpServer::drain() {
  // Balancers see /api/ready turn 503 and send nobody new; no new connection is taken.
  impl_->hub.start_draining();
  std::this_thread::sleep_for(impl_->options.drain_grace);
  asio::post(impl_->io, [this] {
    beast::error_code ignored;
    impl_->acceptor.close(ignored);
  });
  impl_->hub.drain();  // every request taken is answered
  for (const auto& session : impl_->sockets.live()) session->close_for_restart();
  // The answers and close frames are on their way; give them a moment to leave.
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  while (Clock::now() < deadline) {
    const auto live = impl_->sockets.live();
    if (std::none_of(live.begin(), live.end(),
                     [](const auto& session) { return session->closing(); })) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

void HttpServer::stop() {
  impl_->stop();
}

}  // namespace ur::server
