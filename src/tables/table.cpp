#include "tables/table.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>

#include "core/rule_sets.h"
#include "solver/solver.h"

namespace ur::tables {
namespace {

static_assert(std::endian::native == std::endian::little, "table files are little-endian");

constexpr std::array<char, 8> kMagic = {'U', 'R', 'T', 'A', 'B', 'L', 'E', '\0'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kIndexScheme = 1;   // solver::PositionIndex layout, see table-format.md
constexpr std::size_t kHeaderBytes = 4096;  // values start page-aligned
constexpr std::size_t kHeaderChecked = 88;  // header bytes 0-87 are checked, and the columns block

// Field offsets in the header.
enum : std::size_t {
  kAtMagic = 0,
  kAtVersion = 8,
  kAtHeaderBytes = 12,
  kAtPieces = 16,
  kAtBearOff = 17,
  kAtRouteLength = 18,
  kAtDice = 19,
  kAtRosettes = 20,
  kAtShared = 24,
  kAtSafe = 28,
  kAtCaptureExtra = 32,
  kAtIndexScheme = 36,
  kAtCount = 40,
  kAtEncoding = 48,
  kAtValueBytes = 52,
  kAtValuesChecksum = 56,
  kAtResidual = 64,
  kAtTolerance = 72,
  kAtStartValue = 80,
  kAtHeaderChecksum = 88,
  // The rule set's other columns, after the fields above (which keep their places, so tables
  // written before these existed still load as Finkel's layout: there the block is zero).
  kAtSpecMarker = 96,  // 1 when the columns below are written
  kAtBoard = 97,
  kAtPath = 98,
  kAtZeroCountsAsMax = 99,
  kAtSafeRosettes = 100,
  kAtRosetteExtra = 101,
  kSpecEnd = 104,
};
constexpr std::uint8_t kSpecWritten = 1;

template <class T>
void put(std::vector<unsigned char>& bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
}
template <class T>
T get(const unsigned char* bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes + at, sizeof value);
  return value;
}

// A fast 64-bit checksum of 8-byte words (any change to one word changes it).
class Checksum {
 public:
  void add(const void* data, std::size_t bytes) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (; bytes >= 8; bytes -= 8, p += 8) {
      std::uint64_t word;
      std::memcpy(&word, p, 8);
      mix(word);
    }
    if (bytes) {
      std::uint64_t word = 0;
      std::memcpy(&word, p, bytes);
      mix(word ^ (std::uint64_t{bytes} << 56));
    }
  }
  std::uint64_t value() const { return state_ ^ (state_ >> 31); }

