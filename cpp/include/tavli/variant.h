// Games as rule traits plus options (RULES.md §8, §9).
//
// A game is not an engine of its own: it is a handful of traits (how the sides face each other, what
// a lone opposing checker does, the start layout, special step rules, whole-play constraints, soft
// filters, scoring) and options for every flag on which the sources disagree. `Rules` is the
// resolved form the move generator reads; it is built once per Board from a variant name and
// keyword options, and validated there.
//
// Trait table for the whole family (RULES.md §9):
// (Which games take the doubling cube is the last column of the table: VariantInfo::takes_cube.)
//   game        movement  contact  start     step rules             whole-play   soft   scoring
//   fevga       parallel  block    stack r0  runner (13)            R1           R4     1/2
//   moultezim   parallel  block    stack r0  runner (13)            R2c          -      1/2
//   plakoto     contrary  pin      stack r0  pinned can't move      -            -      1/2, mother
//   portes      contrary  hit      2/5/3/5   bar first              -            -      1/2
//   tavla       contrary  hit      2/5/3/5   bar first              -            -      1/2 (mars)
//   backgammon  contrary  hit      2/5/3/5   bar first              -            -      1/2/3 x cube
//   narde       parallel  block    stack r0  head rule              6-prime      -      1/2 (mars)
// Kin games (RULES-KIN.md), profiles of the same traits:
//   jacquet     parallel  block    stack r0  runner (18)            (six-point)  -      1/2
//   tawla31     contrary  block    stack r0  runner (18)            -            -      checkers left
//   nackgammon  contrary  hit      nack      bar first              -            -      1/2/3 x cube
//   hypergammon contrary  hit      k on r0.. bar first              -            -      1/2/3 x cube
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tavli {

enum class Variant : std::uint8_t {
  Fevga, Moultezim, Plakoto, Portes, Tavla, Backgammon, Narde,  // RULES.md
  Jacquet, Tawla31, Nackgammon, Hypergammon,                    // RULES-KIN.md
};

// How the two routes face each other (RULES.md §1.1).
enum class Movement : std::uint8_t {
  Contrary,  // opponent's r' = 23 - r
  Parallel,  // opponent's r' = (r + 12) mod 24
};

// What a point holding opposing checkers does to a landing checker.
enum class Contact : std::uint8_t {
  Block,  // one opposing checker closes the point (Fevga, Moultezim, Narde)
  Hit,    // two close it; a lone one is hit to the bar (backgammon family)
  Pin,    // two close it; a lone one is pinned (Plakoto)
};

// Stack: all on r0. Backgammon: r0:2 r11:5 r16:3 r18:5. Nackgammon: r0:2 r1:2 r11:4 r16:3 r18:4.
// Hyper: one checker on each of r0..r(k-1) (Rules::checkers = k).
enum class StartLayout : std::uint8_t { Stack, Backgammon, Nackgammon, Hyper };

// R1: the mover may not hold all six points r0..r5 (RULES.md §6.5).
enum class StartQuarterCheck : std::uint8_t { Off, Play, Step };
// R2: primes in or in front of the opponent's starting quarter (RULES.md §6.5).
enum class OppStartQuarter : std::uint8_t { Off, R2a, R2b, R2c };
// R3/R4: the unblocking obligation (RULES.md §6.5, §6.6).
enum class Unblock : std::uint8_t { None, R3StartOfTurn, R4Result };
// Where the unblock preference sits in the pipeline of RULES.md §1.4.
enum class UnblockPriority : std::uint8_t { AfterMaxDice, BeforeMaxDice };
// Narde's six-prime rule (RULES.md §7.2): off, on the final position, or after every step.
enum class PrimeCheck : std::uint8_t { Off, Play, Step };
// Plakoto's mother rule (RULES.md §5.4, D-MOTHER).
enum class MotherRule : std::uint8_t { Off, State, AtPinOnly };
// How a finished game scores (before the cube).
enum class Scoring : std::uint8_t {
  SingleDouble,  // 1, or 2 if the loser has borne off none (Fevga, Moultezim, Portes, Tavla, Plakoto, Narde)
  Backgammon,    // 1, 2 (gammon), 3 (backgammon: also a loser's checker on the bar or in the winner's home)
  Single,        // always 1 (Jacquet without the double; Hypergammon with Jacoby always and no cube)
  CheckersLeft,  // the loser's checkers still on the board, 1..15 (Tawla 31, RULES-KIN.md §3.7)
};

// One option of a variant: its name, its allowed values (canonical spelling first, then aliases)
// and the default. Integer options keep their values as decimal strings here.
struct OptionSpec {
  std::string name;
  std::vector<std::vector<std::string>> choices;  // choices[i][0] canonical, [1..] aliases
  int default_index = 0;
  bool integer = false;
  std::string help;
};

// How a match game starts (the opening roll's dice played, or rolled again: RULES.md §9), and who
// starts the next game of a match.
enum class Opening : std::uint8_t { Reroll, UseOpeningDice };
enum class NextStarter : std::uint8_t { PreviousWinner, RollOff, Alternate };
const char* opening_name(Opening o);
const char* next_starter_name(NextStarter n);

// Facts about a game beyond its rules, for the layers above (nets, matches, Python).
struct GameFacts {
  std::string net_family;  // the nets' family (nnet.h): games one net can value share it
  std::string encoding;    // the nets' default input encoding (encode.h's names)
  NextStarter next_starter = NextStarter::PreviousWinner;  // RULES.md §9 D-NEXTSTART, RULES-KIN.md §1
  int match_target = 5;    // the conventional match length
};

struct VariantInfo {
  Variant variant;
  std::string name;
  std::vector<std::string> aliases;
  Movement movement;
  Contact contact;
  StartLayout start;
  bool opening_dice;  // by default the starter plays the two opening dice (else he rolls again)
  std::vector<OptionSpec> options;
  bool takes_cube = false;  // the doubling cube (cube.h): Backgammon, Nackgammon, Hypergammon
  GameFacts facts;
};

const std::vector<VariantInfo>& variant_table();
const VariantInfo& variant_info(Variant v);
// Finds a variant by name or alias (case-insensitive); throws std::invalid_argument.
Variant variant_from_name(const std::string& name);
// "contrary" / "parallel", the names the movement option and the Python API use.
const char* movement_name(Movement m);
// The movement of that name; throws std::invalid_argument naming the known ones.
Movement movement_from_name(const std::string& name);

// The resolved rules of one game.
struct Rules {
  Variant variant = Variant::Fevga;
  Movement movement = Movement::Parallel;
  Contact contact = Contact::Block;
  StartLayout start = StartLayout::Stack;

  int checkers = 15;  // per side: 15, or k = 1..3 in Hypergammon

  int runner_threshold = 13;  // runner phase while no checker on r >= this; 0 = no runner rule
  // The runner's arrival frees the other checkers for the rest of the same turn (step), or only
  // from the next turn (turn; RULES-KIN.md K-RELEASE).
  bool runner_release_turn = false;
  StartQuarterCheck start_quarter = StartQuarterCheck::Play;
  OppStartQuarter opp_start_quarter = OppStartQuarter::Off;
  Unblock unblock = Unblock::R4Result;
  UnblockPriority unblock_priority = UnblockPriority::AfterMaxDice;

  // Narde: the head rule (0 = none: checkers leaving r0 per turn), the first-turn doubles that let
  // two leave (bit d for d-d), the six-prime rule.
  int head_limit = 0;
  std::uint8_t head_doubles = 0;
  PrimeCheck six_prime = PrimeCheck::Off;
  bool prime_borne_off_ahead = true;
  bool koks = false;  // 3 points when the loser bore off none and has a checker in the winner's home

  // Plakoto.
  bool bearoff_with_pinned = false;
  MotherRule mother = MotherRule::Off;
  int mother_points = 2;

  // Jacquet (RULES-KIN.md §2): six consecutive points (along the opponent's route) only while
  // holding r22 and r23; doubles played n times (Jacquet de Versailles: up to six steps).
  bool six_prime_needs_last_two = false;
  bool doubles_n_times = false;
  // Blocking games without an unblocking rule: a position where neither side has a legal step for
  // any die value ends as a draw (RULES-KIN.md §8 point 5, a guard that should never fire).
  bool dead_position_draw = false;

  Scoring scoring = Scoring::SingleDouble;
  // Hypergammon's jacoby_always (RULES-KIN.md H-JACOBY): gammons count only once the cube has been
  // turned. Without a cube every win is single (scoring Single); a game with the cube is scored
  // as backgammon with the Jacoby rule (cube_player.h's cube_game_rules and cube_score).
  bool jacoby_always = false;

  // Option values as chosen, one index per OptionSpec of the variant (for dicts and IDs).
  std::vector<int> option_index;

  const VariantInfo& info() const { return variant_info(variant); }
  // Steps a roll gives: 2, or for doubles 4 (n with doubles_n_times: 1-1 one step, 6-6 six).
  int steps(int d1, int d2) const { return d1 != d2 ? 2 : doubles_n_times ? d1 : 4; }
  // (name, canonical value, is_integer) of the options that differ from the defaults.
  std::vector<std::pair<std::string, std::string>> non_default_options() const;
  // All options with their current values.
  std::vector<std::pair<std::string, std::string>> all_options() const;
  bool operator==(const Rules& o) const { return variant == o.variant && option_index == o.option_index; }
};

// Builds the rules of a variant with options given as (name, value) strings; unknown names and
// values throw std::invalid_argument naming the option and the allowed values.
Rules make_rules(Variant v, const std::vector<std::pair<std::string, std::string>>& options = {});

// Text "name=value,name=value" of the non-default options (empty when all are defaults), and back.
std::string options_to_text(const Rules& rules);
std::vector<std::pair<std::string, std::string>> options_from_text(const std::string& text);

}  // namespace tavli
