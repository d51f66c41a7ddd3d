#include "tavli/text.h"
#include "tavli/notation.h"

#include "tavli/base64.h"
#include "tavli/scratch.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace tavli {
namespace {

constexpr std::uint8_t kIdVersion = 1;

// `s` quoted as Python's repr() quotes a str: in single quotes unless it holds a single quote and
// no double one; backslashes, the quote and control characters escaped (bytes >= 0x80 kept). The
// dice messages name a caller's text exactly as the Python API always named it.
std::string python_quoted(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  const char q = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, q);
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == q || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out + q;
}

}  // namespace

Dice parse_dice(const std::string& text) {
  static const char* kSpace = " \t\n\r\v\f\x1c\x1d\x1e\x1f";  // Python's str.strip(), ASCII part
  const std::size_t b = text.find_first_not_of(kSpace);
  const std::size_t e = text.find_last_not_of(kSpace);
  std::string digits;
  if (b != std::string::npos)
    for (std::size_t i = b; i <= e; ++i)
      if (text[i] != '-' && text[i] != ',' && text[i] != ' ') digits += text[i];
  if (digits.size() != 2 || !std::isdigit(static_cast<unsigned char>(digits[0])) ||
      !std::isdigit(static_cast<unsigned char>(digits[1])))
    throw std::invalid_argument("dice " + python_quoted(text) + ": expected two digits such as '6-5'");
  return make_dice(digits[0] - '0', digits[1] - '0');
}

std::string position_id(const Rules& rules, const Position& pos, Player to_move) {
  const PositionKey k = pos.key();
  const bool pins = pos.own().pinned || pos.opp().pinned;
  std::vector<std::uint8_t> bytes;
  bytes.push_back(kIdVersion);
  bytes.push_back(static_cast<std::uint8_t>(to_move | ((k[32] & 3) << 1) | (pins ? 8 : 0)));
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < 13; ++i) bytes.push_back(k[16 * s + i]);
  if (pins)
    for (int s = 0; s < 2; ++s)
      for (int i = 13; i < 16; ++i) bytes.push_back(k[16 * s + i]);
  std::string head = rules.info().name;
  const std::string opts = options_to_text(rules);
  if (!opts.empty()) head += "," + opts;
  return head + ":" + base64_encode(bytes.data(), bytes.size(), kBase64Url);
}

void parse_position_id(const std::string& id, Rules* rules, Position* pos, Player* to_move) {
  if (id.size() > 512) throw InvalidPosition("position ID too long (" + std::to_string(id.size()) + " characters)");
  const std::size_t colon = id.rfind(':');
  if (colon == std::string::npos) throw InvalidPosition("position ID " + quoted(id) + " lacks the ':' after the variant");
  const std::string head = id.substr(0, colon);
  const std::size_t comma = head.find(',');
  const Variant v = variant_from_name(head.substr(0, comma));
  *rules = make_rules(v, comma == std::string::npos ? std::vector<std::pair<std::string, std::string>>{}
                                                    : options_from_text(head.substr(comma + 1)));
  std::vector<std::uint8_t> b;
  const std::string payload = id.substr(colon + 1);
  const long bad = base64_decode(payload, kBase64Url, b);
  if (bad >= 0)
    throw InvalidPosition("position ID payload: invalid character " + describe_char(payload[static_cast<std::size_t>(bad)]) +
                          " (base64url expected: A-Z a-z 0-9 - _)");
  if (b.size() < 28) throw InvalidPosition("position ID payload too short (" + std::to_string(b.size()) + " bytes, need 28)");
  if (b[0] != kIdVersion) throw InvalidPosition("position ID format version " + std::to_string(b[0]) + " is not supported");
  const bool pins = b[1] & 8;
  if (b[1] & ~15) throw InvalidPosition("position ID: unknown flag bits");
  if (b.size() != (pins ? 34u : 28u))
    throw InvalidPosition("position ID payload has " + std::to_string(b.size()) + " bytes, expected " +
                          std::to_string(pins ? 34 : 28));
  PositionKey k{};
  for (int s = 0; s < 2; ++s) {
    for (int i = 0; i < 13; ++i) k[16 * s + i] = b[2 + 13 * s + i];
    if (pins)
      for (int i = 0; i < 3; ++i) k[16 * s + 13 + i] = b[28 + 3 * s + i];
  }
  k[32] = static_cast<std::uint8_t>((b[1] >> 1) & 3);
  *pos = Position::from_key(k);
  *to_move = static_cast<Player>(b[1] & 1);
  validate_position(*pos, *rules);
}

namespace {

std::string point_name(int r) {
  if (r == kBar) return "bar";
  if (r == kOff) return "off";
  return std::to_string(24 - r);
}

// One checker's journey in move text: the points it touched (from, [intermediate...], to) and
// whether it hit on arrival at each.
struct Move {
  std::vector<int> points;
  std::vector<bool> hit;  // hit[i]: a hit on arriving at points[i] (hit[0] unused)
  int count = 1;
  bool same_path(const Move& o) const { return points == o.points; }
};

}  // namespace

