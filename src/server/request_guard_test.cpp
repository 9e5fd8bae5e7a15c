#include "server/request_guard.h"

#include <gtest/gtest.h>

namespace ur::server {
namespace {

using namespace std::chrono_literals;

RequestGuard guard(const std::string& host, std::vector<std::string> trusted = {}) {
  GuardOptions options;
  options.listen_host = host;
  options.port = 8080;
  for (const auto& origin : trusted) {
    options.trusted_origins.push_back(parse_origin_option(origin, "--allow-origin"));
  }
  return RequestGuard(std::move(options));
}

// The status of the refusal, or 0 when the request may go on.
int refusal(const RequestGuard& guard, std::string_view method,
            std::optional<std::string_view> host,
            std::optional<std::string_view> origin = std::nullopt,
            std::optional<std::string_view> content_type = std::nullopt, std::size_t body_size = 0,
            bool upgrade = false) {
  const auto refused = guard.check({method, host, origin, content_type, body_size, upgrade});
  return refused ? refused->status() : 0;
}

TEST(RequestGuard, ParsesOriginsAndHosts) {
  EXPECT_EQ(parse_origin("http://127.0.0.1:8080"), (Origin{"http", "127.0.0.1", 8080}));
  EXPECT_EQ(parse_origin("HTTPS://Ur.Example.org"), (Origin{"https", "ur.example.org", 443}));
  EXPECT_EQ(parse_origin("http://[::1]:9000"), (Origin{"http", "[::1]", 9000}));
  EXPECT_EQ(parse_origin("https://ur.example.org:443")->text(), "https://ur.example.org");
  EXPECT_FALSE(parse_origin("null"));
  EXPECT_FALSE(parse_origin("http://x.org/path"));
  EXPECT_FALSE(parse_origin("ftp://x.org"));
  EXPECT_FALSE(parse_origin("http://x.org:99999"));
  EXPECT_FALSE(parse_origin("http://"));

  EXPECT_EQ(parse_authority("LocalHost:8080")->host, "localhost");
  EXPECT_EQ(parse_authority("[::1]:8080")->port, 8080);
  EXPECT_FALSE(parse_authority("[::1]")->port);
  EXPECT_FALSE(parse_authority("a b"));
  EXPECT_FALSE(parse_authority("host:port"));
  EXPECT_FALSE(parse_authority("[zz]:80"));
}

TEST(RequestGuard, OptionValuesAreValidatedWithClearErrors) {
  EXPECT_EQ(parse_origin_option("https://ur.example.org/", "--public-url").text(),
            "https://ur.example.org");
  for (const char* bad : {"ur.example.org", "ftp://ur.example.org", "https://ur.example.org/ur",
                          "https://ur.example.org:0", "https://", "https://user@ur.example.org"}) {
    try {
      parse_origin_option(bad, "--public-url");
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& error) {
      const std::string message = error.what();
      EXPECT_TRUE(message.starts_with("--public-url \"")) << message;
      EXPECT_NE(message.find("expected an origin such as"), std::string::npos) << message;
    }
  }
}

TEST(RequestGuard, HostMustBeOneTheServerAnswersTo) {
  const RequestGuard local = guard("127.0.0.1");
  EXPECT_EQ(refusal(local, "GET", "127.0.0.1:8080"), 0);
  EXPECT_EQ(refusal(local, "GET", "localhost:8080"), 0);
  EXPECT_EQ(refusal(local, "GET", "[::1]:8080"), 0);
  EXPECT_EQ(refusal(local, "GET", "127.0.0.1"), 0);  // curl and proxies may leave the port out
  EXPECT_EQ(refusal(local, "GET", "127.0.0.1:9090"), 421);
  EXPECT_EQ(refusal(local, "GET", "evil.example:8080"), 421);  // DNS rebinding
  EXPECT_EQ(refusal(local, "GET", "192.168.1.5:8080"), 421);
  EXPECT_EQ(refusal(local, "GET", std::nullopt), 400);
  EXPECT_EQ(refusal(local, "GET", "not a host"), 400);
  const auto refused =
      local.check({"GET", "evil.example:8080", std::nullopt, std::nullopt, 0, false});
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), "bad_host");
  EXPECT_NE(std::string(refused->what()).find("127.0.0.1:8080"), std::string::npos);

  const RequestGuard proxied = guard("127.0.0.1", {"https://ur.example.org"});
  EXPECT_EQ(refusal(proxied, "GET", "ur.example.org"), 0);
  EXPECT_EQ(refusal(proxied, "GET", "ur.example.org:443"), 0);
  EXPECT_EQ(refusal(proxied, "GET", "ur.example.org:8080"), 421);

