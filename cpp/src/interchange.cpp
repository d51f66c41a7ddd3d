#include "tavli/interchange.h"

#include "tavli/base64.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace tavli {
namespace {

void require_backgammon_movement(const Rules& rules, const char* format) {
  if (rules.movement != Movement::Contrary || rules.contact != Contact::Hit)
    throw InvalidPosition(std::string(format) + " describes backgammon-movement games only, not " + rules.info().name);
}

// gnubg's 25 slots of one side: point n = 1..24 at index n - 1, the bar at 24.
std::array<int, 25> gnubg_slots(const SideState& s) {
  std::array<int, 25> a{};
  for (int r = 0; r < kPoints; ++r) a[static_cast<std::size_t>(23 - r)] = s.n[r];
  a[24] = s.bar;
  return a;
}

// The bytes of a gnubg ID of `chars` base64 characters; InvalidPosition names `what` otherwise.
std::vector<std::uint8_t> decode_gnubg_id(const std::string& id, std::size_t chars, const char* what) {
  if (id.size() != chars)
    throw InvalidPosition(std::string("GNU Backgammon ") + what + " must have " + std::to_string(chars) +
                          " base64 characters, got " + std::to_string(id.size()));
  std::vector<std::uint8_t> key;
  const long bad = base64_decode(id, kBase64Standard, key);
  if (bad >= 0)
    throw InvalidPosition(std::string("GNU Backgammon ") + what + ": invalid character " +
                          describe_char(id[static_cast<std::size_t>(bad)]) + " (base64 expected)");
  return key;
}

}  // namespace

std::string gnubg_position_id(const Position& pos, const Rules& rules) {
  require_backgammon_movement(rules, "a GNU Backgammon Position ID");
  std::array<std::uint8_t, 10> key{};
  int bit_index = 0;
  auto put = [&](bool one) {
    if (one) key[static_cast<std::size_t>(bit_index / 8)] |= static_cast<std::uint8_t>(1u << (bit_index % 8));
    ++bit_index;
  };
  for (const SideState* s : {&pos.opp(), &pos.own()}) {  // the player not on roll comes first
    for (int n : gnubg_slots(*s)) {
      for (int k = 0; k < n; ++k) put(true);
      put(false);
    }
  }
  return base64_encode(key.data(), key.size(), kBase64Standard);  // 10 bytes -> 14 characters
}

Position position_from_gnubg_id(const std::string& id_in, const Rules& rules) {
  require_backgammon_movement(rules, "a GNU Backgammon Position ID");
  std::string id = id_in;
  while (!id.empty() && id.back() == '=') id.pop_back();
  const std::vector<std::uint8_t> key = decode_gnubg_id(id, 14, "Position ID");
  int bit_index = 0;
  auto get = [&]() {
    if (bit_index >= 80) throw InvalidPosition("GNU Backgammon Position ID: the bit string runs past 80 bits");
    const bool b = (key[static_cast<std::size_t>(bit_index / 8)] >> (bit_index % 8)) & 1u;
    ++bit_index;
    return b;
  };
  Position pos = Position::empty();
  for (SideState* s : {&pos.opp(), &pos.own()}) {
    int total = 0;
    for (int slot = 0; slot < 25; ++slot) {
      int n = 0;
      while (get()) {
        if (++n > rules.checkers || ++total > rules.checkers)
          throw InvalidPosition("GNU Backgammon Position ID: more than " + std::to_string(rules.checkers) +
                                " checkers for one player");
      }
      if (slot == 24) s->bar = static_cast<std::uint8_t>(n);
      else s->n[23 - slot] = static_cast<std::uint8_t>(n);
    }
    s->off = static_cast<std::uint8_t>(rules.checkers - total);
  }
  for (; bit_index < 80; ++bit_index)
    if ((key[static_cast<std::size_t>(bit_index / 8)] >> (bit_index % 8)) & 1u)
      throw InvalidPosition("GNU Backgammon Position ID: stray bits after the two players");
  pos.refresh();
  validate_position(pos, rules);
  return pos;
}

