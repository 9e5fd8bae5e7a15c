// Standard output as every command writes it: a lost write (a full disk, a closed file) is an
// error the command reports, never a silent exit 0.
#pragma once

#include <string_view>

namespace ur::cli {

// Flushes stdout; true when everything written to it so far has reached it.
bool stdout_ok();

// The exit code for a command that returned `code`: `code` when its output reached stdout,
// else kFailure after "ur COMMAND: cannot write output: REASON" on stderr. `command` is
// empty for `ur` itself (help, --version).
int finish_output(std::string_view command, int code);

}  // namespace ur::cli
