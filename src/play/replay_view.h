// `ur replay`: a recorded game shown ply by ply in the terminal, with its review when a
// solved table is there. The state and the screen are pure, so both are tested as text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/review.h"
#include "play/board_view.h"
#include "play/canvas.h"
#include "play/hints.h"
#include "play/keys.h"
#include "records/record.h"

namespace ur::play {

// The game being replayed. Invariant: `replay` is the replay of `record`, and `review`,
// when there, is its review (one throw per ply).
struct ReplayGame {
  records::GameRecord record;
  records::Replay replay;
  std::optional<analysis::Review> review;
  std::string no_review;  // why there is no review (shown once, in place of the figures)

  int plies() const { return static_cast<int>(replay.plies.size()); }
};

enum class ReplayOverlay { None, Help, Summary };

// Whom "play from here" (p) continues the game against, once chosen.
enum class PlayFrom { None, Computer, Friend };

// Rows of the move list beside the board (one a ply, ply 0 the start).
inline constexpr int kMoveListRows = 21;

// The question p asks.
inline constexpr const char* kPlayFromQuestion =
    "Play from here: against the computer (c) or a friend (f)? Esc cancels";

struct ReplayState {
  int ply = 0;       // 0 (the start) .. plies(): the board shows the position after it
  int list_top = 0;  // the first ply the move list shows; keeps `ply` in sight
  ReplayOverlay overlay = ReplayOverlay::None;
  std::string message;       // why the last key did nothing
  bool asking_play = false;  // p asked "Play from here: ..." and waits for c, f or Esc
  // c or f chose: the caller leaves the replay and plays on from `ply` (it resets this and
  // sets `message` when that cannot be done).
  PlayFrom play_from = PlayFrom::None;
  bool quit = false;
  int screen_width = 80;  // the terminal's size, as last drawn (board hidden below 80 x 24)
  int screen_height = 24;
  // Opened from `ur play`'s game-over screen (r): Esc and q set `quit` to go back there, and
  // there is no playing from here.
  bool after_game = false;
};

// Reviews `game` with values_for (hints.h): the solved table when there is one for its rules
// (solved on the spot when small: tables::solves_on_the_fly), else the expectimax estimate, which
// the screen then calls "estimated: no solved table". `ur replay` and `ur play`'s r share it.
void attach_review(ReplayGame& game, const ValuesMaker& make_values = &values_for);

// The game of `record` ready to show, reviewed by attach_review; nothing when the record
// does not replay (the reason in `*problem`).
std::optional<ReplayGame> reviewed_game(records::GameRecord record, std::string* problem,
                                        const ValuesMaker& make_values = &values_for);

// Moves to `ply`, clamped to 0..plies(), and scrolls the move list to keep it in sight.
void go_to_ply(const ReplayGame& game, ReplayState& state, int ply);

// Applies one key: ← → one ply, Home End the ends, PgUp PgDn ten plies, r the review's
// summary, p play from here (then c the computer, f a friend, Esc cancels), ? help, q quit;
// any key closes an overlay. While the board is hidden only q acts.
void handle_replay_key(const ReplayGame& game, ReplayState& state, const Key& key);

// "Light (greedy) – Dark (random) · 3 pieces (exact bear-off) · 1-0 (light won)" within
// `width` cells: when too wide the players give way (the side labels name them), and then
// the rules are shortened with "…", so the result always shows.
std::string replay_tags_line(const ReplayGame& game, int width);
// "ply 5 of 42 · turn 3 · light · roll 2 · A@A3 (start → 2) · extra throw"; ply 0 names
// the side that opens.
std::string replay_ply_line(const ReplayGame& game, int ply);
// The review of ply `ply` (1..plies()) in words, after an estimate's source line; at ply 0
// only that line and the command that builds the missing table. Without a review, why not:
// the reason and what to do, split at the first ": ".
std::vector<std::string> replay_review_lines(const ReplayGame& game, int ply);
// The move list's row for `ply`: "▸ 12○ A4A1x" for the current one, else " 12○ A4A1x".
std::string move_list_row(const ReplayGame& game, int ply, bool current);
// The board marks for `ply`: its move from and to, and the best move when it was not played.
BoardMarks replay_marks(const ReplayGame& game, int ply);

// The position after `ply` (0: the start), as the board shows it.
Position replay_position(const ReplayGame& game, int ply);

// The whole screen for width x height (below 80 x 24, a request for more room).
Canvas compose_replay(const ReplayGame& game, const ReplayState& state, int width, int height);

}  // namespace ur::play