 private:
  void mix(std::uint64_t word) {
    state_ = std::rotl(state_ ^ word, 27) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  }
  std::uint64_t state_ = 0x243F6A8885A308D3ull;
};

std::uint64_t checksum(const void* data, std::size_t bytes) {
  Checksum sum;
  sum.add(data, bytes);
  return sum.value();
}

// Bytes 0-87 and, when written, the columns block 96-103.
std::uint64_t header_checksum(const unsigned char* header) {
  Checksum sum;
  sum.add(header, kHeaderChecked);
  if (header[kAtSpecMarker] != 0) sum.add(header + kAtSpecMarker, kSpecEnd - kAtSpecMarker);
  return sum.value();
}

// "Masters, 2 pieces, bear-off exact": the set is always named, Finkel too, so that a
// mismatch between two sets says which two. The title names an any-throw bear-off already.
std::string describe(const Rules& rules) {
  return rule_set_title(rules) + (rules.bear_off == BearOff::Exact ? ", bear-off exact" : "");
}

// The columns in which `table` differs from `wanted`: "path masters, not finkel; dice 3, not 4".
std::string differences(const RuleSpec& table, const RuleSpec& wanted) {
  std::string text;
  auto differ = [&text](std::string_view column, std::string had, std::string want) {
    if (had == want) return;
    if (!text.empty()) text += "; ";
    text += std::string(column) + " " + had + ", not " + want;
  };
  auto yes = [](bool flag) { return std::string(flag ? "yes" : "no"); };
  differ("pieces", std::to_string(table.pieces), std::to_string(wanted.pieces));
  differ("bear-off", std::string(to_string(table.bear_off)),
         std::string(to_string(wanted.bear_off)));
  differ("board", std::string(board_name(table.board)), std::string(board_name(wanted.board)));
  differ("path", std::string(path_name(table.path)), std::string(path_name(wanted.path)));
  differ("dice", std::to_string(table.dice), std::to_string(wanted.dice));
  differ("zero roll", std::string(zero_roll_name(table.zero_counts_as_max)),
         std::string(zero_roll_name(wanted.zero_counts_as_max)));
  differ("safe rosettes", yes(table.safe_rosettes), yes(wanted.safe_rosettes));
  differ("rosette extra throw", yes(table.rosette_gives_extra_throw),
         yes(wanted.rosette_gives_extra_throw));
  differ("capture extra throw", yes(table.capture_gives_extra_throw),
         yes(wanted.capture_gives_extra_throw));
  return text;
}

// The rules a checked header describes, built from its columns; or why they cannot be.
std::variant<Rules, std::string> header_rules(const unsigned char* bytes) {
  RuleSpec spec;  // Finkel's columns, for tables written before the columns block
  spec.pieces = get<std::uint8_t>(bytes, kAtPieces);
  const auto bear_off = get<std::uint8_t>(bytes, kAtBearOff);
  if (bear_off > 1) return "bear-off code " + std::to_string(bear_off) + " is unknown";
  spec.bear_off = static_cast<BearOff>(bear_off);
  spec.dice = get<std::uint8_t>(bytes, kAtDice);
  spec.capture_gives_extra_throw = get<std::uint8_t>(bytes, kAtCaptureExtra) != 0;
  const auto marker = get<std::uint8_t>(bytes, kAtSpecMarker);
  if (marker == kSpecWritten) {
    const auto board = get<std::uint8_t>(bytes, kAtBoard);
    const auto path = get<std::uint8_t>(bytes, kAtPath);
    if (board > static_cast<std::uint8_t>(BoardShape::Aseb)) {
      return "board code " + std::to_string(board) + " is unknown";
    }
    if (path > static_cast<std::uint8_t>(PathKind::Skiriuk)) {
      return "path code " + std::to_string(path) + " is unknown";
    }
    spec.board = static_cast<BoardShape>(board);
    spec.path = static_cast<PathKind>(path);
    spec.zero_counts_as_max = get<std::uint8_t>(bytes, kAtZeroCountsAsMax) != 0;
    spec.safe_rosettes = get<std::uint8_t>(bytes, kAtSafeRosettes) != 0;
    spec.rosette_gives_extra_throw = get<std::uint8_t>(bytes, kAtRosetteExtra) != 0;
  } else if (marker != 0) {
    return "its rules block has unknown marker " + std::to_string(marker);
  }
  if (auto why = why_unplayable(spec)) return *why;
  const Rules rules(spec);
  // The derived fields are kept for readers of the raw header; they must agree.
  if (get<std::uint8_t>(bytes, kAtRouteLength) != rules.route_length ||
      get<std::uint32_t>(bytes, kAtRosettes) != rules.rosettes ||
      get<std::uint32_t>(bytes, kAtShared) != rules.shared ||
      get<std::uint32_t>(bytes, kAtSafe) != rules.safe) {
    return "its route length and square masks do not match its rules (" + rule_set_title(rules) +
           ")";
  }
  return rules;
}

}  // namespace

double allowed_residual(const Table& table) {
  const double rounding = table.encoding() == Encoding::Fixed16   ? 0.5 / 65535.0
                          : table.encoding() == Encoding::Float32 ? std::ldexp(1.0, -24)
                                                                  : std::ldexp(1.0, -53);
  return 2.0 * rounding + 2.0 * table.info().tolerance + 1e-12;
}

std::string rules_mismatch(const Rules& table, const Rules& wanted) {
  return "for " + describe(table) + ", not for " + describe(wanted) + " (" +
         differences(table.spec(), wanted.spec()) + ")";
}

