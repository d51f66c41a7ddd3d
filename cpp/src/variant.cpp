#include "tavli/text.h"
#include "tavli/variant.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace tavli {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

OptionSpec runner_threshold_option() {
  return {"runner_threshold", {{"13"}, {"12"}}, 0, true,
          "the first checker must reach r >= 13 (pass the opponent's start) or r >= 12 before others move (D-RUNNER)"};
}
OptionSpec startq_option(bool with_off) {
  OptionSpec o{"startq_check", {{"play", "end_of_play"}, {"step", "per_step"}}, 0, false,
               "R1, may not hold all of r0..r5: checked on the position after the play, or after every step (D-R1STEP)"};
  if (with_off) o.choices.push_back({"off", "none"});
  return o;
}
OptionSpec unblock_option(int default_index) {
  return {"unblock", {{"R4_result", "R4"}, {"R3_bkgm_start_of_turn", "R3"}, {"none", "off"}}, default_index, false,
          "R4: prefer plays that leave the opponent a legal step; R3: open a wall before a trapped stack (D-R3R4)"};
}
OptionSpec unblock_priority_option() {
  return {"unblock_priority", {{"after_max_dice", "after"}, {"before_max_dice", "before"}}, 0, false,
          "apply the unblock preference after the maximum-dice and higher-die rules, or before them (D-ORDER)"};
}

OptionSpec kin_runner_threshold_option() {
  return {"runner_threshold", {{"18"}, {"19"}}, 0, true,
          "the first checker must reach the last quarter (r >= 18) before others move, or pass its first point "
          "(r >= 19, a literal reading only) (K-RUNNER)"};
}
OptionSpec runner_release_option() {
  return {"runner_release", {{"step", "per_step"}, {"turn", "per_turn"}}, 0, false,
          "the runner's arrival frees the other checkers for the rest of the same roll, or from the next turn "
          "(K-RELEASE)"};
}
OptionSpec dead_position_option() {
  return {"dead_position", {{"draw"}, {"off", "none"}}, 0, false,
          "end the game as a draw when neither side has a legal step for any die value (RULES-KIN.md §8.5)"};
}