  // Every IP address of the machine, but no name but localhost: a rebinding page's Host is
  // always a name.
  const RequestGuard everywhere = guard("0.0.0.0");
  EXPECT_TRUE(everywhere.wildcard());
  EXPECT_EQ(refusal(everywhere, "GET", "192.168.1.5:8080"), 0);
  EXPECT_EQ(refusal(everywhere, "GET", "[fe80::1]:8080"), 0);
  EXPECT_EQ(refusal(everywhere, "GET", "localhost:8080"), 0);
  EXPECT_EQ(refusal(everywhere, "GET", "myhost.lan:8080"), 421);
  EXPECT_EQ(refusal(guard("0.0.0.0", {"http://myhost.lan:8080"}), "GET", "myhost.lan:8080"), 0);

  const RequestGuard lan = guard("192.168.1.5");
  EXPECT_EQ(refusal(lan, "GET", "192.168.1.5:8080"), 0);
  EXPECT_EQ(refusal(lan, "GET", "localhost:8080"), 421);
  EXPECT_EQ(refusal(guard("::1"), "GET", "[::1]:8080"), 0);
}

TEST(RequestGuard, StateChangesAndUpgradesOnlyFromTheServersOwnOrAllowedOrigins) {
  const RequestGuard local = guard("127.0.0.1", {"https://ur.example.org"});
  const auto host = std::optional<std::string_view>("127.0.0.1:8080");
  EXPECT_EQ(refusal(local, "POST", host), 0);  // no Origin: not a browser
  EXPECT_EQ(refusal(local, "POST", host, "http://127.0.0.1:8080"), 0);
  EXPECT_EQ(refusal(local, "POST", host, "http://localhost:8080"), 0);
  EXPECT_EQ(refusal(local, "DELETE", host, "http://[::1]:8080"), 0);
  EXPECT_EQ(refusal(local, "POST", host, "https://ur.example.org"), 0);
  EXPECT_EQ(refusal(local, "POST", host, "http://evil.example"), 403);
  EXPECT_EQ(refusal(local, "POST", host, "http://127.0.0.1:3000"), 403);  // another local site
  EXPECT_EQ(refusal(local, "PUT", host, "null"), 403);
  EXPECT_EQ(refusal(local, "GET", host, "http://evil.example", std::nullopt, 0, true), 403);
  EXPECT_EQ(refusal(local, "GET", host, "http://127.0.0.1:8080", std::nullopt, 0, true), 0);
  // Reading is not guarded by Origin (the browser keeps foreign pages from reading answers).
  EXPECT_EQ(refusal(local, "GET", host, "http://evil.example"), 0);

  const auto refused = local.check({"POST", host, "http://evil.example", std::nullopt, 0, false});
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), "bad_origin");
  EXPECT_EQ(refused->details()["origin"], "http://evil.example");
  EXPECT_EQ(refused->details()["allowed"][0], "http://127.0.0.1:8080");
  EXPECT_NE(std::string(refused->what()).find("https://ur.example.org"), std::string::npos);

  // Bound everywhere: the page's origin must be the address the request went to.
  const RequestGuard everywhere = guard("0.0.0.0");
  EXPECT_EQ(refusal(everywhere, "POST", "192.168.1.5:8080", "http://192.168.1.5:8080"), 0);
  EXPECT_EQ(refusal(everywhere, "POST", "192.168.1.5:8080", "http://192.168.1.9:8080"), 403);
}

TEST(RequestGuard, BodiesMustBeJson) {
  const RequestGuard local = guard("127.0.0.1");
  const auto host = std::optional<std::string_view>("127.0.0.1:8080");
  EXPECT_EQ(refusal(local, "POST", host, std::nullopt, "application/json", 2), 0);
  EXPECT_EQ(refusal(local, "POST", host, std::nullopt, "Application/JSON; charset=utf-8", 2), 0);
  EXPECT_EQ(refusal(local, "POST", host, std::nullopt, std::nullopt, 0), 0);  // a bare intent
  EXPECT_EQ(refusal(local, "POST", host, std::nullopt, "text/plain", 2), 415);
  EXPECT_EQ(refusal(local, "POST", host, std::nullopt, "text/plain", 0), 415);  // an empty form
  EXPECT_EQ(refusal(local, "POST", host, std::nullopt, "application/x-www-form-urlencoded", 2),
            415);
  EXPECT_EQ(refusal(local, "POST", host, std::nullopt, std::nullopt, 2), 415);
  const auto refused = local.check({"POST", host, std::nullopt, "text/plain", 2, false});
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), "bad_content_type");
  EXPECT_NE(std::string(refused->what()).find("text/plain"), std::string::npos);
}