std::string play_to_text(const Play& play) {
  if (play.nsteps == 0) return "pass";
  std::vector<Move> chains;
  for (int k = 0; k < play.nsteps; ++k) {
    const Step s = play.steps[k];
    const bool hit = (play.hits >> k) & 1u;
    // Continue the chain of the checker that just arrived on this point, if any.
    auto it = std::find_if(chains.rbegin(), chains.rend(),
                           [&](const Move& m) { return m.points.back() == s.from && s.from != kBar; });
    if (it != chains.rend()) {
      it->points.push_back(s.to);
      it->hit.push_back(hit);
    } else {
      chains.push_back(Move{{s.from, s.to}, {false, hit}, 1});
    }
  }
  // A checker's intermediate points are shown only where it hit ("24/18*/13").
  for (Move& m : chains) {
    Move shown{{m.points.front()}, {false}, 1};
    for (std::size_t i = 1; i < m.points.size(); ++i)
      if (i + 1 == m.points.size() || m.hit[i]) {
        shown.points.push_back(m.points[i]);
        shown.hit.push_back(m.hit[i]);
      }
    m = shown;
  }
  std::stable_sort(chains.begin(), chains.end(), [](const Move& a, const Move& b) {
    return a.points.front() != b.points.front() ? a.points.front() < b.points.front()
                                                : a.points.back() < b.points.back();
  });
  std::vector<Move> merged;
  for (const Move& m : chains) {
    if (!merged.empty() && merged.back().same_path(m)) {  // "21/17*(2)": one of them hit
      ++merged.back().count;
      for (std::size_t i = 0; i < m.hit.size(); ++i) merged.back().hit[i] = merged.back().hit[i] || m.hit[i];
    } else {
      merged.push_back(m);
    }
  }
  std::string out;
  for (const Move& m : merged) {
    if (!out.empty()) out += ' ';
    for (std::size_t i = 0; i < m.points.size(); ++i) {
      if (i) out += '/';
      out += point_name(m.points[i]);
      if (m.hit[i]) out += '*';
    }
    if (m.count > 1) out += "(" + std::to_string(m.count) + ")";
  }
  return out;
}

namespace {

int parse_point(const std::string& tok, const std::string& text) {
  std::string t;
  for (char c : tok) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "bar" || t == "b" || t == "25") return kBar;
  if (t == "off" || t == "o" || t == "0") return kOff;
  if (t.empty() || t.size() > 2 || !std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw IllegalMove("move text " + quoted(text) + ": " + quoted(tok) + " is not a point (1..24, bar, off)");
  const int n = std::stoi(t);
  if (n < 1 || n > 24) throw IllegalMove("move text " + quoted(text) + ": point " + quoted(tok) + " is outside 1..24");
  return 24 - n;
}

// Landing points of a play's steps and the points where it hit, replayed from `before`.
void landings(const Play& p, std::uint32_t* landed, std::uint32_t* hit) {
  *landed = 0;
  *hit = 0;
  for (int k = 0; k < p.nsteps; ++k) {
    if (p.steps[k].to >= kPoints) continue;
    *landed |= bit(p.steps[k].to);
    if ((p.hits >> k) & 1u) *hit |= bit(p.steps[k].to);
  }
}

}  // namespace

