#include "analysis/review.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ur::analysis {

namespace {

// Losses below this are rounding, not a worse move (a 16-bit table resolves 1.5e-5).
constexpr double kTie = 1e-9;
constexpr double kPoint = 0.01;  // one percentage point of the chance to win

}  // namespace

std::string_view to_string(MoveClass move_class) {
  static constexpr std::array<std::string_view, kMoveClasses> kNames = {
      "forced", "best", "excellent", "good", "inaccuracy", "mistake", "blunder"};
  return kNames[static_cast<std::size_t>(move_class)];
}

MoveClass classify(double loss) {
  if (loss <= kTie) return MoveClass::Best;
  if (loss <= 0.5 * kPoint + kTie) return MoveClass::Excellent;
  if (loss <= 2 * kPoint + kTie) return MoveClass::Good;
  if (loss <= 5 * kPoint + kTie) return MoveClass::Inaccuracy;
  if (loss <= 10 * kPoint + kTie) return MoveClass::Mistake;
  return MoveClass::Blunder;
}

std::string_view to_string(Luck luck) {
  switch (luck) {
    case Luck::Neutral:
      return "";
    case Luck::Lucky:
      return "lucky";
    case Luck::VeryLucky:
      return "very lucky";
    case Luck::Unlucky:
      return "unlucky";
    case Luck::VeryUnlucky:
      return "very unlucky";
  }
  return "";
}

Luck luck_mark(double luck) {
  if (luck >= 7 * kPoint - kTie) return Luck::VeryLucky;
  if (luck >= 4 * kPoint - kTie) return Luck::Lucky;
  if (luck <= -7 * kPoint + kTie) return Luck::VeryUnlucky;
  if (luck <= -4 * kPoint + kTie) return Luck::Unlucky;
  return Luck::Neutral;
}

double accuracy_of(double mean_loss) {
  // The curve gives 99.9999 for no loss at all; play without a loss is 100.
  if (mean_loss <= kTie) return 100.0;
  const double scaled_points = 10.0 * mean_loss / kPoint;
  return std::clamp(103.1668 * std::exp(-0.04354 * scaled_points) - 3.1669, 0.0, 100.0);
}

std::string_view skill_band(double mean_loss) {
  struct Band {
    double below_points;
    std::string_view name;
  };
  static constexpr std::array<Band, 7> kBands = {{{0.05, "supernatural"},
                                                  {0.1, "world class"},
                                                  {0.2, "expert"},
                                                  {0.35, "advanced"},
                                                  {0.5, "intermediate"},
                                                  {0.75, "casual"},
                                                  {1.0, "beginner"}}};
  for (const Band& band : kBands) {
    if (mean_loss < band.below_points * kPoint) return band.name;
  }
  return "awful";
}

namespace {

// The mover's chance after `move` from `position`.
double value_after(PositionValues& values, const Rules& rules, const Position& position,
                   const Move& move) {
  const Position after = apply_move(rules, position, move);
  if (is_game_over(rules, after)) return 1.0;  // only the mover can have just finished
  const double next = values.before_throw(rules, after);
  return after.turn == position.turn ? next : 1.0 - next;
}

std::vector<std::size_t> largest(const std::vector<ThrowReview>& throws, double ThrowReview::*field,
                                 bool by_size) {
  std::vector<std::size_t> order(throws.size());
  std::iota(order.begin(), order.end(), 0);
  const auto size = [&](std::size_t i) {
    const double v = throws[i].*field;
    return by_size ? std::abs(v) : v;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return size(a) > size(b); });
  std::vector<std::size_t> top;
  for (std::size_t i : order) {
    if (top.size() == 5 || size(i) <= kTie) break;
    top.push_back(i);
  }
  return top;
}

}  // namespace

std::vector<MoveValue> rank_moves(const Rules& rules, const Position& position, Roll roll,
                                  PositionValues& values) {
  std::vector<MoveValue> moves;
  for (const Move& move : legal_moves(rules, position, roll)) {
    moves.push_back({move, value_after(values, rules, position, move)});
  }
  std::stable_sort(moves.begin(), moves.end(),
                   [](const MoveValue& a, const MoveValue& b) { return a.win > b.win; });
  return moves;
}

Review review(const records::GameRecord& record, const records::Replay& replay,
              PositionValues& values) {
  const Rules& rules = record.rules;
  Review result;
  result.exact = values.exact();
  result.source = values.source();
  result.winner = replay.winner;
  Position position = replay.start;
  const double mover_start = values.before_throw(rules, position);
  const double light_start = position.turn == Side::Light ? mover_start : 1.0 - mover_start;
  std::array<double, 2> losses{};
  for (std::size_t i = 0; i < replay.plies.size(); ++i) {
    const records::PlayedPly& played = replay.plies[i];
    ThrowReview entry;
    entry.ply = i;
    entry.turn = played.turn;
    entry.side = played.ply.side;
    entry.roll = played.ply.roll;
    entry.position = position;
    entry.move = played.ply.move;
    entry.win_before = values.before_throw(rules, position);
    const MoveList legal = legal_moves(rules, position, entry.roll);
    if (legal.empty()) {
      entry.win_best = entry.win_played = 1.0 - values.before_throw(rules, pass_turn(position));
    } else {
      entry.moves = rank_moves(rules, position, entry.roll, values);
      entry.win_best = entry.moves.front().win;
      for (const MoveValue& option : entry.moves) {
        if (entry.move && option.move.from == entry.move->from) entry.win_played = option.win;
      }
      entry.forced = legal.size() == 1;
    }
    entry.loss = std::max(0.0, entry.win_best - entry.win_played);
    entry.luck = entry.win_best - entry.win_before;
    entry.luck_mark = luck_mark(entry.luck);
    PlayerSummary& player = result.summary[index_of(entry.side)];
    player.total_luck += entry.luck;
    if (!entry.forced) {
      entry.move_class = classify(entry.loss);
      // The mark praises the move played: found where every other move loses more than 10 pp.
      // (It was the throw's: a 10 pp blunder there read "blunder (only move)".)
      entry.only_move = entry.moves.size() > 1 && entry.loss <= kTie &&
                        entry.moves.front().win - entry.moves[1].win > 10 * kPoint + kTie;
      ++player.decisions;
      ++player.classes[static_cast<std::size_t>(entry.move_class)];
      if (entry.only_move) ++player.only_moves;
      player.total_loss += entry.loss;
    }
    losses[index_of(entry.side)] += entry.loss;
    position = played.after;
    result.throws.push_back(std::move(entry));
  }
  for (Side side : {Side::Light, Side::Dark}) {
    PlayerSummary& player = result.summary[index_of(side)];
    player.mean_loss = player.decisions ? player.total_loss / player.decisions : 0.0;
    player.accuracy = accuracy_of(player.mean_loss);
    player.skill = player.decisions ? std::string(skill_band(player.mean_loss)) : "no decisions";
    const double start = side == Side::Light ? light_start : 1.0 - light_start;
    player.luck_adjusted =
        std::clamp(start - losses[index_of(side)] + losses[index_of(opponent(side))], 0.0, 1.0);
  }
  result.key_losses = largest(result.throws, &ThrowReview::loss, false);
  result.key_luck = largest(result.throws, &ThrowReview::luck, true);
  return result;
}

}  // namespace ur::analysis