std::vector<VariantInfo> build_table() {
  std::vector<VariantInfo> t;
  t.push_back({Variant::Fevga, "fevga", {"φεύγα", "fevgas", "feuga"}, Movement::Parallel, Contact::Block,
               StartLayout::Stack, false,
               {runner_threshold_option(), startq_option(true),
                {"opp_start_quarter", {{"off", "none"}, {"R2a"}, {"R2b"}, {"R2c"}}, 0, false,
                 "R2: no six in r12..r17 (R2a), none of r13..r18 all held while the opponent has a start stack (R2b), "
                 "at most four of r12..r17 (R2c) (D-R2)"},
                unblock_option(0), unblock_priority_option()}});
  t.back().facts = {"fevga", "block", NextStarter::PreviousWinner, 5};
  t.push_back({Variant::Moultezim, "moultezim", {"moultezin", "multezim", "μουλτεζίμ"}, Movement::Parallel,
               Contact::Block, StartLayout::Stack, false,
               {runner_threshold_option(),
                {"primes", {{"R2c"}, {"R1"}, {"none", "off"}}, 0, false,
                 "prime limit: at most four points of the opponent's starting table (R2c, bkgm), "
                 "not all of one's own starting quarter (R1, pbmserv/FIBS), or none (D-MOULTEZIM)"},
                startq_option(false), unblock_option(2), unblock_priority_option()}});
  t.back().facts = {"fevga", "block", NextStarter::RollOff, 5};
  t.push_back({Variant::Plakoto, "plakoto", {"πλακωτό", "plakwto", "tapa"}, Movement::Contrary, Contact::Pin,
               StartLayout::Stack, false,
               {{"bearoff_with_pinned", {{"false", "no", "0"}, {"true", "yes", "1"}}, 0, false,
                 "allow bearing off while one of your checkers is pinned (D-PINBEAROFF)"},
                {"mother", {{"state"}, {"at_pin_only"}, {"off", "none"}}, 0, false,
                 "mother rule: judged on every position (state), only when the pin is made, or off (D-MOTHER)"},
                {"mother_points", {{"2"}, {"3"}}, 0, true, "points for a mother win (D-MOTHER)"}}});
  t.back().facts = {"plakoto", "plakoto", NextStarter::PreviousWinner, 5};
  t.push_back({Variant::Portes, "portes", {"πόρτες"}, Movement::Contrary, Contact::Hit, StartLayout::Backgammon, false, {}});
  t.back().facts = {"backgammon", "tesauro", NextStarter::PreviousWinner, 5};
  t.push_back({Variant::Tavla, "tavla", {"tavla-tr", "τάβλα"}, Movement::Contrary, Contact::Hit,
               StartLayout::Backgammon, false, {}});
  t.back().facts = {"backgammon", "tesauro", NextStarter::PreviousWinner, 5};
  t.push_back({Variant::Backgammon, "backgammon", {"bg", "gnubg"}, Movement::Contrary, Contact::Hit,
               StartLayout::Backgammon, true, {}, true});
  t.back().facts = {"backgammon", "tesauro", NextStarter::RollOff, 5};
  t.push_back({Variant::Narde, "narde", {"long-narde", "long_nardy", "nardy", "нарды", "длинные нарды"},
               Movement::Parallel, Contact::Block, StartLayout::Stack, false,
               {{"head_doubles", {{"643", "6-4-3"}, {"64", "6-4"}}, 0, false,
                 "first-turn doubles that let two checkers leave the head (D-NARDE-HEAD)"},
                {"prime_check", {{"play", "end_of_play"}, {"step", "per_step"}}, 0, false,
                 "six-prime rule checked on the position after the play, or after every step (D-NARDE-PRIME)"},
                {"prime_borne_off_ahead", {{"true", "yes", "1"}, {"false", "no", "0"}}, 0, false,
                 "an opponent's borne-off checker counts as ahead of a six-prime (D-NARDE-PRIME)"},
                {"koks", {{"false", "no", "0"}, {"true", "yes", "1"}}, 0, false,
                 "house rule: 3 points when the loser bore off none and has a checker in the winner's home (D-NARDE-SCORE)"}}});
  t.back().facts = {"narde", "block", NextStarter::PreviousWinner, 5};
  // Kin games (RULES-KIN.md). Not offered: Jacquet's reading B (`ruleset=moulidars`: hitting), which
  // RULES-KIN.md §2.10 leaves unspecified until a primary text has been read.
  t.push_back({Variant::Jacquet, "jacquet", {"jacquet-de-versailles", "jaquet"}, Movement::Parallel, Contact::Block,
               StartLayout::Stack, false,
               {kin_runner_threshold_option(), runner_release_option(),
                {"six_prime", {{"free"}, {"needs_last_two"}}, 0, false,
                 "six consecutive points (along the opponent's route) allowed freely, or only while holding r22 and "
                 "r23 (K-PRIME)"},
                {"doubles", {{"four", "4"}, {"n_times", "n"}}, 0, false,
                 "a double is played four times, or n times as in Jacquet de Versailles (K-DOUBLES)"},
                {"double_win", {{"true", "yes", "1", "on"}, {"false", "no", "0", "off"}}, 0, false,
                 "2 points when the loser has borne off none (K-DOUBLE)"},
                dead_position_option()}});
  t.back().facts = {"fevga", "block", NextStarter::RollOff, 5};
  t.push_back({Variant::Tawla31, "tawla31", {"tawla-31", "tawla_31", "maghribiyyah", "mughrabieh", "moughrabieh"},
               Movement::Contrary, Contact::Block, StartLayout::Stack, false,
               {{"movement", {{"contrary"}, {"parallel"}}, 0, false,
                 "the sides move in opposite directions (every rule source), or in parallel (the Fevga infobox "
                 "reading, W-MOVE)"},
                kin_runner_threshold_option(), runner_release_option(), dead_position_option()}});
  t.back().facts = {"tawla31", "block", NextStarter::PreviousWinner, 31};
  t.push_back({Variant::Nackgammon, "nackgammon", {"nack"}, Movement::Contrary, Contact::Hit,
               StartLayout::Nackgammon, true, {}, true});
  t.back().facts = {"backgammon", "tesauro", NextStarter::RollOff, 5};
  t.push_back({Variant::Hypergammon, "hypergammon", {"hyper", "hypergammon3"}, Movement::Contrary, Contact::Hit,
               StartLayout::Hyper, true,
               {{"checkers", {{"3"}, {"2"}, {"1"}}, 0, true, "checkers per side (gnubg hypergammon1..3)"},
                {"jacoby_always", {{"false", "no", "0", "off"}, {"true", "yes", "1", "on"}}, 0, false,
                 "gammons count only once the cube is turned, in every game (PlayStrategy): without the cube "
                 "every win is single, with it a gammon counts once the cube has been doubled (H-JACOBY)"}},
               true});
  t.back().facts = {"backgammon", "tesauro", NextStarter::RollOff, 5};
  return t;
}

}  // namespace