namespace {

// Little-endian bit fields in a byte string (the Position and Match IDs' packing).
void put_bits(std::uint8_t* key, int at, int width, unsigned value) {
  for (int b = 0; b < width; ++b)
    if ((value >> b) & 1u) key[(at + b) / 8] |= static_cast<std::uint8_t>(1u << ((at + b) % 8));
}
unsigned get_bits(const std::vector<std::uint8_t>& key, int at, int width) {
  unsigned v = 0;
  for (int b = 0; b < width; ++b) v |= ((key[static_cast<std::size_t>((at + b) / 8)] >> ((at + b) % 8)) & 1u) << b;
  return v;
}

int log2_of(int v) {
  int n = 0;
  while ((1 << n) < v) ++n;
  return n;
}

}  // namespace

std::string gnubg_match_id(const GnubgMatchId& m) {
  validate(m.cube, m.match);
  if (m.game_state < 0 || m.game_state > 4) throw std::invalid_argument("Match ID game state must be 0..4");
  if (m.resignation < 0 || m.resignation > 3) throw std::invalid_argument("Match ID resignation must be 0..3");
  for (int d : m.dice)
    if (d < 0 || d > 6) throw std::invalid_argument("Match ID dice must be 0 (not rolled) or 1..6");
  std::uint8_t key[9] = {};
  put_bits(key, 0, 4, static_cast<unsigned>(log2_of(m.cube.value)));
  put_bits(key, 4, 2, m.cube.centred() ? 3u : static_cast<unsigned>(m.cube.owner));
  put_bits(key, 6, 1, m.on_roll);
  put_bits(key, 7, 1, m.match.crawford);
  put_bits(key, 8, 3, static_cast<unsigned>(m.game_state));
  put_bits(key, 11, 1, m.turn);
  put_bits(key, 12, 1, m.double_offered);
  put_bits(key, 13, 2, static_cast<unsigned>(m.resignation));
  put_bits(key, 15, 3, static_cast<unsigned>(m.dice[0]));
  put_bits(key, 18, 3, static_cast<unsigned>(m.dice[1]));
  put_bits(key, 21, 15, static_cast<unsigned>(m.match.length));
  put_bits(key, 36, 15, static_cast<unsigned>(m.match.score[0]));
  put_bits(key, 51, 15, static_cast<unsigned>(m.match.score[1]));
  put_bits(key, 66, 1, !(m.match.money() && m.cube.jacoby));
  // Bytes in order, each written most significant bit first by base64: the Position ID's way.
  return base64_encode(key, sizeof key, kBase64Standard);
}

GnubgMatchId parse_gnubg_match_id(const std::string& id) {
  std::vector<std::uint8_t> key = decode_gnubg_id(id, 12, "Match ID");
  key.resize(9);
  GnubgMatchId m;
  m.cube.value = 1 << get_bits(key, 0, 4);
  const unsigned owner = get_bits(key, 4, 2);
  if (owner == 2) throw InvalidPosition("GNU Backgammon Match ID: cube owner field 2 (0, 1 or 3 = centred expected)");
  m.cube.owner = owner == 3 ? kCentred : static_cast<int>(owner);
  m.on_roll = static_cast<Player>(get_bits(key, 6, 1));
  m.match.crawford = get_bits(key, 7, 1) != 0;
  m.game_state = static_cast<int>(get_bits(key, 8, 3));
  if (m.game_state > 4) throw InvalidPosition("GNU Backgammon Match ID: game state " + std::to_string(m.game_state) + " (0..4 expected)");
  m.turn = static_cast<Player>(get_bits(key, 11, 1));
  m.double_offered = get_bits(key, 12, 1) != 0;
  m.resignation = static_cast<int>(get_bits(key, 13, 2));
  m.dice[0] = static_cast<int>(get_bits(key, 15, 3));
  m.dice[1] = static_cast<int>(get_bits(key, 18, 3));
  for (int d : m.dice)
    if (d > 6) throw InvalidPosition("GNU Backgammon Match ID: a die of " + std::to_string(d) + " (0..6 expected)");
  if ((m.dice[0] == 0) != (m.dice[1] == 0)) throw InvalidPosition("GNU Backgammon Match ID: only one die rolled");
  m.match.length = static_cast<int>(get_bits(key, 21, 15));
  if (m.match.length > 0) {  // a money session's running score is not a match score
    m.match.score[0] = static_cast<int>(get_bits(key, 36, 15));
    m.match.score[1] = static_cast<int>(get_bits(key, 51, 15));
  } else {
    m.cube.jacoby = get_bits(key, 66, 1) == 0;
  }
  validate(m.cube, m.match);
  return m;
}

