// One web game series as the server referees it: settings, the position, the pending throw,
// the tally and the story so far. Pure logic (no sockets, no storage): every intent either
// applies fully and reports what happened as events, or throws ApiError and leaves the game
// untouched. Dice come from a counter-based generator, so a stored game continues exactly
// after a restart.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "core/movegen.h"

namespace ur::server {

// A refused request: the HTTP status, a short machine code (docs/web-api.md) and a sentence
// saying what was wrong and what is expected.
class ApiError : public std::runtime_error {
 public:
  ApiError(int status, std::string code, const std::string& message)
      : std::runtime_error(message), status_(status), code_(std::move(code)) {}
  int status() const { return status_; }
  const std::string& code() const { return code_; }
  // Members the error body carries beyond "error" and "code" (a JSON object).
  const nlohmann::json& details() const { return details_; }
  ApiError&& with_detail(const std::string& name, nlohmann::json value) && {
    details_[name] = std::move(value);
    return std::move(*this);
  }

 private:
  int status_;
  std::string code_;
  nlohmann::json details_ = nlohmann::json::object();
};

// The error codes of docs/web-api.md with their statuses.
ApiError bad_request(const std::string& message);
ApiError bad_settings(const std::string& message);
ApiError conflict(std::string code, const std::string& message);  // 409 game-state refusals

enum class StartRule { Alternate, HigherThrow };

// The opponent that means "both sides play on this device".
inline constexpr std::string_view kFriend = "friend";

struct GameSettings {
  std::string opponent = "medium";  // a computer level (agent spec) or kFriend
  int pieces = 7;
  BearOff bear_off = BearOff::Exact;
  StartRule starts = StartRule::Alternate;
  bool auto_play = false;   // a human's only legal move is played at once
  bool auto_pass = false;   // a human's throw without a legal move passes at once
  Side seat = Side::Light;  // the human's side against the computer

  bool is_human(Side side) const { return opponent == kFriend || side == seat; }
  Rules rules() const { return finkel_rules(pieces, bear_off); }
  friend bool operator==(const GameSettings&, const GameSettings&) = default;
};

// The computer levels offered to players (the agent specs the server accepts).
inline constexpr std::array<std::string_view, 5> kComputerLevels = {"easy", "medium", "hard",
                                                                    "expert", "perfect"};

nlohmann::json to_json(const GameSettings& settings);
// `base` with the members of `patch` (a JSON object of settings members) applied. Throws
// ApiError (bad_request for wrong types or unknown members, bad_settings for values outside
// the offered choices).
GameSettings merge_settings(const GameSettings& base, const nlohmann::json& patch);

enum class Phase { Throw, Move, Pass, GameOver };

struct Game {
  std::string id;
  std::uint64_t version = 0;  // grows by one on every change
  GameSettings settings;
  std::optional<GameSettings> next_settings;  // chosen mid-game, used from the next game on
  Position position;
  Phase phase = Phase::Throw;
  std::optional<Roll> roll;  // the pending throw in phases Move and Pass
  std::vector<bool> dice;    // its dice, true = marked corner up; empty without a throw
  std::optional<Side> winner;
  std::array<int, 2> tally{};  // games won in this series, by side index
  int game_number = 1;
  Side starting_side = Side::Light;
  std::optional<std::array<Roll, 2>> opening;  // last round of a higher-throw start
  bool thrown_this_game = false;               // settings apply at once until the first throw
  std::deque<std::string> log;                 // the latest kLogLines lines
  std::uint64_t seed = 0;                      // dice and computer seeds derive from it
  std::uint64_t draws = 0;                     // random values used so far

  static constexpr std::size_t kLogLines = 20;

  Rules rules() const { return settings.rules(); }
  friend bool operator==(const Game&, const Game&) = default;
};

using Events = std::vector<nlohmann::json>;

// A new series whose first game has started (its opening events appended to `events`).
Game new_series(std::string id, const GameSettings& settings, std::uint64_t seed, Events& events);

// Human intents. `side`, when given, must be the side to move. Each throws ApiError and
// leaves `game` unchanged when refused; otherwise it appends what happened to `events`,
// including auto-played moves and passes.
void throw_intent(Game& game, std::optional<Side> side, Events& events);
void move_intent(Game& game, std::optional<Side> side, Square from, Events& events);
void pass_intent(Game& game, std::optional<Side> side, Events& events);
// Starts the next game with the pending settings merged with `patch` (may be null).
void new_game_intent(Game& game, const nlohmann::json& patch, Events& events);
// Merges `patch` into the settings: at once (restarting this game) while nothing has been
// thrown, else as next_settings.
void settings_intent(Game& game, const nlohmann::json& patch, Events& events);

// True when the computer must act (throw, move or pass) next.
bool computer_to_act(const Game& game);
// The computer's next single action, chosen by `agent` when it must move.
void computer_step(Game& game, Agent& agent, Events& events);

// The public GameState of docs/web-api.md.
nlohmann::json game_state_json(const Game& game);

// The complete stored form (including the dice generator state) and its inverse. Reading
// validates everything and throws std::runtime_error for a damaged record.
nlohmann::json game_record_json(const Game& game);
Game game_from_record(const nlohmann::json& record);

std::optional<Side> side_from_name(std::string_view name);

}  // namespace ur::server
