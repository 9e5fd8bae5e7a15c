// The terminal game's view of one ur::session::Session: the settings the menu edits, the
// person's intents (light against the computer, either side between friends), the
// computer's steps through the agent factory of `ur play`, and the session's events
// narrated into a log. The session is the whole truth; this class only caches what the
// screen reads often (the legal moves, the latest dice, the log lines).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "agents/agent.h"
#include "core/explain.h"  // square_name, move_squares_text
#include "records/record.h"
#include "session/narration.h"
#include "session/session.h"

namespace ur::play {

using Phase = session::Phase;
using Dice = session::Dice;

// The opponent spec that means "a second player at the same keyboard".
inline constexpr std::string_view kFriend = "friend";
// The side the computer plays; the person plays the other.
inline constexpr Side kComputerSide = Side::Dark;

// What the flags and the settings menu choose. `opponent` and `seed` are the menu's words
// for the session's seats and seed; session_settings() maps the rest onto the session.
struct Settings {
  Rules rules = finkel_rules();
  std::string opponent = "medium";  // agent spec playing dark, or kFriend
  session::StartRule opener = session::StartRule::Alternate;
  bool auto_play = false;  // play a forced move (exactly one legal move) without asking
  bool auto_pass = false;  // pass without asking when no legal move exists
  bool take_back = true;   // against the computer only: between friends it is always off
  std::uint64_t seed = 1;  // seeds the dice (and the computer's own tie-breaking)

  friend bool operator==(const Settings&, const Settings&) = default;
};

// The session's settings for `settings`: the person light, the computer (or a friend) dark.
session::Settings session_settings(const Settings& settings);

// Builds a computer player from a spec; make_agent in production, a stand-in in tests.
using AgentMaker = std::function<std::variant<std::unique_ptr<Agent>, AgentSpecError>(
    std::string_view spec, std::uint64_t seed)>;

// Milliseconds since the Unix epoch, for the session's events; tests pass a fixed one.
using Clock = std::function<session::Time()>;
session::Time system_time();

// Result of an action: nothing on success, otherwise the reason it was refused (the game
// is unchanged then).
using ActionError = std::optional<std::string>;

class PlaySession {
 public:
  // No game yet: the first starts when `configure` is called.
  explicit PlaySession(AgentMaker make_agent, Clock clock = &system_time);

  // Plays on under `settings`: the first call starts the series; later calls start a new
  // game of it under the new settings (the tally is kept), or a new series when the seed
  // changes (the dice are keyed by the series' seed). On a bad opponent spec or piece count
  // the message is returned and nothing changes.
  ActionError configure(const Settings& settings);
  // Plays on in `series`, a session begun elsewhere (ur replay's "play from here", from
  // records::continue_from), which `settings` must describe (its seats, rules and seed).
  // The log narrates its whole history, so the moves made before it came here show too;
  // the series played so far is kept as an earlier one. On settings that are not the
  // series', or an opponent that cannot play, the message is returned and nothing changes.
  ActionError adopt(session::Session series, const Settings& settings);
  // Changes auto-play / auto-pass: at once before the game's first throw, otherwise from
  // the next game (the session never changes the rules of a game under way).
  ActionError set_automation(bool auto_play, bool auto_pass);

  // Starts the next game of the series; the tally is kept.
  void new_game();

  ActionError throw_dice();
  // Uses `roll` instead of the seeded dice (script "roll N"): the first `roll` dice marked.
  ActionError force_roll(Roll roll);
  // Moves the piece of the side to move that stands on route square `from` (0 = start pile).
  ActionError move(Square from);
  ActionError pass();
  // The person (or, between friends, the side to move) gives up the game.
  ActionError resign();
  // Returns the person to their latest decision, with the same throw (against the computer).
  ActionError take_back();

  // True when the side to act is the computer and the game is not over.
  bool computer_to_act() const;
  // Performs the computer's next step: a throw, a move or a pass.
  ActionError computer_step();
  // The computer's whole turn: computer_step until a person must act or the game ends,
  // calling `after_each` after every step (the script prints each). The one such loop: the
  // terminal instead paces single steps (take_step), the script runner calls this.
  ActionError computer_turn(const std::function<void()>& after_each = {});

