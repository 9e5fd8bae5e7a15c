#include "server/os_random.h"

#include <sys/random.h>

#include <cerrno>
#include <cstddef>
#include <system_error>

namespace ur::server {

std::uint64_t os_random_u64() {
  std::uint64_t value = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(&value);
  std::size_t filled = 0;
  while (filled < sizeof value) {
    const ssize_t got = getrandom(bytes + filled, sizeof value - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "getrandom");
    }
    filled += static_cast<std::size_t>(got);
  }
  return value;
}

}  // namespace ur::server
