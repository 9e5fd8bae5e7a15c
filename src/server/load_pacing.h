// Keeps one connection under the server's action limit (docs/web-api.md: 20 actions a second
// per connection, one more is refused with rate_limited, which the load tool counts as an
// error).
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>

namespace ur::load {

class ActionPacer {
 public:
  using Clock = std::chrono::steady_clock;

  // The margin over the server's 1 s window covers the time a message takes to arrive: the
  // server stamps actions as they come, not as they were sent.
  explicit ActionPacer(std::size_t actions = 20,
                       Clock::duration window = std::chrono::milliseconds(1050))
      : actions_(actions), window_(window) {}

  // The earliest time, `now` or later, at which one more action keeps under the limit.
  Clock::time_point next_allowed(Clock::time_point now) {
    while (!sent_.empty() && now - sent_.front() >= window_) sent_.pop_front();
    if (sent_.size() < actions_) return now;
    return sent_[sent_.size() - actions_] + window_;
  }

  bool may_send(Clock::time_point now) { return next_allowed(now) <= now; }

  // Call when an action is sent.
  void sent(Clock::time_point when) { sent_.push_back(when); }

  // The latest action reached the server by `when` (its answer came): the server may have
  // stamped it that late, so count it from then. Without this a server slowed by load, which
  // reads an action late, could see more than the limit in its window.
  void arrived_by(Clock::time_point when) {
    if (!sent_.empty() && sent_.back() < when) sent_.back() = when;
  }

 private:
  std::size_t actions_;
  Clock::duration window_;
  std::deque<Clock::time_point> sent_;
};

}  // namespace ur::load
