#include "server/web_game.h"

#include "core/explain.h"
#include "core/notation.h"
#include "protocol/json.h"
#include "server/api_error.h"
#include "server/geometry_json.h"
#include "server/web_settings.h"
#include "session/narration.h"
#include "session/overloaded.h"

namespace ur::server {

using nlohmann::json;
using session::Session;
using enum session::ClockRounding;

const session::Voice& page_voice() {
  static const session::Voice voice = session::Voice::sides("Shell", "Bitumen");
  return voice;
}

Side acting_seat(const Session& session, const WebIntent& intent) {
  if (intent.side) return *intent.side;
  switch (intent.action) {
    case Action::Throw:
    case Action::Move:
    case Action::Pass:
      return session.to_move();
    case Action::TakeBack:
    case Action::Resign:
    case Action::Hints:
      if (session.settings().between_people()) return session.to_move();
      return person_side(session.settings());
    case Action::New:
    case Action::Settings:
    case Action::Rematch:
    case Action::ClaimWin:
      break;
  }
  return person_side(session.settings());
}

namespace {

// What an online game refuses whoever asks: play before the friend is there, and the
// conveniences that would help one player against the other while a game runs.
void check_online(const WebGame& game, const WebIntent& intent) {
  const Seating& seating = game.seating;
  if (!seating.online) {
    if (intent.action == Action::Rematch || intent.action == Action::ClaimWin) {
      throw conflict("not_online",
                     "Rematches and claiming a win are for online games; start "
                     "the next game with New game.");
    }
    return;
  }
  if (seating.waiting_for_opponent()) {
    throw conflict("waiting_for_opponent",
                   "Nobody has joined yet: the game starts when your friend opens the invite "
                   "link.");
  }
  const bool over = game.session.phase() == session::Phase::Over;
  switch (intent.action) {
    case Action::Hints:
      if (over) return;
      throw conflict("online_fairness",
                     "Hints are off in online games while the game runs; the review is offered "
                     "when it ends.");
    case Action::TakeBack:
      throw conflict("online_fairness", "Take-back is off in online games.");
    case Action::New:
    case Action::Settings:
      throw conflict("online_fairness",
                     "An online game keeps the rules its host chose; when it ends, ask for a "
                     "rematch.");
    default:
      return;
  }
}

// Rematch: the first seat to ask offers; the other's ask starts the next game.
void rematch(WebGame& game, Side seat, session::Time now) {
  Session& session = game.session;
  if (session.phase() != session::Phase::Over) {
    throw conflict("game_running", "A rematch can start once this game is over.");
  }
  if (!game.seating.rematch_offer || *game.seating.rematch_offer == seat) {
    game.seating.rematch_offer = seat;
    return;
  }
  Session next = session;
  // The series alternates who opens, so the other player starts the rematch.
  const session::Outcome outcome = next.act(session::NewGameIntent{}, seat, now);
  if (!outcome.accepted()) {
    throw from_refusal(*outcome.refusal,
                       session::refusal_sentence(*outcome.refusal, session, seat, page_voice()));
  }
  session = std::move(next);
  game.seating.rematch_offer.reset();
}

// The win, claimed by `seat` because the other side has been gone on its turn too long.
void claim_win(WebGame& game, Side seat, session::Time now) {
  Session& session = game.session;
  if (session.phase() == session::Phase::Over) {
    throw conflict("game_over", "This game is over already.");
  }
  const Side absent = opponent(seat);
  const std::string& name = page_voice().names[index_of(absent)];
  if (session.to_move() != absent) {
    throw conflict("not_their_turn", "It is your turn: a win can be claimed only while " + name +
                                         " is gone on their own turn.");
  }
  const auto after = claim_win_after(game.seating, game.presence, session);
  if (!after) {
    throw conflict("opponent_present", name + " is connected; the win cannot be claimed.");
  }
  if (now < *after) {
    throw conflict("claim_too_early",
                   name + " has been gone for " +
                       minutes_seconds(now - (*after - kClaimWinAfterMs), kElapsed) +
                       " on their turn; you may claim the win after " +
                       minutes_seconds(kClaimWinAfterMs, kElapsed) + " (in " +
                       minutes_seconds(*after - now, kWait) + ").");
  }
  Session next = session;
  const session::Outcome outcome = next.act(session::ResignIntent{}, absent, now);
  if (!outcome.accepted()) {
    throw from_refusal(*outcome.refusal,
                       session::refusal_sentence(*outcome.refusal, session, seat, page_voice()));
  }
  session = std::move(next);
}

}  // namespace

std::size_t seat_friend(WebGame& game, Side seat, std::string name, std::string token,
                        std::uint64_t seed, session::Time now) {
  session::Settings settings = game.session.settings();
  settings.seats[index_of(seat)].name = std::move(name);
  // Nothing was played while the host waited: the series starts afresh, naming both players.
  game.session = Session::start(settings, seed, now);
  game.seating.tokens[index_of(seat)] = std::move(token);
  game.seating.invite_used = true;
  return 0;
}

std::size_t apply_intent(WebGame& game, const WebIntent& intent, session::Time now) {
  Session& session = game.session;
  check_online(game, intent);
  const Side seat = acting_seat(session, intent);
  const std::size_t before = session.history().size();
  if (intent.action == Action::Rematch) {
    rematch(game, seat, now);
    return before;
  }
  if (intent.action == Action::ClaimWin) {
    claim_win(game, seat, now);
    return before;
  }
  // Settings are merged onto the ones the next game would be played with.
  const session::Settings base = session.pending_settings().value_or(session.settings());
  session::Intent wanted;
  switch (intent.action) {
    case Action::Throw:
      wanted = session::ThrowIntent{};
      break;
    case Action::Move:
      wanted = session::MoveIntent{intent.from};
      break;
    case Action::Pass:
      wanted = session::PassIntent{};
      break;
    case Action::TakeBack:
      wanted = session::TakeBackIntent{};
      break;
    case Action::Resign:
      wanted = session::ResignIntent{};
      break;
    case Action::New:
      wanted = session::NewGameIntent{
          intent.settings.is_null() ? std::nullopt
                                    : std::optional(merge_web_settings(base, intent.settings))};
      break;
    case Action::Settings:
      wanted = session::ChangeSettingsIntent{merge_web_settings(base, intent.settings)};
      break;
    case Action::Hints:
      wanted = session::ShowHintsIntent{intent.on};
      break;
    case Action::Rematch:
    case Action::ClaimWin:
      break;  // answered above
  }
  // New games and settings are the person's to ask for, whoever is to move.
  const Side acting = intent.action == Action::New || intent.action == Action::Settings
                          ? person_side(session.settings())
                          : seat;
  Session next = session;
  const std::size_t first = next.history().size();
  // Friends share one screen: hints switch for both seats unless the intent names one.
  if (intent.action == Action::Hints && !intent.side && session.settings().between_people()) {
    next.act(wanted, opponent(acting), now);
  }
  const session::Outcome outcome = next.act(wanted, acting, now);
  if (!outcome.accepted()) {
    throw from_refusal(*outcome.refusal,
                       session::refusal_sentence(*outcome.refusal, session, acting, page_voice()));
  }
  session = std::move(next);
  return first;
}

namespace {

// The position just before history event `index` (for the reason a pass was forced).
Position position_before(const Session& session, std::size_t index) {
  const auto& history = session.history();
  auto prefix = Session::from_history(
      session::Events(history.begin(), history.begin() + static_cast<std::ptrdiff_t>(index)));
  return std::get<Session>(prefix).position();
}

json dice_json(const session::Dice& dice) {
  json dice_list = json::array();
  for (int i = 0; i < dice.count; ++i) dice_list.push_back(dice.die(i));
  return dice_list;
}

}  // namespace

json web_events(const Session& session, std::size_t first) {
  const auto& history = session.history();
  json events = json::array();
  json openings = json::array();  // the page has always had them after their new_game
  for (std::size_t i = first; i < history.size(); ++i) {
    const session::Event& event = history[i];
    std::visit(
        session::Overloaded{
            [](const session::SeriesStarted&) {},
            [&](const session::OpeningRound& e) {
              openings.push_back({{"type", "opening"},
                                  {"light", session::roll_of(session.rules(), e.light)},
                                  {"dark", session::roll_of(session.rules(), e.dark)}});
            },
            [&](const session::GameStarted& e) {
              events.push_back({{"type", "new_game"},
                                {"game_number", e.number},
                                {"starting_side", side_name(e.first)}});
              for (json& opening : openings) events.push_back(std::move(opening));
              openings = json::array();
            },
            [&](const session::Thrown& e) {
              events.push_back({{"type", "throw"},
                                {"side", side_name(e.side)},
                                {"roll", e.roll},
                                {"dice", dice_json(e.dice)}});
            },
            [&](const session::Moved& e) {
              json move = protocol::to_json(e.move);
              move["type"] = "move";
              move["side"] = side_name(e.side);
              events.push_back(std::move(move));
            },
            [&](const session::Passed& e) {
              const Position before = position_before(session, i);
              events.push_back({{"type", "pass"},
                                {"side", side_name(e.side)},
                                {"reason", why_pass(session.rules(), before, e.roll)}});
            },
            [&](const session::Resigned& e) {
              events.push_back({{"type", "resign"}, {"side", side_name(e.side)}});
            },
            [&](const session::TookBack& e) {
              events.push_back({{"type", "take_back"}, {"side", side_name(e.side)}});
            },
            [&](const session::GameEnded& e) {
              events.push_back({{"type", "game_over"},
                                {"winner", side_name(e.winner)},
                                {"by_resignation", e.by_resignation}});
            },
            [&](const session::SettingsChanged& e) {
              events.push_back({{"type", "settings"}, {"at_once", e.at_once}});
            },
            [&](const session::HintsShown& e) {
              events.push_back({{"type", "hints"}, {"side", side_name(e.side)}, {"on", e.on}});
            },
        },
        event.body);
  }
  return events;
}

namespace {

std::string_view phase_name(session::Phase phase) {
  return phase == session::Phase::Over ? "game_over" : session::to_string(phase);
}

json sides_json(const session::Settings& settings, bool people) {
  json sides = json::array();
  for (Side side : {Side::Light, Side::Dark}) {
    if (settings.is_person(side) == people) sides.push_back(side_name(side));
  }
  return sides;
}

// The index where the current game's story begins: its start, after the opening rounds
// that chose who starts (a restart under new settings replaces the earlier start).
std::size_t story_start(const Session& session) {
  std::size_t start = session.game_start_index();
  while (start > 0 &&
         std::holds_alternative<session::OpeningRound>(session.history()[start - 1].body)) {
    --start;
  }
  return start;
}

json opening_json(const Session& session) {
  const std::size_t start = session.game_start_index();
  if (start == 0) return nullptr;
  const auto* round = std::get_if<session::OpeningRound>(&session.history()[start - 1].body);
  if (round == nullptr) return nullptr;
  return {{"light", session::roll_of(session.rules(), round->light)},
          {"dark", session::roll_of(session.rules(), round->dark)}};
}

// For a throw waiting for its move: why each of the mover's other pieces (and the start
// pile) cannot use it, in the core's words, keyed by square. The page shows these when a
// player presses such a piece, so it needs no rules of its own.
json illegal_reasons_json(const Session& session) {
  json reasons = json::object();
  const auto& pending = session.pending_throw();
  if (session.phase() != session::Phase::Move || !pending) return reasons;
  const Rules& rules = session.rules();
  const Position& position = session.position();
  const MoveList moves = session.legal_moves();
  const SquareMask own = position.board_of(position.turn);
  for (Square from = 0; from <= rules.route_length; ++from) {
    const bool has_piece =
        from == 0 ? position.start_of(position.turn) > 0 : (own & square_bit(from)) != 0;
    if (!has_piece || find_move(moves, from)) continue;
    const IllegalReason reason = why_illegal(rules, position, pending->roll, from);
    reasons[std::to_string(from)] = describe(reason, rules, pending->roll, from);
  }
  return reasons;
}

}  // namespace

json game_state_json(const WebGame& game, session::Time now, Geometry geometry) {
  const Session& session = game.session;
  const Rules& rules = session.rules();
  json legal = json::array();
  for (const Move& move : session.legal_moves()) legal.push_back(protocol::to_json(move));
  const auto& pending = session.pending_throw();
  const bool over = session.phase() == session::Phase::Over;
  json log = json::array();
  for (std::size_t i = story_start(session); i < session.history().size(); ++i) {
    std::string line = session::narrate(session.history()[i], page_voice(), rules);
    if (!line.empty()) log.push_back(std::move(line));
  }
  bool can_take_back = false;
  bool hints_on = false;
  for (Side side : {Side::Light, Side::Dark}) {
    can_take_back |= session.can_take_back(side);
    hints_on |= session.settings().is_person(side) && session.hints_on(side);
  }
  // Online, the settings name the host (hosted on light before the host was stored).
  const auto host =
      game.seating.online ? std::optional(game.seating.host.value_or(Side::Light)) : std::nullopt;
  json state = {
      {"id", game.id},
      {"version", game.version},
      {"settings", web_settings_json(session.settings(), host)},
      {"next_settings", session.pending_settings()
                            ? web_settings_json(*session.pending_settings(), host)
                            : json(nullptr)},
      {"rules", protocol::to_json(rules)},
      {"position", protocol::to_json(session.position())},
      {"position_text", to_text(session.position())},
      {"phase", phase_name(session.phase())},
      {"to_move", over ? json(nullptr) : json(side_name(session.to_move()))},
      {"roll", pending ? json(pending->roll) : json(nullptr)},
      {"dice", pending ? dice_json(pending->dice) : json(nullptr)},
      {"legal_moves", std::move(legal)},
      {"illegal_reasons", illegal_reasons_json(session)},
      {"pass_reason", session.phase() == session::Phase::Pass
                          ? json(why_pass(rules, session.position(), pending->roll))
                          : json(nullptr)},
      {"human_sides", sides_json(session.settings(), true)},
      {"computer_sides", sides_json(session.settings(), false)},
      {"winner", session.winner() ? json(side_name(*session.winner())) : json(nullptr)},
      {"resigned", session.resigned()},
      {"tally", {{"light", session.tally()[0]}, {"dark", session.tally()[1]}}},
      {"game_number", session.game_number()},
      {"starting_side", side_name(session.game_starter())},
      {"opening", opening_json(session)},
      {"can_take_back", can_take_back},
      {"hints_on", hints_on},
      {"log", std::move(log)},
  };
  if (geometry == Geometry::Include) state["geometry"] = geometry_json(rules);
  state.update(seats_json(game.seating, game.presence, session, now));
  if (game.seating.online) state["settings"]["opponent"] = "online";
  return state;
}

}  // namespace ur::server
