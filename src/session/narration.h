// Events in words, for one point of view. Every front end narrates through this one
// function, so a screen uses one set of side names in its log, prompts and errors.
#pragma once

#include <array>
#include <string>

#include "session/event.h"
#include "session/session.h"

namespace ur::session {

// How each side is named. A side in the second person is "you" ("You threw 2.", "you
// throw again"); the others are third-person names ("Bitumen threw 2.", "the computer
// throws again"). Names are written as they should appear mid-sentence.
struct Voice {
  std::array<std::string, 2> names{"light", "dark"};
  std::array<bool, 2> second_person{false, false};

  // Light and dark named `light` and `dark`, both in the third person.
  static Voice sides(std::string light, std::string dark);
  // `person` is "you"; the other side is `other` (e.g. "the computer").
  static Voice you_against(Side person, std::string other);
};

// The sentence for `event`, or "" for events players need not read (the series start).
// Sentences start with a capital letter and end with a full stop.
std::string narrate(const Event& event, const Voice& voice, const Rules& rules);

// The refusal of `seat`'s intent in `session`, in words that name the sides as `voice`
// does (the session's own message names them "light" and "dark").
std::string refusal_sentence(const Refusal& refusal, const Session& session, Side seat,
                             const Voice& voice);

// A span of time as minutes and seconds ("1:05"); negative spans read "0:00". An elapsed span
// rounds down, so that 1:59.5 gone is not "2:00" before the 2:00 mark; a wait rounds up, so
// that 0.2 s left is "0:01", not "0:00".
enum class ClockRounding { kElapsed, kWait };
std::string minutes_seconds(Time ms, ClockRounding rounding);

}  // namespace ur::session
