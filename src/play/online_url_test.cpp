#include "play/online_url.h"

#include <gtest/gtest.h>

namespace ur::play {
namespace {

const std::string kInvite = "0123456789abcdef0123456789abcdef";
const std::string kToken = std::string(64, 'a');

GameLink parsed(const std::string& url) {
  const auto result = parse_game_link(url);
  if (const auto* problem = std::get_if<std::string>(&result)) {
    ADD_FAILURE() << url << ": " << *problem;
    return {};
  }
  return std::get<GameLink>(result);
}

std::string problem(const std::string& url) {
  const auto result = parse_game_link(url);
  if (const auto* text = std::get_if<std::string>(&result)) return *text;
  ADD_FAILURE() << url << " was accepted";
  return "";
}

TEST(OnlineUrl, ReadsAServerAddressWithOrWithoutPortAndPath) {
  GameLink link = parsed("http://127.0.0.1:8080/");
  EXPECT_EQ(link.kind, LinkKind::Server);
  EXPECT_EQ(link.server.host, "127.0.0.1");
  EXPECT_EQ(link.server.port, 8080);
  EXPECT_EQ(link.server.origin(), "http://127.0.0.1:8080");
  link = parsed("  HTTP://Ur.Example.org  ");
  EXPECT_EQ(link.server.host, "ur.example.org");
  EXPECT_EQ(link.server.port, 80);
  EXPECT_EQ(link.server.origin(), "http://ur.example.org");
  link = parsed("http://localhost:9000/index.html?x=1");
  EXPECT_EQ(link.server.host, "localhost");
  EXPECT_EQ(link.server.port, 9000);
  link = parsed("http://[::1]:8080/");
  EXPECT_EQ(link.server.host, "::1");
  EXPECT_EQ(link.server.origin(), "http://[::1]:8080");
}

TEST(OnlineUrl, ReadsAnInviteAndASeat) {
  GameLink link = parsed("http://192.168.1.5:8080/#join=" + kInvite);
  EXPECT_EQ(link.kind, LinkKind::Join);
  EXPECT_EQ(link.invite, kInvite);
  EXPECT_EQ(link.server.host, "192.168.1.5");
  // Upper-case hex (a retyped link) reads as the code it is.
  link = parsed("http://h:1/#join=0123456789ABCDEF0123456789ABCDEF");
  EXPECT_EQ(link.invite, kInvite);
  link = parsed("http://h:1/#seat=g-0123456789abcdef." + kToken);
  EXPECT_EQ(link.kind, LinkKind::Seat);
  EXPECT_EQ(link.game_id, "g-0123456789abcdef");
  EXPECT_EQ(link.token, kToken);
  EXPECT_FALSE(link.side.has_value());
  // The page's links add the side.
  link = parsed("http://h:1/#seat=g-0123456789abcdef." + kToken + ".dark");
  EXPECT_EQ(link.token, kToken);
  EXPECT_EQ(link.side, Side::Dark);
}

TEST(OnlineUrl, PrintsThePagesLinks) {
  const ServerUrl server{"127.0.0.1", 8080};
  EXPECT_EQ(join_link(server, kInvite), "http://127.0.0.1:8080/#join=" + kInvite);
  EXPECT_EQ(seat_link(server, "g-1", kToken, Side::Light),
            "http://127.0.0.1:8080/#seat=g-1." + kToken + ".light");
  EXPECT_EQ(watch_link(server, "g-1"), "http://127.0.0.1:8080/#watch=g-1");
  // What is printed reads back.
  EXPECT_EQ(parsed(seat_link(server, "g-1", kToken, Side::Dark)).token, kToken);
  EXPECT_EQ(parsed(seat_link(server, "g-1", kToken, Side::Dark)).side, Side::Dark);
}

TEST(OnlineUrl, RefusesHttpsWithWhy) {
  const std::string text = problem("https://ur.example.org/#join=" + kInvite);
  EXPECT_NE(text.find("https:// is not supported"), std::string::npos) << text;
  EXPECT_NE(text.find("TLS-terminating client"), std::string::npos) << text;
}

TEST(OnlineUrl, RefusesBadLinksSayingWhatIsExpected) {
  EXPECT_EQ(problem(""), "the URL is empty; expected http://HOST:PORT/#join=CODE");
  EXPECT_EQ(problem("127.0.0.1:8080"),
            "\"127.0.0.1:8080\" is not an http:// URL; expected http://HOST:PORT/#join=CODE");
  EXPECT_EQ(problem("ftp://h/"), "\"ftp://\" is not http://; expected http://HOST:PORT/#join=CODE");
  EXPECT_EQ(problem("http://:8080/"), "the URL has no host; expected http://HOST:PORT/#join=CODE");
  EXPECT_EQ(problem("http://h:0/"), "the port \"0\" is not a number from 1 to 65535");
  EXPECT_EQ(problem("http://h:65536/"), "the port \"65536\" is not a number from 1 to 65535");
  EXPECT_EQ(problem("http://h:80a/"), "the port \"80a\" is not a number from 1 to 65535");
  EXPECT_EQ(problem("http://h:/"), "the port after \"h\" is missing");
  EXPECT_EQ(problem("http://bad_host!/"), "\"bad_host!\" is not a host name or address");
  EXPECT_EQ(problem("http://[::1/"), "the IPv6 address in \"[::1\" has no closing ]");
  EXPECT_NE(problem("http://ann@h/").find("names a user"), std::string::npos);
  EXPECT_EQ(problem("http://h/#join=abc"),
            "the invite code \"abc\" is not 32 hex digits (copy the whole link)");
  EXPECT_EQ(problem("http://h/#seat=g-1.abc"),
            "the seat link's \"g-1.abc\" is not GAME.TOKEN (a game id, a dot, 64 hex digits, and "
            "maybe .light or .dark)");
  EXPECT_NE(problem("http://h/#seat=g-1." + kToken + ".blue").find("is not GAME.TOKEN"),
            std::string::npos);
  EXPECT_NE(problem("http://h/#watch=g-1").find("only watches"), std::string::npos);
  EXPECT_EQ(problem("http://h/#play"),
            "the link's #play is neither #join=CODE nor #seat=GAME.TOKEN");
}

}  // namespace
}  // namespace ur::play
