// The WebSocket side of `ur serve`: a session per WebSocket on /api/games/{id}/ws, and the
// registry of the open ones. http_server.cpp opens them on an upgrade and closes them when the
// server stops; websocket_session.cpp has the rest. Beast inside, like session_common.h.
#pragma once

#include <atomic>
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/http_server.h"
#include "server/hub.h"
#include "server/request_guard.h"
#include "server/session_common.h"

namespace ur::server {

class SocketSession;

// The open WebSockets, so that a server stopping can tell each to reconnect elsewhere.
class SocketRegistry {
 public:
  void add(const std::shared_ptr<SocketSession>& session) {
    std::lock_guard lock(mutex_);
    std::erase_if(sessions_, [](const auto& weak) { return weak.expired(); });
    sessions_.push_back(session);
  }
  std::vector<std::shared_ptr<SocketSession>> live() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<SocketSession>> found;
    for (const auto& weak : sessions_) {
      if (auto session = weak.lock()) found.push_back(std::move(session));
    }
    return found;
  }

 private:
  std::mutex mutex_;
  std::vector<std::weak_ptr<SocketSession>> sessions_;
};

// A WebSocket on /api/games/{id}/ws: forwards the game's updates (pacing the computer's
// steps) and turns the page's messages into intents.
class SocketSession : public GameListener, public std::enable_shared_from_this<SocketSession> {
 public:
  SocketSession(beast::tcp_stream&& stream, GameHub& hub, RequestLog& log,
                const ServerOptions& options, std::string game_id);

  void start(http::request<http::string_body> request, Clock::time_point begin);

  // Closes the socket with 1012 (service restart): the page reconnects, through a balancer
  // to another server.
  void close_for_restart();

  // True from close_for_restart() until its close frame is sent (or there was none to send).
  bool closing() const { return closing_; }

  void on_game_update(std::shared_ptr<const std::string> message, bool computer_step) override;

 private:
  struct Outgoing {
    std::shared_ptr<const std::string> text;
    bool paced;
  };

  void refuse_unknown_game();
  void accept();
  void read();
  void on_message(const std::string& text);
  void enqueue(std::shared_ptr<const std::string> text, bool paced);
  void write_next();
  void send_front();

  websocket::stream<beast::tcp_stream> socket_;
  GameHub& hub_;
  RequestLog& log_;
  const ServerOptions& options_;
  RateLimiter limiter_;
  std::string game_id_;
  asio::steady_timer pace_timer_;
  std::string remote_;
  bool may_build_tables_;  // this peer may start a table build (--table-builds, its address)
  http::request<http::string_body> request_;
  Clock::time_point begin_;
  GameHub::Subscription subscription_;
  GameHub::Subscription presence_;  // the seats this socket keeps connected (hello)
  beast::flat_buffer incoming_;
  std::deque<Outgoing> outgoing_;
  Clock::time_point last_sent_{};
  bool accepted_ = false;
  bool writing_ = false;
  bool closed_ = false;
  std::atomic<bool> closing_{false};
};

}  // namespace ur::server
