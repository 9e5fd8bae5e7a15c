// Drives the real `ur engine` binary (path in UR_BINARY) through pipes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <optional>
#include <random>
#include <thread>

#include "core/test_support.h"
#include "protocol/json.h"

namespace ur {
namespace {

using nlohmann::json;

// `ur engine` as a child process with its stdin and stdout connected to us.
class EngineProcess {
 public:
  EngineProcess() {
    std::signal(SIGPIPE, SIG_IGN);  // a crashed engine must fail the test, not kill it
    int to_engine[2];
    int from_engine[2];
    if (pipe(to_engine) != 0 || pipe(from_engine) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(to_engine[0], STDIN_FILENO);
      dup2(from_engine[1], STDOUT_FILENO);
      for (int fd : {to_engine[0], to_engine[1], from_engine[0], from_engine[1]}) close(fd);
      execl(UR_BINARY, UR_BINARY, "engine", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_engine[0]);
    close(from_engine[1]);
    input_ = fdopen(to_engine[1], "w");
    output_ = fdopen(from_engine[0], "r");
  }
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;
  ~EngineProcess() {
    if (input_) close_input();
    if (pid_ > 0) wait_for_exit();
    if (output_) std::fclose(output_);
  }

  void send(const std::string& line) {
    std::fputs(line.c_str(), input_);
    std::fputc('\n', input_);
    std::fflush(input_);
  }
  void send_raw(const std::string& bytes) {
    std::fwrite(bytes.data(), 1, bytes.size(), input_);  // NUL bytes included
    std::fflush(input_);
  }
  // Stops reading the answers, as `ur engine | head -1` does.
  void close_output() {
    std::fclose(output_);
    output_ = nullptr;
  }
  // The next answer line without its newline, or nothing at end of output.
  std::optional<std::string> receive() {
    char* buffer = nullptr;
    std::size_t capacity = 0;
    const ssize_t length = getline(&buffer, &capacity, output_);
    std::optional<std::string> line;
    if (length > 0) line = std::string(buffer, buffer[length - 1] == '\n' ? length - 1 : length);
    std::free(buffer);
    return line;
  }
  void close_input() {
    std::fclose(input_);
    input_ = nullptr;
  }
  // The exit code, or -1 when the engine died from a signal.
  int wait_for_exit() {
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  std::FILE* input_ = nullptr;
  std::FILE* output_ = nullptr;
};

const std::string kOpening = protocol::to_json(starting_position(finkel_rules())).dump();

TEST(EngineBinary, AnswersBadLinesWithErrorsAndKeepsGoing) {
  EngineProcess engine;
  const std::string good = R"({"cmd":"moves","roll":3,"position":)" + kOpening + "}";
  const json good_answer =
      json::parse(R"({"moves":[{"from":0,"to":3,"capture":false,"extra_throw":false}]})");
  const std::vector<std::pair<std::string, std::string>> bad_lines = {
      {"not json at all", "not valid JSON"},
      {R"({"cmd":"fly"})", "unknown cmd \"fly\"; known commands: "},
      {R"({"cmd":"moves","roll":2,"position":{"turn":"light","light":{"start":7,"home":1,"board":[]},"dark":{"start":7,"home":0,"board":[]}}})",
       "light has 8 pieces"},
      {R"({"cmd":"moves","roll":2,"position":{"turn":"light","light":{"start":6,"home":0,"board":[5]},"dark":{"start":6,"home":0,"board":[5]}}})",
       "both stand on shared square 5"},
      {R"({"cmd":"moves","roll":7,"position":)" + kOpening + "}", "roll must be an integer 0..4"},
      {R"({"cmd":"apply","roll":1,"move":{"from":3},"position":)" + kOpening + "}",
       "move from 3 is not legal with roll 1"},
      {R"({"cmd":"apply","roll":1,"move":null,"position":)" + kOpening + "}",
       "\"move\":null passes, but roll 1 has legal moves"},
      {R"({"cmd":"moves","roll":1,"position":{"turn":"light","light":{"start":0,"home":7,"board":[]},"dark":{"start":7,"home":0,"board":[]}}})",
       "the game is over: light has all pieces home"},
  };
  for (const auto& [line, expected] : bad_lines) {
    engine.send(line);
    const auto reply = engine.receive();
    ASSERT_TRUE(reply.has_value()) << "no answer to " << line;
    EXPECT_NE(json::parse(*reply).value("error", "").find(expected), std::string::npos)
        << line << " -> " << *reply;
    engine.send(good);
    const auto next = engine.receive();
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(json::parse(*next), good_answer);
  }
  // Blank lines get no answer; a CRLF line is answered like an LF line.
  engine.send_raw("\n   \n" + good + "\r\n");
  EXPECT_EQ(json::parse(engine.receive().value()), good_answer);
  engine.close_input();
  EXPECT_FALSE(engine.receive().has_value());
  EXPECT_EQ(engine.wait_for_exit(), 0);
}

// A line of many megabytes was held whole before it was refused (400 MB took 544 MB); a NUL
// byte ended the request early, so what followed it was ignored.
TEST(EngineBinary, OverlongLinesAndNulBytesAreRefusedAndTheEngineGoesOn) {
  EngineProcess engine;
  const std::string good = R"({"cmd":"moves","roll":3,"position":)" + kOpening + "}";
  engine.send(std::string(3 << 20, ' ') + "x");
  const std::string overlong = engine.receive().value();
  EXPECT_NE(overlong.find("request line is longer than 1048576 bytes"), std::string::npos)
      << overlong;
  engine.send_raw(good.substr(0, good.size() - 1) + std::string(1, '\0') + "} trailing\n");
  const std::string nul = engine.receive().value();
  EXPECT_NE(nul.find("NUL byte"), std::string::npos) << nul;
  engine.send(good);
  EXPECT_EQ(json::parse(engine.receive().value()).count("moves"), 1u);
  // A review found a line of exactly 1 MiB, then a CR and more bytes, answered for its first
  // MiB: the CR of a CRLF ending was stripped after the cut. Only a real CRLF ending goes.
  std::string padded = R"({"id":1,"cmd":"x","pad":")";
  padded += std::string((1 << 20) - padded.size() - 2, 'a') + "\"}";
  ASSERT_EQ(padded.size(), 1u << 20);
  engine.send(padded + "\r garbage");
  const std::string cut = engine.receive().value();
  EXPECT_NE(cut.find("request line is longer than 1048576 bytes"), std::string::npos) << cut;
  engine.send(padded + "\r");  // exactly 1 MiB with a CRLF ending: served
  EXPECT_NE(engine.receive().value().find("unknown cmd"), std::string::npos);
}

// With nobody reading its answers the engine died of SIGPIPE (exit 141, no message) instead of
// reporting the write error with exit 1 as docs/cli.md says.
TEST(EngineBinary, AClosedOutputIsAWriteErrorWithExitOne) {
  EngineProcess engine;
  engine.close_output();
  const std::string good = R"({"cmd":"moves","roll":3,"position":)" + kOpening + "}";
  for (int i = 0; i < 200; ++i) engine.send(good);
  engine.close_input();
  EXPECT_EQ(engine.wait_for_exit(), 1);
}

// One request per random position (under a random rule set), alternately "moves" and "apply"
// with a random legal move or a pass. Answers are compared as text: the engine writes
// members in a fixed (alphabetical) order, as nlohmann::json does here.
TEST(EngineBinary, AnswersAHundredThousandRandomPositionsWithoutError) {
  constexpr int kPositions = 100000;
  std::mt19937_64 random(2026);
  std::vector<std::string> requests;
  std::vector<std::string> expected;
  for (int i = 0; i < kPositions; ++i) {
    const Rules rules = testing::random_rules(random);
    Position position = testing::random_position(random, rules);
    while (is_game_over(rules, position)) position = testing::random_position(random, rules);
    const Roll roll = testing::random_roll(random, rules);
    const MoveList moves = legal_moves(rules, position, roll);
    json request = {{"id", i},
                    {"rules", protocol::to_json(rules)},
                    {"position", protocol::to_json(position)},
                    {"roll", roll}};
    if (i % 2 == 0) {
      request["cmd"] = "moves";
      json listed = json::array();
      for (const Move& move : moves) listed.push_back(protocol::to_json(move));
      expected.push_back(json{{"moves", listed}, {"id", i}}.dump());
    } else {
      request["cmd"] = "apply";
      const Move* chosen = moves.empty() ? nullptr : &moves[random() % moves.size()];
      request["move"] = chosen ? json{{"from", chosen->from}} : json(nullptr);
      const Position after = chosen ? apply_move(rules, position, *chosen) : pass_turn(position);
      const auto won = winner(rules, after);
      expected.push_back(json{
          {"position", protocol::to_json(after)},
          {"extra_throw", chosen && chosen->extra_throw},
          {"winner", won ? json(side_name(*won)) : json(nullptr)},
          {"id", i}}.dump());
    }
    requests.push_back(request.dump());
  }

  EngineProcess engine;
  std::thread writer([&] {
    for (const std::string& line : requests) engine.send(line);
    engine.close_input();
  });
  std::size_t answered = 0;
  int mismatches = 0;
  while (auto reply = engine.receive()) {
    ASSERT_LT(answered, expected.size());
    if (*reply != expected[answered] && ++mismatches <= 5) {
      ADD_FAILURE() << requests[answered] << "\n -> " << *reply << "\n expected "
                    << expected[answered];
    }
    ++answered;
  }
  writer.join();
  EXPECT_EQ(answered, requests.size());
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(engine.wait_for_exit(), 0);
}

}  // namespace
}  // namespace ur
