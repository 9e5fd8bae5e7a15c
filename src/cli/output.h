// Standard output as every command writes it: a lost write (a full disk, a closed file) is an
// error the command reports, never a silent exit 0.
#pragma once

#include <string_view>

namespace ur::cli {

// Flushes stdout; true when everything written to it so far has reached it.
bool stdout_ok();

// Why stdout can take no more output, found without writing to it: an earlier write that
// failed, or the reader of a pipe or socket gone (EPIPE). 0 while it is fine. A long command
// that writes little (ur solve) checks it as it goes, to stop as a killed pipe would stop it.
int stdout_lost();

// Says "ur COMMAND: cannot write output: REASON; CONSEQUENCE" on stderr for the `reason` that
// stdout_lost gave; finish_output then says nothing more.
void report_lost_output(std::string_view command, int reason, std::string_view consequence);

// The exit code for a command that returned `code`: `code` when its output reached stdout,
// else kFailure after "ur COMMAND: cannot write output: REASON" on stderr. `command` is
// empty for `ur` itself (help, --version).
int finish_output(std::string_view command, int code);

}  // namespace ur::cli
