#include "play/online_game.h"

#include <algorithm>

#include "play/play_session.h"
#include "protocol/json.h"

namespace ur::play {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& message) {
  throw protocol::RequestError("the server's game state: " + message);
}

const json& member(const json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end()) fail(std::string("no \"") + key + "\"");
  return *found;
}

// A member that may be absent or null.
const json* optional_member(const json& object, const char* key) {
  const auto found = object.find(key);
  return found == object.end() || found->is_null() ? nullptr : &*found;
}

Side side_from(const json& value, const char* what) {
  if (value == "light") return Side::Light;
  if (value == "dark") return Side::Dark;
  fail(std::string(what) + " is not \"light\" or \"dark\": " + protocol::quote_json(value));
}

std::optional<Side> optional_side(const json& object, const char* key) {
  const json* value = optional_member(object, key);
  if (value == nullptr) return std::nullopt;
  return side_from(*value, key);
}

std::string string_or_empty(const json& object, const char* key) {
  const json* value = optional_member(object, key);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

std::optional<std::int64_t> optional_ms(const json& object, const char* key) {
  const json* value = optional_member(object, key);
  if (value == nullptr) return std::nullopt;
  if (!value->is_number()) fail(std::string(key) + " is not a number");
  return value->get<std::int64_t>();
}

session::Dice dice_from(const json& value) {
  if (!value.is_array() || value.size() > static_cast<std::size_t>(RuleSpec::kMaxDice)) {
    fail("dice is not an array of up to 6 booleans");
  }
  session::Dice dice;
  dice.count = static_cast<std::uint8_t>(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i].get<bool>()) dice.marks = static_cast<std::uint8_t>(dice.marks | (1U << i));
  }
  return dice;
}

OnlineSeat seat_from(const json& value) {
  OnlineSeat seat;
  if (!value.is_object()) return seat;
  seat.name = string_or_empty(value, "name");
  seat.person = string_or_empty(value, "player") != "computer";
  seat.taken = value.value("taken", false);
  seat.connected = value.value("connected", false);
  seat.left_at = optional_ms(value, "left_at");
  return seat;
}

void read_seats(const json& seats, std::array<OnlineSeat, 2>& into) {
  if (!seats.is_object()) fail("seats is not an object");
  for (Side side : {Side::Light, Side::Dark}) {
    const auto found = seats.find(side == Side::Light ? "light" : "dark");
    if (found != seats.end()) into[index_of(side)] = seat_from(*found);
  }
}

// Sentences about presence and offers that changed from `before` to the view's game.
void narrate_changes(const OnlineView& view, const OnlineGame& before,
                     std::vector<std::string>& said) {
  const Side them = opponent(view.me);
  const OnlineSeat& was = before.seat(them);
  const OnlineSeat& now = view.game.seat(them);
  const std::string name = view.name_of(them);
  if (!was.taken && now.taken) {
    said.push_back(name + " joined.");
  } else if (!was.connected && now.connected) {
    said.push_back(name + " is connected.");
  } else if (was.connected && !now.connected) {
    said.push_back(name + " has left.");
  }
  if (view.game.rematch_offer == them && before.rematch_offer != them) {
    said.push_back(name + " offers a rematch: n accepts.");
  }
}

void narrate_event(OnlineView& view, const json& event, std::vector<std::string>& said) {
  const std::string type = event.value("type", "");
  const auto side_of = [&] { return side_from(member(event, "side"), "an event's side"); };
  if (type == "new_game") {
    view.last_move.reset();
    view.last_dice.reset();
    const int number = event.value("game_number", view.game.game_number);
    const json* starter = optional_member(event, "starting_side");
    std::string sentence = "Game " + std::to_string(number) + " begins";
    if (starter != nullptr) {
      const Side first = side_from(*starter, "starting_side");
      sentence +=
          first == view.me ? ": you throw first." : ": " + view.name_of(first) + " throws first.";
    } else {
      sentence += ".";
    }
    said.push_back(sentence);
  } else if (type == "throw") {
    const Side side = side_of();
    view.last_dice = dice_from(member(event, "dice"));
    view.last_roll = member(event, "roll").get<Roll>();
    if (side != view.me)
      said.push_back(view.name_of(side) + " threw " + std::to_string(view.last_roll) + ".");
  } else if (type == "move") {
    const Side side = side_of();
    Move move;
    move.from = member(event, "from").get<std::uint8_t>();
    move.to = member(event, "to").get<std::uint8_t>();
    move.capture = event.value("capture", false);
    move.extra_throw = event.value("extra_throw", false);
    view.last_move = LastMove{side, move};
    if (side != view.me) {
      said.push_back(view.name_of(side) + " moved " + describe_online_move(view, side, move) + ".");
    }
  } else if (type == "pass") {
    const Side side = side_of();
    if (side != view.me) {
      std::string sentence = view.name_of(side) + " passes";
      const std::string reason = event.value("reason", "");
      said.push_back(reason.empty() ? sentence + "." : sentence + ": " + reason);
    }
  } else if (type == "resign") {
    const Side side = side_of();
    said.push_back(side == view.me ? "You resigned." : view.name_of(side) + " resigned.");
  } else if (type == "game_over") {
    const Side winner = side_from(member(event, "winner"), "winner");
    said.push_back(winner == view.me ? "You win!" : view.name_of(winner) + " wins.");
  }
}

}  // namespace

