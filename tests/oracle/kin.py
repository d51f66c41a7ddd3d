"""Independent pure-Python reference move generator for the four kin games of RULES-KIN.md:
Jacquet, Tawla 31, Nackgammon and Hypergammon (1, 2 or 3 checkers).

Written only from ``shared/RULES-KIN.md`` (§1-§5, §7, §8) and ``shared/RULES.md`` §1 (route
indices, the legality pipeline §1.4, bear-off §1.5) plus the brief; it shares no code with the
C++ engine (nor with the other oracles of this folder, whose conventions it copies: the ``Pos``
shape, ``legal_plays`` / ``outcome`` / ``perft`` signatures and the perft definition).

Conventions
-----------
* A position (``Pos``) is seen from the side to move, the *mover* X; O is the opponent.
* Each side counts its points by its own route index r = 0..23 (r0 = start, r18..23 = home).
  BAR = -1 (a checker on the bar enters with die d onto r = d - 1), OFF = 24 (bear-off).
* Contrary movement (Tawla 31 by default, Nackgammon, Hypergammon): O's r' is my 23 - r'.
  Parallel movement (Jacquet, Tawla 31 with ``movement="parallel"``): O's r' is my (r' + 12) % 24.
* ``mover`` / ``opp``: 24 counts each, in the owner's frame; borne off = N - board - bar, with
  N = 15, or k = ``checkers`` in Hypergammon.

Rules per game (RULES-KIN.md)
-----------------------------
* Jacquet (§2) and Tawla 31 (§3): no hitting, no bar; ONE opposing checker closes a point (§2.3,
  §3.3).  Runner (postilion) rule (§2.4, §3.4): X is in the *runner phase* while X has borne off
  nothing and has no checker on r >= threshold (18, or 19 by flag).  In the runner phase, if X
  has a checker off the talon r0 only that checker may move, otherwise any one checker may leave
  r0.  ``runner_release="step"``: the phase is judged on the current intermediate position, so
  the runner's arrival frees the remaining dice.  ``runner_release="turn"``: if the turn starts in
  the runner phase, the runner-only restriction lasts for the whole turn.
* Jacquet ``six_prime="needs_last_two"`` (§2.5): hard whole-play constraint judged on the
  position after the play: if X holds six consecutive points counted along O's route (O indices
  s..s+5, 0 <= s <= 18, i.e. my points (s + 12) % 24 ... (s + 17) % 24), X must hold r22 and r23.
* Jacquet ``doubles="n_times"`` (§2.6): a double n is played n times (1 to 6 steps).
* Nackgammon (§4), Hypergammon (§5): backgammon (RULES.md §2): two or more opposing checkers
  close a point, a single one is hit and goes to the bar; a checker on the bar must enter (with
  die d onto r = d - 1) before anything else moves.
* Bear-off (RULES.md §1.5): only with every checker in r18..23 (none on the bar); exact number,
  or a higher die from the farthest occupied point.

Legality pipeline (RULES.md §1.4), literally
--------------------------------------------
1. enumerate every legal step sequence of every length (both die orders for a non-double;
   4 steps for a double, or n with ``doubles="n_times"``), each step checked on the current
   intermediate position;
2. hard whole-play constraint (Jacquet ``needs_last_two``) on the final position;
3. keep the plays using the maximum number of dice (finishing plays are not exempt);
4. higher die: if that maximum is one die of a non-double and the larger die can be played
   alone, keep only plays of the larger die;
5. (no soft filters in these games);
6. deduplicate by the resulting position.

Every step rule only looks at the current position (and, for ``runner_release="turn"``, at one
constant bit: was the turn started in the runner phase), every filter only at (final position,
dice used); so sequences reaching the same intermediate position with the same dice left are
merged level by level.  This is exact.
"""

from __future__ import annotations

from dataclasses import dataclass

BAR = -1
OFF = 24
NPOINTS = 24

VARIANTS = ("jacquet", "tawla31", "nackgammon", "hypergammon")

# Option names, defaults and allowed values as the engine names them (tavli.variant_options).
DEFAULTS = {
    "jacquet": {
        "runner_threshold": 18,
        "runner_release": "step",
        "six_prime": "free",
        "doubles": "four",
        "double_win": True,
        "dead_position": "draw",
    },
    "tawla31": {
        "movement": "contrary",
        "runner_threshold": 18,
        "runner_release": "step",
        "dead_position": "draw",
    },
    "nackgammon": {},
    "hypergammon": {"checkers": 3, "jacoby_always": False},
}

