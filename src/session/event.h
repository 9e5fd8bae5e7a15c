// What happens in a session, as typed values. The history of events is the whole truth of
// a series: folding it from the start rebuilds every state (see Session), so a record is
// the history, replay is folding it, and storage keeps it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "core/movegen.h"
#include "session/dice.h"
#include "session/settings.h"

namespace ur::session {

// Milliseconds since the Unix epoch, UTC. The session reads no clock: callers pass it in.
using Time = std::int64_t;

// The first event of every history: what the series is played under, and its dice seed.
// A series carried over from an older store (or another program) starts with the games
// already won and the dice already thrown there, so its tally and dice continue unchanged.
struct SeriesStarted {
  Settings settings;
  std::uint64_t seed = 0;
  std::array<int, 2> tally_before{};  // games won before this history, by side
  std::uint64_t throws_before = 0;    // throws made before this history
  friend bool operator==(const SeriesStarted&, const SeriesStarted&) = default;
};

// One round of a higher-throw opening. A tie is followed by another round.
struct OpeningRound {
  Dice light;
  Dice dark;
  friend bool operator==(const OpeningRound&, const OpeningRound&) = default;
};

// A game begins: `first` throws first. Follows any opening rounds that chose `first`.
// `from`, when set, is the position the game starts in instead of the opening one (a game
// carried over mid-way from an older store); its side to move is `first`.
struct GameStarted {
  int number = 1;
  Side first = Side::Light;
  std::optional<Position> from;
  friend bool operator==(const GameStarted&, const GameStarted&) = default;
};

struct Thrown {
  Side side = Side::Light;
  Dice dice;
  Roll roll = 0;
  friend bool operator==(const Thrown&, const Thrown&) = default;
};

// A piece moved with the pending roll. `automatic` marks auto-play of a forced move.
struct Moved {
  Side side = Side::Light;
  Roll roll = 0;
  Move move;
  bool automatic = false;
  friend bool operator==(const Moved&, const Moved&) = default;
};

// A throw without a legal move was passed.
struct Passed {
  Side side = Side::Light;
  Roll roll = 0;
  bool automatic = false;
  friend bool operator==(const Passed&, const Passed&) = default;
};

struct Resigned {
  Side side = Side::Light;
  friend bool operator==(const Resigned&, const Resigned&) = default;
};

// `side` took back its move at history index `move_index` and everything after it: the
// game is again as it was after that move's throw. The undone events stay in the history.
struct TookBack {
  Side side = Side::Light;
  std::size_t move_index = 0;
  friend bool operator==(const TookBack&, const TookBack&) = default;
};

struct GameEnded {
  Side winner = Side::Light;
  bool by_resignation = false;
  friend bool operator==(const GameEnded&, const GameEnded&) = default;
};

// New settings: `at_once` restarts the current game under them (nothing was thrown yet),
// otherwise they wait for the next game.
struct SettingsChanged {
  Settings settings;
  bool at_once = false;
  friend bool operator==(const SettingsChanged&, const SettingsChanged&) = default;
};

// A person turned live hints (every move's winning chance) on or off. Records note the
// games played with hints.
struct HintsShown {
  Side side = Side::Light;
  bool on = true;
  friend bool operator==(const HintsShown&, const HintsShown&) = default;
};

using EventBody = std::variant<SeriesStarted, OpeningRound, GameStarted, Thrown, Moved, Passed,
                               Resigned, TookBack, GameEnded, SettingsChanged, HintsShown>;

struct Event {
  Time time = 0;
  EventBody body;
  friend bool operator==(const Event&, const Event&) = default;
};

using Events = std::vector<Event>;

// What a seat asks for.
struct ThrowIntent {
  std::optional<Dice> dice;  // given dice, for replaying a record; else the seeded dice
};
struct MoveIntent {
  Square from = 0;  // route square of the piece to move, 0 = the start pile
};
struct PassIntent {};
struct ResignIntent {};
struct TakeBackIntent {};
// The next game; `settings`, when given, are what it is played under.
struct NewGameIntent {
  std::optional<Settings> settings;
};
struct ChangeSettingsIntent {
  Settings settings;
};

struct ShowHintsIntent {
  bool on = true;
};

using Intent = std::variant<ThrowIntent, MoveIntent, PassIntent, ResignIntent, TakeBackIntent,
                            NewGameIntent, ChangeSettingsIntent, ShowHintsIntent>;

}  // namespace ur::session
