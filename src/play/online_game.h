// An online game as the terminal sees it: the server's GameState (docs/web-api.md) read into
// the core's terms (rules, position, throw), the seats and their presence, and what the
// updates' events add (the last dice, the last move, what the opponent did in words). The
// server is the referee; this only mirrors it. No network, no terminal.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "session/dice.h"

namespace ur::play {

// The page's names for the sides: Shell (light) and Bitumen (dark).
std::string page_side_name(Side side);

struct OnlineSeat {
  std::string name;  // the player's name; empty: none given
  bool person = true;
  bool taken = false;
  bool connected = false;
  std::optional<std::int64_t> left_at;  // UTC ms when its last socket closed
};

enum class OnlinePhase { Throw, Move, Pass, Over };

struct LastMove {
  Side side = Side::Light;
  Move move;
};

// One GameState.
struct OnlineGame {
  std::string id;
  std::uint64_t version = 0;
  Rules rules = finkel_rules();
  Position position;
  OnlinePhase phase = OnlinePhase::Throw;
  Roll roll = 0;                      // the pending throw (Move, Pass)
  std::optional<session::Dice> dice;  // its dice
  std::string pass_reason;
  std::optional<Side> winner;
  bool resigned = false;
  std::array<int, 2> tally{};
  int game_number = 1;
  std::array<OnlineSeat, 2> seats;
  bool waiting_for_opponent = false;
  std::optional<Side> rematch_offer;
  std::optional<std::int64_t> claim_win_after;
  std::int64_t server_time = 0;
  std::vector<std::string> log;

  const OnlineSeat& seat(Side side) const { return seats[index_of(side)]; }
  // The legal moves of the pending throw (empty unless phase Move).
  MoveList legal() const;
};

// Reads a GameState; throws protocol::RequestError naming the first defect.
OnlineGame online_game_from_json(const nlohmann::json& state);

// What the terminal keeps of the game it plays: the latest state and what the events said.
struct OnlineView {
  OnlineGame game;
  Side me = Side::Light;
  std::optional<session::Dice> last_dice;  // the latest throw's dice, kept after it is spent
  Roll last_roll = 0;
  std::optional<LastMove> last_move;  // the latest move of this game
  std::int64_t received_at = 0;       // local steady ms when game.server_time was received

  // The name the screen gives `side`: its player's name, else "Shell" / "Bitumen".
  std::string name_of(Side side) const;
  bool my_turn() const { return game.phase != OnlinePhase::Over && game.position.turn == me; }
};

// Applies one WebSocket message from the server ({"type": "update" | "presence" | "error"})
// at local steady time `now_ms`. Returns sentences for the player: what the opponent did
// (throws, moves, passes, resignation), presence changes, the end of a game and the start
// of the next. Updates not newer than the version shown are dropped (nothing said). An error
// message's sentence comes back as is; use is_error_message to tell it.
std::vector<std::string> apply_message(OnlineView& view, const nlohmann::json& message,
                                       std::int64_t now_ms);
bool is_error_message(const nlohmann::json& message);

// The server's clock now, estimated from the last state's server_time.
std::int64_t server_now(const OnlineView& view, std::int64_t now_ms);
// Milliseconds until I may claim the win (0: now), or nullopt when no claim is offered to me.
std::optional<std::int64_t> claim_wait_ms(const OnlineView& view, std::int64_t now_ms);

// "start → 3, captures Bob's piece, rosette: throw again": a move in words for `view`.
std::string describe_online_move(const OnlineView& view, Side mover, const Move& move);

}  // namespace ur::play
