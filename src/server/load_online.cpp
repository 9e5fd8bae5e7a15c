#include "server/load_online.h"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdio>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <thread>

#include "records/record.h"
#include "records/rgn.h"
#include "server/load_net.h"
#include "server/load_pacing.h"
#include "server/load_stats.h"

namespace ur::load {

namespace {

namespace asio = boost::asio;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kErrorsKept = 10;

double millis_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

const char* other_side(const std::string& side) {
  return side == "light" ? "dark" : "light";
}

// The string member `key` of `value`, or "" (const json's operator[] must not meet a
// missing key).
std::string text_member(const json& value, const char* key) {
  if (!value.is_object()) return "";
  const auto found = value.find(key);
  return found != value.end() && found->is_string() ? found->get<std::string>() : "";
}

// A throw and the move it was spent on (none for a pass), as the clients saw them.
struct SeenPly {
  std::string side;
  int roll = 0;
  int from = -1;  // -1: no move (a pass)
};

class Run;

class Game : public std::enable_shared_from_this<Game> {
 public:
  Game(Run& run, int index, Strand strand);
  void start();
  // Adds this game's figures to `report` (once it ended; or, when the time limit stopped
  // the run, for the figures so far).
  void add_figures(OnlineReport& report) const;
  bool ended() const { return ended_; }

 private:
  struct Seat {
    explicit Seat(Strand strand) : think(strand) {}
    std::string side;  // "light" or "dark"
    std::string name;
    std::string token;
    std::shared_ptr<WebSocketClient> socket;
    asio::steady_timer think;
    ActionPacer pacer;
    bool open = false;
    bool closed = false;
    bool over = false;
    long long version = -1;  // of the newest update this seat received
    // The newest state, as far as playing needs it.
    std::string phase;
    std::string to_move;
    bool waiting = false;
    std::vector<int> move_froms;
    std::optional<Clock::time_point> intent_sent;  // an intent waits for the update it causes
  };

  void create();
  void join(const std::string& invite);
  void connect(int seat);
  void on_open(int seat);
  void on_message(int seat, const std::string& text);
  void on_update(int seat, const json& message, Clock::time_point received);
  void consider(int seat);
  void act(int seat, long long version);
  void on_closed(int seat, const std::string& why);
  void game_over();
  void check_record(const HttpAnswer& answer);
  std::string record_mismatch(const records::GameRecord& record) const;
  void watch();
  void fail(const std::string& what);
  void end();
  void release_setup();
  int think_millis();
  // The server seat `index` talks to: the host's (0) or the friend's (1).
  std::uint16_t port_of(int index) const;

  Run& run_;
  int index_;
  Strand strand_;
  std::mt19937_64 rng_;
  std::array<Seat, 2> seats_;  // 0: the host, 1: the friend
  asio::steady_timer watchdog_;
  std::string id_;
  std::string winner_;
  Clock::time_point setup_begin_;
  Clock::time_point last_message_;
  std::string waiting_for_;  // what the game waits for, for the stall error
  bool started_ = false;
  bool setup_released_ = false;
  bool failed_ = false;
  bool ended_ = false;
  // The moves that wait to reach the other seat: their sender's side and send time, in
  // order: after a rosette the mover may send its next move before the opponent's
  // socket has the first.
  std::deque<std::pair<std::string, Clock::time_point>> moves_in_flight_;
  std::vector<SeenPly> seen_;  // every throw and move, as the host's socket saw them
  // This game's figures, merged into the report when it ends.
  long long actions_ = 0;
  long long moves_ = 0;
  long long messages_ = 0;  // received on both sockets
  long long message_bytes_ = 0;
  long long largest_message_ = 0;
  std::vector<double> server_millis_;
  std::vector<double> delivery_millis_;
  double setup_millis_ = -1;
};

// The whole run: one io_context, the games launched a few at a time, the report.
class Run {
 public:
  explicit Run(const OnlineOptions& run_options)
      : options(run_options),
        io(options.threads),
        control_(asio::make_strand(io)),
        deadline_(control_),
        progress_(control_) {}