std::string_view to_string(Encoding encoding) {
  switch (encoding) {
    case Encoding::Fixed16:
      return "u16";
    case Encoding::Float32:
      return "f32";
    case Encoding::Float64:
      break;
  }
  return "f64";
}

std::optional<Encoding> encoding_from_string(std::string_view name) {
  for (Encoding encoding : {Encoding::Fixed16, Encoding::Float32, Encoding::Float64}) {
    if (name == to_string(encoding)) return encoding;
  }
  return std::nullopt;
}

int bytes_per_value(Encoding encoding) {
  switch (encoding) {
    case Encoding::Fixed16:
      return 2;
    case Encoding::Float32:
      return 4;
    case Encoding::Float64:
      break;
  }
  return 8;
}

namespace {

std::mutex& table_directory_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::optional<std::filesystem::path>& chosen_table_directory() {
  static std::optional<std::filesystem::path> directory;
  return directory;
}

}  // namespace

void set_table_directory(std::filesystem::path directory) {
  std::lock_guard lock(table_directory_mutex());
  chosen_table_directory() = std::move(directory);
}

std::filesystem::path default_table_directory() {
  {
    std::lock_guard lock(table_directory_mutex());
    if (chosen_table_directory()) return *chosen_table_directory();
  }
  const char* data_home = std::getenv("XDG_DATA_HOME");
  if (data_home && data_home[0] == '/') return std::filesystem::path(data_home) / "ur";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && home[0] ? home : ".") / ".local" / "share" / "ur";
}

std::filesystem::path default_table_path(const Rules& rules) {
  // Finkel's files keep their old names; other sets name theirs. A custom set names every
  // column, so that two custom sets never share a file (one solve would replace the other's).
  const std::string_view set = rule_set_name(rules);
  std::string prefix = set == "finkel" ? "ur-" : "ur-" + std::string(set) + "-";
  if (set == "custom") {
    const RuleSpec spec = rules.spec();
    prefix += std::string(board_name(spec.board)) + "-board-" + std::string(path_name(spec.path)) +
              "-path-" + std::to_string(spec.dice) + "-dice-zero-" +
              std::string(zero_roll_name(spec.zero_counts_as_max)) + "-" +
              (spec.safe_rosettes ? "safe" : "unsafe") + "-rosettes-" +
              (spec.rosette_gives_extra_throw ? "rosette" : "no-rosette") + "-throw-" +
              (spec.capture_gives_extra_throw ? "capture" : "no-capture") + "-throw-";
  }
  return default_table_directory() / (prefix + std::to_string(rules.pieces) + "p-" +
                                      std::string(to_string(rules.bear_off)) + ".table");
}

std::vector<std::filesystem::path> remove_partials_of_dead_writers(
    const std::filesystem::path& path) {
  std::vector<std::filesystem::path> removed;
  const std::string prefix = path.filename().string() + ".partial-";
  const std::filesystem::path directory = path.has_parent_path() ? path.parent_path() : ".";
  std::error_code error;
  for (std::filesystem::directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string_view digits = std::string_view(name).substr(prefix.size());
    pid_t pid = 0;
    const auto [stop, parse_error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), pid);
    if (parse_error != std::errc() || stop != digits.data() + digits.size() || pid <= 0) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    std::error_code remove_error;
    if (it->is_regular_file(remove_error) && std::filesystem::remove(it->path(), remove_error)) {
      removed.push_back(it->path());
    }
  }
  return removed;
}

