// `ur play --script`: the game driven by lines of text instead of keys, printing each
// position as plain text. The language (docs/play.md):
//
//   throw | t        throw the seeded dice
//   roll N           take N (0..4) as the throw instead of the dice
//   move N | N       move the piece on route square N (0 = a new piece from the start)
//   enter | s        enter a new piece (the same as move 0)
//   pass | p         pass when no move exists
//   resign           the human (or, between friends, the side to move) gives up
//   new              start the next game of the session
//   show             print the position again
//   # ...            a comment; blank lines are ignored; text after '#' is ignored
//
// After every command the computer (if any) plays until it is the human's turn again, and
// auto-play / auto-pass act as set. A bad line is reported on `errors` with its line
// number, the game is unchanged, and the script goes on; the exit code is then 1.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "play/play_session.h"

namespace ur::play {

// The position as plain text: the board (route numbers on) and a status line.
std::string position_report(const PlaySession& game);

// Runs one script line; nullopt on success (including blank and comment lines), else the
// reason it was refused. Prints what happened to `out`.
ActionError run_script_line(PlaySession& game, std::string_view line, std::ostream& out);

// A script line longer than this is refused unread (its commands are a few words).
inline constexpr std::size_t kMaxScriptLineBytes = 4096;

// Runs a whole script. Returns the exit code: 0, or 1 when any line was refused. Throws
// std::runtime_error when `in` cannot be read (a directory).
int run_script(PlaySession& game, std::istream& in, std::ostream& out, std::ostream& errors);

}  // namespace ur::play