  OnlineReport play() {
    report_.games = options.games;
    const auto begin = Clock::now();
    deadline_.expires_after(std::chrono::seconds(options.max_seconds));
    deadline_.async_wait([this](boost::system::error_code ec) {
      if (ec) return;
      std::lock_guard lock(mutex_);
      report_.timed_out = true;
      note_error_locked("the time limit of " + std::to_string(options.max_seconds) +
                        " s passed with " + std::to_string(options.games - ended_) +
                        " games not ended");
      io.stop();
    });
    begin_ = begin;
    report_progress();
    launch_more();
    std::vector<std::thread> threads;
    for (int t = 1; t < options.threads; ++t) threads.emplace_back([this] { io.run(); });
    io.run();
    for (auto& thread : threads) thread.join();
    // After the time limit, the games still under way count with what they measured so far.
    for (const auto& game : games_) {
      if (!game->ended()) game->add_figures(report_);
    }
    report_.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
    return std::move(report_);
  }

  void error(const std::string& what) {
    std::lock_guard lock(mutex_);
    note_error_locked(what);
  }

  void setup_done() {
    {
      std::lock_guard lock(mutex_);
      --in_setup_;
    }
    launch_more();
  }

  void game_started() {
    std::lock_guard lock(mutex_);
    ++report_.started;
    ++playing_;
    report_.peak_concurrent = std::max(report_.peak_concurrent, playing_);
  }

  void game_stopped_playing() {
    std::lock_guard lock(mutex_);
    --playing_;
  }

  // Called once per game, with its figures.
  template <typename Merge>
  void game_ended(Merge merge) {
    std::lock_guard lock(mutex_);
    merge(report_);
    ++ended_;
    maybe_finish_locked();
  }

  void socket_opened() {
    std::lock_guard lock(mutex_);
    ++sockets_;
  }

  void socket_closed() {
    std::lock_guard lock(mutex_);
    --sockets_;
    maybe_finish_locked();
  }

  const OnlineOptions& options;
  asio::io_context io;
  std::atomic<long long> actions_sent{0};  // for the progress lines

 private:
  void note_error_locked(const std::string& what) {
    ++report_.errors;
    if (report_.first_errors.size() < kErrorsKept) report_.first_errors.push_back(what);
  }

  // Once every game has ended and every socket closed nothing is left to wait for; the
  // io_context then runs out of work and play() returns.
  void maybe_finish_locked() {
    if (ended_ == options.games && sockets_ == 0) {
      asio::post(control_, [this] {
        deadline_.cancel();
        progress_.cancel();
      });
    }
  }

  void launch_more() {
    std::vector<std::shared_ptr<Game>> launched;
    {
      std::lock_guard lock(mutex_);
      while (in_setup_ < options.setup_parallel && next_ < options.games) {
        ++in_setup_;
        games_.push_back(std::make_shared<Game>(*this, next_++, asio::make_strand(io)));
        launched.push_back(games_.back());
      }
    }
    for (auto& game : launched) game->start();
  }

  // A line on stderr every progress_seconds, so a long run shows how it goes.
  void report_progress() {
    if (options.progress_seconds <= 0) return;
    progress_.expires_after(std::chrono::seconds(options.progress_seconds));
    progress_.async_wait([this](boost::system::error_code ec) {
      if (ec) return;
      const double seconds = std::chrono::duration<double>(Clock::now() - begin_).count();
      const long long actions = actions_sent.load();
      {
        std::lock_guard lock(mutex_);
        std::fprintf(stderr,
                     "ur_load: %.0f s: %d started, %d playing, %d ended, %lld actions (%.0f/s), "
                     "%lld errors\n",
                     seconds, report_.started, playing_, ended_, actions,
                     static_cast<double>(actions - last_actions_) / options.progress_seconds,
                     report_.errors);
      }
      last_actions_ = actions;
      report_progress();
    });
  }

