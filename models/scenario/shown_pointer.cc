#include "models/scenario/shown_pointer.h"

#include <string>
#include <vector>

namespace aqesim {

std::string ShownPointer(const std::string& pointer) {
  if (pointer.size() <= kMaxShownPointerBytes) return pointer;
  constexpr size_t kEndBytes = 80;
  std::vector<std::string> tokens;  // each with its leading '/'; a long one (a key) cut to 80 bytes
  for (size_t start = 0; start < pointer.size();) {
    const size_t next = pointer.find('/', start + 1);
    const size_t end = next == std::string::npos ? pointer.size() : next;
    std::string token = pointer.substr(start, end - start);
    if (token.size() > kEndBytes) {
      size_t cut = kEndBytes - 3;  // "…" is 3 bytes; never inside a UTF-8 sequence
      while (cut > 1 && (static_cast<unsigned char>(token[cut]) & 0xC0) == 0x80) --cut;
      token = token.substr(0, cut) + "…";
    }
    tokens.push_back(std::move(token));
    start = end;
  }
  size_t head = 0, head_bytes = 0, tail = 0, tail_bytes = 0;
  while (head < tokens.size() && head_bytes + tokens[head].size() <= kEndBytes)
    head_bytes += tokens[head++].size();
  while (tail + head < tokens.size() && tail_bytes + tokens[tokens.size() - 1 - tail].size() <= kEndBytes)
    tail_bytes += tokens[tokens.size() - 1 - tail++].size();
  std::string out;
  if (head + tail >= tokens.size()) {  // few tokens, some long: each cut
    for (const std::string& t : tokens) out += t;
    return out;
  }
  for (size_t i = 0; i < head; ++i) out += tokens[i];
  out += "/…(" + std::to_string(tokens.size() - head - tail) + " tokens)…";
  for (size_t i = tokens.size() - tail; i < tokens.size(); ++i) out += tokens[i];
  return out;
}

}  // namespace aqesim
