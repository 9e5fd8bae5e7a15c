#include "session/narration.h"

#include <algorithm>
#include <cctype>

#include "session/overloaded.h"

namespace ur::session {

namespace {

// Words for one side in one sentence.
struct Subject {
  std::string name;
  bool you;

  // The verb agreeing with the subject: "you throw" / "Bitumen throws".
  std::string verb(const std::string& plain, const std::string& third) const {
    return name + " " + (you ? plain : third);
  }
  std::string possessive() const { return you ? "your" : name + "'s"; }
};

Subject subject(const Voice& voice, Side side) {
  return {voice.names[index_of(side)], voice.second_person[index_of(side)]};
}

std::string sentence(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text + ".";
}

std::string move_words(const Rules& rules, const Move& move) {
  if (move.from == 0) return "entered a piece on " + std::to_string(move.to);
  if (move.to >= rules.home_square()) {
    return "bore a piece off from " + std::to_string(move.from);
  }
  return "moved " + std::to_string(move.from) + " to " + std::to_string(move.to);
}

}  // namespace

Voice Voice::sides(std::string light, std::string dark) {
  return Voice{{std::move(light), std::move(dark)}, {false, false}};
}

Voice Voice::you_against(Side person, std::string other) {
  Voice voice;
  voice.names[index_of(person)] = "you";
  voice.second_person[index_of(person)] = true;
  voice.names[index_of(opponent(person))] = std::move(other);
  return voice;
}

std::string narrate(const Event& event, const Voice& voice, const Rules& rules) {
  return std::visit(
      Overloaded{
          [](const SeriesStarted&) { return std::string(); },
          [&](const OpeningRound& e) {
            const Roll light = roll_of(rules, e.light);
            const Roll dark = roll_of(rules, e.dark);
            std::string text = "opening throws: " + subject(voice, Side::Light).name + " " +
                               std::to_string(light) + ", " + subject(voice, Side::Dark).name +
                               " " + std::to_string(dark);
            if (light == dark) text += " (a tie: both throw again)";
            return sentence(text);
          },
          [&](const GameStarted& e) {
            if (e.from) {
              return sentence("game " + std::to_string(e.number) +
                              " goes on from a set position; " +
                              subject(voice, e.first).verb("play", "plays") + " next");
            }
            return sentence("game " + std::to_string(e.number) + ": " +
                            subject(voice, e.first).verb("start", "starts"));
          },
          [&](const Thrown& e) {
            std::string text = subject(voice, e.side).name + " threw " + std::to_string(e.roll);
            // Where a 0 counts as the maximum, say why dice without marks move.
            if (e.dice.marked() == 0 && e.roll > 0)
              text += " (no marks count as " + std::to_string(e.roll) + ")";
            return sentence(text);
          },
          [&](const Moved& e) {
            const Subject mover = subject(voice, e.side);
            std::string text = mover.name + " " + move_words(rules, e.move);
            if (e.move.capture) {
              text += ", capturing " + subject(voice, opponent(e.side)).possessive() + " piece";
            }
            if (e.automatic) text += " (the only move)";
            if (e.move.extra_throw) {
              text += "; " + mover.verb("throw", "throws") + " again";
              text += e.move.capture && !(rules.rosettes & square_bit(e.move.to))
                          ? " for the capture"
                          : " for the rosette";
            }
            return sentence(text);
          },
          [&](const Passed& e) {
            const Subject mover = subject(voice, e.side);
            if (e.roll == 0) return sentence(mover.verb("pass", "passes") + " on a throw of 0");
            return sentence(mover.name + " cannot move with a " + std::to_string(e.roll) + " and " +
                            (mover.you ? "pass" : "passes"));
          },
          [&](const Resigned& e) { return sentence(subject(voice, e.side).name + " resigned"); },
          [&](const TookBack& e) {
            const Subject mover = subject(voice, e.side);
            return sentence(mover.name + " took back " + (mover.you ? "your" : "the") +
                            " last move");
          },
          [&](const GameEnded& e) {
            const Subject winner = subject(voice, e.winner);
            // A resignation has its own sentence just before this one.
            return sentence(winner.name + (e.by_resignation ? " won the game" : " won"));
          },
          [&](const HintsShown& e) {
            return sentence(subject(voice, e.side).verb("turned", "turned") +
                            (e.on ? " hints on" : " hints off"));
          },
          [&](const SettingsChanged& e) {
            return sentence(e.at_once ? "new settings: the game starts again"
                                      : "new settings apply from the next game");
          },
      },
      event.body);
}

std::string refusal_sentence(const Refusal& refusal, const Session& session, Side seat,
                             const Voice& voice) {
  const Subject to_move = subject(voice, session.to_move());
  const Subject acting = subject(voice, seat);
  switch (refusal.code) {
    case RefusalCode::NotYourTurn:
      return sentence("it is " + to_move.possessive() + " turn, not " + acting.possessive());
    case RefusalCode::ComputerSeat:
      if (seat == session.to_move() && session.phase() != Phase::Over) {
        return sentence("it is " + to_move.possessive() + " turn: the computer is playing it");
      }
      return sentence("the computer plays " + acting.possessive() + " seat");
    case RefusalCode::GameOver:
      return sentence("game " + std::to_string(session.game_number()) + " is over (" +
                      subject(voice, session.winner().value_or(seat)).verb("won", "won") +
                      "); start a new game to play on");
    default:
      return refusal.message;
  }
}

std::string minutes_seconds(Time ms, ClockRounding rounding) {
  const Time whole = rounding == ClockRounding::kWait ? (ms + 999) / 1000 : ms / 1000;
  const Time seconds = std::max<Time>(0, whole);
  const Time rest = seconds % 60;
  return std::to_string(seconds / 60) + ":" + (rest < 10 ? "0" : "") + std::to_string(rest);
}

}  // namespace ur::session