  std::mutex mutex_;
  OnlineReport report_;
  Strand control_;  // the run's own timers
  asio::steady_timer deadline_;
  asio::steady_timer progress_;
  Clock::time_point begin_;
  long long last_actions_ = 0;
  std::vector<std::shared_ptr<Game>> games_;
  int next_ = 0;
  int in_setup_ = 0;
  int playing_ = 0;
  int ended_ = 0;
  int sockets_ = 0;
};

Game::Game(Run& run, int index, Strand strand)
    : run_(run),
      index_(index),
      strand_(strand),
      rng_(run.options.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(index)),
      seats_{Seat(strand), Seat(strand)},
      watchdog_(strand) {}

void Game::start() {
  asio::post(strand_, [self = shared_from_this()] {
    self->setup_begin_ = Clock::now();
    self->last_message_ = self->setup_begin_;
    self->watch();
    self->create();
  });
}

std::uint16_t Game::port_of(int index) const {
  const OnlineOptions& options = run_.options;
  return index == 1 && options.friend_port != 0 ? options.friend_port : options.port;
}

int Game::think_millis() {
  const OnlineOptions& options = run_.options;
  return std::uniform_int_distribution<int>(options.think_min_ms, options.think_max_ms)(rng_);
}

void Game::create() {
  // Hosts take either side, so both seats' paths are exercised.
  Seat& host = seats_[0];
  Seat& friend_seat = seats_[1];
  host.side = rng_() % 2 == 0 ? "light" : "dark";
  friend_seat.side = other_side(host.side);
  host.name = "Host " + std::to_string(index_);
  friend_seat.name = "Friend " + std::to_string(index_);
  const json body = {{"settings",
                      {{"opponent", "online"},
                       {"seat", host.side},
                       {"name", host.name},
                       {"rules", {{"name", "finkel"}, {"pieces", run_.options.pieces}}}}}};
  waiting_for_ = "the answer to POST /api/games";
  http_request(strand_, run_.options.port, {"POST", "/api/games", body.dump(), ""},
               std::chrono::seconds(run_.options.stall_seconds),
               [self = shared_from_this()](HttpAnswer answer) {
                 if (self->failed_) return;
                 self->last_message_ = Clock::now();
                 if (!answer.error.empty()) return self->fail(answer.error);
                 const json reply = json::parse(answer.body, nullptr, false);
                 if (answer.status != 201 || !reply.is_object() || !reply.contains("token") ||
                     !reply.contains("invite") || !reply.contains("game")) {
                   return self->fail("POST /api/games answered " + std::to_string(answer.status) +
                                     " " + answer.body.substr(0, 300) +
                                     " (expected 201 with game, token and invite)");
                 }
                 self->id_ = text_member(reply.at("game"), "id");
                 self->seats_[0].token = reply.value("token", "");
                 self->join(reply.value("invite", ""));
               });
}

void Game::join(const std::string& invite) {
  const json body = {{"invite", invite}, {"name", seats_[1].name}};
  waiting_for_ = "the answer to POST /api/join";
  http_request(strand_, port_of(1), {"POST", "/api/join", body.dump(), ""},
               std::chrono::seconds(run_.options.stall_seconds),
               [self = shared_from_this()](HttpAnswer answer) {
                 if (self->failed_) return;
                 self->last_message_ = Clock::now();
                 if (!answer.error.empty()) return self->fail(answer.error);
                 const json reply = json::parse(answer.body, nullptr, false);
                 if (answer.status != 200 || !reply.is_object() || !reply.contains("token") ||
                     !reply.contains("side")) {
                   return self->fail("POST /api/join answered " + std::to_string(answer.status) +
                                     " " + answer.body.substr(0, 300) +
                                     " (expected 200 with game, token and side)");
                 }
                 if (reply.value("side", "") != self->seats_[1].side) {
                   return self->fail("POST /api/join gave the friend side " +
                                     reply.at("side").dump() + ", expected " +
                                     self->seats_[1].side);
                 }
                 self->seats_[1].token = reply.value("token", "");
                 self->waiting_for_ = "both sockets to open";
                 self->connect(0);
                 self->connect(1);
               });
}

void Game::connect(int index) {
  Seat& seat = seats_[static_cast<std::size_t>(index)];
  seat.socket = WebSocketClient::create(strand_);
  run_.socket_opened();
  auto self = shared_from_this();
  seat.socket->open(port_of(index), "/api/games/" + id_ + "/ws",
                    std::chrono::seconds(run_.options.stall_seconds),
                    {[self, index] { self->on_open(index); },
                     [self, index](std::string text) { self->on_message(index, text); },
                     [self, index](std::string why) { self->on_closed(index, why); }});
}

void Game::on_open(int index) {
  if (failed_) return;
  Seat& seat = seats_[static_cast<std::size_t>(index)];
  seat.open = true;
  seat.socket->send(json{{"action", "hello"}, {"token", seat.token}}.dump());
  seat.pacer.sent(Clock::now());
  if (!seats_[0].open || !seats_[1].open) return;
  // Both people are there: from now on each plays its seat.
  started_ = true;
  setup_millis_ = millis_between(setup_begin_, Clock::now());
  run_.game_started();
  release_setup();
  waiting_for_ = "an update";
  consider(0);
  consider(1);
}

void Game::on_message(int index, const std::string& text) {
  if (failed_ || ended_) return;
  const auto received = Clock::now();  // before parsing: delivery ends on arrival
  last_message_ = received;
  ++messages_;
  message_bytes_ += static_cast<long long>(text.size());
  largest_message_ = std::max(largest_message_, static_cast<long long>(text.size()));
  const json message = json::parse(text, nullptr, false);
  Seat& seat = seats_[static_cast<std::size_t>(index)];
  if (!message.is_object()) return fail(seat.side + "'s socket got an unreadable message");
  const std::string type = message.value("type", "");
  if (type == "update") return on_update(index, message, received);
  if (type == "error") {
    return fail(seat.side + "'s socket got an error: " + message.value("code", "?") + ": " +
                message.value("error", "?") + " (action " + message.value("action", "?") + ")");
  }
  if (type != "presence") return fail(seat.side + "'s socket got a message of type " + type);
}

void Game::on_update(int index, const json& message, Clock::time_point received) {
  Seat& seat = seats_[static_cast<std::size_t>(index)];
  const auto found = message.find("game");
  if (found == message.end() || !found->is_object()) {
    return fail(seat.side + "'s socket got an update without a game");
  }
  const json& game = *found;
  const long long version = game.value("version", -1LL);
  if (version <= seat.version) return;  // the contract: drop what is not newer
  seat.version = version;
  if (seat.intent_sent) {
    // The first newer update after this seat's intent is the one the intent caused.
    const auto server_ms = message.find("server_ms");
    if (server_ms != message.end() && server_ms->is_number()) {
      server_millis_.push_back(server_ms->get<double>());
    } else {
      return fail(seat.side + "'s intent caused an update without server_ms (version " +
                  std::to_string(version) + ")");
    }
    seat.intent_sent.reset();
    seat.pacer.arrived_by(received);
  }
  const json events = message.value("events", json::array());
  for (const json& event : events) {
    const std::string type = event.value("type", "");
    const std::string side = event.value("side", "");
    if (type == "move" && side != seat.side && !moves_in_flight_.empty() &&
        moves_in_flight_.front().first == side) {
      delivery_millis_.push_back(millis_between(moves_in_flight_.front().second, received));
      moves_in_flight_.pop_front();
    }
    if (index != 0) continue;  // the host's socket keeps the plies
    if (type == "throw") {
      seen_.push_back({side, event.value("roll", -1), -1});
    } else if (type == "move") {
      if (seen_.empty() || seen_.back().side != side || seen_.back().from != -1) {
        return fail("a move event without its throw in version " + std::to_string(version));
      }
      seen_.back().from = event.value("from", -1);
    }
  }
  seat.phase = game.value("phase", "");
  seat.to_move = text_member(game, "to_move");
  seat.waiting = game.value("waiting_for_opponent", false);
  seat.move_froms.clear();
  for (const json& move : game.value("legal_moves", json::array())) {
    seat.move_froms.push_back(move.value("from", -1));
  }
  if (seat.phase == "game_over") {
    seat.over = true;
    seat.think.cancel();
    if (winner_.empty()) winner_ = text_member(game, "winner");
    if (seats_[0].over && seats_[1].over) game_over();
    return;
  }
  consider(index);
}

// Plans this seat's next action when the newest state asks it to act.
void Game::consider(int index) {
  Seat& seat = seats_[static_cast<std::size_t>(index)];
  if (!started_ || failed_ || seat.over || seat.waiting || seat.to_move != seat.side) return;
  if (seat.phase != "throw" && seat.phase != "move" && seat.phase != "pass") return;
  const auto after_thinking = Clock::now() + std::chrono::milliseconds(think_millis());
  seat.think.expires_at(seat.pacer.next_allowed(after_thinking));
  seat.think.async_wait(
      [self = shared_from_this(), index, version = seat.version](boost::system::error_code ec) {
        if (!ec) self->act(index, version);
      });
}

void Game::act(int index, long long version) {
  Seat& seat = seats_[static_cast<std::size_t>(index)];
  if (failed_ || seat.over || seat.version != version) return;  // the state moved on meanwhile
  json intent = {{"action", seat.phase}, {"token", seat.token}, {"version", version}};
  if (seat.phase == "move") {
    if (seat.move_froms.empty()) return fail(seat.side + ": phase move without legal moves");
    intent["from"] = seat.move_froms[rng_() % seat.move_froms.size()];
    ++moves_;
  }
  const auto now = Clock::now();
  if (seat.phase == "move") {
    moves_in_flight_.emplace_back(seat.side, now);
  }
  seat.intent_sent = now;
  seat.pacer.sent(now);
  ++actions_;
  ++run_.actions_sent;
  seat.socket->send(intent.dump());
}

void Game::on_closed(int index, const std::string& why) {
  Seat& seat = seats_[static_cast<std::size_t>(index)];
  if (!seat.closed) {
    seat.closed = true;
    run_.socket_closed();
  }
  if (!why.empty() && !ended_) fail(why);
}

void Game::game_over() {
  run_.game_stopped_playing();
  for (Seat& seat : seats_) seat.socket->close();
  waiting_for_ = "the record";
  http_request(strand_, run_.options.port, {"GET", "/api/games/" + id_ + "/record", "", ""},
               std::chrono::seconds(run_.options.stall_seconds),
               [self = shared_from_this()](HttpAnswer answer) { self->check_record(answer); });
}

void Game::check_record(const HttpAnswer& answer) {
  if (failed_) return;
  if (!answer.error.empty()) return fail(answer.error);
  const json reply = json::parse(answer.body, nullptr, false);
  const std::string rgn = text_member(reply, "rgn");
  if (answer.status != 200 || rgn.empty()) {
    return fail("GET /api/games/" + id_ + "/record answered " + std::to_string(answer.status) +
                " " + answer.body.substr(0, 300) + " (expected 200 with rgn)");
  }
  auto read = records::read_rgn(rgn);
  if (auto* error = std::get_if<records::ParseError>(&read)) {
    return fail("the record's RGN does not read: " + error->text());
  }
  const auto& games = std::get<std::vector<records::GameRecord>>(read);
  if (games.empty()) return fail("the record holds no game");
  const std::string mismatch = record_mismatch(games.back());
  if (!mismatch.empty()) return fail("the record does not confirm the game: " + mismatch);
  end();
}

// Why the replayed record is not the game the two clients played, or "".
std::string Game::record_mismatch(const records::GameRecord& record) const {
  const auto replayed = records::replay(record);
  if (const auto* error = std::get_if<records::ReplayError>(&replayed)) {
    return "its replay fails at ply " + std::to_string(error->ply) + ": " + error->message;
  }
  const auto& replay = std::get<records::Replay>(replayed);
  const std::string winner =
      replay.winner ? (*replay.winner == Side::Light ? "light" : "dark") : "none";
  if (winner != winner_) return "the replay's winner is " + winner + ", the game's " + winner_;
  for (const Seat& seat : seats_) {
    const std::string* name = record.tag(seat.side == "light" ? "Light" : "Dark");
    if (name == nullptr || *name != seat.name) {
      return "the " + seat.side + " tag is \"" + (name ? *name : std::string("(none)")) +
             "\", expected \"" + seat.name + "\"";
    }
  }
  if (record.plies.size() != seen_.size()) {
    return std::to_string(record.plies.size()) + " plies, the sockets showed " +
           std::to_string(seen_.size()) + " throws";
  }
  for (std::size_t i = 0; i < seen_.size(); ++i) {
    const records::Ply& ply = record.plies[i];
    const SeenPly& seen = seen_[i];
    const std::string side = ply.side == Side::Light ? "light" : "dark";
    const int from = ply.move ? ply.move->from : -1;
    if (side != seen.side || ply.roll != seen.roll || from != seen.from) {
      return "ply " + std::to_string(i) + " is " + side + " " + std::to_string(ply.roll) +
             " from " + std::to_string(from) + ", the sockets showed " + seen.side + " " +
             std::to_string(seen.roll) + " from " + std::to_string(seen.from);
    }
  }
  return "";
}

// A game that hears nothing for stall_seconds has stalled: that is an error (a timeout).
void Game::watch() {
  watchdog_.expires_after(std::chrono::seconds(1));
  watchdog_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec || self->failed_ || self->ended_) return;
    const auto silence = Clock::now() - self->last_message_;
    if (silence > std::chrono::seconds(self->run_.options.stall_seconds)) {
      return self->fail("nothing arrived for " + std::to_string(self->run_.options.stall_seconds) +
                        " s while waiting for " + self->waiting_for_);
    }
    self->watch();
  });
}

