#include "play/terminal.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <stdexcept>

namespace ur::play {
namespace {

// Self-pipe: signal handlers write the signal number, the event loop reads it.
int signal_pipe[2] = {-1, -1};
termios saved_termios;

constexpr int kHandledSignals[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT};

extern "C" void on_signal(int number) {
  const int saved_errno = errno;
  const unsigned char byte = static_cast<unsigned char>(number);
  [[maybe_unused]] const ssize_t written = ::write(signal_pipe[1], &byte, 1);
  errno = saved_errno;
}

void install_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (int number : kHandledSignals) sigaction(number, &action, nullptr);
}

void restore_default_handlers() {
  for (int number : kHandledSignals) std::signal(number, SIG_DFL);
}

// Enter the alternate screen, hide the cursor, and their reverse.
constexpr std::string_view kEnterScreen = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J";
constexpr std::string_view kLeaveScreen = "\x1b[0m\x1b[?25h\x1b[?1049l";

}  // namespace

Terminal::Terminal() {
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
    throw std::runtime_error("the interactive game needs a terminal (use --script FILE otherwise)");
  }
  if (tcgetattr(STDIN_FILENO, &saved_termios) != 0) {
    throw std::runtime_error("cannot read the terminal settings");
  }
  if (signal_pipe[0] < 0) {
    if (pipe(signal_pipe) != 0) throw std::runtime_error("cannot create the signal pipe");
    for (int fd : signal_pipe) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
  install_handlers();
  enter();
}

Terminal::~Terminal() {
  leave();
  restore_default_handlers();
}

void Terminal::enter() {
  termios raw = saved_termios;
  // No echo, no line editing, no flow control, CR not turned into NL; signals stay on so
  // Ctrl-C and Ctrl-Z arrive as SIGINT / SIGTSTP and are handled through the pipe.
  raw.c_lflag &= ~static_cast<tcflag_t>(ECHO | ICANON | IEXTEN);
  raw.c_iflag &= ~static_cast<tcflag_t>(IXON | ICRNL | INLCR | ISTRIP);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw);
  write_all(kEnterScreen);
  active_ = true;
}

void Terminal::leave() {
  if (!active_) return;
  write_all(kLeaveScreen);
  tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_termios);
  active_ = false;
}

void Terminal::write_all(std::string_view text) {
  while (!text.empty()) {
    const ssize_t written = ::write(STDOUT_FILENO, text.data(), text.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return;
    }
    text.remove_prefix(static_cast<std::size_t>(written));
  }
}

std::pair<int, int> Terminal::size() const {
  winsize window{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &window) != 0 || window.ws_col == 0) return {80, 24};
  return {window.ws_col, window.ws_row};
}

void Terminal::draw(const std::vector<std::string>& lines) {
  std::string frame = "\x1b[H";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    frame += lines[i];
    frame += "\x1b[0m\x1b[K";
    if (i + 1 < lines.size()) frame += "\r\n";
  }
  write_all(frame);
}

TerminalEvent Terminal::wait(int timeout_ms) {
  TerminalEvent event;
  pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {signal_pipe[0], POLLIN, 0}};
  const int ready = poll(fds, 2, timeout_ms);
  if (ready <= 0) return event;
  if (fds[1].revents & POLLIN) {
    unsigned char number = 0;
    while (::read(signal_pipe[0], &number, 1) == 1) {
      if (number == SIGWINCH) {
        event.resized = true;
      } else if (number == SIGTSTP) {
        // Suspend with the terminal restored; continue where we were.
        leave();
        std::signal(SIGTSTP, SIG_DFL);
        raise(SIGTSTP);
        install_handlers();
        enter();
        event.resumed = true;
      } else if (number == SIGCONT) {
        event.resumed = true;
      } else {
        event.terminate_signal = number;
      }
    }
  }
  if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
    char buffer[256];
    const ssize_t count = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (count > 0) {
      event.bytes.assign(buffer, static_cast<std::size_t>(count));
    } else if (count == 0) {
      event.terminate_signal = SIGHUP;  // the terminal went away
    }
  }
  return event;
}

}  // namespace ur::play