const char* opening_name(Opening o) { return o == Opening::Reroll ? "reroll" : "use_opening_dice"; }

const char* next_starter_name(NextStarter n) {
  switch (n) {
    case NextStarter::PreviousWinner: return "previous_winner";
    case NextStarter::RollOff: return "roll_off";
    case NextStarter::Alternate: return "alternate";
  }
  return "";
}

const std::vector<VariantInfo>& variant_table() {
  static const std::vector<VariantInfo> table = build_table();
  return table;
}

const VariantInfo& variant_info(Variant v) {
  for (const auto& info : variant_table())
    if (info.variant == v) return info;
  throw std::logic_error("variant without an entry in the variant table");
}

const char* movement_name(Movement m) { return m == Movement::Parallel ? "parallel" : "contrary"; }

Movement movement_from_name(const std::string& name) {
  if (name == "contrary") return Movement::Contrary;
  if (name == "parallel") return Movement::Parallel;
  throw std::invalid_argument("unknown movement '" + name + "' (known: contrary, parallel)");
}

Variant variant_from_name(const std::string& name) {
  const std::string key = lower(name);
  for (const auto& info : variant_table()) {
    if (key == info.name) return info.variant;
    for (const auto& a : info.aliases)
      if (key == lower(a)) return info.variant;
  }
  std::string known;
  for (const auto& info : variant_table()) known += (known.empty() ? "" : ", ") + info.name;
  throw std::invalid_argument("unknown variant " + quoted(name) + " (known: " + known + ")");
}

namespace {

void apply_option_values(Rules& r) {
  const auto& specs = r.info().options;
  auto value = [&](const char* name) -> const std::string& {
    for (std::size_t i = 0; i < specs.size(); ++i)
      if (specs[i].name == name) return specs[i].choices[r.option_index[i]][0];
    throw std::logic_error(std::string("option missing from the table: ") + name);
  };
  // Defaults of the games without the Fevga family's rules; each case below sets its own.
  r.runner_threshold = 0;
  r.start_quarter = StartQuarterCheck::Off;
  r.opp_start_quarter = OppStartQuarter::Off;
  r.unblock = Unblock::None;
  switch (r.variant) {
    case Variant::Fevga:
    case Variant::Moultezim: {
      r.runner_threshold = std::stoi(value("runner_threshold"));
      const std::string& uq = value("unblock");
      r.unblock = uq == "R4_result" ? Unblock::R4Result : uq == "none" ? Unblock::None : Unblock::R3StartOfTurn;
      r.unblock_priority = value("unblock_priority") == "before_max_dice" ? UnblockPriority::BeforeMaxDice
                                                                          : UnblockPriority::AfterMaxDice;
      const std::string& sq = value("startq_check");
      const StartQuarterCheck timing = sq == "step" ? StartQuarterCheck::Step : StartQuarterCheck::Play;
      if (r.variant == Variant::Fevga) {
        r.start_quarter = sq == "off" ? StartQuarterCheck::Off : timing;
        const std::string& r2 = value("opp_start_quarter");
        r.opp_start_quarter = r2 == "R2a"   ? OppStartQuarter::R2a
                              : r2 == "R2b" ? OppStartQuarter::R2b
                              : r2 == "R2c" ? OppStartQuarter::R2c
                                            : OppStartQuarter::Off;
      } else {  // Moultezim: the `primes` profile picks R1 or R2c (RULES.md §7.1)
        const std::string& primes = value("primes");
        r.start_quarter = primes == "R1" ? timing : StartQuarterCheck::Off;
        r.opp_start_quarter = primes == "R2c" ? OppStartQuarter::R2c : OppStartQuarter::Off;
      }
      break;
    }
    case Variant::Plakoto: {
      r.bearoff_with_pinned = value("bearoff_with_pinned") == "true";
      const std::string& m = value("mother");
      r.mother = m == "state" ? MotherRule::State : m == "at_pin_only" ? MotherRule::AtPinOnly : MotherRule::Off;
      r.mother_points = std::stoi(value("mother_points"));
      // Checkers can stay pinned for good (most often with mother = off): a position from which
      // neither side can ever step again is a draw, or the game would never end.
      r.dead_position_draw = true;
      break;
    }
    case Variant::Narde:
      r.head_limit = 1;
      r.head_doubles = value("head_doubles") == "643" ? static_cast<std::uint8_t>((1 << 6) | (1 << 4) | (1 << 3))
                                                      : static_cast<std::uint8_t>((1 << 6) | (1 << 4));
      r.six_prime = value("prime_check") == "step" ? PrimeCheck::Step : PrimeCheck::Play;
      r.prime_borne_off_ahead = value("prime_borne_off_ahead") == "true";
      r.koks = value("koks") == "true";
      break;
    case Variant::Portes:
    case Variant::Tavla:
      break;
    case Variant::Backgammon:
    case Variant::Nackgammon:
      r.scoring = Scoring::Backgammon;
      break;
    case Variant::Hypergammon:
      r.checkers = std::stoi(value("checkers"));
      r.jacoby_always = value("jacoby_always") == "true";
      r.scoring = r.jacoby_always ? Scoring::Single : Scoring::Backgammon;
      break;
    case Variant::Jacquet:
      r.runner_threshold = std::stoi(value("runner_threshold"));
      r.runner_release_turn = value("runner_release") == "turn";
      r.six_prime_needs_last_two = value("six_prime") == "needs_last_two";
      r.doubles_n_times = value("doubles") == "n_times";
      r.scoring = value("double_win") == "true" ? Scoring::SingleDouble : Scoring::Single;
      r.dead_position_draw = value("dead_position") == "draw";
      break;
    case Variant::Tawla31:
      r.movement = value("movement") == "parallel" ? Movement::Parallel : Movement::Contrary;
      r.runner_threshold = std::stoi(value("runner_threshold"));
      r.runner_release_turn = value("runner_release") == "turn";
      r.scoring = Scoring::CheckersLeft;
      r.dead_position_draw = value("dead_position") == "draw";
      break;
  }
}

}  // namespace

