#include "play/online_client.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "cli/command.h"
#include "play/online_game.h"
#include "play/online_screen.h"
#include "play/online_url.h"
#include "play/terminal.h"
#include "protocol/game_update.h"
#include "protocol/json.h"
#include "server/http_client.h"

namespace ur::play {
namespace {

using nlohmann::json;

// Every HTTP request and every socket opening is bounded, so an unreachable or stuck server
// is an error, not a hang.
constexpr int kNetworkTimeoutMs = 10000;
// How long the loop waits for a socket message, then for a key: each wait returns at once
// when something comes, so this bounds only how late a countdown is redrawn.
constexpr int kSocketWaitMs = 25;
constexpr int kKeyWaitMs = 50;
constexpr int kEscapeWaitMs = 40;
// A dropped socket is reopened after 1 s, then less often, at most every 5 s.
constexpr int kFirstRetryMs = 1000;
constexpr int kMaxRetryMs = 5000;
constexpr const char* kNotConnected =
    "Not connected to the server: reconnecting, try again in a moment.";

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A refusal that ends the command: its exit code and a one-line reason.
struct Failure {
  int code = cli::kFailure;
  std::string message;
};

struct Reply {
  int status = 0;
  json body;
};

server::ServerAddress address_of(const ServerUrl& server) {
  return {server.host, server.port};
}

// One request to the server; a network failure throws Failure.
Reply call(const ServerUrl& server, const std::string& method, const std::string& target,
           const json& body, const std::string& token = "") {
  server::HttpHeaders headers;
  if (!token.empty()) headers.emplace_back("Authorization", "Bearer " + token);
  try {
    server::HttpConnection connection(address_of(server), kNetworkTimeoutMs);
    const server::HttpReply reply =
        connection.request(method, target, body.is_null() ? std::string() : body.dump(), headers);
    Reply result;
    result.status = reply.status;
    result.body = json::parse(reply.body, nullptr, false);
    if (result.body.is_discarded()) {
      throw Failure{cli::kFailure, "the server at " + server.origin() + " answered " + method +
                                       " " + target + " with something that is not JSON (status " +
                                       std::to_string(reply.status) + "): is it ur serve?"};
    }
    return result;
  } catch (const std::runtime_error& error) {
    throw Failure{cli::kFailure,
                  "cannot reach the server at " + server.origin() + " (" + error.what() + ")"};
  }
}

std::string error_of(const Reply& reply) {
  if (reply.body.is_object() && reply.body.contains("error") && reply.body["error"].is_string()) {
    return reply.body["error"].get<std::string>();
  }
  return "status " + std::to_string(reply.status);
}

std::string code_of(const Reply& reply) {
  return reply.body.is_object() ? reply.body.value("code", std::string()) : std::string();
}

// The seat I play and the token that holds it.
struct Seat {
  ServerUrl server;
  std::string game_id;
  std::string token;
  Side side = Side::Light;
  std::string invite;  // the host's invite code
  json state;          // the game as the server last answered
};

Side side_named(const json& value) {
  return value == "dark" ? Side::Dark : Side::Light;
}

Seat host_game(const ServerUrl& server, const OnlineOptions& options) {
  json settings = {
      {"opponent", "online"}, {"seat", options.seat}, {"rules", protocol::to_json(options.rules)}};
  if (!options.name.empty()) settings["name"] = options.name;
  const Reply reply = call(server, "POST", "/api/games", json{{"settings", settings}});
  if (reply.status != 201 && reply.status != 200) {
    const std::string code = code_of(reply);
    const bool usage = code == "bad_settings" || code == "bad_request";
    throw Failure{usage ? cli::kUsageError : cli::kFailure,
                  "the server refused the game: " + error_of(reply)};
  }
  Seat seat;
  seat.server = server;
  try {
    seat.state = reply.body.at("game");
    seat.game_id = seat.state.at("id").get<std::string>();
    seat.token = reply.body.at("token").get<std::string>();
    seat.invite = reply.body.at("invite").get<std::string>();
  } catch (const json::exception&) {
    throw Failure{cli::kFailure, "the server at " + server.origin() +
                                     " made a game without an invite: does it play online games?"};
  }
  seat.side = options.seat == "dark" ? Side::Dark : Side::Light;
  return seat;
}

Seat join_game(const GameLink& link, const OnlineOptions& options) {
  json body = {{"invite", link.invite}};
  if (!options.name.empty()) body["name"] = options.name;
  const Reply reply = call(link.server, "POST", "/api/join", body);
  const std::string code = code_of(reply);
  if (reply.status == 409 && code == "invite_used") {
    const std::string game = reply.body.value("game_id", std::string());
    throw Failure{cli::kFailure, "this invite was used already" +
                                     (game.empty() ? std::string(".")
                                                   : ": watch the game in a browser at " +
                                                         watch_link(link.server, game))};
  }
  if (reply.status == 404) {
    throw Failure{cli::kFailure, "the server at " + link.server.origin() +
                                     " has no game with this invite (" + error_of(reply) +
                                     "); check the link"};
  }
  if (reply.status != 200 && reply.status != 201) {
    throw Failure{code == "bad_request" ? cli::kUsageError : cli::kFailure,
                  "the server refused to join: " + error_of(reply)};
  }
  Seat seat;
  seat.server = link.server;
  try {
    seat.state = reply.body.at("game");
    seat.game_id = seat.state.at("id").get<std::string>();
    seat.token = reply.body.at("token").get<std::string>();
    seat.side = side_named(reply.body.at("side"));
  } catch (const json::exception&) {
    throw Failure{cli::kFailure, "the server's answer to the join has no game, token or side"};
  }
  return seat;
}

// Back to a seat from its link (#seat=GAME.TOKEN[.SIDE]).
Seat resume_seat(const GameLink& link) {
  const Reply reply = call(link.server, "GET", "/api/games/" + link.game_id, nullptr);
  if (reply.status == 404) {
    throw Failure{cli::kFailure,
                  "the server at " + link.server.origin() + " has no game " + link.game_id};
  }
  if (reply.status != 200) throw Failure{cli::kFailure, "cannot open the game: " + error_of(reply)};
  Seat seat;
  seat.server = link.server;
  seat.game_id = link.game_id;
  seat.token = link.token;
  seat.state = reply.body.value("game", json::object());
  // The invite answers only a seat's token: a check of the link, and the host who comes back
  // before the friend joined gets the link to share again.
  const Reply invite =
      call(link.server, "GET", "/api/games/" + link.game_id + "/invite", nullptr, link.token);
  const std::string code = code_of(invite);
  if (code == "wrong_seat_token" || code == "bad_seat_token" || code == "seat_token_missing") {
    throw Failure{cli::kFailure, "this seat link's token holds no seat of game " + link.game_id +
                                     ": " + error_of(invite)};
  }
  if (code == "not_online") {
    throw Failure{cli::kFailure, "game " + link.game_id +
                                     " is played on one device, not online: open it in a browser"};
  }
  if (invite.status == 200 && !invite.body.value("used", true)) {
    seat.invite = invite.body.value("invite", std::string());
  }
  if (link.side) {
    seat.side = *link.side;
  } else {
    // A link without its side: the contract shows the invite to the host's token only.
    const json settings = seat.state.value("settings", json::object());
    const Side host_side = side_named(settings.value("seat", json("light")));
    seat.side = invite.status == 200 ? host_side : opponent(host_side);
  }
  return seat;
}

// The game's WebSocket, opened with a hello that marks my seat connected.
std::unique_ptr<server::SocketConnection> open_socket(const Seat& seat) {
  auto socket = std::make_unique<server::SocketConnection>(
      address_of(seat.server), "/api/games/" + seat.game_id + "/ws", kNetworkTimeoutMs);
  socket->send(json{{"action", "hello"}, {"token", seat.token}}.dump());
  return socket;
}

class OnlineLoop {
 public:
  OnlineLoop(Seat& seat, const OnlineOptions& options) : seat_(seat), options_(options) {
    view_.me = seat.side;
    ui_.route_numbers = options.route_numbers;
    if (!seat.invite.empty()) ui_.invite_link = join_link(seat.server, seat.invite);
    ui_.watch_link = watch_link(seat.server, seat.game_id);
    apply(json{{"type", "update"}, {"game", seat.state}, {"events", json::array()}});
  }

