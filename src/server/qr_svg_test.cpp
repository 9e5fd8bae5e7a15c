// QR codes of invite links, drawn as SVG.
#include "server/qr_svg.h"

#include <gtest/gtest.h>

#include <qrencode.h>

namespace ur::server {
namespace {

TEST(QrSvg, AnInviteLinkBecomesASquareSvgWithAQuietZone) {
  const std::string link = "http://192.168.1.20:8080/#join=0123456789abcdef0123456789abcdef";
  const auto svg = qr_svg(link);
  ASSERT_TRUE(svg);
  EXPECT_TRUE(svg->starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(svg->ends_with("</svg>"));
  // The symbol's modules, drawn 4 modules in from the edge.
  std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
      QRcode_encodeString8bit(link.c_str(), 0, QR_ECLEVEL_M), &QRcode_free);
  ASSERT_TRUE(code);
  const std::string size = std::to_string(code->width + 8);
  EXPECT_NE(svg->find("viewBox=\"0 0 " + size + " " + size + "\""), std::string::npos);
  int dark = 0;
  for (int i = 0; i < code->width * code->width; ++i) dark += code->data[i] & 1;
  std::size_t drawn = 0;
  for (std::size_t at = svg->find("h1v1h-1z"); at != std::string::npos;
       at = svg->find("h1v1h-1z", at + 1)) {
    ++drawn;
  }
  EXPECT_EQ(drawn, static_cast<std::size_t>(dark));
  // The top-left finder pattern's corner module is dark, at (4, 4).
  EXPECT_NE(svg->find("M4 4h1v1h-1z"), std::string::npos);
}

TEST(QrSvg, EmptyOrOverlongTextHasNoCode) {
  EXPECT_FALSE(qr_svg(""));
  EXPECT_FALSE(qr_svg(std::string(kMaxQrTextBytes + 1, 'a')));
  EXPECT_TRUE(qr_svg(std::string(kMaxQrTextBytes, 'a')));
}

}  // namespace
}  // namespace ur::server
