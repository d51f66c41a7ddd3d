// Unpadded base64 with a chosen alphabet: standard ("+/", GNU Backgammon's Position IDs) or
// url-safe ("-_", tavli's own position IDs). Bits are taken most significant first.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tavli {

constexpr const char* kBase64Standard = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr const char* kBase64Url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

inline std::string base64_encode(const std::uint8_t* data, std::size_t n, const char* alphabet) {
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < n; ++i) {
    acc = (acc << 8) | data[i];
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += alphabet[(acc >> bits) & 63];
    }
  }
  if (bits > 0) out += alphabet[(acc << (6 - bits)) & 63];
  return out;
}

// Decodes into `out`; returns the offending character's position, or -1 when all were valid.
inline long base64_decode(const std::string& in, const char* alphabet, std::vector<std::uint8_t>& out) {
  out.clear();
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    const char* p = c ? std::strchr(alphabet, c) : nullptr;
    if (!p) return static_cast<long>(i);
    acc = (acc << 6) | static_cast<std::uint32_t>(p - alphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xFF));
    }
  }
  return -1;
}

// "'c'" for a printable character, "(byte 0xNN)" otherwise: for error messages.
inline std::string describe_char(char c) {
  static const char* hex = "0123456789abcdef";
  const auto b = static_cast<unsigned char>(c);
  if (b > 0x20 && b < 0x7F) return std::string("'") + c + "'";
  return std::string("(byte 0x") + hex[b >> 4] + hex[b & 15] + ")";
}

}  // namespace tavli
