// Random values from the operating system's random source (getrandom(2)), for what a client
// must not predict: game ids and the dice seeds of new games.
#pragma once

#include <cstdint>

namespace ur::server {

// 64 bits from getrandom(2); throws std::system_error if the kernel cannot provide them.
std::uint64_t os_random_u64();

}  // namespace ur::server