ALLOWED = {
    "runner_threshold": (18, 19),
    "runner_release": ("step", "turn"),
    "six_prime": ("free", "needs_last_two"),
    "doubles": ("four", "n_times"),
    "double_win": (True, False),
    "dead_position": ("draw", "off"),
    "movement": ("contrary", "parallel"),
    "checkers": (3, 2, 1),
    "jacoby_always": (False, True),
}

ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))  # 21 rolls, d1 >= d2


# ---------------------------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Pos:
    """A position seen from the side to move (see the module docstring)."""

    mover: tuple
    opp: tuple
    mover_bar: int = 0
    opp_bar: int = 0
    mover_off: int = 0
    opp_off: int = 0

    def __post_init__(self):
        if type(self.mover) is not tuple:
            object.__setattr__(self, "mover", tuple(self.mover))
        if type(self.opp) is not tuple:
            object.__setattr__(self, "opp", tuple(self.opp))

    def flipped(self) -> "Pos":
        """The same position seen from the other side (each side keeps its own frame)."""
        return Pos(self.opp, self.mover, self.opp_bar, self.mover_bar, self.opp_off,
                   self.mover_off)


# ---------------------------------------------------------------------------------------------
# Options and the rule profile of a game
# ---------------------------------------------------------------------------------------------

def resolve_options(variant: str, options: dict | None = None) -> dict:
    """The variant's defaults merged with ``options``; unknown names or bad values: ValueError.
    Booleans may also be given as the engine's strings "true" / "false"."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (expected one of {VARIANTS})")
    merged = dict(DEFAULTS[variant])
    for key, value in dict(options or {}).items():
        if key not in merged:
            raise ValueError(f"unknown option {key!r} for variant {variant!r}")
        if isinstance(merged[key], bool) and value in ("true", "false"):
            value = value == "true"
        allowed = ALLOWED[key]
        if isinstance(allowed[0], bool):
            ok = type(value) is bool
        elif isinstance(allowed[0], int):
            ok = type(value) is int and value in allowed
        else:
            ok = isinstance(value, str) and value in allowed
        if not ok:
            raise ValueError(f"option {key!r}: invalid value {value!r} (allowed: {allowed})")
        merged[key] = value
    return merged


@dataclass(frozen=True)
class Rules:
    """Everything the generator needs to know about a game with its options resolved."""

    variant: str
    checkers: int            # N: 15, or Hypergammon's k
    parallel: bool           # movement
    hitting: bool            # backgammon contact (hit blots, 2 close, bar) vs one blocks
    runner_threshold: int    # 0: no runner rule
    runner_turn: bool        # runner_release == "turn"
    needs_last_two: bool     # Jacquet six_prime == "needs_last_two"
    n_times: bool            # Jacquet doubles == "n_times"
    opts: dict


def rules_of(variant: str, options: dict | None = None) -> Rules:
    opts = resolve_options(variant, options)
    if variant in ("jacquet", "tawla31"):
        return Rules(
            variant=variant,
            checkers=15,
            parallel=variant == "jacquet" or opts["movement"] == "parallel",
            hitting=False,
            runner_threshold=opts["runner_threshold"],
            runner_turn=opts["runner_release"] == "turn",
            needs_last_two=opts.get("six_prime") == "needs_last_two",
            n_times=opts.get("doubles") == "n_times",
            opts=opts,
        )
    return Rules(
        variant=variant,
        checkers=opts["checkers"] if variant == "hypergammon" else 15,
        parallel=False,
        hitting=True,
        runner_threshold=0,
        runner_turn=False,
        needs_last_two=False,
        n_times=False,
        opts=opts,
    )


def opp_index(rules: Rules, r: int) -> int:
    """O's route index of my point r (for both movements the map is its own inverse)."""
    return (r + 12) % NPOINTS if rules.parallel else 23 - r


def opp_in_my_frame(rules: Rules, opp) -> tuple:
    """O's counts re-indexed by my route index."""
    return tuple(opp[opp_index(rules, r)] for r in range(NPOINTS))


