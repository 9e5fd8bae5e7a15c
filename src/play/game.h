// The terminal game's rules-level state machine: one session of games between light and
// dark (a friend, or a computer agent), with seeded dice, settings, a log and a tally.
// It does no I/O, so the interactive screen and the script runner drive the same object.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "agents/agent.h"
#include "core/movegen.h"

namespace ur::play {

// Who opens each game (rules.md, "Who starts").
enum class Opener { Alternate, HigherThrow };

std::string_view to_string(Opener opener);

// The opponent spec that means "a second player at the same keyboard".
inline constexpr std::string_view kFriend = "friend";

struct Settings {
  Rules rules = finkel_rules();
  std::string opponent = "medium";  // agent spec playing dark, or kFriend
  Opener opener = Opener::Alternate;
  bool auto_play = false;  // play a forced move (exactly one legal move) without asking
  bool auto_pass = false;  // pass without asking when no legal move exists
  std::uint64_t seed = 1;  // seeds the dice (and the computer's own tie-breaking)

  friend bool operator==(const Settings&, const Settings&) = default;
};

// Builds a computer player from a spec; make_agent in production, a stand-in in tests.
using AgentMaker = std::function<std::variant<std::unique_ptr<Agent>, AgentSpecError>(
    std::string_view spec, std::uint64_t seed)>;

enum class Phase {
  Throw,  // the side to move must throw
  Move,   // a throw with at least one legal move waits to be spent
  Pass,   // a throw of 0, or one with no legal move: the side to move must pass
  Over,   // someone brought all pieces home or resigned
};

// The four dice of the latest throw; `marked[i]` is true when die i shows a marked corner.
struct Dice {
  std::array<bool, 4> marked{};
  int count() const;
};

struct LastMove {
  Side side = Side::Light;
  Move move;
};

// Result of an action: nothing on success, otherwise the reason it was refused (the game
// is unchanged then).
using ActionError = std::optional<std::string>;

class Game {
 public:
  // A session that starts its first game when `configure` is called.
  explicit Game(AgentMaker make_agent);

  // Replaces the settings and starts a new game (the tally is kept). On a bad opponent
  // spec or piece count the message is returned and nothing changes.
  ActionError configure(const Settings& settings);
  // Changes auto-play / auto-pass at once, without a new game.
  void set_automation(bool auto_play, bool auto_pass);

  // Starts the next game of the session; the tally is kept.
  void new_game();

  ActionError throw_dice();
  // Uses `roll` instead of the seeded dice (script "roll N"; for tests and replays).
  ActionError force_roll(Roll roll);
  // Moves the piece of the side to move that stands on route square `from` (0 = start pile).
  ActionError move(Square from);
  ActionError pass();
  // The human (or, with a friend, the side to move) gives up the game.
  ActionError resign();

  // True when the side to act is the computer and the game is not over.
  bool computer_to_act() const;
  // Performs the computer's next step: a throw, a move or a pass.
  ActionError computer_step();
  // The action auto-play / auto-pass would take for a human now, if any: a move's source
  // square, or -1 for a pass.
  std::optional<Square> automatic_action() const;

  const Settings& settings() const { return settings_; }
  const Rules& rules() const { return settings_.rules; }
  const Position& position() const { return position_; }
  Phase phase() const { return phase_; }
  Roll roll() const { return roll_; }
  const std::optional<Dice>& dice() const { return dice_; }
  const MoveList& legal() const { return legal_; }
  const std::optional<LastMove>& last_move() const { return last_move_; }
  std::optional<Side> winner() const { return winner_; }
  bool resigned() const { return resigned_; }
  int game_number() const { return game_number_; }
  const std::array<int, 2>& tally() const { return tally_; }  // games won, by side index
  const std::vector<std::string>& log() const { return log_; }
  bool against_computer() const { return agent_ != nullptr; }
  std::string opponent_name() const;

  // "you"/"dark" against the computer, "light"/"dark" between friends.
  std::string side_label(Side side) const;
  // The side whose view the board takes: the human against the computer, else the mover.
  Side viewer() const;
  // A move's squares in words: "6 → 9", "start → 3", "13 → home".
  std::string move_squares(const Move& move) const;
  // A legal move in words for the preview line: "6 → 9, captures dark's piece".
  std::string describe_move(const Move& move) const;
  // Why the current throw must be passed ("" when not in the Pass phase).
  std::string pass_reason() const;

 private:
  void set_roll(const Dice& dice);
  void finish(Side winner, bool resigned);
  void add_log(std::string line);

  Settings settings_;
  AgentMaker make_agent_;
  std::unique_ptr<Agent> agent_;  // plays dark; null between friends
  std::mt19937_64 dice_rng_;

  Position position_;
  Phase phase_ = Phase::Throw;
  Roll roll_ = 0;
  std::optional<Dice> dice_;
  MoveList legal_;
  std::optional<LastMove> last_move_;
  std::optional<Side> winner_;
  bool resigned_ = false;
  int game_number_ = 0;
  std::array<int, 2> tally_{};
  std::vector<std::string> log_;
};

// The side the computer plays.
inline constexpr Side kComputerSide = Side::Dark;

}  // namespace ur::play