std::optional<std::string> write_table(const std::filesystem::path& path, const Rules& rules,
                                       const std::vector<double>& values, Encoding encoding,
                                       const SolveInfo& info, const std::atomic<bool>* cancel) {
  const solver::PositionIndex index(rules);
  if (values.size() != index.size()) {
    return "internal error: " + std::to_string(values.size()) + " values for " +
           std::to_string(index.size()) + " positions";
  }
  std::error_code error;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), error);
  if (error) {
    return "cannot create directory " + path.parent_path().string() + ": " + error.message();
  }
  const std::filesystem::path temporary = path.string() + ".partial-" + std::to_string(::getpid());
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  if (!out) return "cannot write " + temporary.string() + ": " + std::strerror(errno);
  const auto fail = [&](std::string message) {
    out.close();
    std::filesystem::remove(temporary, error);
    return std::optional<std::string>(std::move(message));
  };

  std::vector<unsigned char> header(kHeaderBytes, 0);
  out.write(reinterpret_cast<const char*>(header.data()), kHeaderBytes);  // filled in below
  Checksum values_checksum;
  constexpr std::size_t kChunk = 1 << 16;  // values converted at a time
  std::vector<unsigned char> buffer(kChunk * 8);
  const std::size_t width = bytes_per_value(encoding);
  for (std::size_t first = 0; first < values.size(); first += kChunk) {
    if (cancel && cancel->load()) return fail("interrupted; no table written");
    const std::size_t count = std::min(kChunk, values.size() - first);
    for (std::size_t i = 0; i < count; ++i) {
      const double v = std::clamp(values[first + i], 0.0, 1.0);
      unsigned char* at = buffer.data() + i * width;
      if (encoding == Encoding::Fixed16) {
        const auto fixed = static_cast<std::uint16_t>(std::lround(v * 65535.0));
        std::memcpy(at, &fixed, 2);
      } else if (encoding == Encoding::Float32) {
        const auto single = static_cast<float>(v);
        std::memcpy(at, &single, 4);
      } else {
        std::memcpy(at, &v, 8);
      }
    }
    values_checksum.add(buffer.data(), count * width);
    out.write(reinterpret_cast<const char*>(buffer.data()), count * width);
  }

  std::memcpy(header.data() + kAtMagic, kMagic.data(), kMagic.size());
  put<std::uint32_t>(header, kAtVersion, kVersion);
  put<std::uint32_t>(header, kAtHeaderBytes, kHeaderBytes);
  put<std::uint8_t>(header, kAtPieces, static_cast<std::uint8_t>(rules.pieces));
  put<std::uint8_t>(header, kAtBearOff, static_cast<std::uint8_t>(rules.bear_off));
  put<std::uint8_t>(header, kAtRouteLength, static_cast<std::uint8_t>(rules.route_length));
  put<std::uint8_t>(header, kAtDice, static_cast<std::uint8_t>(rules.dice));
  put<std::uint32_t>(header, kAtRosettes, rules.rosettes);
  put<std::uint32_t>(header, kAtShared, rules.shared);
  put<std::uint32_t>(header, kAtSafe, rules.safe);
  put<std::uint8_t>(header, kAtCaptureExtra, rules.capture_gives_extra_throw ? 1 : 0);
  put<std::uint8_t>(header, kAtSpecMarker, kSpecWritten);
  put<std::uint8_t>(header, kAtBoard, static_cast<std::uint8_t>(rules.board));
  put<std::uint8_t>(header, kAtPath, static_cast<std::uint8_t>(rules.path));
  put<std::uint8_t>(header, kAtZeroCountsAsMax, rules.zero_counts_as_max ? 1 : 0);
  put<std::uint8_t>(header, kAtSafeRosettes, rules.safe_rosettes ? 1 : 0);
  put<std::uint8_t>(header, kAtRosetteExtra, rules.rosette_gives_extra_throw ? 1 : 0);
  put<std::uint32_t>(header, kAtIndexScheme, kIndexScheme);
  put<std::uint64_t>(header, kAtCount, values.size());
  put<std::uint32_t>(header, kAtEncoding, static_cast<std::uint32_t>(encoding));
  put<std::uint32_t>(header, kAtValueBytes, static_cast<std::uint32_t>(width));
  put<std::uint64_t>(header, kAtValuesChecksum, values_checksum.value());
  put<double>(header, kAtResidual, info.residual);
  put<double>(header, kAtTolerance, info.tolerance);
  put<double>(header, kAtStartValue, values[index.rank(starting_position(rules))]);
  put<std::uint64_t>(header, kAtHeaderChecksum, header_checksum(header.data()));
  out.seekp(0);
  out.write(reinterpret_cast<const char*>(header.data()), kHeaderBytes);
  out.flush();
  if (!out) return fail("cannot write " + temporary.string() + ": " + std::strerror(errno));
  out.close();
  std::filesystem::rename(temporary, path, error);
  if (error) return fail("cannot rename into " + path.string() + ": " + error.message());
  return std::nullopt;
}