std::string xgid(const Position& pos, const Rules& rules, Player to_move, const CubeState& cube,
                 const MatchState& match) {
  require_backgammon_movement(rules, "an XGID");
  // Bottom = White. Work out each side's checkers in the bottom player's numbering.
  const SideState& white = to_move == kWhite ? pos.own() : pos.opp();
  const SideState& black = to_move == kWhite ? pos.opp() : pos.own();
  std::string s(26, '-');
  auto put = [&](std::size_t i, int n, char base) {
    if (n) s[i] = static_cast<char>(base + n - 1);
  };
  for (int r = 0; r < kPoints; ++r) {
    put(static_cast<std::size_t>(24 - r), white.n[r], 'A');  // White's point 24 - r
    put(static_cast<std::size_t>(r + 1), black.n[r], 'a');   // Black's point 24 - r = bottom's r + 1
  }
  put(25, white.bar, 'A');
  put(0, black.bar, 'a');
  validate(cube, match);
  const int owner = cube.centred() ? 0 : cube.owner == kWhite ? 1 : -1;
  const int flags = match.money() ? (cube.jacoby ? 1 : 0) | (cube.beavers ? 2 : 0) : (match.crawford ? 1 : 0);
  // No cap (and matches): XG's default 10, or the cube's own log2 where the cube is bigger still.
  const int max_log2 = match.money() && cube.max_cube ? log2_of(cube.max_cube) : std::max(10, log2_of(cube.value));
  return "XGID=" + s + ":" + std::to_string(log2_of(cube.value)) + ":" + std::to_string(owner) + ":" +
         (to_move == kWhite ? "1" : "-1") + ":00:" + std::to_string(match.score[0]) + ":" +
         std::to_string(match.score[1]) + ":" + std::to_string(flags) + ":" + std::to_string(match.length) + ":" +
         std::to_string(max_log2);
}

