// Memory for the solver's large arrays, backed by 2 MiB pages where the kernel allows it.
// Internal to src/solver.
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <new>

namespace ur::solver::detail {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Asks the kernel to back the whole 2 MiB pages of [data, data + bytes) with huge pages before
// they are first touched. Only a hint: where the kernel does not support it nothing changes.
void advise_huge_pages(void* data, std::size_t bytes);

// An allocator that gives arrays of 2 MiB or more whole huge pages; smaller arrays come from the
// ordinary allocator. The index's slot table (153 MB for Blitz) is read at random while planning:
// on 4 KiB pages it costs a fault for each fresh page (about 10-20 us on a virtual machine) and
// a TLB miss for most reads.
template <class T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t count) {
    if (count >
        (std::size_t{std::numeric_limits<std::ptrdiff_t>::max()} - kHugePageBytes) / sizeof(T)) {
      throw std::bad_array_new_length();
    }
    const std::size_t bytes = count * sizeof(T);
    if (bytes < kHugePageBytes) return std::allocator<T>{}.allocate(count);
    const std::size_t whole = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* data = ::operator new (whole, std::align_val_t{kHugePageBytes});
    advise_huge_pages(data, whole);
    return static_cast<T*>(data);
  }
  void deallocate(T* data, std::size_t count) noexcept {
    if (count * sizeof(T) < kHugePageBytes) {
      std::allocator<T>{}.deallocate(data, count);
    } else {
      ::operator delete (data, std::align_val_t{kHugePageBytes});
    }
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace ur::solver::detail
