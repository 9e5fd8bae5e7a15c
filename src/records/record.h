// A game record: one game's tags and its plies (every throw, with the move it was spent
// on or none for a pass), as RGN and the JSON record both carry it. Replaying a record
// runs it through a Session, so a record is legal exactly when the session accepts it.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/movegen.h"
#include "session/session.h"

namespace ur::records {

struct Tag {
  std::string key;
  std::string value;
  friend bool operator==(const Tag&, const Tag&) = default;
};

// One throw. Invariant: `move`, when present, is legal for `side` and `roll` in the
// position before the ply; a ply without a move is a pass.
struct Ply {
  Side side = Side::Light;
  Roll roll = 0;
  std::optional<Move> move;
  friend bool operator==(const Ply&, const Ply&) = default;
};

struct GameRecord {
  std::vector<Tag> tags;  // in the order they are written
  Rules rules = finkel_rules();
  Side first = Side::Light;
  std::vector<Ply> plies;
  std::optional<Side> resigned;  // the side that resigned, when the game ended so
  friend bool operator==(const GameRecord&, const GameRecord&) = default;

  // The value of the first tag named `key`, if any.
  const std::string* tag(std::string_view key) const;
};

// What replay learned about one ply.
struct PlayedPly {
  int turn = 1;  // the RGN turn number the ply is written under
  Ply ply;
  Position after;
};

struct Replay {
  std::vector<PlayedPly> plies;
  std::optional<Side> winner;
  session::Session session;  // the session after the last ply
  Position start;            // the position before the first ply
};

struct ReplayError {
  std::size_t ply = 0;  // index into GameRecord::plies
  std::string message;
};

// The tag that names a record's start position (position text, docs/notation.md) when the
// game did not begin at the opening position. ur writes it only for such games.
inline constexpr std::string_view kPositionTag = "Position";

// The position `record`'s game begins in: its Position tag's, else the opening with
// `record.first` to throw. Nothing when the Position tag is not a position of its rules.
std::optional<Position> start_position(const GameRecord& record);

// Replays `record` from the starting position (or its Position tag's). On an illegal ply the error
// names the turn, the side, the roll and why ("turn 12: dark cannot play C2B1 with a throw of 3:
// ...").
std::variant<Replay, ReplayError> replay(const GameRecord& record);

// The RGN turn number of each ply: light's plies carry the number of light's current turn,
// dark's the number of light's latest turn (0 when dark opens the game).
std::vector<int> turn_numbers(const std::vector<Ply>& plies);

// The game that began at history index `game_start` of `session` (a GameStarted event), as
// it stands: take-backs are applied (and listed in the TakeBacks tag), a throw still
// waiting to be spent is left out. `tags` come first; Rules, Light, Dark, Seed, StartTime,
// EndTime and Result are added from the session.
GameRecord record_of_game(const session::Session& session, std::size_t game_start,
                          std::vector<Tag> tags = {});

// Every game of the session, in order, but for games left for the next before their first
// ply (a new game started at once): they hold nothing to keep.
std::vector<GameRecord> records_of_series(const session::Session& session);

// A new series whose first game is `record`'s game after its first `plies` plies (their
// rolls and moves), played on under `settings` (whose rules must be the record's) with
// dice keyed by `seed` from then on. A sentence says why when `plies` is past the record's
// end or the game is over by then.
std::variant<session::Session, std::string> continue_from(const GameRecord& record,
                                                          std::size_t plies,
                                                          const session::Settings& settings,
                                                          std::uint64_t seed, session::Time now);

// "2026-12-01T10:00:00Z" for milliseconds since the Unix epoch (UTC).
std::string utc_text(session::Time time);

}  // namespace ur::records