def validate(rules: Rules, pos: Pos) -> None:
    """Raise ValueError unless ``pos`` is a well-formed position of the game."""
    if not isinstance(pos, Pos):
        raise ValueError("position must be a Pos")
    n = rules.checkers
    for name, board, bar, off in (("mover", pos.mover, pos.mover_bar, pos.mover_off),
                                  ("opp", pos.opp, pos.opp_bar, pos.opp_off)):
        if len(board) != NPOINTS or any(type(c) is not int or c < 0 for c in board):
            raise ValueError(f"{name}: need 24 non-negative int counts")
        for label, v in (("bar", bar), ("off", off)):
            if type(v) is not int or v < 0:
                raise ValueError(f"{name}_{label} must be a non-negative int")
        if sum(board) + bar + off != n:
            raise ValueError(f"{name}: {sum(board)} on board + {bar} bar + {off} off != {n}")
        if bar and not rules.hitting:
            raise ValueError(f"{name}_bar: {rules.variant} has no bar")
    if pos.mover_off == n and pos.opp_off == n:
        raise ValueError("both sides have borne off everything")
    other = opp_in_my_frame(rules, pos.opp)
    for r in range(NPOINTS):
        if pos.mover[r] and other[r]:
            raise ValueError(f"point r{r} (mover frame) holds checkers of both sides")


def _check_dice(dice) -> tuple:
    if (not isinstance(dice, (tuple, list)) or len(dice) != 2
            or any(type(d) is not int or not 1 <= d <= 6 for d in dice)):
        raise ValueError(f"bad dice {dice!r}")
    return tuple(dice)


# ---------------------------------------------------------------------------------------------
# Step legality.  A search state is (m, o, mbar, obar, moff): X's counts, O's counts (each in its
# own frame), the two bars and X's borne-off count.
# ---------------------------------------------------------------------------------------------

def in_runner_phase(rules: Rules, m, moff) -> bool:
    """RULES-KIN.md §2.4: no checker borne off and none on r >= threshold."""
    if not rules.runner_threshold:
        return False
    return moff == 0 and not any(m[rules.runner_threshold:])


def _sources(rules: Rules, m, moff, turn_started_in_phase: bool):
    """The points X may move a checker from (bar entry handled separately)."""
    if rules.runner_turn:
        restricted = turn_started_in_phase
    else:
        restricted = in_runner_phase(rules, m, moff)
    if restricted:
        runners = [r for r in range(1, NPOINTS) if m[r]]
        if runners:
            return runners          # only the checker off the talon may move
        return [0] if m[0] else []  # any one checker may leave the talon
    return [r for r in range(NPOINTS) if m[r]]


def _may_bear_off(m, mbar) -> bool:
    """RULES.md §1.5: every checker in play in the home board r18..23, none on the bar."""
    return mbar == 0 and not any(m[:18])


def _bear_off_ok(m, r, die) -> bool:
    """RULES.md §1.5 for r + die >= 24 (the side may bear off): exact, or a higher die from
    the farthest occupied point (no checker on any r'' < r)."""
    if r + die == OFF:
        return True
    return not any(m[:r])


def steps(rules: Rules, state, die, turn_started_in_phase=False):
    """All legal single steps with ``die`` from ``state``: [((from, to), new_state)]."""
    m, o, mbar, obar, moff = state
    out = []

    def land(t):
        """(allowed, hit) for landing on my point t < 24."""
        k = o[opp_index(rules, t)]
        if rules.hitting:
            if k >= 2:
                return False, False
            return True, k == 1
        return k == 0, False  # one opposing checker blocks

    if mbar:
        # Bar first (hitting games only): enter with die d onto r = d - 1.
        t = die - 1
        ok, hit = land(t)
        if ok:
            nm = list(m)
            nm[t] += 1
            no, nobar = o, obar
            if hit:
                lo = list(o)
                lo[opp_index(rules, t)] = 0
                no, nobar = tuple(lo), obar + 1
            out.append(((BAR, t), (tuple(nm), no, mbar - 1, nobar, moff)))
        return out

    bear = _may_bear_off(m, mbar)
    for r in _sources(rules, m, moff, turn_started_in_phase):
        t = r + die
        no, nobar, noff = o, obar, moff
        if t < OFF:
            ok, hit = land(t)
            if not ok:
                continue
            if hit:
                lo = list(o)
                lo[opp_index(rules, t)] = 0
                no, nobar = tuple(lo), obar + 1
        else:
            if not bear or not _bear_off_ok(m, r, die):
                continue
            t = OFF
        nm = list(m)
        nm[r] -= 1
        if t == OFF:
            noff += 1
        else:
            nm[t] += 1
        out.append(((r, t), (tuple(nm), no, mbar, nobar, noff)))
    return out


