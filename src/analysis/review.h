// The review of a game: for every throw, the mover's chance to win before it, after the
// best move and after the move played, the loss, a class and the throw's luck; then each
// player's summary and the key moments. Exact with a solved table, estimated with a search.
// No I/O: values come through PositionValues. Thresholds and formulas: docs/review.md.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.h"
#include "records/record.h"

namespace ur::analysis {

// Win chances of positions, for the side to move before it throws.
class PositionValues {
 public:
  virtual ~PositionValues() = default;
  // Precondition: the game is not over.
  virtual double before_throw(const Rules& rules, const Position& position) = 0;
  // True when the values are the game's exact solution (a solved table).
  virtual bool exact() const = 0;
  // Where the values come from, for every screen ("solved table ...", "estimated: ...").
  virtual std::string source() const = 0;
};

// Classes of a move by its loss (pp = percentage points of the chance to win).
enum class MoveClass : std::uint8_t {
  Forced,      // a pass or the only legal move; counts in no statistic
  Best,        // loss 0
  Excellent,   // <= 0.5 pp
  Good,        // <= 2 pp
  Inaccuracy,  // <= 5 pp
  Mistake,     // <= 10 pp
  Blunder,     // > 10 pp
};
inline constexpr int kMoveClasses = 7;
std::string_view to_string(MoveClass move_class);
MoveClass classify(double loss);  // for an unforced move; `loss` as a probability (0.01 = 1 pp)

enum class Luck : std::uint8_t { Neutral, Lucky, VeryLucky, Unlucky, VeryUnlucky };
std::string_view to_string(Luck luck);
Luck luck_mark(double luck);  // lucky from +4 pp, very lucky from +7 pp; unlucky alike

struct MoveValue {
  Move move;
  double win = 0.0;  // the mover's chance after the move
};

// One throw of the game, passes included. Chances are the mover's, from 0 to 1.
struct ThrowReview {
  std::size_t ply = 0;  // 0-based index into the record's plies
  int turn = 1;         // the RGN turn number
  Side side = Side::Light;
  Roll roll = 0;
  Position position;  // before the throw
  std::optional<Move> move;
  bool forced = true;
  double win_before = 0.0;
  double win_best = 0.0;    // after the best move (after the pass when there is none)
  double win_played = 0.0;  // after the move played
  double loss = 0.0;        // win_best - win_played
  MoveClass move_class = MoveClass::Forced;
  bool only_move = false;  // every other move loses more than 10 pp
  double luck = 0.0;       // win_best - win_before
  Luck luck_mark = Luck::Neutral;
  std::vector<MoveValue> moves;  // every legal move, best first
};

struct PlayerSummary {
  int decisions = 0;  // unforced moves
  std::array<int, kMoveClasses> classes{};
  int only_moves = 0;
  double total_loss = 0.0;
  double mean_loss = 0.0;   // per unforced move
  double accuracy = 100.0;  // 0..100, from the mean loss (docs/review.md)
  std::string skill;        // the skill band of the mean loss
  double total_luck = 0.0;
  // The chance to win this player would have had with no luck on either side: the start
  // value minus this player's losses plus the opponent's.
  double luck_adjusted = 0.0;
};

struct Review {
  std::vector<ThrowReview> throws;
  std::array<PlayerSummary, 2> summary;  // by index_of(Side)
  std::vector<std::size_t> key_losses;   // indices into throws: the five largest losses
  std::vector<std::size_t> key_luck;     // the five largest luck swings (by size)
  std::optional<Side> winner;
  bool exact = false;
  std::string source;
};

Review review(const records::GameRecord& record, const records::Replay& replay,
              PositionValues& values);

// Live hints and the review's move list: every legal move for `roll` with the mover's
// chance after it, best first (ties keep move order). Empty when the roll has no move.
// Precondition: the game is not over.
std::vector<MoveValue> rank_moves(const Rules& rules, const Position& position, Roll roll,
                                  PositionValues& values);

// Accuracy of a mean loss per unforced move: lichess's accuracy curve on ten times the loss
// in pp, clamped to 0..100.
double accuracy_of(double mean_loss);
// The skill band of a mean loss per unforced move.
std::string_view skill_band(double mean_loss);

}  // namespace ur::analysis
