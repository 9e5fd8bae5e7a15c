// A private tmux server for end-to-end tests of the real terminal programs (ur play, and
// ur play --host/--join): a pseudo-terminal driven with keys and read as text (test code only).
#pragma once

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

namespace ur::play::testing {

inline std::string shell(const std::string& command) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return output;
  std::array<char, 4096> buffer{};
  while (const std::size_t count = fread(buffer.data(), 1, buffer.size(), pipe)) {
    output.append(buffer.data(), count);
  }
  pclose(pipe);
  return output;
}

// One tmux server on its own socket, so tests never touch a user's sessions.
class Tmux {
 public:
  Tmux() : socket_("ur-play-e2e-" + std::to_string(getpid()) + "-" + std::to_string(++count_)) {}
  ~Tmux() {
    shell(tmux() + " kill-server 2>/dev/null");
    std::remove(("/tmp/" + socket_ + ".sh").c_str());
  }

  // Runs the shell `command` in a 100 x 30 window; afterwards the shell reports the exit
  // status and whether the terminal is back in canonical (cooked) mode.
  void start(const std::string& command) {
    const std::string path = "/tmp/" + socket_ + ".sh";
    std::ofstream(path)
        << command << "\necho EXIT=$?\n"
        << "stty -a | tr ' ;' '\\n\\n' | grep -qx icanon && echo COOKED\necho DONE\nsleep 30\n";
    shell(tmux() + " new-session -d -x 100 -y 30 -s e2e 'sh " + path + "'");
  }
  // The process id of the program the window runs (the shell's child).
  std::string program_pid() {
    const std::string shell_pid = shell(tmux() + " display -p -t e2e '#{pane_pid}'");
    std::string pid = shell("pgrep -P " + shell_pid.substr(0, shell_pid.find('\n')));
    return pid.substr(0, pid.find('\n'));
  }
  void keys(const std::string& keys) { shell(tmux() + " send-keys -t e2e " + keys); }
  void resize(int width, int height) {
    shell(tmux() + " resize-window -t e2e -x " + std::to_string(width) + " -y " +
          std::to_string(height));
  }
  std::string screen() { return shell(tmux() + " capture-pane -p -t e2e"); }
  // The screen with wrapped lines joined (long lines printed after the program ended).
  std::string joined_screen() { return shell(tmux() + " capture-pane -p -J -t e2e"); }

  // Waits until the screen shows `text`; returns the screen either way.
  std::string wait_for(const std::string& text, int timeout_ms = 20000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    std::string shown;
    do {
      shown = screen();
      if (shown.find(text) != std::string::npos) return shown;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    } while (std::chrono::steady_clock::now() < deadline);
    return shown;
  }

  // Like wait_for, then a moment more: a redraw seen half-way would show old rows too.
  std::string settled(const std::string& text) {
    wait_for(text);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return screen();
  }

 private:
  std::string tmux() const { return "tmux -L " + socket_; }
  std::string socket_;
  static inline int count_ = 0;
};

inline bool has_tmux() {
  return shell("command -v tmux").find("tmux") != std::string::npos;
}

}  // namespace ur::play::testing