std::string page_side_name(Side side) {
  return side == Side::Light ? "Shell" : "Bitumen";
}

MoveList OnlineGame::legal() const {
  if (phase != OnlinePhase::Move) return {};
  return legal_moves(rules, position, roll);
}

OnlineGame online_game_from_json(const json& state) {
  if (!state.is_object()) fail("not a JSON object");
  OnlineGame game;
  try {
    game.id = member(state, "id").get<std::string>();
    game.version = member(state, "version").get<std::uint64_t>();
    game.rules = protocol::rules_from_json(member(state, "rules"));
    game.position = protocol::position_from_json(member(state, "position"), game.rules);
    const std::string phase = member(state, "phase").get<std::string>();
    if (phase == "throw") {
      game.phase = OnlinePhase::Throw;
    } else if (phase == "move") {
      game.phase = OnlinePhase::Move;
    } else if (phase == "pass") {
      game.phase = OnlinePhase::Pass;
    } else if (phase == "game_over") {
      game.phase = OnlinePhase::Over;
    } else {
      fail("unknown phase " + protocol::quote_json(phase));
    }
    if (const json* roll = optional_member(state, "roll")) game.roll = roll->get<Roll>();
    if (const json* dice = optional_member(state, "dice")) game.dice = dice_from(*dice);
    game.pass_reason = string_or_empty(state, "pass_reason");
    game.winner = optional_side(state, "winner");
    game.resigned = state.value("resigned", false);
    if (const json* tally = optional_member(state, "tally")) {
      game.tally = {tally->value("light", 0), tally->value("dark", 0)};
    }
    game.game_number = state.value("game_number", 1);
    if (const json* seats = optional_member(state, "seats")) read_seats(*seats, game.seats);
    game.waiting_for_opponent = state.value("waiting_for_opponent", false);
    game.rematch_offer = optional_side(state, "rematch_offer");
    game.claim_win_after = optional_ms(state, "claim_win_after");
    game.server_time = optional_ms(state, "server_time").value_or(0);
    if (const json* log = optional_member(state, "log")) {
      for (const json& line : *log) {
        if (line.is_string()) game.log.push_back(line.get<std::string>());
      }
    }
  } catch (const json::exception& error) {
    fail(error.what());
  }
  return game;
}

std::string OnlineView::name_of(Side side) const {
  const std::string& name = game.seat(side).name;
  return name.empty() ? page_side_name(side) : name;
}

bool is_error_message(const json& message) {
  return message.is_object() && message.value("type", "") == "error";
}

std::vector<std::string> apply_message(OnlineView& view, const json& message, std::int64_t now_ms) {
  std::vector<std::string> said;
  if (!message.is_object()) return said;
  const std::string type = message.value("type", "");
  if (type == "error") {
    said.push_back(message.value("error", std::string("The server refused that.")));
    return said;
  }
  const OnlineGame before = view.game;
  if (type == "presence") {
    try {
      if (const json* seats = optional_member(message, "seats"))
        read_seats(*seats, view.game.seats);
      view.game.claim_win_after = optional_ms(message, "claim_win_after");
      if (auto time = optional_ms(message, "server_time")) {
        view.game.server_time = *time;
        view.received_at = now_ms;
      }
    } catch (const json::exception& error) {
      fail(error.what());
    }
    narrate_changes(view, before, said);
    return said;
  }
  if (type != "update") return said;
  OnlineGame game = online_game_from_json(member(message, "game"));
  const bool first = view.game.id.empty();
  if (!first && game.id == view.game.id && game.version <= view.game.version) return said;
  view.game = std::move(game);
  view.received_at = now_ms;
  if (first) {
    // Coming (back) to a game: what happened before is in its log, not narrated again.
    if (view.game.dice) {
      view.last_dice = view.game.dice;
      view.last_roll = view.game.roll;
    }
    return said;
  }
  try {
    if (const json* events = optional_member(message, "events")) {
      for (const json& event : *events) narrate_event(view, event, said);
    }
  } catch (const json::exception& error) {
    fail(error.what());
  }
  narrate_changes(view, before, said);
  return said;
}

std::int64_t server_now(const OnlineView& view, std::int64_t now_ms) {
  return view.game.server_time + std::max<std::int64_t>(0, now_ms - view.received_at);
}

std::optional<std::int64_t> claim_wait_ms(const OnlineView& view, std::int64_t now_ms) {
  if (!view.game.claim_win_after || view.game.phase == OnlinePhase::Over) return std::nullopt;
  if (view.game.position.turn == view.me) return std::nullopt;  // the absent side is the mover
  return std::max<std::int64_t>(0, *view.game.claim_win_after - server_now(view, now_ms));
}

std::string describe_online_move(const OnlineView& view, Side mover, const Move& move) {
  const Rules& rules = view.game.rules;
  std::string text = move_squares_text(rules, move);
  if (move.from == 0) text += ", enters a new piece";
  if (move.to >= rules.home_square()) text += ", bears off";
  if (move.capture) {
    const Side victim = opponent(mover);
    text += victim == view.me ? ", captures your piece"
                              : ", captures " + view.name_of(victim) + "'s piece";
  }
  if (move.extra_throw) {
    text +=
        (rules.extra_throw & square_bit(move.to)) != 0 ? ", rosette: throw again" : ", throw again";
  }
  return text;
}

}  // namespace ur::play
