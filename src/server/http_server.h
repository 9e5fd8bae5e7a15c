// The network side of `ur serve`: an HTTP/1.1 + WebSocket server on Boost.Beast that serves
// the embedded page, hands /api/ requests to the game hub and streams game updates to
// WebSocket clients. Beast stays inside http_server.cpp and websocket_session.cpp; this
// header is plain C++.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "server/hub.h"
#include "server/request_guard.h"

namespace ur::server {

struct ServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;  // 0 picks a free port (tests)
  bool quiet = false;         // no line per request
  int io_threads = 2;
  // Origins besides the server's own whose pages may change games and whose hosts it
  // answers to: --public-url (where a reverse proxy serves it), then each --allow-origin.
  std::vector<Origin> trusted_origins;
  // Each connection may send this many actions (state-changing requests, WebSocket
  // messages) within the window; tests shorten or lengthen the window.
  std::size_t rate_limit_actions = 20;
  std::chrono::milliseconds rate_limit_window{1000};
  // On SIGTERM, how long the server keeps serving with /api/ready answering 503 before it
  // stops taking connections, so balancers polling it move new players elsewhere first.
  std::chrono::milliseconds drain_grace{0};
  // A WebSocket silent this long is dropped; it is pinged halfway through.
  std::chrono::milliseconds socket_idle_timeout{60000};
  // Who may start or stop a table build (--table-builds).
  TableBuilds table_builds = TableBuilds::kLocal;
};

class HttpServer {
 public:
  // Opens the game hub and binds the listening socket. Throws std::runtime_error saying
  // what failed (a bad host, a port in use, an unusable data directory).
  HttpServer(HubOptions hub_options, const ServerOptions& options);
  // Stops (if running) and releases everything; the hub finishes its queued work first.
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const;  // the bound port
  // Who may talk to it: the hosts and origins it accepts (for the start-up lines).
  const RequestGuard& guard() const;
  GameHub& hub();

  // Serves on background threads until stop().
  void start();
  // Serves until SIGINT or SIGTERM, then stops; returns normally after a clean shutdown.
  // `on_ready` runs once the signals are caught and the server serves (say where it is then,
  // so whoever reads that line may stop it at once).
  void run_until_signal(const std::function<void()>& on_ready);
  // What a stopping server does before it stops (SIGTERM): /api/ready turns 503, no new
  // connection is taken, requests in flight are answered, and every WebSocket is closed with
  // 1012 (service restart) so its page reconnects elsewhere.
  void drain();
  // Stops accepting and serving; safe to call more than once.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ur::server