  // Returns the exit code.
  int run() {
    Terminal terminal;
    connect();
    std::string pending_bytes;
    std::vector<std::string> shown;
    while (!ui_.quit) {
      pump_socket();
      // Redraw when something changed (the claim countdown and "left 0:42 ago" tick too).
      const auto [width, height] = terminal.size();
      std::vector<std::string> lines =
          compose_online_screen(view_, ui_, width, height, steady_ms()).lines(options_.color);
      if (lines != shown) {
        terminal.draw(lines);
        shown = std::move(lines);
      }
      const TerminalEvent event = terminal.wait(pending_bytes.empty() ? kKeyWaitMs : kEscapeWaitMs);
      if (event.terminate_signal) return 128 + event.terminate_signal;
      if (event.resized || event.resumed) shown.clear();
      const bool timed_out = event.bytes.empty() && !event.resized && !event.resumed;
      pending_bytes += event.bytes;
      for (const Key& key : decode_keys(pending_bytes, timed_out)) {
        act(online_key(view_, ui_, key, steady_ms()));
        if (ui_.quit) break;
      }
    }
    return 0;
  }

  const OnlineView& view() const { return view_; }

 private:
  void apply(const json& message) {
    const std::vector<std::string> said = apply_message(view_, message, steady_ms());
    if (!said.empty()) {
      std::string text;
      for (const std::string& sentence : said) text += (text.empty() ? "" : " ") + sentence;
      ui_.message = text;
      ui_.message_is_error = is_error_message(message);
    }
    if (message.value("type", "") == "update") sync_online_ui(view_, ui_);
  }

