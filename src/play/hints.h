// Hints during `ur play` (key h): the chance to win of both sides before the throw and of
// every legal move, from the one analysis module's PositionValues: the solved table when
// there is one for the rules (solved on the spot up to 4 pieces), else the expectimax
// estimate, and then every hint line says "estimated: no solved table".
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/review.h"
#include "core/movegen.h"

namespace ur::play {

class PlaySession;

// What every line of estimated values says.
inline constexpr std::string_view kEstimated = "estimated: no solved table";

// Why perfect play (the perfect opponent, exact hints and reviews) is not available for
// `rules`: the solver's reason (solver::unsupported_rules), e.g. "Perfect play for custom
// rules (...) is not available: its path crosses itself ...".
std::optional<std::string> perfect_play_unavailable(const Rules& rules);
// The mark of estimated values for `rules`: kEstimated, or for a set the solver cannot solve
// yet "estimated: no perfect play for Masters yet".
std::string estimated_note(const Rules& rules);
// True for the perfect opponent's spec, with or without a table file ("perfect:FILE").
bool is_perfect_spec(std::string_view opponent);

// The values for `rules`, as the hints and every review in the terminal use them: the
// solved table (tables::table_for_play: found, or solved on the spot up to 4 pieces),
// else analysis::SearchValues.
std::unique_ptr<analysis::PositionValues> values_for(const Rules& rules);

// Makes the values for a set of rules: values_for in production, a stand-in in tests.
using ValuesMaker = std::function<std::unique_ptr<analysis::PositionValues>(const Rules&)>;

struct MoveHint {
  Move move;
  double win = 0.0;  // the mover's chance after the move
};

// The hints for one position, with the throw waiting (0 and no moves before the throw).
struct Hints {
  Position position;
  Roll roll = 0;
  double mover = 0.0;           // the chance of position.turn before the throw
  std::vector<MoveHint> moves;  // every legal move, in the order of `legal`
  bool exact = false;           // from a solved table
};

// The hints for `position` with `roll` (its legal moves `legal`), from `values`: each
// move's chance is the review's (analysis::rank_moves, docs/review.md).
Hints compute_hints(analysis::PositionValues& values, const Rules& rules, const Position& position,
                    Roll roll, const MoveList& legal);

// The values for the rules in play, made once per set of rules and kept.
class HintValues {
 public:
  explicit HintValues(ValuesMaker maker = &values_for) : maker_(std::move(maker)) {}
  analysis::PositionValues& values(const Rules& rules);

 private:
  ValuesMaker maker_;
  std::optional<Rules> rules_;
  std::unique_ptr<analysis::PositionValues> values_;
};

// "Chances: You 54.2% · Dark 45.8%" (the screen's side names), with
// " · estimated: no solved table" when not exact, that note shortened where the line would
// be wider than `width` ("estimated: no perfect play yet", or "estimated").
std::string hint_chances_line(const PlaySession& game, const Hints& hints, int width);
// Every move with its chance, "Moves: start → 3 52.1% · 6 → 9 60.3%", shortened
// ("s→3 52.1%") when that does not fit `width`, and marked as estimated when not exact.
std::string hint_moves_line(const PlaySession& game, const Hints& hints, int width);

}  // namespace ur::play
