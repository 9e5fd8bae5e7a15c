#include "server/qr_svg.h"

#include <qrencode.h>

#include <memory>

namespace ur::server {

namespace {
constexpr int kQuietZone = 4;  // modules of white around the symbol, as the standard asks
}

std::optional<std::string> qr_svg(std::string_view text) {
  if (text.empty() || text.size() > kMaxQrTextBytes) return std::nullopt;
  const std::string data(text);
  // Level M recovers from 15% damage: enough for a screen photographed at an angle.
  std::unique_ptr<QRcode, decltype(&QRcode_free)> code(
      QRcode_encodeString8bit(data.c_str(), 0, QR_ECLEVEL_M), &QRcode_free);
  if (!code) return std::nullopt;
  const int width = code->width;
  const int size = width + 2 * kQuietZone;
  std::string path;
  for (int y = 0; y < width; ++y) {
    for (int x = 0; x < width; ++x) {
      // Bit 0 of each byte is the module's colour (1 = dark).
      if ((code->data[y * width + x] & 1) == 0) continue;
      path +=
          'M' + std::to_string(x + kQuietZone) + ' ' + std::to_string(y + kQuietZone) + "h1v1h-1z";
    }
  }
  const std::string s = std::to_string(size);
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + s + ' ' + s;
  svg += "\" shape-rendering=\"crispEdges\" role=\"img\"><rect width=\"" + s + "\" height=\"" + s +
         "\" fill=\"#fff\"/><path fill=\"#000\" d=\"" + path + "\"/></svg>";
  return svg;
}

}  // namespace ur::server
