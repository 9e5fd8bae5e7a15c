#include "server/game.h"

#include <algorithm>

#include "agents/rng.h"
#include "core/explain.h"
#include "core/notation.h"
#include "protocol/json.h"

namespace ur::server {

using nlohmann::json;

ApiError bad_request(const std::string& message) {
  return ApiError(400, "bad_request", message);
}
ApiError bad_settings(const std::string& message) {
  return ApiError(400, "bad_settings", message);
}
ApiError conflict(std::string code, const std::string& message) {
  return ApiError(409, std::move(code), message);
}

std::optional<Side> side_from_name(std::string_view name) {
  if (name == "light") return Side::Light;
  if (name == "dark") return Side::Dark;
  return std::nullopt;
}

namespace {

constexpr std::string_view kSettingsExample =
    R"({"opponent":"hard","pieces":5,"bear_off":"any","starts":"higher","auto_play":true})";

// The sides' names on the web page (the board, the log and every sentence the page shows).
std::string title_name(Side side) {
  return side == Side::Light ? "Shell" : "Bitumen";
}

std::string_view starts_name(StartRule rule) {
  return rule == StartRule::Alternate ? "alternate" : "higher";
}

std::string one_of_message(std::string_view member, std::string_view choices, const json& value) {
  return "setting \"" + std::string(member) + "\" must be " + std::string(choices) + ", got " +
         protocol::quote_json(value);
}

// Reads a string setting that must be one of `choices` (listed in `choices_text`).
template <std::size_t N>
std::string string_choice(const json& value, std::string_view member,
                          const std::array<std::string_view, N>& choices,
                          std::string_view choices_text) {
  if (!value.is_string()) throw bad_request(one_of_message(member, choices_text, value));
  const auto& text = value.get_ref<const std::string&>();
  if (std::find(choices.begin(), choices.end(), text) == choices.end()) {
    throw bad_settings(one_of_message(member, choices_text, value));
  }
  return text;
}

bool boolean_setting(const json& value, std::string_view member) {
  if (!value.is_boolean()) throw bad_request(one_of_message(member, "true or false", value));
  return value.get<bool>();
}

}  // namespace

json to_json(const GameSettings& settings) {
  return {{"opponent", settings.opponent},
          {"pieces", settings.pieces},
          {"bear_off", to_string(settings.bear_off)},
          {"starts", starts_name(settings.starts)},
          {"auto_play", settings.auto_play},
          {"auto_pass", settings.auto_pass},
          {"seat", side_name(settings.seat)}};
}

GameSettings merge_settings(const GameSettings& base, const json& patch) {
  if (!patch.is_object()) {
    throw bad_request("settings must be a JSON object like " + std::string(kSettingsExample) +
                      ", got " + protocol::quote_json(patch));
  }
  GameSettings merged = base;
  for (const auto& [member, value] : patch.items()) {
    if (member == "opponent") {
      constexpr std::array<std::string_view, 6> kOpponents = {
          kComputerLevels[0], kComputerLevels[1], kComputerLevels[2],
          kComputerLevels[3], kComputerLevels[4], kFriend};
      merged.opponent = string_choice(value, member, kOpponents,
                                      "one of \"easy\", \"medium\", \"hard\", \"expert\", "
                                      "\"perfect\" or \"friend\"");
    } else if (member == "pieces") {
      const std::string_view choices = "7, 5 or 3";
      if (!value.is_number_integer()) throw bad_request(one_of_message(member, choices, value));
      const auto pieces = value.get<long long>();
      if (pieces != 7 && pieces != 5 && pieces != 3) {
        throw bad_settings(one_of_message(member, choices, value));
      }
      merged.pieces = static_cast<int>(pieces);
    } else if (member == "bear_off") {
      constexpr std::array<std::string_view, 2> kModes = {"exact", "any"};
      merged.bear_off = string_choice(value, member, kModes, "\"exact\" or \"any\"") == "any"
                            ? BearOff::Any
                            : BearOff::Exact;
    } else if (member == "starts") {
      constexpr std::array<std::string_view, 2> kRules = {"alternate", "higher"};
      merged.starts =
          string_choice(value, member, kRules, "\"alternate\" or \"higher\"") == "alternate"
              ? StartRule::Alternate
              : StartRule::HigherThrow;
    } else if (member == "auto_play") {
      merged.auto_play = boolean_setting(value, member);
    } else if (member == "auto_pass") {
      merged.auto_pass = boolean_setting(value, member);
    } else if (member == "seat") {
      constexpr std::array<std::string_view, 2> kSeats = {"light", "dark"};
      merged.seat = *side_from_name(string_choice(value, member, kSeats, "\"light\" or \"dark\""));
    } else {
      throw bad_request("unknown setting " + protocol::quote_json(member) +
                        "; the settings are opponent, pieces, bear_off, starts, auto_play, "
                        "auto_pass and seat");
    }
  }
  return merged;
}

namespace {

void add_log(Game& game, std::string line) {
  game.log.push_back(std::move(line));
  while (game.log.size() > Game::kLogLines) game.log.pop_front();
}

std::uint64_t next_random(Game& game) {
  return derive_seed(game.seed, game.draws++);
}

// Throws the rules' dice: each die shows a marked corner with probability 1/2.
std::vector<bool> draw_dice(Game& game) {
  const std::uint64_t bits = next_random(game);
  std::vector<bool> dice(static_cast<std::size_t>(game.rules().dice));
  for (std::size_t i = 0; i < dice.size(); ++i) dice[i] = ((bits >> i) & 1) != 0;
  return dice;
}

Roll count_marks(const std::vector<bool>& dice) {
  return static_cast<Roll>(std::count(dice.begin(), dice.end(), true));
}

// Resets the board for game.game_number and decides who opens it.
void start_game(Game& game, Events& events) {
  const Rules rules = game.rules();
  game.phase = Phase::Throw;
  game.roll.reset();
  game.dice.clear();
  game.winner.reset();
  game.opening.reset();
  game.thrown_this_game = false;
  Events opening_events;
  Side first = game.game_number % 2 == 1 ? Side::Light : Side::Dark;
  if (game.settings.starts == StartRule::HigherThrow) {
    // Ties throw again; 64 tied rounds in a row (probability below 1e-36) fall back to light.
    for (int round = 0; round < 64; ++round) {
      const Roll light = count_marks(draw_dice(game));
      const Roll dark = count_marks(draw_dice(game));
      game.opening = std::array<Roll, 2>{light, dark};
      opening_events.push_back({{"type", "opening"}, {"light", light}, {"dark", dark}});
      add_log(game, "Opening throws: " + title_name(Side::Light) + " " + std::to_string(light) +
                        ", " + title_name(Side::Dark) + " " + std::to_string(dark) +
                        (light == dark ? " (tie: throw again)." : "."));
      if (light != dark) {
        first = light > dark ? Side::Light : Side::Dark;
        break;
      }
      first = Side::Light;
    }
  }
  game.starting_side = first;
  game.position = starting_position(rules, first);
  events.push_back({{"type", "new_game"},
                    {"game_number", game.game_number},
                    {"starting_side", side_name(first)}});
  events.insert(events.end(), opening_events.begin(), opening_events.end());
  add_log(game, "Game " + std::to_string(game.game_number) + ": " + title_name(first) + " starts.");
}

// Drops the log lines of a start nobody has thrown in yet (the opening throws and who
// starts), so that restarting it with new settings tells only the start that counts. They
// are the last lines: nothing else is logged before the first throw.
void forget_start_lines(Game& game) {
  const std::string start_prefix = "Game " + std::to_string(game.game_number) + ": ";
  while (!game.log.empty() && (game.log.back().starts_with(start_prefix) ||
                               game.log.back().starts_with("Opening throws: "))) {
    game.log.pop_back();
  }
}

MoveList pending_moves(const Game& game) {
  return legal_moves(game.rules(), game.position, game.roll.value_or(0));
}

void do_throw(Game& game, Events& events) {
  const Side side = game.position.turn;
  game.dice = draw_dice(game);
  const Roll roll = count_marks(game.dice);
  game.roll = roll;
  game.thrown_this_game = true;
  game.phase = pending_moves(game).empty() ? Phase::Pass : Phase::Move;
  events.push_back(
      {{"type", "throw"}, {"side", side_name(side)}, {"roll", roll}, {"dice", game.dice}});
  add_log(game, title_name(side) + " threw " + std::to_string(roll) + ".");
}

std::string describe_move(const Rules& rules, Side side, const Move& move) {
  std::string line = title_name(side);
  if (move.from == 0) {
    line += " entered a piece on " + std::to_string(move.to);
  } else if (move.to >= rules.home_square()) {
    line += " bore a piece off from " + std::to_string(move.from);
  } else {
    line += " moved " + std::to_string(move.from) + " to " + std::to_string(move.to);
  }
  if (move.capture) line += ", capturing a " + title_name(opponent(side)) + " piece";
  if (move.extra_throw) line += " (rosette: throw again)";
  return line + ".";
}

void do_move(Game& game, const Move& move, Events& events) {
  const Rules rules = game.rules();
  const Side side = game.position.turn;
  game.position = apply_move(rules, game.position, move);
  game.roll.reset();
  game.dice.clear();
  json event = protocol::to_json(move);
  event["type"] = "move";
  event["side"] = side_name(side);
  events.push_back(std::move(event));
  add_log(game, describe_move(rules, side, move));
  if (const auto won = ur::winner(rules, game.position)) {
    game.winner = *won;
    ++game.tally[index_of(*won)];
    game.phase = Phase::GameOver;
    events.push_back({{"type", "game_over"}, {"winner", side_name(*won)}});
    add_log(game, title_name(*won) + " won game " + std::to_string(game.game_number) + ".");
  } else {
    game.phase = Phase::Throw;
  }
}

void do_pass(Game& game, Events& events) {
  const Side side = game.position.turn;
  const std::string reason = why_pass(game.rules(), game.position, game.roll.value_or(0));
  game.position = pass_turn(game.position);
  game.roll.reset();
  game.dice.clear();
  game.phase = Phase::Throw;
  events.push_back({{"type", "pass"}, {"side", side_name(side)}, {"reason", reason}});
  add_log(game, title_name(side) + " passed: " + reason);
}

// Refuses a human intent when the game is over or it is not the human's (or `side`'s) turn.
void require_human_turn(const Game& game, std::optional<Side> side) {
  if (game.phase == Phase::GameOver) {
    throw conflict("game_over", "Game " + std::to_string(game.game_number) + " is over (" +
                                    title_name(*game.winner) +
                                    " won); start a new game to play on.");
  }
  const Side turn = game.position.turn;
  if (side && *side != turn) {
    throw conflict("not_your_turn",
                   "It is " + title_name(turn) + "'s turn, not " + title_name(*side) + "'s.");
  }
  if (!game.settings.is_human(turn)) {
    throw conflict("not_your_turn",
                   "It is " + title_name(turn) + "'s turn: the computer is playing it.");
  }
}

// Plays a human's forced move (auto_play) or pass (auto_pass) after a throw.
void automatic_actions(Game& game, Events& events) {
  if (!game.settings.is_human(game.position.turn)) return;
  if (game.phase == Phase::Move && game.settings.auto_play) {
    const MoveList moves = pending_moves(game);
    if (moves.size() == 1) do_move(game, moves[0], events);
  } else if (game.phase == Phase::Pass && game.settings.auto_pass) {
    do_pass(game, events);
  }
}

}  // namespace

Game new_series(std::string id, const GameSettings& settings, std::uint64_t seed, Events& events) {
  Game game;
  game.id = std::move(id);
  game.settings = settings;
  game.seed = seed;
  start_game(game, events);
  return game;
}

void throw_intent(Game& game, std::optional<Side> side, Events& events) {
  require_human_turn(game, side);
  if (game.phase != Phase::Throw) {
    throw conflict("throw_pending", "You have thrown " + std::to_string(*game.roll) +
                                        (game.phase == Phase::Move
                                             ? " and must move a piece before throwing again."
                                             : " and cannot move: pass before throwing again."));
  }
  do_throw(game, events);
  automatic_actions(game, events);
}

void move_intent(Game& game, std::optional<Side> side, Square from, Events& events) {
  require_human_turn(game, side);
  if (game.phase == Phase::Throw) {
    throw conflict("no_throw_yet", "Throw the dice first, then move a piece.");
  }
  const Rules rules = game.rules();
  const Roll roll = *game.roll;
  if (game.phase == Phase::Pass) {
    throw conflict("illegal_move", why_pass(rules, game.position, roll) + " Pass the turn.");
  }
  const MoveList moves = pending_moves(game);
  const Move* move = find_move(moves, from);
  if (move == nullptr) {
    std::string reason = describe(why_illegal(rules, game.position, roll, from), rules, roll, from);
    if (reason.empty()) reason = "That piece cannot move " + std::to_string(roll) + ".";
    throw conflict("illegal_move", reason);
  }
  do_move(game, *move, events);
}

void pass_intent(Game& game, std::optional<Side> side, Events& events) {
  require_human_turn(game, side);
  if (game.phase == Phase::Throw) {
    throw conflict("no_throw_yet", "Throw the dice first; pass only when the throw cannot move.");
  }
  if (game.phase == Phase::Move) {
    const Move move = pending_moves(game)[0];
    throw conflict("illegal_move",
                   "You have a legal move with this throw of " + std::to_string(*game.roll) +
                       " (for example " + std::to_string(move.from) + " to " +
                       std::to_string(move.to) + "); passing is allowed only without one.");
  }
  do_pass(game, events);
}

void new_game_intent(Game& game, const json& patch, Events& events) {
  const GameSettings base = game.next_settings.value_or(game.settings);
  GameSettings settings = patch.is_null() ? base : merge_settings(base, patch);
  game.settings = settings;
  game.next_settings.reset();
  ++game.game_number;
  start_game(game, events);
}

void settings_intent(Game& game, const json& patch, Events& events) {
  const GameSettings merged = merge_settings(game.next_settings.value_or(game.settings), patch);
  if (!game.thrown_this_game && game.phase != Phase::GameOver) {
    game.settings = merged;
    game.next_settings.reset();
    forget_start_lines(game);
    start_game(game, events);
    return;
  }
  if (merged == game.settings) {
    game.next_settings.reset();
  } else {
    game.next_settings = merged;
    add_log(game, "New settings apply from the next game.");
  }
}

bool computer_to_act(const Game& game) {
  return game.phase != Phase::GameOver && !game.settings.is_human(game.position.turn);
}

void computer_step(Game& game, Agent& agent, Events& events) {
  switch (game.phase) {
    case Phase::Throw:
      do_throw(game, events);
      return;
    case Phase::Move: {
      const MoveList moves = pending_moves(game);
      const Move chosen = agent.choose(game.rules(), game.position, *game.roll).move;
      // An agent must return a legal move; should one not, the game stays valid regardless.
      const Move* legal = find_move(moves, chosen.from);
      do_move(game, legal != nullptr ? *legal : moves[0], events);
      return;
    }
    case Phase::Pass:
      do_pass(game, events);
      return;
    case Phase::GameOver:
      return;
  }
}

namespace {

constexpr std::array<std::string_view, 4> kPhaseNames = {"throw", "move", "pass", "game_over"};

json sides_json(const GameSettings& settings, bool human) {
  json sides = json::array();
  for (Side side : {Side::Light, Side::Dark}) {
    if (settings.is_human(side) == human) sides.push_back(side_name(side));
  }
  return sides;
}

json optional_side(std::optional<Side> side) {
  return side ? json(side_name(*side)) : json(nullptr);
}

json opening_json(const std::optional<std::array<Roll, 2>>& opening) {
  if (!opening) return nullptr;
  return {{"light", (*opening)[0]}, {"dark", (*opening)[1]}};
}

}  // namespace

json game_state_json(const Game& game) {
  const Rules rules = game.rules();
  json legal = json::array();
  if (game.phase == Phase::Move) {
    for (const Move& move : pending_moves(game)) legal.push_back(protocol::to_json(move));
  }
  const bool over = game.phase == Phase::GameOver;
  return {
      {"id", game.id},
      {"version", game.version},
      {"settings", to_json(game.settings)},
      {"next_settings", game.next_settings ? to_json(*game.next_settings) : json(nullptr)},
      {"rules", protocol::to_json(rules)},
      {"position", protocol::to_json(game.position)},
      {"position_text", to_text(game.position)},
      {"phase", kPhaseNames[static_cast<std::size_t>(game.phase)]},
      {"to_move", over ? json(nullptr) : json(side_name(game.position.turn))},
      {"roll", game.roll ? json(*game.roll) : json(nullptr)},
      {"dice", game.roll ? json(game.dice) : json(nullptr)},
      {"legal_moves", std::move(legal)},
      {"pass_reason", game.phase == Phase::Pass ? json(why_pass(rules, game.position, *game.roll))
                                                : json(nullptr)},
      {"human_sides", sides_json(game.settings, true)},
      {"computer_sides", sides_json(game.settings, false)},
      {"winner", optional_side(game.winner)},
      {"tally", {{"light", game.tally[0]}, {"dark", game.tally[1]}}},
      {"game_number", game.game_number},
      {"starting_side", side_name(game.starting_side)},
      {"opening", opening_json(game.opening)},
      {"log", game.log},
  };
}

namespace {

constexpr int kRecordFormat = 1;

[[noreturn]] void damaged(const std::string& what) {
  throw std::runtime_error("damaged game record: " + what);
}

const json& member(const json& record, const char* key) {
  const auto found = record.find(key);
  if (found == record.end()) damaged(std::string("missing \"") + key + "\"");
  return *found;
}

template <typename T>
T member_as(const json& record, const char* key) {
  try {
    return member(record, key).get<T>();
  } catch (const json::exception&) {
    damaged(std::string("\"") + key + "\" has the wrong type");
  }
}

Side side_member(const json& value, const char* key) {
  if (!value.is_string()) damaged(std::string("\"") + key + "\" is not a side");
  const auto side = side_from_name(value.get_ref<const std::string&>());
  if (!side) damaged(std::string("\"") + key + "\" is not a side");
  return *side;
}

}  // namespace

json game_record_json(const Game& game) {
  return {
      {"format", kRecordFormat},
      {"id", game.id},
      {"version", game.version},
      {"settings", to_json(game.settings)},
      {"next_settings", game.next_settings ? to_json(*game.next_settings) : json(nullptr)},
      {"position", to_text(game.position)},
      {"phase", kPhaseNames[static_cast<std::size_t>(game.phase)]},
      {"dice", game.dice},
      {"winner", optional_side(game.winner)},
      {"tally", game.tally},
      {"game_number", game.game_number},
      {"starting_side", side_name(game.starting_side)},
      {"opening", game.opening ? json(*game.opening) : json(nullptr)},
      {"thrown_this_game", game.thrown_this_game},
      {"log", game.log},
      {"seed", game.seed},
      {"draws", game.draws},
  };
}

Game game_from_record(const json& record) {
  if (!record.is_object()) damaged("not an object");
  if (member_as<int>(record, "format") != kRecordFormat) damaged("unknown format");
  Game game;
  game.id = member_as<std::string>(record, "id");
  game.version = member_as<std::uint64_t>(record, "version");
  try {
    game.settings = merge_settings(GameSettings{}, member(record, "settings"));
    const json& next = member(record, "next_settings");
    if (!next.is_null()) game.next_settings = merge_settings(GameSettings{}, next);
  } catch (const ApiError& error) {
    damaged(std::string("settings: ") + error.what());
  }
  const Rules rules = game.rules();
  auto parsed = parse_text(member_as<std::string>(record, "position"), rules);
  if (auto* error = std::get_if<ParseError>(&parsed)) damaged("position: " + error->message);
  game.position = std::get<Position>(parsed);

  const auto phase_name = member_as<std::string>(record, "phase");
  const auto phase = std::find(kPhaseNames.begin(), kPhaseNames.end(), phase_name);
  if (phase == kPhaseNames.end()) damaged("unknown phase");
  game.phase = static_cast<Phase>(phase - kPhaseNames.begin());
  game.dice = member_as<std::vector<bool>>(record, "dice");
  const bool pending = game.phase == Phase::Move || game.phase == Phase::Pass;
  if (pending != !game.dice.empty()) damaged("dice do not match the phase");
  if (pending) {
    if (game.dice.size() != static_cast<std::size_t>(rules.dice)) damaged("wrong dice count");
    game.roll = count_marks(game.dice);
    if (pending_moves(game).empty() != (game.phase == Phase::Pass)) {
      damaged("the phase does not match the legal moves");
    }
  }
  const json& winner = member(record, "winner");
  if (!winner.is_null()) game.winner = side_member(winner, "winner");
  if ((game.phase == Phase::GameOver) != is_game_over(rules, game.position) ||
      game.winner != ur::winner(rules, game.position)) {
    damaged("the winner does not match the position");
  }
  game.tally = member_as<std::array<int, 2>>(record, "tally");
  game.game_number = member_as<int>(record, "game_number");
  if (game.game_number < 1 || game.tally[0] < 0 || game.tally[1] < 0) damaged("bad counters");
  game.starting_side = side_member(member(record, "starting_side"), "starting_side");
  const json& opening = member(record, "opening");
  if (!opening.is_null()) game.opening = member_as<std::array<Roll, 2>>(record, "opening");
  game.thrown_this_game = member_as<bool>(record, "thrown_this_game");
  for (auto& line : member_as<std::vector<std::string>>(record, "log")) {
    add_log(game, std::move(line));
  }
  game.seed = member_as<std::uint64_t>(record, "seed");
  game.draws = member_as<std::uint64_t>(record, "draws");
  return game;
}

}  // namespace ur::server