void Game::fail(const std::string& what) {
  if (failed_ || ended_) return;
  failed_ = true;
  run_.error("game " + std::to_string(index_) + (id_.empty() ? "" : " (" + id_ + ")") + ": " +
             what);
  if (started_ && !(seats_[0].over && seats_[1].over)) run_.game_stopped_playing();
  for (Seat& seat : seats_) {
    seat.think.cancel();
    if (seat.socket) seat.socket->close();
  }
  end();
}

void Game::end() {
  if (ended_) return;
  ended_ = true;
  watchdog_.cancel();
  release_setup();
  run_.game_ended([&](OnlineReport& report) { add_figures(report); });
}

void Game::add_figures(OnlineReport& report) const {
  const bool confirmed = ended_ && !failed_;
  if (seats_[0].over && seats_[1].over) ++report.finished;
  if (confirmed) ++report.confirmed;
  if (confirmed && winner_ == "light") ++report.light_wins;
  report.actions += actions_;
  report.moves += moves_;
  report.messages += messages_;
  report.message_bytes += message_bytes_;
  report.largest_message = std::max(report.largest_message, largest_message_);
  report.server_millis.insert(report.server_millis.end(), server_millis_.begin(),
                              server_millis_.end());
  report.delivery_millis.insert(report.delivery_millis.end(), delivery_millis_.begin(),
                                delivery_millis_.end());
  if (setup_millis_ >= 0) report.setup_millis.push_back(setup_millis_);
}