// A review found that /api/games/%41B... and absolute-form targets (GET http://host/api/...,
// which HTTP/1.1 servers must accept) were routed undecoded, so they reached no route.
TEST(RequestTarget, RoutesReadTheDecodedOriginForm) {
  const auto host = std::optional<std::string_view>("127.0.0.1:8080");
  const auto routed = [&](std::string_view target,
                          std::optional<std::string_view> host_header = std::nullopt) {
    const auto result = origin_form_target(target, host_header ? host_header : host);
    const auto* text = std::get_if<std::string>(&result);
    return text ? *text : "refused: " + std::string(std::get<ApiError>(result).what());
  };
  EXPECT_EQ(routed("/api/games/abc?x=%2F"), "/api/games/abc?x=%2F");  // the query as sent
  EXPECT_EQ(routed("/api/games/%61b%43"), "/api/games/abC");
  EXPECT_EQ(routed("/a%20b"), "/a b");
  EXPECT_EQ(routed("http://127.0.0.1:8080/api/health"), "/api/health");
  EXPECT_EQ(routed("HTTP://127.0.0.1:8080"), "/");
  EXPECT_EQ(routed("http://127.0.0.1:8080?q"), "/?q");
  EXPECT_EQ(routed("http://Example.org/x", "example.org:80"), "/x");
  for (const auto* refused :
       {"http://evil.example/api/health", "http://127.0.0.1:9/api", "https://127.0.0.1/api",
        "ftp://127.0.0.1:8080/", "api/health", "/a%2Fb", "/a%2fb", "/a%3Fb", "/a%00b", "/a%0a",
        "/a%", "/a%4", "/a%G1", "/a%%41"}) {
    const auto result = origin_form_target(refused, host);
    ASSERT_TRUE(std::holds_alternative<ApiError>(result)) << refused;
    EXPECT_EQ(std::get<ApiError>(result).status(), 400) << refused;
    EXPECT_EQ(std::get<ApiError>(result).code(), "bad_request") << refused;
  }
  EXPECT_EQ(routed("/a%2Fb"),
            "refused: The path \"/a%2Fb\" encodes %2F; a path may not encode /, ?, # or control "
            "characters.");
  EXPECT_EQ(routed("http://evil.example/"),
            "refused: The request target names the host \"evil.example\" but the Host header "
            "says \"127.0.0.1:8080\"; send the same host in both, or a path alone.");
  EXPECT_TRUE(std::holds_alternative<ApiError>(origin_form_target("http://a/", std::nullopt)));
}

// Anyone who could reach the port could start a build of every core and gigabytes of memory,
// or cancel the host's.
TEST(RequestGuard, TableBuildsAreStartedAndStoppedFromTheServersMachineByDefault) {
  using enum TableBuilds;
  for (const char* method : {"POST", "DELETE"}) {
    EXPECT_FALSE(check_table_build(kLocal, method, true)) << method;
    const auto remote = check_table_build(kLocal, method, false);
    ASSERT_TRUE(remote) << method;
    EXPECT_EQ(remote->status(), 403);
    EXPECT_EQ(remote->code(), "builds_not_allowed");
    EXPECT_NE(std::string(remote->what()).find("--table-builds anyone"), std::string::npos);
    EXPECT_FALSE(check_table_build(kAnyone, method, false)) << method;
    for (const bool loopback : {true, false}) {
      const auto off = check_table_build(kOff, method, loopback);
      ASSERT_TRUE(off) << method;
      EXPECT_EQ(off->code(), "builds_not_allowed");
    }
  }
  EXPECT_NE(std::string(check_table_build(kLocal, "DELETE", false)->what()).find("stop a table"),
            std::string::npos);
  // Watching a build's progress is reading.
  for (const TableBuilds policy : {kLocal, kAnyone, kOff}) {
    EXPECT_FALSE(check_table_build(policy, "GET", false));
  }
  EXPECT_EQ(parse_table_builds("local"), kLocal);
  EXPECT_EQ(parse_table_builds("anyone"), kAnyone);
  EXPECT_EQ(parse_table_builds("off"), kOff);
  EXPECT_EQ(parse_table_builds("Local"), std::nullopt);
  EXPECT_EQ(parse_table_builds(""), std::nullopt);
}

TEST(RateLimiter, AllowsTwentyActionsInAnySecond) {
  RateLimiter limiter(20, 1s);
  const RateLimiter::Clock::time_point start{};
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(limiter.allow(start + i * 10ms)) << i;
  EXPECT_FALSE(limiter.allow(start + 500ms));  // the 21st within a second
  EXPECT_FALSE(limiter.allow(start + 999ms));  // refusals do not count, nor end the limit
  EXPECT_TRUE(limiter.allow(start + 1000ms));  // the first has left the window
  EXPECT_FALSE(limiter.allow(start + 1005ms));
  EXPECT_TRUE(limiter.allow(start + 1010ms));
  EXPECT_EQ(rate_limited(20, 1s).status(), 429);
  EXPECT_NE(std::string(rate_limited(20, 1s).what()).find("20 a second"), std::string::npos);
}

}  // namespace
}  // namespace ur::server