  void connect() {
    try {
      socket_ = open_socket(seat_);
      last_update_.reset();  // a new socket's first update is whole
      ui_.connected = true;
      if (ui_.message == kNotConnected) ui_.message.clear();
      retry_ms_ = kFirstRetryMs;
    } catch (const std::runtime_error&) {
      socket_.reset();
      ui_.connected = false;
      next_try_ = steady_ms() + retry_ms_;
      retry_ms_ = std::min(retry_ms_ * 2, kMaxRetryMs);
    }
  }

  void pump_socket() {
    if (!socket_) {
      if (steady_ms() >= next_try_) connect();
      return;
    }
    try {
      int wait = kSocketWaitMs;
      while (auto text = socket_->receive_for(wait)) {
        wait = 0;
        json message = json::parse(*text, nullptr, false);
        if (message.is_discarded()) continue;
        if (!complete(message)) {
          drop_socket();  // it left out what this socket never had: reconnect for a whole state
          return;
        }
        apply(message);
      }
    } catch (const protocol::RequestError& error) {
      ui_.message = error.what();
      ui_.message_is_error = true;
    } catch (const std::runtime_error&) {
      drop_socket();
    }
  }

  // Completes an update's game against the socket's previous one (protocol/game_update.h);
  // false when it cannot be.
  bool complete(json& message) {
    if (!message.is_object() || message.value("type", "") != "update") return true;
    const auto game = message.find("game");
    if (game == message.end() || !game->is_object()) return true;  // apply() reports it
    auto whole =
        protocol::complete_update(std::move(*game), last_update_ ? &*last_update_ : nullptr);
    if (!whole) return false;
    last_update_ = *whole;
    *game = std::move(*whole);
    return true;
  }

  void drop_socket() {
    socket_.reset();
    ui_.connected = false;
    next_try_ = steady_ms() + retry_ms_;
  }