namespace {

bool parse_int(const std::string& s, long lo, long hi, long* out) {
  if (s.empty() || s.size() > 6) return false;
  std::size_t i = (s[0] == '-') ? 1 : 0;
  if (i == s.size()) return false;
  for (std::size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9') return false;
  const long v = std::stol(s);
  if (v < lo || v > hi) return false;
  *out = v;
  return true;
}

}  // namespace

Position position_from_xgid(const std::string& text, const Rules& rules, Player* to_move, CubeState* cube_out,
                            MatchState* match_out) {
  require_backgammon_movement(rules, "an XGID");
  if (text.size() > 120) throw InvalidPosition("XGID too long (" + std::to_string(text.size()) + " characters)");
  std::string body = text.compare(0, 5, "XGID=") == 0 ? text.substr(5) : text;
  std::vector<std::string> f;
  std::size_t start = 0;
  for (;;) {
    const std::size_t c = body.find(':', start);
    f.push_back(body.substr(start, c == std::string::npos ? std::string::npos : c - start));
    if (c == std::string::npos) break;
    start = c + 1;
  }
  if (f.size() != 10) throw InvalidPosition("XGID must have 10 ':'-separated fields, got " + std::to_string(f.size()));
  const std::string& board = f[0];
  if (board.size() != 26) throw InvalidPosition("XGID position must have 26 characters, got " + std::to_string(board.size()));
  long cube_log2, owner, turn, score0, score1, flags, length, max_log2;
  if (!parse_int(f[1], 0, kMaxCubeLog2, &cube_log2)) throw InvalidPosition("XGID cube value (field 2) must be 0..15 (log2 of the cube)");
  if (!parse_int(f[2], -1, 1, &owner)) throw InvalidPosition("XGID cube owner (field 3) must be -1, 0 or 1");
  if (!parse_int(f[3], -1, 1, &turn) || turn == 0) throw InvalidPosition("XGID turn (field 4) must be 1 or -1");
  const std::string& dice = f[4];
  const bool dice_ok = dice == "00" || dice == "D" || dice == "B" || dice == "R" ||
                       (dice.size() == 2 && dice[0] >= '1' && dice[0] <= '6' && dice[1] >= '1' && dice[1] <= '6');
  if (!dice_ok) throw InvalidPosition("XGID dice (field 5) must be 00, two dice 1..6, D, B or R");
  if (!parse_int(f[8], 0, kMaxMatchLength, &length))
    throw InvalidPosition("XGID match length (field 9) must be 0 (money) or 1.." + std::to_string(kMaxMatchLength));
  if (!parse_int(f[5], 0, 99999, &score0) || !parse_int(f[6], 0, 99999, &score1))
    throw InvalidPosition("XGID scores (fields 6 and 7) must be non-negative integers");
  if (length > 0 && (score0 >= length || score1 >= length))
    throw InvalidPosition("XGID scores (fields 6 and 7) must be below the match length " + std::to_string(length) +
                          ", got " + std::to_string(score0) + " and " + std::to_string(score1));
  if (!parse_int(f[7], 0, length > 0 ? 1 : 3, &flags))
    throw InvalidPosition(length > 0 ? "XGID Crawford flag (field 8) must be 0 or 1 in a match"
                                     : "XGID Jacoby/beaver flags (field 8) must be 0..3 in money play");
  if (!parse_int(f[9], 0, kMaxCubeLog2, &max_log2))
    throw InvalidPosition("XGID maximum cube (field 10) must be 0..15 (log2 of the cap)");
  if (cube_log2 > max_log2)
    throw InvalidPosition("XGID cube value 2^" + std::to_string(cube_log2) + " exceeds the maximum cube 2^" +
                          std::to_string(max_log2));
  CubeState cube;
  cube.value = 1 << cube_log2;
  cube.owner = owner == 0 ? kCentred : owner == 1 ? kWhite : kBlack;
  MatchState match;
  match.length = static_cast<int>(length);
  if (length > 0) {
    match.score = {static_cast<int>(score0), static_cast<int>(score1)};
    match.crawford = flags == 1;
  } else {
    cube.jacoby = flags & 1;
    cube.beavers = (flags & 2) != 0;
    cube.max_cube = 1 << max_log2;
  }
  validate(cube, match);
  if (cube_out) *cube_out = cube;
  if (match_out) *match_out = match;

  SideState white{}, black{};
  std::memset(&white, 0, sizeof white);
  std::memset(&black, 0, sizeof black);
  for (std::size_t i = 0; i < 26; ++i) {
    const char c = board[i];
    if (c == '-') continue;
    const bool upper = c >= 'A' && c <= 'O';
    const bool lower = c >= 'a' && c <= 'o';
    if (!upper && !lower) throw InvalidPosition(std::string("XGID position: invalid character '") + c + "'");
    const int n = upper ? c - 'A' + 1 : c - 'a' + 1;
    if (upper) {
      if (i == 0) throw InvalidPosition("XGID position: a bottom-player checker on the top player's bar");
      if (i == 25) white.bar = static_cast<std::uint8_t>(n);
      else white.n[24 - i] = static_cast<std::uint8_t>(n);
    } else {
      if (i == 25) throw InvalidPosition("XGID position: a top-player checker on the bottom player's bar");
      if (i == 0) black.bar = static_cast<std::uint8_t>(n);
      else black.n[i - 1] = static_cast<std::uint8_t>(n);
    }
  }
  for (SideState* s : {&white, &black}) {
    int total = s->bar;
    for (int r = 0; r < kPoints; ++r) total += s->n[r];
    if (total > rules.checkers)
      throw InvalidPosition("XGID position: more than " + std::to_string(rules.checkers) + " checkers for one player");
    s->off = static_cast<std::uint8_t>(rules.checkers - total);
  }
  *to_move = turn == 1 ? kWhite : kBlack;
  Position pos = Position::empty();
  pos.own() = *to_move == kWhite ? white : black;
  pos.opp() = *to_move == kWhite ? black : white;
  pos.refresh();
  validate_position(pos, rules);
  return pos;
}

}  // namespace tavli