  bool started() const { return session_ != nullptr; }
  // Precondition for the accessors below: started().
  const session::Session& session() const { return *session_; }
  // The settings in play (the game's seats, rules and seed).
  const Settings& settings() const { return settings_; }
  // The settings the next game is played with (those in play unless some are pending).
  Settings next_settings() const;
  const Rules& rules() const { return session_->rules(); }
  const Position& position() const { return session_->position(); }
  Phase phase() const { return session_->phase(); }
  // The throw waiting to be spent, else 0.
  Roll roll() const;
  // The dice of the latest throw of this game, if any (still shown after it is spent).
  const std::optional<Dice>& dice() const { return dice_; }
  // The distance those dice moved, as the session counted it (4 for Masters' no marks).
  Roll dice_roll() const { return dice_roll_; }
  const MoveList& legal() const { return legal_; }
  const std::optional<session::Moved>& last_move() const { return session_->last_move(); }
  std::optional<Side> winner() const { return session_->winner(); }
  bool resigned() const { return session_->resigned(); }
  // Games begun since the program started, across series (0 before the first).
  int game_number() const;
  // Games won by side index, across series.
  std::array<int, 2> tally() const;
  // Every event of every series, narrated, oldest first.
  const std::vector<std::string>& log() const { return log_; }
  bool against_computer() const { return settings_.opponent != kFriend; }
  std::string opponent_name() const { return settings_.opponent; }
  // The records of every game played so far, across series, in order.
  std::vector<records::GameRecord> records() const;
  // Hints (h) on or off, for the person's seats of every series from now on. The session
  // keeps the switch, so a game played with hints carries the Hints tag in records().
  void set_hints(bool on);
  bool hints() const { return hints_; }
  // Called after every change that ended a game (the script runner's --record hook).
  void on_game_end(std::function<void()> hook) { on_game_end_ = std::move(hook); }

  // The current time by the session's clock.
  session::Time now() const { return clock_(); }

  // "you"/"dark" against the computer, "light"/"dark" between friends.
  std::string side_label(Side side) const;
  // The side whose view the board takes: the person against the computer, else the mover.
  Side viewer() const;
  // A move's squares in words: "6 → 9", "start → 3", "13 → home".
  std::string move_squares(const Move& move) const;
  // A legal move in words for the preview line: "6 → 9, captures dark's piece".
  std::string describe_move(const Move& move) const;
  // Why the current throw must be passed ("" when not in the Pass phase).
  std::string pass_reason() const;

 private:
  // Feeds the agents of the session's drive loop from the AgentMaker.
  class Agents final : public session::AgentSource {
   public:
    explicit Agents(AgentMaker maker) : maker_(std::move(maker)) {}
    std::variant<std::unique_ptr<Agent>, AgentSpecError> make(Side side, std::string_view spec,
                                                              std::uint64_t seed) override;
    AgentMaker maker_;
  };

  // Why the opponent of `settings` cannot play (a bad spec, a missing table), if it cannot.
  ActionError check_opponent(const Settings& settings);
  // Makes `series` the current series (the one before it becomes an earlier one).
  void begin_series(session::Session series);
  // The side whose seat acts for the person now: light against the computer, else the mover.
  Side person_seat() const;
  ActionError act(const session::Intent& intent, Side seat);
  // Brings the caches in line with the session after it changed.
  void absorb();
  // Brings the session's hints switch for the person's seats in line with hints_.
  void absorb_hints();
  session::Voice voice() const;

  Agents agents_;
  Clock clock_;
  Settings settings_;
  std::unique_ptr<session::Session> session_;
  // Series played before the current one (a seed change starts a new series).
  std::vector<session::Session> earlier_;
  std::size_t narrated_ = 0;  // events of session_'s history already in log_
  std::vector<std::string> log_;
  std::optional<Dice> dice_;
  Roll dice_roll_ = 0;
  MoveList legal_;
  std::function<void()> on_game_end_;
  bool hints_ = false;
};

// Plays on in `record`'s game from after its first `plies` plies, under `settings` (rules
// the record's, the person light, the computer or a friend dark, dice keyed by its seed
// from then on): records::continue_from, then adopt. The reason when it cannot.
ActionError continue_record(PlaySession& game, const records::GameRecord& record, std::size_t plies,
                            const Settings& settings);

}  // namespace ur::play