  void act(const OnlineIntent& intent) {
    switch (intent.action) {
      case OnlineAction::None:
      case OnlineAction::Quit:
        return;
      case OnlineAction::Rematch:
      case OnlineAction::ClaimWin: {
        const std::string action = intent.action == OnlineAction::Rematch ? "rematch" : "claim_win";
        try {
          const Reply reply =
              call(seat_.server, "POST", "/api/games/" + seat_.game_id + "/" + action,
                   json::object(), seat_.token);
          if (reply.status >= 400) {
            ui_.message = error_of(reply);
            ui_.message_is_error = true;
          } else if (intent.action == OnlineAction::Rematch) {
            ui_.message = "Rematch asked: the next game starts when " +
                          view_.name_of(opponent(view_.me)) + " agrees.";
            ui_.message_is_error = false;
          }
        } catch (const Failure& failure) {
          ui_.message = failure.message;
          ui_.message_is_error = true;
        }
        return;
      }
      default:
        break;
    }
    if (!socket_) {
      ui_.message = kNotConnected;
      ui_.message_is_error = true;
      return;
    }
    try {
      ui_.message.clear();
      socket_->send(socket_intent(intent, seat_.token, view_.game.version).dump());
    } catch (const std::runtime_error&) {
      drop_socket();
    }
  }

  Seat& seat_;
  const OnlineOptions& options_;
  OnlineView view_;
  OnlineUi ui_;
  std::unique_ptr<server::SocketConnection> socket_;
  std::optional<json> last_update_;  // the socket's latest game state, completed
  std::int64_t next_try_ = 0;
  int retry_ms_ = kFirstRetryMs;
};

}  // namespace

int run_online(const OnlineOptions& options) {
  const char* command = options.host ? "ur play --host" : "ur play --join";
  const auto parsed = parse_game_link(options.url);
  if (const auto* problem = std::get_if<std::string>(&parsed)) {
    std::cerr << command << ": " << *problem << "\n";
    return cli::kUsageError;
  }
  const GameLink& link = std::get<GameLink>(parsed);
  if (options.host && link.kind != LinkKind::Server) {
    std::cerr << command << ": give the server's address (http://HOST:PORT/), not a game link; "
              << "to play a link, use ur play --join\n";
    return cli::kUsageError;
  }
  if (!options.host && link.kind == LinkKind::Server) {
    std::cerr << command << ": " << options.url
              << " has no invite: expected http://HOST:PORT/#join=CODE (the host's link) or "
                 "http://HOST:PORT/#seat=GAME.TOKEN\n";
    return cli::kUsageError;
  }
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
    std::cerr << command << ": an online game is played in a terminal, and stdin or stdout is not "
              << "one\n";
    return cli::kUsageError;
  }
  Seat seat;
  try {
    if (options.host) {
      seat = host_game(link.server, options);
      const std::string invite = join_link(seat.server, seat.invite);
      std::cout << "Online game " << seat.game_id << " on " << seat.server.origin() << ": you play "
                << page_side_name(seat.side) << ".\n"
                << "Invite link: " << invite << "\n"
                << "It opens in a browser, or in a terminal: ur play --join " << invite << "\n"
                << std::flush;
    } else if (link.kind == LinkKind::Join) {
      seat = join_game(link, options);
    } else {
      seat = resume_seat(link);
    }
  } catch (const Failure& failure) {
    std::cerr << command << ": " << failure.message << "\n";
    return failure.code;
  } catch (const protocol::RequestError& error) {
    std::cerr << command << ": " << error.what() << "\n";
    return cli::kFailure;
  }
  int code = 0;
  try {
    OnlineLoop loop(seat, options);
    code = loop.run();  // the terminal is restored when it returns
  } catch (const protocol::RequestError& error) {
    std::cerr << command << ": " << error.what() << "\n";
    return cli::kFailure;
  }
  std::cout << "You left game " << seat.game_id << "; your seat (" << page_side_name(seat.side)
            << ") stays yours.\n"
            << "Come back with: ur play --join "
            << seat_link(seat.server, seat.game_id, seat.token, seat.side)
            << "\n(or open that link in a browser; it holds your seat, so keep it to yourself)\n";
  return code;
}

}  // namespace ur::play