Rules make_rules(Variant v, const std::vector<std::pair<std::string, std::string>>& options) {
  Rules r;
  r.variant = v;
  const VariantInfo& info = variant_info(v);
  r.movement = info.movement;
  r.contact = info.contact;
  r.start = info.start;
  r.option_index.resize(info.options.size());
  for (std::size_t i = 0; i < info.options.size(); ++i) r.option_index[i] = info.options[i].default_index;
  std::vector<bool> seen(info.options.size(), false);
  for (const auto& [name, raw] : options) {
    std::size_t i = 0;
    while (i < info.options.size() && info.options[i].name != name) ++i;
    if (i == info.options.size()) {
      std::string known;
      for (const auto& o : info.options) known += (known.empty() ? "" : ", ") + o.name;
      throw std::invalid_argument("unknown option " + quoted(name) + " for variant " + info.name + " (options: " + known + ")");
    }
    if (seen[i]) throw std::invalid_argument("option " + quoted(name) + " given twice");
    seen[i] = true;
    const OptionSpec& spec = info.options[i];
    int found = -1;
    for (std::size_t c = 0; c < spec.choices.size() && found < 0; ++c)
      for (const auto& spelling : spec.choices[c])
        if (lower(spelling) == lower(raw)) found = static_cast<int>(c);
    if (found < 0) {
      std::string allowed;
      for (const auto& c : spec.choices) allowed += (allowed.empty() ? "" : ", ") + c[0];
      throw std::invalid_argument("invalid value " + quoted(raw) + " for option " + name + " of " + info.name +
                                  " (allowed: " + allowed + ")");
    }
    r.option_index[i] = found;
  }
  apply_option_values(r);
  return r;
}

std::vector<std::pair<std::string, std::string>> Rules::all_options() const {
  std::vector<std::pair<std::string, std::string>> out;
  const auto& specs = info().options;
  for (std::size_t i = 0; i < specs.size(); ++i) out.emplace_back(specs[i].name, specs[i].choices[option_index[i]][0]);
  return out;
}

std::vector<std::pair<std::string, std::string>> Rules::non_default_options() const {
  std::vector<std::pair<std::string, std::string>> out;
  const auto& specs = info().options;
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (option_index[i] != specs[i].default_index) out.emplace_back(specs[i].name, specs[i].choices[option_index[i]][0]);
  return out;
}

std::string options_to_text(const Rules& rules) {
  std::string out;
  for (const auto& [name, value] : rules.non_default_options()) out += (out.empty() ? "" : ",") + name + "=" + value;
  return out;
}

std::vector<std::pair<std::string, std::string>> options_from_text(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw std::invalid_argument("malformed option " + quoted(item) + " (expected name=value)");
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    start = end + 1;
  }
  return out;
}

}  // namespace tavli
