// How a store keeps a game's record: its head (the record's JSON object without "history")
// in the games table, and the history's events one row each (game_events), so that a save
// writes only the events that changed rather than the whole history again. A store joins the
// two back into the whole record when it loads a game.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ur::storage {

// What one save writes. Invariant: the stored events before `first` stay as they are; the
// history from `first` on becomes `events` (any stored event after them is dropped).
struct GameWrite {
  int format = 0;
  std::string head;                 // a JSON object, the record without its "history"
  std::size_t first = 0;            // events kept from the stored history
  std::vector<std::string> events;  // the history's events from `first` on, each JSON text
};

// A whole record as a write from event 0: its "history" array cut into events, the rest as
// the head. A record without a history, or with an empty one, is all head, and so is text
// that is not a JSON object with a history list: a damaged record is kept as it is, and
// reading it says what is wrong.
GameWrite split_record(const std::string& record, int format);

// The whole record again: `head` with "history" set to the events, which `events` holds as
// comma-separated JSON texts (as SQL's string_agg gives them). Without events ("") the head
// is the record.
std::string join_record(const std::string& head, const std::string& events);

}  // namespace ur::storage