def six_prime_violated(rules: Rules, m) -> bool:
    """RULES-KIN.md §2.5 (``needs_last_two``): X holds six consecutive points along O's route
    (O indices s..s+5, 0 <= s <= 18) without holding both r22 and r23."""
    if m[22] and m[23]:
        return False
    for s in range(0, 19):
        if all(m[opp_index(rules, s + k)] for k in range(6)):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# The pipeline (RULES.md §1.4)
# ---------------------------------------------------------------------------------------------

def _candidates(rules: Rules, start, dice, in_phase: bool):
    """Every legal step sequence of every length, merged per (state, dice used):
    [(state, used, steps)] with used the die values used (sorted for a non-double)."""
    d1, d2 = dice

    def expand(level, die):
        nxt = {}
        for state, seq in level.items():
            for mv, new in steps(rules, state, die, in_phase):
                if new not in nxt:
                    nxt[new] = seq + [mv]
        return nxt

    cands = [(start, (), [])]
    if d1 == d2:
        n = d1 if rules.n_times else 4
        level = {start: []}
        for k in range(1, n + 1):
            level = expand(level, d1)
            if not level:
                break
            cands.extend((s, (d1,) * k, seq) for s, seq in level.items())
    else:
        lev_a = expand({start: []}, d1)
        lev_b = expand({start: []}, d2)
        cands.extend((s, (d1,), seq) for s, seq in lev_a.items())
        cands.extend((s, (d2,), seq) for s, seq in lev_b.items())
        both = expand(lev_a, d2)
        for s, seq in expand(lev_b, d1).items():
            both.setdefault(s, seq)
        used = tuple(sorted(dice))
        cands.extend((s, used, seq) for s, seq in both.items())
    return cands


def _legal(rules: Rules, pos: Pos, dice) -> dict:
    start = (pos.mover, pos.opp, pos.mover_bar, pos.opp_bar, pos.mover_off)
    in_phase = in_runner_phase(rules, pos.mover, pos.mover_off)
    cands = _candidates(rules, start, dice, in_phase)
    # 2. hard whole-play constraint, judged on the position after the play
    if rules.needs_last_two:
        cands = [c for c in cands if not six_prime_violated(rules, c[0][0])]
        if not cands:
            # only if the start itself violates it and no play repairs it
            cands = [(start, (), [])]
    # 3. maximum dice
    most = max(len(c[1]) for c in cands)
    cands = [c for c in cands if len(c[1]) == most]
    # 4. higher die
    d1, d2 = dice
    if most == 1 and d1 != d2:
        hi = max(d1, d2)
        if any(c[1] == (hi,) for c in cands):
            cands = [c for c in cands if c[1] == (hi,)]
    # 6. dedup by resulting position
    result = {}
    for (m, o, mbar, obar, moff), _used, seq in cands:
        p = Pos(m, o, mbar, obar, moff, pos.opp_off)
        if p not in result:
            result[p] = list(seq)
    return result


def legal_plays(variant: str, pos: Pos, dice, options: dict | None = None) -> dict:
    """Distinct legal plays: {resulting Pos (still seen from the mover): one representative list
    of (from, to) steps}.  from == -1: bar entry; to == 24: bear-off.  No legal step:
    {pos: []} (the pass)."""
    rules = rules_of(variant, options)
    validate(rules, pos)
    return _legal(rules, pos, _check_dice(dice))


def apply_steps(variant: str, pos: Pos, seq, options: dict | None = None) -> Pos:
    """Apply (from, to) steps (with hits) without any legality check."""
    rules = rules_of(variant, options)
    m, o = list(pos.mover), list(pos.opp)
    mbar, obar, moff = pos.mover_bar, pos.opp_bar, pos.mover_off
    for frm, to in seq:
        if frm == BAR:
            if mbar <= 0:
                raise ValueError("no checker on the bar")
            mbar -= 1
        else:
            if m[frm] <= 0:
                raise ValueError(f"no checker on r{frm}")
            m[frm] -= 1
        if to >= OFF:
            moff += 1
            continue
        m[to] += 1
        j = opp_index(rules, to)
        if rules.hitting and o[j] == 1:
            o[j] = 0
            obar += 1
    return Pos(tuple(m), tuple(o), mbar, obar, moff, pos.opp_off)


