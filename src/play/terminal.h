// The controlling terminal in raw mode, on the alternate screen, with signals turned into
// events. Whatever way the program leaves (q, an exception, SIGINT, SIGTERM, SIGHUP), the
// destructor puts the terminal back as it was; Ctrl-Z restores it while suspended.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ur::play {

struct TerminalEvent {
  std::string bytes;         // input read, possibly empty
  bool resized = false;      // SIGWINCH: redraw at the new size
  bool resumed = false;      // back from Ctrl-Z: redraw everything
  int terminate_signal = 0;  // SIGINT / SIGTERM / SIGHUP received: leave now
};

class Terminal {
 public:
  // Takes over stdin/stdout, which must be terminals; throws std::runtime_error otherwise.
  Terminal();
  ~Terminal();
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  // Columns and rows.
  std::pair<int, int> size() const;
  // Draws full-screen `lines` in place (no scrolling, no flicker).
  void draw(const std::vector<std::string>& lines);
  // Waits up to `timeout_ms` (-1: no limit) for input or a signal.
  TerminalEvent wait(int timeout_ms);

 private:
  void enter();
  void leave();
  void write_all(std::string_view text);

  bool active_ = false;
};

}  // namespace ur::play
