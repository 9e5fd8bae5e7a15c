// One series of games between two seats, for every front end (terminal, web, match,
// records). A Session is a value: its history of events is the whole truth, and its state
// is the fold of that history. An intent either applies fully, appending events, or is
// refused with a domain code and a sentence, leaving the session unchanged. No I/O, no
// clock, no JSON: callers pass the time in and map refusals onto their own protocol.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "agents/agent.h"
#include "core/movegen.h"
#include "session/event.h"

namespace ur::session {

enum class Phase : std::uint8_t {
  Throw,  // the side to move must throw
  Move,   // a throw with at least one legal move waits to be spent
  Pass,   // a throw with no legal move (0 included) waits to be passed
  Over,   // the game ended; a new game may start
};

std::string_view to_string(Phase phase);  // "throw", "move", "pass", "over"

// Why an intent was refused. Codes are stable names (to_string) that protocols expose.
enum class RefusalCode : std::uint8_t {
  NotYourTurn,        // the seat is not the side to move
  ComputerSeat,       // the seat is played by the computer
  GameOver,           // the game has ended
  ThrowPending,       // a throw waits to be spent
  NoThrowYet,         // move or pass before throwing
  IllegalMove,        // no legal move from that square with this roll
  MoveAvailable,      // pass refused: a legal move exists
  TakeBackOff,        // take-back is not allowed in this series
  NothingToTakeBack,  // the seat has made no decision in this game
  BadSettings,        // settings that cannot be played
};

std::string_view to_string(RefusalCode code);

struct Refusal {
  RefusalCode code;
  std::string message;  // what was wrong and what is expected, for players
};

// The outcome of an intent: the events it appended, or why it was refused.
struct Outcome {
  Events events;
  std::optional<Refusal> refusal;

  bool accepted() const { return !refusal; }
};

// Builds the computer players of the drive loop. The session owns the agents it builds,
// one per computer seat, keyed by (side, spec).
class AgentSource {
 public:
  virtual ~AgentSource() = default;
  // The agent for `side`'s seat, built from its spec with a seed of that seat's own.
  virtual std::variant<std::unique_ptr<Agent>, AgentSpecError> make(Side side,
                                                                    std::string_view spec,
                                                                    std::uint64_t seed) = 0;
};

// The standard agent source: ur::make_agent and every registered agent kind.
AgentSource& standard_agents();

class Session {
 public:
  // A new series whose first game has begun (after any opening rounds). `first`, when
  // given, opens game 1 regardless of the start rule (matches and records fix it).
  // Precondition: validate(settings) holds.
  static Session start(const Settings& settings, std::uint64_t seed, Time now,
                       std::optional<Side> first = std::nullopt);

  // Rebuilds a session from a stored history, checking every event against the rules.
  // Returns the session, or what is wrong with the history (event index and reason).
  static std::variant<Session, std::string> from_history(Events history);

  // Appends events that carry the history on (another server's change of a stored game),
  // checking each against the rules as from_history does. Returns what is wrong (event index
  // and reason), leaving the session unchanged; nothing when every event followed.
  std::optional<std::string> extend(Events more);

  // A person's intent for `seat`. Accepted intents append their events, including a
  // forced move or pass that auto-play / auto-pass makes for a person right after a throw.
  Outcome act(const Intent& intent, Side seat, Time now);

  // True when a computer seat must throw, move or pass next.
  bool computer_to_act() const;
  // One computer action (a throw, a move or a pass), with its events. Agents that answer
  // an illegal move are overruled: the first legal move is played instead, so the game
  // stays valid whatever an agent does. Refused with the agent's error if it cannot be built.
  Outcome computer_step(AgentSource& agents, Time now);
  // Computer steps until a person must act or the game ends; at most `max_steps` of them.
  Outcome drive(AgentSource& agents, Time now, int max_steps = 10'000);

  // The state, as the fold of the history.
  const Settings& settings() const { return state_.settings; }
  const Rules& rules() const { return state_.settings.rules; }
  // Settings chosen mid-game that take effect when the next game starts.
  const std::optional<Settings>& pending_settings() const { return state_.next_settings; }
  std::uint64_t seed() const { return state_.seed; }
  const Position& position() const { return state_.position; }
  Phase phase() const { return state_.phase; }
  Side to_move() const { return state_.position.turn; }
  // The throw waiting to be spent (phases Move and Pass).
  const std::optional<Thrown>& pending_throw() const { return state_.pending; }
  MoveList legal_moves() const;
  std::optional<Side> winner() const { return state_.winner; }
  bool resigned() const { return state_.resigned; }
  int game_number() const { return state_.game_number; }
  Side game_starter() const { return state_.starter; }
  const std::array<int, 2>& tally() const { return state_.tally; }  // games won, by side
  std::uint64_t throws() const { return state_.throws; }            // throws made, opening included
  bool thrown_this_game() const { return state_.thrown_this_game; }
  // The latest move of the current game that is still in effect.
  const std::optional<Moved>& last_move() const { return state_.last_move; }
  // The history index of the event that began the current game (its GameStarted).
  std::size_t game_start_index() const { return state_.game_start; }
  const Events& history() const { return history_; }
  // True when `seat` may take back now.
  bool can_take_back(Side seat) const;
  // True while `side`'s live hints are on.
  bool hints_on(Side side) const { return state_.hints[index_of(side)]; }

 private:
  // Everything derived from the history. Invariant: equals fold(history_).
  struct State {
    Settings settings;
    std::optional<Settings> next_settings;
    std::uint64_t seed = 0;
    Position position;
    Phase phase = Phase::Over;
    std::optional<Thrown> pending;
    std::optional<Side> winner;
    bool resigned = false;
    int game_number = 0;
    Side starter = Side::Light;
    std::array<int, 2> tally{};
    std::uint64_t throws = 0;
    bool thrown_this_game = false;
    std::optional<Moved> last_move;
    std::size_t game_start = 0;
    // History indices of the moves in effect this game that were decisions (a person's
    // choice among two or more legal moves); take-back returns to the latest of a seat's.
    std::vector<std::size_t> decisions;
    std::array<bool, 2> hints{};  // live hints on, by side
  };

  Session() = default;

  // Applies the event at history_[index] to state_, or says why it cannot follow.
  std::optional<std::string> fold(std::size_t index);
  // Appends an event and folds it; the event must be valid (generated by this class).
  void record(Event event, Events& out);
  // The events that begin game `number` under the settings it will be played with.
  void begin_game(int number, const Settings& settings, Time now, Events& out);
  void end_if_won(Time now, Events& out);
  void automatic_actions(Time now, Events& out);
  std::optional<Refusal> check_turn(Side seat, bool computer) const;
  Outcome apply(const Intent& intent, Side seat, bool computer, Time now);

  State state_;
  Events history_;
  // Agents built for the computer seats, by side; rebuilt when a seat's spec changes.
  std::array<std::shared_ptr<Agent>, 2> agents_;
  std::array<std::string, 2> agent_specs_;
};

}  // namespace ur::session