void Game::release_setup() {
  if (setup_released_) return;
  setup_released_ = true;
  // Posted: launching the next games must not run inside this game's strand callback
  // while the run's lock could be wanted by it.
  asio::post(run_.io, [&run = run_] { run.setup_done(); });
}

// 2 sockets a game, plus the few the tool needs besides.
std::string raise_file_limit(int games) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return "";
  const auto needed = static_cast<rlim_t>(games) * 2 + 64;
  if (limit.rlim_cur >= needed) return "";
  limit.rlim_cur = std::min(limit.rlim_max, std::max(needed, limit.rlim_cur));
  setrlimit(RLIMIT_NOFILE, &limit);
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur >= needed) return "";
  return std::to_string(games) + " games need " + std::to_string(needed) +
         " file descriptors, and the limit (RLIMIT_NOFILE) is " + std::to_string(limit.rlim_cur) +
         "; raise it with ulimit -n";
}

std::string target_note(const std::vector<double>& millis, double limit) {
  char text[64];
  std::snprintf(text, sizeof text, "  [target p99 < %.0f ms: %s]", limit,
                millis.empty()                     ? "no samples"
                : percentile(millis, 0.99) < limit ? "met"
                                                   : "MISSED");
  return text;
}

}  // namespace

OnlineReport run_online(const OnlineOptions& options) {
  if (const std::string problem = raise_file_limit(options.games); !problem.empty()) {
    OnlineReport report;
    report.games = options.games;
    report.errors = 1;
    report.first_errors.push_back(problem);
    return report;
  }
  Run run(options);
  return run.play();
}