# ---------------------------------------------------------------------------------------------
# Game results
# ---------------------------------------------------------------------------------------------

def _win(rules: Rules, loser_board, loser_bar, loser_off) -> tuple:
    """(points, kind) for the side that bore off all its checkers."""
    v = rules.variant
    if v == "tawla31":
        return rules.checkers - loser_off, "checkers"  # §3.7: loser's checkers left
    if v == "jacquet":
        if rules.opts["double_win"] and loser_off == 0:
            return 2, "double"  # §2.8
        return 1, "single"
    # nackgammon / hypergammon (§4, §5; RULES.md §2)
    if v == "hypergammon" and rules.opts["jacoby_always"]:
        return 1, "single"
    if loser_off > 0:
        return 1, "single"
    if loser_bar > 0 or any(loser_board[:6]):
        return 3, "triple"  # on the bar or in the winner's home board (loser's r0..5)
    return 2, "double"


def _stuck(rules: Rules, pos: Pos) -> bool:
    """The mover of ``pos`` has no legal step for any die value (runner phase judged on pos)."""
    start = (pos.mover, pos.opp, pos.mover_bar, pos.opp_bar, pos.mover_off)
    in_phase = in_runner_phase(rules, pos.mover, pos.mover_off)
    return not any(steps(rules, start, d, in_phase) for d in range(1, 7))


def _outcome(rules: Rules, pos: Pos):
    n = rules.checkers
    if pos.mover_off == n:
        return ("mover",) + _win(rules, pos.opp, pos.opp_bar, pos.opp_off)
    if pos.opp_off == n:
        return ("opponent",) + _win(rules, pos.mover, pos.mover_bar, pos.mover_off)
    # RULES-KIN.md §8.5: guard against a mutual complete block (should never fire in play).
    if rules.opts.get("dead_position") == "draw" and _stuck(rules, pos) \
            and _stuck(rules, pos.flipped()):
        return ("draw", 0, "draw")
    return None


def outcome(variant: str, pos: Pos, options: dict | None = None):
    """Result of the game judged right after the mover's play (``pos``; mover = who just moved):
    (winner, points, kind), winner in {"mover", "opponent", "draw"}, kind in {"single",
    "double", "triple", "checkers", "draw"}; None while the game goes on."""
    rules = rules_of(variant, options)
    validate(rules, pos)
    return _outcome(rules, pos)


# ---------------------------------------------------------------------------------------------
# perft and the start
# ---------------------------------------------------------------------------------------------

def _perft(rules: Rules, pos: Pos, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for dice in ROLLS:
        for child in _legal(rules, pos, dice):
            if _outcome(rules, child) is not None:
                total += 1  # a finished game is a leaf
            else:
                total += _perft(rules, child.flipped(), depth - 1)
    return total


def perft(variant: str, pos: Pos, depth: int, options: dict | None = None) -> int:
    """Leaf count over the 21 distinct rolls (unweighted) and the distinct plays of each (a pass
    counts 1); a finished game counts 1; the child is the result seen from the other side."""
    rules = rules_of(variant, options)
    validate(rules, pos)
    if type(depth) is not int or depth < 0:
        raise ValueError("depth must be a non-negative int")
    if _outcome(rules, pos.flipped()) is not None:
        return 1  # already over (judged as after the previous player's play)
    return _perft(rules, pos, depth)


def start_position(variant: str, options: dict | None = None) -> Pos:
    """Both sides' start (RULES-KIN.md §1, §4, §5), identical in their own frames."""
    rules = rules_of(variant, options)
    b = [0] * NPOINTS
    if variant in ("jacquet", "tawla31"):
        b[0] = 15
    elif variant == "nackgammon":
        b[0], b[1], b[11], b[16], b[18] = 2, 2, 4, 3, 4
    else:
        for r in range(rules.checkers):
            b[r] = 1
    return Pos(tuple(b), tuple(b))


__all__ = [
    "VARIANTS", "DEFAULTS", "ROLLS", "BAR", "OFF", "Pos", "Rules", "resolve_options", "rules_of",
    "validate", "legal_plays", "apply_steps", "outcome", "perft", "start_position", "opp_index",
    "opp_in_my_frame", "in_runner_phase", "six_prime_violated",
]
