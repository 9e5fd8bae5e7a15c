#include "play/script.h"

#include <charconv>
#include <istream>
#include <ostream>
#include <vector>

#include "cli/read_line.h"
#include "core/notation.h"
#include "play/board_view.h"

namespace ur::play {
namespace {

constexpr std::string_view kCommands =
    "throw, roll N, move N (or just N), enter, pass, resign, new, show";

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t end = i;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != '\r') ++end;
    if (end > i) words.push_back(line.substr(i, end - i));
    i = end;
  }
  return words;
}

// A small non-negative number (a square or a roll), or nullopt for anything else.
std::optional<int> parse_number(std::string_view word) {
  int value = 0;
  // Digits only: from_chars takes a minus sign, so "-0" entered a piece and "-1" was a square.
  if (word.empty() || word.size() > 2 || word.front() < '0' || word.front() > '9') {
    return std::nullopt;
  }
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return value;
}

std::string quoted(std::string_view text) {
  constexpr std::size_t kShown = 40;
  std::string shown;
  for (char c : text.substr(0, kShown)) {
    const auto byte = static_cast<unsigned char>(c);
    shown += byte >= 0x20 && byte < 0x7F ? c : '?';
  }
  return "'" + shown + (text.size() > kShown ? "…'" : "'");
}

std::string movable_list(const PlaySession& game) {
  std::string list;
  for (const Move& move : game.legal()) {
    if (!list.empty()) list += ", ";
    list += move.from == 0 ? "start" : std::to_string(move.from);
  }
  return list;
}

std::string status_line(const PlaySession& game) {
  const std::string side(side_name(game.position().turn));
  const std::string roll = std::to_string(game.roll());
  switch (game.phase()) {
    case Phase::Throw:
      return side + " to throw";
    case Phase::Move:
      return side + " threw " + roll + ", can move: " + movable_list(game);
    case Phase::Pass:
      return side + " threw " + roll + ", must pass: " + game.pass_reason();
    case Phase::Over:
      return "game over: " + std::string(side_name(*game.winner())) + " wins" +
             (game.resigned() ? " by resignation" : "");
  }
  return "";
}

ActionError expect_arguments(const std::vector<std::string_view>& words, std::size_t count,
                             std::string_view usage) {
  if (words.size() == count + 1) return std::nullopt;
  std::string message = "'";
  message.append(words[0]).append("' takes ");
  message.append(count == 0 ? "no argument" : std::to_string(count) + " argument");
  return message.append(": ").append(usage);
}

ActionError move_from_word(PlaySession& game, std::string_view word) {
  const auto square = parse_number(word);
  if (!square || *square > game.rules().route_length) {
    return "square " + quoted(word) + " must be a route square 0.." +
           std::to_string(game.rules().route_length) + " (0 = enter a new piece)";
  }
  return game.move(*square);
}

ActionError run_command(PlaySession& game, const std::vector<std::string_view>& words) {
  const std::string_view command = words[0];
  if (command == "throw" || command == "t") {
    if (auto bad = expect_arguments(words, 0, "throw")) return bad;
    return game.throw_dice();
  }
  if (command == "roll") {
    const std::string rolls = "from " + std::to_string(min_roll(game.rules())) + " to " +
                              std::to_string(game.rules().max_roll());
    if (auto bad = expect_arguments(words, 1, "roll N, with N " + rolls)) return bad;
    const auto roll = parse_number(words[1]);
    if (!roll) return "roll " + quoted(words[1]) + " must be a number " + rolls;
    return game.force_roll(*roll);
  }
  if (command == "move" || command == "m") {
    const std::string usage =
        "move N, with N the route square 0.." + std::to_string(game.rules().route_length);
    if (auto bad = expect_arguments(words, 1, usage)) return bad;
    return move_from_word(game, words[1]);
  }
  if (command == "enter" || command == "s") {
    if (auto bad = expect_arguments(words, 0, "enter")) return bad;
    return game.move(0);
  }
  if (command == "pass" || command == "p") {
    if (auto bad = expect_arguments(words, 0, "pass")) return bad;
    return game.pass();
  }
  if (command == "resign") {
    if (auto bad = expect_arguments(words, 0, "resign")) return bad;
    return game.resign();
  }
  if (command == "new") {
    if (auto bad = expect_arguments(words, 0, "new")) return bad;
    game.new_game();
    return std::nullopt;
  }
  if (command == "show") {
    if (auto bad = expect_arguments(words, 0, "show")) return bad;
    return std::nullopt;
  }
  if (parse_number(command)) {
    if (words.size() != 1) return "a bare square number stands alone, e.g. '6'";
    return move_from_word(game, command);
  }
  return "unknown command " + quoted(command) + "; expected " + std::string(kCommands);
}

void print_new_log(const PlaySession& game, std::size_t& printed, std::ostream& out) {
  for (; printed < game.log().size(); ++printed) out << "> " << game.log()[printed] << "\n";
}

// The computer plays on until a person must act (auto-play and auto-pass act inside the
// person's own throw, in the session), printing what each of its steps did.
ActionError advance(PlaySession& game, std::size_t& printed, std::ostream& out) {
  return game.computer_turn([&] {
    if (game.log().size() > printed || game.phase() != Phase::Throw) {
      print_new_log(game, printed, out);
      out << position_report(game);
    }
  });
}

}  // namespace

std::string position_report(const PlaySession& game) {
  BoardOptions options;
  options.viewer = game.viewer();
  BoardMarks marks;
  if (game.phase() == Phase::Move) {
    for (const Move& move : game.legal()) marks.movable |= square_bit(move.from);
  }
  return board_text(game.rules(), game.position(), marks, options) + "position " +
         to_text(game.position()) + " · " + status_line(game) + "\n";
}

ActionError run_script_line(PlaySession& game, std::string_view line, std::ostream& out) {
  std::size_t printed = game.log().size();
  const std::size_t comment = line.find('#');
  const auto words = split_words(line.substr(0, comment));
  if (words.empty()) return std::nullopt;
  if (ActionError error = run_command(game, words)) return error;
  print_new_log(game, printed, out);
  out << position_report(game);
  return advance(game, printed, out);
}

int run_script(PlaySession& game, std::istream& in, std::ostream& out, std::ostream& errors) {
  int refused = 0;
  int number = 0;
  std::string line;
  std::size_t printed = 0;
  print_new_log(game, printed, out);
  out << position_report(game);
  if (ActionError error = advance(game, printed, out)) {
    errors << "the computer failed: " << *error << "\n";
    return 1;
  }
  // Stops reading once `out` failed: nobody sees the rest (the caller reports the failure).
  while (out && cli::read_line(in, line, kMaxScriptLineBytes + 1, "the script")) {
    ++number;
    ActionError error;
    if (line.size() > kMaxScriptLineBytes) {
      error = "the line is longer than " + std::to_string(kMaxScriptLineBytes) +
              " bytes; a script has one short command a line (see `help`)";
    } else {
      error = run_script_line(game, line, out);
    }
    if (error) {
      ++refused;
      errors << "line " << number << ": " << quoted(line) << ": " << *error << "\n";
      out << "! line " << number << " refused: " << *error << "\n";
    }
  }
  out << "session: light " << game.tally()[0] << " – " << game.tally()[1] << " dark\n";
  return refused == 0 ? 0 : 1;
}

}  // namespace ur::play
