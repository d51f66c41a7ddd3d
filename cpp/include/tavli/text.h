// Quoting outside text in error messages: control characters and NUL are escaped (a message is a C
// string on its way to Python, so a raw NUL would cut off the reason) and long inputs shortened.
#pragma once

#include <string>

namespace tavli {

inline std::string quoted(const std::string& s, std::size_t max_len = 60) {
  static const char* hex = "0123456789abcdef";
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < max_len; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > max_len) out += "...";
  return out + "'";
}

}  // namespace tavli