Play play_from_text(const Game& game, Dice dice, const std::string& text) {
  if (game.outcome()) throw IllegalMove("the game is over: there are no legal plays");
  if (text.size() > 200) throw IllegalMove("move text too long (" + std::to_string(text.size()) + " characters)");
  std::string norm;
  for (char c : text) norm += (c == ',' || c == '\t' || c == '\n') ? ' ' : c;
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < norm.size()) {
    while (i < norm.size() && norm[i] == ' ') ++i;
    std::size_t j = i;
    while (j < norm.size() && norm[j] != ' ') ++j;
    if (j > i) tokens.push_back(norm.substr(i, j - i));
    i = j;
  }
  // The mover's side after the net movements; the points the text says were hit or passed.
  SideState me = game.position().own();
  me.clear_first_turn();  // as in every result: the mover has now played
  std::uint32_t marked_hits = 0, named_stops = 0;
  const bool pass = tokens.empty() || (tokens.size() == 1 && (tokens[0] == "pass" || tokens[0] == "-"));
  int moved = 0;
  if (!pass) {
    for (std::string tok : tokens) {
      int count = 1;
      const std::size_t paren = tok.find('(');
      if (paren != std::string::npos) {
        if (tok.back() != ')' || paren + 2 > tok.size() - 1)
          throw IllegalMove("move text " + quoted(text) + ": bad repeat count in " + quoted(tok));
        const std::string c = tok.substr(paren + 1, tok.size() - paren - 2);
        if (c.size() != 1 || c[0] < '1' || c[0] > '6')
          throw IllegalMove("move text " + quoted(text) + ": repeat count in " + quoted(tok) + " must be 1..6");
        count = c[0] - '0';
        tok = tok.substr(0, paren);
      }
      std::vector<int> pts;
      std::size_t a = 0;
      for (;;) {
        const std::size_t b = tok.find('/', a);
        std::string part = tok.substr(a, b == std::string::npos ? std::string::npos : b - a);
        const bool star = !part.empty() && part.back() == '*';
        if (star) part.pop_back();
        pts.push_back(parse_point(part, text));
        if (star && (pts.size() == 1 || pts.back() == kOff || pts.back() == kBar))
          throw IllegalMove("move text " + quoted(text) + ": " + quoted(part + "*") + " marks a hit where no checker " +
                            "lands ('*' follows the point a checker hits on, as in 24/18*)");
        if (star) marked_hits |= bit(pts.back());
        if (b == std::string::npos) break;
        a = b + 1;
      }
      if (pts.size() < 2) throw IllegalMove("move text " + quoted(text) + ": " + quoted(tok) + " needs from/to");
      for (std::size_t k = 0; k + 1 < pts.size(); ++k)
        if (pts[k] == kOff || pts[k + 1] == kBar || pts[k + 1] <= pts[k])
          throw IllegalMove("move text " + quoted(text) + ": " + quoted(tok) + " does not move forward");
      for (std::size_t k = 1; k + 1 < pts.size(); ++k) named_stops |= bit(pts[k]);
      for (int c = 0; c < count; ++c) {
        const int from = pts.front(), to = pts.back();
        if (from == kBar) {
          if (me.bar == 0) throw IllegalMove("move text " + quoted(text) + ": no checker on the bar");
          me.remove_bar();
        } else {
          if (me.n[from] == 0)
            throw IllegalMove("move text " + quoted(text) + ": no checker left on point " + std::to_string(24 - from));
          me.remove(from);
        }
        if (to == kOff) me.add_off();
        else me.add(to);
        if (++moved > kMaxSteps) throw IllegalMove("move text " + quoted(text) + ": more moves than a roll allows");
      }
    }
  }
  // The legal plays leading to that side; several only when they differ in what they hit on the way.
  Scratch<MoveList> plays;
  MoveList& list = *plays;
  game.legal_plays(dice, list);
  std::vector<const Play*> found;
  for (const Play& p : list)
    if (p.result.own().same(me)) found.push_back(&p);
  if (found.size() > 1) {
    std::vector<const Play*> exact;
    for (const Play* p : found) {
      std::uint32_t landed, hit;
      landings(*p, &landed, &hit);
      if (hit == marked_hits && (named_stops & ~landed) == 0) exact.push_back(p);
    }
    if (exact.empty())  // the stops named, a hit on one of them left unmarked ("24/18/13" hitting on 18)
      for (const Play* p : found) {
        std::uint32_t landed, hit;
        landings(*p, &landed, &hit);
        if ((marked_hits & ~hit) == 0 && (named_stops & ~landed) == 0) exact.push_back(p);
      }
    if (exact.size() != 1 && marked_hits) {  // marks that none of the candidates makes
      std::uint32_t any_hit = 0;
      for (const Play* p : found) {
        std::uint32_t landed, hit;
        landings(*p, &landed, &hit);
        any_hit |= hit;
      }
      if (const std::uint32_t wrong = marked_hits & ~any_hit)
        throw IllegalMove("move text " + quoted(text) + ": " + quoted(point_name(lowest_bit(wrong)) + "*") +
                          " marks a hit, but the play hits no checker there");
    }
    if (exact.size() != 1)
      throw IllegalMove("move text " + quoted(text) + " is ambiguous for " + std::to_string(dice.d1) + "-" +
                        std::to_string(dice.d2) + ": name the intermediate points and mark hits with '*'");
    return *exact[0];
  }
  if (found.empty())
    throw IllegalMove("move text " + quoted(text) + " is not a legal play for " + std::to_string(dice.d1) + "-" +
                      std::to_string(dice.d2) + " in this position");
  // A '*' must mark a hit of the play; a hit left unmarked is accepted (as gnubg does).
  std::uint32_t landed, hit;
  landings(*found[0], &landed, &hit);
  if (const std::uint32_t wrong = marked_hits & ~hit) {
    const std::string why = game.rules().contact == Contact::Hit ? "the play hits no checker there"
                                                                  : "there is no hitting in " + game.rules().info().name;
    throw IllegalMove("move text " + quoted(text) + ": " + quoted(point_name(lowest_bit(wrong)) + "*") +
                      " marks a hit, but " + why);
  }
  return *found[0];
}

}  // namespace tavli