bool starts_like_a_table(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  std::ifstream in(path, std::ios::binary);
  std::array<char, kMagic.size()> start{};
  return in.read(start.data(), start.size()) && start == kMagic;
}

std::variant<std::shared_ptr<const Table>, std::string> Table::open(
    const std::filesystem::path& path, const std::optional<Rules>& expected) {
  const std::string name = path.string();
  // Non-blocking, so that a FIFO named as the table is refused below instead of waiting for a
  // writer forever; reads of a regular file do not block either way.
  const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return "cannot open table " + name + ": " + std::strerror(errno);
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    return "table " + name + " is not a regular file";
  }
  const auto file_bytes = static_cast<std::size_t>(status.st_size);
  if (file_bytes < kHeaderBytes) {
    ::close(fd);
    return "table " + name + " is too short (" + std::to_string(file_bytes) +
           " bytes) to hold a header; it is not a ur table or was cut off";
  }
  void* mapping = ::mmap(nullptr, file_bytes, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (mapping == MAP_FAILED) return "cannot map table " + name + ": " + std::strerror(errno);
  const auto unmap_with = [&](std::string message) {
    ::munmap(mapping, file_bytes);
    return message;
  };
  const auto* bytes = static_cast<const unsigned char*>(mapping);
  if (std::memcmp(bytes + kAtMagic, kMagic.data(), kMagic.size()) != 0) {
    return unmap_with(name + " is not a ur table (bad magic)");
  }
  if (get<std::uint32_t>(bytes, kAtVersion) != kVersion) {
    return unmap_with("table " + name + " has format version " +
                      std::to_string(get<std::uint32_t>(bytes, kAtVersion)) + "; this ur reads " +
                      std::to_string(kVersion) + ": solve again with `ur solve`");
  }
  if (get<std::uint64_t>(bytes, kAtHeaderChecksum) != header_checksum(bytes) ||
      get<std::uint32_t>(bytes, kAtHeaderBytes) != kHeaderBytes) {
    return unmap_with("table " + name + " has a damaged header (checksum mismatch)");
  }
  auto read_rules = header_rules(bytes);
  if (auto* problem = std::get_if<std::string>(&read_rules)) {
    return unmap_with("table " + name + " has a header this ur cannot read: " + *problem);
  }
  const Rules rules = std::get<Rules>(read_rules);
  if (expected && *expected != rules) {
    return unmap_with("table " + name + " is " + rules_mismatch(rules, *expected));
  }
  // Only Finkel's geometry is indexed and solved for now.
  if (auto problem = solver::unsupported_rules(rules)) {
    return unmap_with("table " + name + " has rules this ur cannot index: " + *problem);
  }
  if (get<std::uint32_t>(bytes, kAtIndexScheme) != kIndexScheme) {
    return unmap_with("table " + name + " uses an unknown index scheme");
  }
  const auto encoding_code = get<std::uint32_t>(bytes, kAtEncoding);
  if (encoding_code < 1 || encoding_code > 3) {
    return unmap_with("table " + name + " has unknown value encoding " +
                      std::to_string(encoding_code));
  }
  const auto encoding = static_cast<Encoding>(encoding_code);
  if (get<std::uint32_t>(bytes, kAtValueBytes) !=
      static_cast<std::uint32_t>(bytes_per_value(encoding))) {
    return unmap_with("table " + name + " has a damaged header: " +
                      std::to_string(get<std::uint32_t>(bytes, kAtValueBytes)) +
                      " bytes a value for " + std::string(to_string(encoding)) +
                      " values, expected " + std::to_string(bytes_per_value(encoding)));
  }
  // The rest of the header is reserved and written as zeros (docs/table-format.md).
  for (std::size_t at = kSpecEnd; at < kHeaderBytes; ++at) {
    if (bytes[at] != 0) {
      return unmap_with("table " + name + " has a damaged header: reserved byte " +
                        std::to_string(at) + " is " + std::to_string(bytes[at]) + ", not 0");
    }
  }
  std::shared_ptr<Table> table(new Table(rules));
  const std::uint64_t count = get<std::uint64_t>(bytes, kAtCount);
  if (count != table->index_.size()) {
    return unmap_with("table " + name + " holds " + std::to_string(count) + " values but " +
                      describe(rules) + " has " + std::to_string(table->index_.size()) +
                      " positions");
  }
  const std::size_t value_bytes = count * bytes_per_value(encoding);
  if (file_bytes != kHeaderBytes + value_bytes) {
    return unmap_with("table " + name + " is " + std::to_string(file_bytes) + " bytes, expected " +
                      std::to_string(kHeaderBytes + value_bytes) + "; it was cut off or extended");
  }
  if (checksum(bytes + kHeaderBytes, value_bytes) != get<std::uint64_t>(bytes, kAtValuesChecksum)) {
    return unmap_with("table " + name + " is damaged: the values' checksum does not match");
  }
  // Float encodings hold whatever their bytes say (a NaN passes every comparison): each value
  // must be a chance from 0 to 1. Fixed16 values are always within it.
  if (encoding != Encoding::Fixed16) {
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::size_t at = kHeaderBytes + i * bytes_per_value(encoding);
      const double value =
          encoding == Encoding::Float32 ? get<float>(bytes, at) : get<double>(bytes, at);
      if (!(value >= 0.0 && value <= 1.0)) {
        std::ostringstream shown;
        shown << value;
        return unmap_with("table " + name + " is damaged: value " + std::to_string(i) + " is " +
                          shown.str() + ", not a chance from 0 to 1");
      }
    }
  }
  ::madvise(mapping, file_bytes, MADV_RANDOM);
  table->encoding_ = encoding;
  table->info_ = {get<double>(bytes, kAtResidual), get<double>(bytes, kAtTolerance)};
  table->path_ = path;
  table->mapping_ = mapping;
  table->mapping_bytes_ = file_bytes;
  table->data_ = bytes + kHeaderBytes;
  return std::shared_ptr<const Table>(std::move(table));
}