bool targets_met(const OnlineOptions& options, const OnlineReport& report) {
  return !report.server_millis.empty() && !report.delivery_millis.empty() &&
         percentile(report.server_millis, 0.99) < options.server_target_ms &&
         percentile(report.delivery_millis, 0.99) < options.delivery_target_ms;
}

std::string format_report(const OnlineOptions& options, const OnlineReport& report) {
  std::string text;
  char line[320];
  std::snprintf(line, sizeof line,
                "online games: %d (Finkel, %d pieces), think %d-%d ms, seed %llu, %d client "
                "threads, %d set up at once\n",
                report.games, options.pieces, options.think_min_ms, options.think_max_ms,
                static_cast<unsigned long long>(options.seed), options.threads,
                options.setup_parallel);
  text += line;
  if (options.friend_port != 0 && options.friend_port != options.port) {
    std::snprintf(line, sizeof line,
                  "two servers: hosts on 127.0.0.1:%u, friends on 127.0.0.1:%u (every move "
                  "crosses)\n",
                  static_cast<unsigned>(options.port), static_cast<unsigned>(options.friend_port));
    text += line;
  }
  std::snprintf(line, sizeof line,
                "started %d, finished %d, records confirmed %d, peak concurrent %d; light won "
                "%lld\n",
                report.started, report.finished, report.confirmed, report.peak_concurrent,
                report.light_wins);
  text += line;
  std::snprintf(line, sizeof line, "errors: %lld%s\n", report.errors,
                report.timed_out ? " (the time limit passed)" : "");
  text += line;
  std::snprintf(line, sizeof line, "actions: %lld in %.1f s (%.0f per second), moves %lld\n",
                report.actions, report.seconds,
                report.seconds > 0 ? static_cast<double>(report.actions) / report.seconds : 0.0,
                report.moves);
  text += line;
  std::snprintf(
      line, sizeof line, "messages received: %lld, %.1f KiB on average, the largest %.1f KiB\n",
      report.messages,
      report.messages > 0
          ? static_cast<double>(report.message_bytes) / static_cast<double>(report.messages) / 1024
          : 0.0,
      static_cast<double>(report.largest_message) / 1024);
  text += line;
  text += latency_line("server time per action (server_ms)", report.server_millis) +
          target_note(report.server_millis, options.server_target_ms) + "\n";
  text += latency_line("a move reaching the opponent's socket", report.delivery_millis) +
          target_note(report.delivery_millis, options.delivery_target_ms) + "\n";
  text += latency_line("setup (create, join, both sockets open)", report.setup_millis) + "\n";
  for (const std::string& error : report.first_errors) text += "error: " + error + "\n";
  return text;
}

}  // namespace ur::load