std::shared_ptr<const Table> Table::from_values(const Rules& rules, std::vector<double> values) {
  std::shared_ptr<Table> table(new Table(rules));
  table->owned_ = std::move(values);
  table->data_ = table->owned_.data();
  table->encoding_ = Encoding::Float64;
  return table;
}

Table::~Table() {
  if (mapping_) ::munmap(mapping_, mapping_bytes_);
}

namespace {

Position mover_view(const Position& position) {
  return position.turn == Side::Light ? position : mirror(position);
}

}  // namespace

double evaluate(const Table& table, const Position& position) {
  const Rules& rules = table.rules();
  if (const std::optional<Side> won = winner(rules, position)) {
    return *won == position.turn ? 1.0 : 0.0;
  }
  return table.value(table.index().rank(position));
}

std::vector<MoveHint> hints(const Table& table, const Position& position, Roll roll) {
  const Position view = mover_view(position);
  const auto value_of = [&table](std::uint64_t at) { return table.value(at); };
  std::vector<MoveHint> result;
  for (const Move& move : legal_moves(table.rules(), view, roll)) {
    result.push_back({move, solver::value_after_move(table.index(), view, move, value_of)});
  }
  std::stable_sort(result.begin(), result.end(),
                   [](const MoveHint& a, const MoveHint& b) { return a.win > b.win; });
  return result;
}

double pass_value(const Table& table, const Position& position) {
  const auto value_of = [&table](std::uint64_t at) { return table.value(at); };
  return solver::value_after_pass(table.index(), mover_view(position), value_of);
}

}  // namespace ur::tables
