"""Independent pure-Python reference move generator for all seven games of the rule book.

Backgammon, Portes, Tavla (hitting games), Plakoto (pinning), Long Narde, and -- by delegation
to ``fevga.py`` -- Fevga and Moultezim.  Written only from ``shared/RULES.md`` (§1, §2, §3, §4,
§5, §7.2, §8, §9, §10) and its brief; it shares no code with the C++ engine.  Clarity first.

Conventions (RULES.md §1.1)
---------------------------
* A position (``Pos``) is seen from the side to move, the *mover* X; O is the opponent.
* Each side counts its points by its own route index r = 0..23 (r0 = start, r18..23 = home).
  BAR = -1 (a checker on the bar enters with die d onto r = d - 1), OFF = 24 (bear-off).
* Contrary movement (Backgammon, Portes, Tavla, Plakoto): O's r' is my point 23 - r'.
  Parallel movement (Narde, Fevga, Moultezim): O's r' is my point (r' + 12) % 24.
* ``mover`` / ``opp`` are 24 counts, each in its owner's frame.  Counts INCLUDE pinned checkers:
  in Plakoto one point may hold checkers of both sides, the bottom one (always a single checker)
  pinned.  ``mover_pinned`` / ``opp_pinned`` are the owner's route indices of his pinned checkers.
* ``mover_first_turn`` / ``opp_first_turn``: Narde only (the head-rule exception of §7.2).

Legality pipeline (RULES.md §1.4), implemented literally
---------------------------------------------------------
Candidates are all legal step sequences of every length 0..n (n = 2, or 4 for a double; a
non-double in both die orders); each step is checked on the current intermediate position
(landing, bar first, hitting / pinning, pinned checkers frozen, head rule, bear-off eligibility,
and the Narde 6-prime rule when ``prime_check == "step"``).  Then:

2. hard whole-play constraint on the final position (Narde 6-prime, ``prime_check == "play"``);
3. keep the candidates that use the maximum number of dice (a play that bears off the last
   checker is not exempt);
4. higher die: if that maximum is one die, the roll is not a double and a one-step candidate with
   the larger die survives, keep only candidates that used the larger die;
5. (no soft filters in these games);
6. deduplicate by the full resulting position (hits change O's counts and bar, pins change the
   pinned sets, so plays with equal mover counts may still be different plays).

Every filter only looks at (final position, dice used) and every step rule only at the current
position (the Narde head count is the start's r0 count minus the current one; Plakoto pins are
a function of the mover's counts, see ``_plakoto_opp_pinned``), so sequences that reach the same
intermediate position with the same dice left are merged per level of the search.  This is exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import fevga as _fevga

BAR = -1
OFF = 24
NPOINTS = 24
NCHECKERS = 15

VARIANTS = ("backgammon", "portes", "tavla", "plakoto", "narde", "fevga", "moultezim")
HITTING = ("backgammon", "portes", "tavla")
CONTRARY = ("backgammon", "portes", "tavla", "plakoto")
PARALLEL = ("narde", "fevga", "moultezim")

DEFAULTS = {
    "backgammon": {},
    "portes": {},
    "tavla": {},
    "plakoto": {"bearoff_with_pinned": False, "mother": "state", "mother_points": 2},
    "narde": {"head_doubles": "643", "prime_check": "play", "prime_borne_off_ahead": True},
    "fevga": dict(_fevga.FEVGA_DEFAULTS),
    "moultezim": dict(_fevga.MOULTEZIM_DEFAULTS),
}

_ALLOWED = {
    "bearoff_with_pinned": (False, True),
    "mother": ("state", "at_pin_only", "off"),
    "mother_points": (2, 3),
    "head_doubles": ("643", "64"),
    "prime_check": ("play", "step"),
    "prime_borne_off_ahead": (False, True),
}

# Doubles after which two checkers may leave the head on a player's first turn (§7.2).
_HEAD_DOUBLES = {"643": (6, 4, 3), "64": (6, 4)}

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
    mover_pinned: frozenset = frozenset()
    opp_pinned: frozenset = frozenset()
    mover_first_turn: bool = False
    opp_first_turn: bool = False

    def __post_init__(self):
        # Accept lists / sets for convenience; store hashable tuples / frozensets.
        if type(self.mover) is not tuple:
            object.__setattr__(self, "mover", tuple(self.mover))
        if type(self.opp) is not tuple:
            object.__setattr__(self, "opp", tuple(self.opp))
        if type(self.mover_pinned) is not frozenset:
            object.__setattr__(self, "mover_pinned", frozenset(self.mover_pinned))
        if type(self.opp_pinned) is not frozenset:
            object.__setattr__(self, "opp_pinned", frozenset(self.opp_pinned))

    def flipped(self) -> "Pos":
        """The same position seen from the other side (each side keeps its own frame)."""
        return Pos(self.opp, self.mover, self.opp_bar, self.mover_bar, self.opp_off,
                   self.mover_off, self.opp_pinned, self.mover_pinned, self.opp_first_turn,
                   self.mover_first_turn)


def opp_index(variant: str, r: int) -> int:
    """O's route index of my point r (the map is its own inverse for contrary movement; for
    parallel movement my index of O's point r' is also (r' + 12) % 24)."""
    if variant in CONTRARY:
        return 23 - r
    return (r + 12) % NPOINTS


def opp_in_my_frame(variant: str, opp) -> tuple:
    """O's counts re-indexed by my route index."""
    return tuple(opp[opp_index(variant, r)] for r in range(NPOINTS))


# ---------------------------------------------------------------------------------------------
# Options and validation
# ---------------------------------------------------------------------------------------------

def resolve_options(variant: str, options: dict | None = None) -> dict:
    """The variant's defaults merged with ``options`` (unknown keys / bad values: ValueError).

    For Fevga / Moultezim the result is ``fevga.resolve_options``'s flag dict.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (expected one of {VARIANTS})")
    if variant in ("fevga", "moultezim"):
        return _fevga.resolve_options(variant, options)
    options = dict(options or {})
    defaults = DEFAULTS[variant]
    for key, value in options.items():
        if key not in defaults:
            raise ValueError(f"unknown option {key!r} for variant {variant!r}")
        allowed = _ALLOWED[key]
        if isinstance(allowed[0], bool):
            ok = type(value) is bool
        elif isinstance(allowed[0], int):
            ok = type(value) is int and value in allowed  # bool is rejected on purpose
        else:
            ok = isinstance(value, str) and value in allowed
        if not ok:
            raise ValueError(f"option {key!r}: invalid value {value!r} (allowed: {allowed})")
    merged = dict(defaults)
    merged.update(options)
    return merged


def _plakoto_opp_pinned(mover, opp, mover_pinned) -> frozenset:
    """O's pinned checkers implied by the counts: every point holding checkers of both sides
    where X's checker is not the pinned one has O's (single) checker pinned under X's."""
    return frozenset(23 - p for p in range(NPOINTS)
                     if mover[p] and opp[23 - p] and p not in mover_pinned)


def validate(variant: str, pos: Pos) -> None:
    """Raise ValueError unless ``pos`` is a well-formed position of ``variant``."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    if not isinstance(pos, Pos):
        raise ValueError("position must be a Pos")
    sides = (("mover", pos.mover, pos.mover_bar, pos.mover_off, pos.mover_pinned),
             ("opp", pos.opp, pos.opp_bar, pos.opp_off, pos.opp_pinned))
    for name, board, bar, off, pinned in sides:
        if len(board) != NPOINTS:
            raise ValueError(f"{name}: need 24 counts, got {len(board)}")
        if any(type(c) is not int or c < 0 for c in board):
            raise ValueError(f"{name}: counts must be non-negative ints")
        for label, v in (("bar", bar), ("off", off)):
            if type(v) is not int or v < 0:
                raise ValueError(f"{name}_{label} must be a non-negative int")
        if sum(board) + bar + off != NCHECKERS:
            raise ValueError(f"{name}: {sum(board)} on board + {bar} bar + {off} off != 15")
        if any(type(p) is not int or not 0 <= p < NPOINTS for p in pinned):
            raise ValueError(f"{name}_pinned: route indices 0..23 expected")
        if bar and variant not in HITTING:
            raise ValueError(f"{name}_bar: {variant} has no bar")
        if pinned and variant != "plakoto":
            raise ValueError(f"{name}_pinned: only Plakoto pins checkers")
    for flag in (pos.mover_first_turn, pos.opp_first_turn):
        if type(flag) is not bool:
            raise ValueError("first-turn flags must be bools")
        if flag and variant != "narde":
            raise ValueError("first-turn flags are a Narde rule")
    if pos.mover_off == NCHECKERS and pos.opp_off == NCHECKERS:
        raise ValueError("both sides have borne off everything")
    if variant == "plakoto":
        for p in range(NPOINTS):
            a, b = pos.mover[p], pos.opp[23 - p]
            x_pinned, o_pinned = p in pos.mover_pinned, (23 - p) in pos.opp_pinned
            if a and b:
                if x_pinned == o_pinned:
                    raise ValueError(f"point r{p} (mover frame): both sides, exactly one must "
                                     "be pinned")
                if (x_pinned and a != 1) or (o_pinned and b != 1):
                    raise ValueError(f"point r{p} (mover frame): a pinned checker is single")
            elif x_pinned or o_pinned:
                raise ValueError(f"point r{p} (mover frame): pinned checker without a pinner")
    else:
        other = opp_in_my_frame(variant, pos.opp)
        for p in range(NPOINTS):
            if pos.mover[p] and other[p]:
                raise ValueError(f"point r{p} (mover frame) holds checkers of both sides")


def _check_dice(dice) -> tuple:
    if (not isinstance(dice, (tuple, list)) or len(dice) != 2
            or any(type(d) is not int or not 1 <= d <= 6 for d in dice)):
        raise ValueError(f"bad dice {dice!r}")
    return tuple(dice)


# ---------------------------------------------------------------------------------------------
# Step generators.  Each returns a function  step(state, die) -> [((from, to), new_state)]
# over a compact, hashable search state; everything that cannot change during the mover's play
# (O's checkers in Plakoto and Narde, X's pinned checkers) is captured as a constant.
# ---------------------------------------------------------------------------------------------

def _bear_off_target(board, r, die):
    """Bear-off part of §1.5 for a checker on r with r + die >= 24, the caller having checked
    that the side may bear off: exact, or overshoot from the farthest occupied point only.
    Returns OFF or None.  (Pinned checkers count as checkers on their point.)"""
    t = r + die
    if t == OFF:
        return OFF
    if any(board[x] for x in range(18, r)):
        return None
    return OFF


def _hitting_step_fn():
    """Backgammon / Portes / Tavla.  state = (m, o, mbar, obar, moff); m, o in own frames."""

    def step(state, die):
        m, o, mbar, obar, moff = state
        out = []
        if mbar:
            # Bar first: only an entry onto r = die - 1 (O's r' = 24 - die).
            t = die - 1
            k = o[23 - t]
            if k >= 2:
                return out
            nm = list(m)
            nm[t] += 1
            no, nobar = o, obar
            if k == 1:  # hit
                lo = list(o)
                lo[23 - t] = 0
                no, nobar = tuple(lo), obar + 1
            out.append(((BAR, t), (tuple(nm), no, mbar - 1, nobar, moff)))
            return out
        bear = not any(m[:18])  # no checker on the bar (checked above), all in r18..23
        for r in range(NPOINTS):
            if not m[r]:
                continue
            t = r + die
            no, nobar = o, obar
            if t < OFF:
                k = o[23 - t]
                if k >= 2:
                    continue  # closed point
                if k == 1:  # hit the blot
                    lo = list(o)
                    lo[23 - t] = 0
                    no, nobar = tuple(lo), obar + 1
            else:
                if not bear or _bear_off_target(m, r, die) is None:
                    continue
                t = OFF
            nm = list(m)
            nm[r] -= 1
            noff = moff
            if t == OFF:
                noff += 1
            else:
                nm[t] += 1
            out.append(((r, t), (tuple(nm), no, mbar, nobar, noff)))
        return out

    return step


def _plakoto_step_fn(opp, mover_pinned, bearoff_with_pinned):
    """Plakoto.  state = (m, moff).  O's counts and X's pinned checkers never change during
    X's play (nobody is sent back; only O could release X's pinned checkers)."""

    def step(state, die):
        m, moff = state
        out = []
        bear = not any(m[:18]) and (bearoff_with_pinned or not mover_pinned)
        for r in range(NPOINTS):
            if not m[r] or r in mover_pinned:
                continue  # nothing of X's to move, or X's checker is pinned (bottom colour)
            t = r + die
            if t < OFF:
                # §5.2: closed if O pins X's checker there, or >= 2 O checkers.  Otherwise
                # open (empty, X's own, X on top of a pinned O, or a single free O -> pinned).
                if t in mover_pinned or opp[23 - t] >= 2:
                    continue
            else:
                if not bear or _bear_off_target(m, r, die) is None:
                    continue
                t = OFF
            nm = list(m)
            nm[r] -= 1  # if it was X's last checker over a pinned O, that O is free again
            noff = moff
            if t == OFF:
                noff += 1
            else:
                nm[t] += 1
            out.append(((r, t), (tuple(nm), noff)))
        return out

    return step


def _narde_prime_checker(opp, opp_off, borne_off_ahead):
    """Returns illegal(m): does X hold a wall of six with no O checker ahead of it?  RULES.md §6.5
    counts a wall along the route of the player it blocks: six consecutive O-route indices
    s..s+5 (0 <= s <= 18), which are X's points (i + 12) % 24 for O's index i (parallel movement).
    O is ahead of the wall if one of O's checkers has an O-route index above s + 5, or (flag) O
    has borne off a checker."""
    off_ahead = borne_off_ahead and opp_off > 0
    walls = []  # per wall: X's six points, and whether an O checker is ahead of it
    for s in range(NPOINTS - 5):
        points = [(i + 12) % NPOINTS for i in range(s, s + 6)]
        ahead = off_ahead or any(opp[i] for i in range(s + 6, NPOINTS))
        walls.append((points, ahead))

    def illegal(m):
        return any(not ahead and all(m[p] for p in points) for points, ahead in walls)

    return illegal


def _narde_step_fn(opp, head_start, head_max, illegal_prime_step):
    """Long Narde.  state = (m, moff).  ``head_start``: X's r0 count before the play, so the
    number of checkers that left the head so far is head_start - m[0] (nothing moves onto r0).
    ``illegal_prime_step``: None, or the prime test applied after every step."""
    blocked = tuple(opp[(t + 12) % NPOINTS] > 0 for t in range(NPOINTS))  # one checker closes

    def step(state, die):
        m, moff = state
        out = []
        bear = not any(m[:18])
        for r in range(NPOINTS):
            if not m[r]:
                continue
            if r == 0 and head_start - m[0] >= head_max:
                continue  # head rule
            t = r + die
            if t < OFF:
                if blocked[t]:
                    continue
            else:
                if not bear or _bear_off_target(m, r, die) is None:
                    continue
                t = OFF
            nm = list(m)
            nm[r] -= 1
            noff = moff
            if t == OFF:
                noff += 1
            else:
                nm[t] += 1
            nm = tuple(nm)
            if illegal_prime_step is not None and illegal_prime_step(nm):
                continue
            out.append(((r, t), (nm, noff)))
        return out

    return step


# ---------------------------------------------------------------------------------------------
# The pipeline (§1.4)
# ---------------------------------------------------------------------------------------------

def _candidates(start, dice, step):
    """All legal step sequences of every length, merged per (state, dice used).

    Returns a list of (state, used, steps): used = tuple of the die values used (sorted for a
    non-double), steps = one representative list of (from, to)."""
    d1, d2 = dice

    def expand(level, die):
        nxt = {}
        for state, steps in level.items():
            for mv, new in step(state, die):
                if new not in nxt:
                    nxt[new] = steps + [mv]
        return nxt

    cands = [(start, (), [])]
    if d1 == d2:
        level = {start: []}
        for k in range(1, 5):
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


def _select(start, dice, step, hard_illegal=None):
    """§1.4 steps 1-4 and 6: {final state: representative steps}."""
    cands = _candidates(start, dice, step)
    if hard_illegal is not None:
        cands = [c for c in cands if not hard_illegal(c[0])]
        if not cands:
            # Only if the start itself violates the constraint and no play repairs it.
            return {start: []}
    most = max(len(c[1]) for c in cands)
    cands = [c for c in cands if len(c[1]) == most]
    d1, d2 = dice
    if most == 1 and d1 != d2:
        hi = max(d1, d2)
        if any(c[1] == (hi,) for c in cands):
            cands = [c for c in cands if c[1] == (hi,)]
    result = {}
    for state, _used, steps in cands:
        if state not in result:
            result[state] = list(steps)
    return result


def _legal(variant, pos, dice, opts):
    """Distinct legal plays, options resolved, position and dice already validated."""
    if variant in HITTING:
        start = (pos.mover, pos.opp, pos.mover_bar, pos.opp_bar, pos.mover_off)
        plays = _select(start, dice, _hitting_step_fn())
        return {Pos(m, o, mbar, obar, moff, pos.opp_off): steps
                for (m, o, mbar, obar, moff), steps in plays.items()}
    if variant == "plakoto":
        step = _plakoto_step_fn(pos.opp, pos.mover_pinned, opts["bearoff_with_pinned"])
        plays = _select((pos.mover, pos.mover_off), dice, step)
        return {Pos(m, pos.opp, 0, 0, moff, pos.opp_off, pos.mover_pinned,
                    _plakoto_opp_pinned(m, pos.opp, pos.mover_pinned)): steps
                for (m, moff), steps in plays.items()}
    if variant == "narde":
        illegal = _narde_prime_checker(pos.opp, pos.opp_off, opts["prime_borne_off_ahead"])
        head_max = 1
        if pos.mover_first_turn and dice[0] == dice[1] \
                and dice[0] in _HEAD_DOUBLES[opts["head_doubles"]]:
            head_max = 2
        per_step = opts["prime_check"] == "step"
        step = _narde_step_fn(pos.opp, pos.mover[0], head_max, illegal if per_step else None)
        hard = None if per_step else (lambda state: illegal(state[0]))
        plays = _select((pos.mover, pos.mover_off), dice, step, hard)
        return {Pos(m, pos.opp, 0, 0, moff, pos.opp_off,
                    mover_first_turn=False, opp_first_turn=pos.opp_first_turn): steps
                for (m, moff), steps in plays.items()}
    # fevga / moultezim: delegate to fevga.py (``opts`` is its resolved flag dict)
    plays = _fevga._legal_plays_resolved(pos.mover, pos.opp, pos.mover_off, pos.opp_off,
                                         dice, opts)
    return {Pos(board, pos.opp, 0, 0, off, pos.opp_off): steps
            for (board, off), steps in plays.items()}


def legal_plays(variant: str, pos: Pos, dice: tuple, options: dict | None = None) -> dict:
    """Distinct legal plays: {resulting Pos (still seen from the mover, first-turn flag of the
    mover cleared): one representative list of (from, to) steps}.  from == -1: bar entry;
    to == 24: bear-off.  No legal step: {pos with the mover's first-turn flag cleared: []}."""
    opts = resolve_options(variant, options)
    validate(variant, pos)
    return _legal(variant, pos, _check_dice(dice), opts)


def apply_steps(variant: str, pos: Pos, steps) -> Pos:
    """Apply (from, to) steps with the variant's side effects (hits, pins, pin releases, the
    first-turn flag) but without any legality check."""
    m = list(pos.mover)
    o = list(pos.opp)
    mbar, obar, moff = pos.mover_bar, pos.opp_bar, pos.mover_off
    for frm, to in steps:
        if frm == BAR:
            if mbar <= 0:
                raise ValueError("no checker on the bar")
            mbar -= 1
        else:
            if m[frm] <= 0:
                raise ValueError(f"no checker on r{frm}")
            m[frm] -= 1
        if to == OFF:
            moff += 1
            continue
        m[to] += 1
        if variant in HITTING and o[23 - to] == 1:
            o[23 - to] = 0
            obar += 1
    if variant == "plakoto":
        opp_pinned = _plakoto_opp_pinned(m, o, pos.mover_pinned)
    else:
        opp_pinned = pos.opp_pinned
    return Pos(tuple(m), tuple(o), mbar, obar, moff, pos.opp_off, pos.mover_pinned, opp_pinned,
               False, pos.opp_first_turn)


# ---------------------------------------------------------------------------------------------
# Game results
# ---------------------------------------------------------------------------------------------

def _race_result(variant, loser_board, loser_bar, loser_off):
    """(points, kind) for the side that bore off all 15 against ``loser``."""
    if loser_off > 0:
        return 1, "single"
    if variant == "backgammon" and (loser_bar > 0 or any(loser_board[:6])):
        return 3, "triple"  # backgammon: on the bar or in the winner's home (loser's r0..5)
    return 2, "double"  # gammon / Portes, Tavla double / Plakoto, Fevga double / Narde mars


def _mpin(board, pinned) -> bool:
    """§5.4: the side's r0 holds exactly one of its checkers and it is pinned."""
    return board[0] == 1 and 0 in pinned


def _outcome(variant, pos, opts, before=None):
    if pos.mover_off == NCHECKERS:
        return ("mover",) + _race_result(variant, pos.opp, pos.opp_bar, pos.opp_off)
    if pos.opp_off == NCHECKERS:
        return ("opponent",) + _race_result(variant, pos.mover, pos.mover_bar, pos.mover_off)
    if variant != "plakoto":
        return None
    mother = _mother_outcome(pos, opts, before)
    if mother is None and _plakoto_dead(pos, opts):
        return ("draw", 0, "draw")
    return mother


def _plakoto_dead(pos, opts):
    """Neither side has a legal step for any die value 1..6 (each with its own step rules): the
    position can never change again, and the game is a draw (the engine's terminal rule for
    checkers pinned for good)."""
    bop = opts["bearoff_with_pinned"]
    x_step = _plakoto_step_fn(pos.opp, pos.mover_pinned, bop)
    o_step = _plakoto_step_fn(pos.mover, pos.opp_pinned, bop)
    for die in range(1, 7):
        if x_step((pos.mover, pos.mover_off), die) or o_step((pos.opp, pos.opp_off), die):
            return False
    return True


def _mother_outcome(pos, opts, before):
    if opts["mother"] == "off":
        return None
    pts = opts["mother_points"]
    x_mpin = _mpin(pos.mover, pos.mover_pinned)
    o_mpin = _mpin(pos.opp, pos.opp_pinned)
    if opts["mother"] == "state":
        if x_mpin and o_mpin:
            return ("draw", 0, "draw")
        if o_mpin and pos.mover[0] == 0:
            return ("mover", pts, "mother")
        if x_mpin and pos.opp[0] == 0:
            return ("opponent", pts, "mother")
        return None
    # "at_pin_only": only the play that pins O's mother can end the game.
    if before is None or not o_mpin or _mpin(before.opp, before.opp_pinned):
        return None
    if x_mpin:
        return ("draw", 0, "draw")
    if pos.mover[0] == 0:
        return ("mover", pts, "mother")
    return None  # an ordinary pin for good


def outcome(variant: str, pos: Pos, options: dict | None = None,
            before: Pos | None = None) -> tuple | None:
    """Result of the game judged right after the mover's play (``pos``; mover = who just moved):
    (winner, points, kind) with winner in {"mover", "opponent", "draw"} and kind in
    {"single", "double", "triple", "mother", "draw"}, or None while the game goes on.

    ``before`` (Plakoto, mother = "at_pin_only"): the position before the play, needed to tell
    whether the play just pinned O's mother; without it the mother rule cannot fire."""
    opts = resolve_options(variant, options)
    validate(variant, pos)
    if before is not None:
        validate(variant, before)
    return _outcome(variant, pos, opts, before)


# ---------------------------------------------------------------------------------------------
# perft
# ---------------------------------------------------------------------------------------------

def _perft(variant, pos, depth, opts):
    if depth == 0:
        return 1
    total = 0
    for dice in ROLLS:
        for child in _legal(variant, pos, dice, opts):
            if _outcome(variant, child, opts, pos) is not None:
                total += 1  # a finished game is a leaf
            else:
                total += _perft(variant, child.flipped(), depth - 1, opts)
    return total


def perft(variant: str, pos: Pos, depth: int, options: dict | None = None) -> int:
    """Leaf count over the 21 distinct rolls (unweighted) and the distinct plays of each (a
    pass counts 1); a finished game counts 1; the child is the result seen from the other side."""
    opts = resolve_options(variant, options)
    validate(variant, pos)
    if type(depth) is not int or depth < 0:
        raise ValueError("depth must be a non-negative int")
    if _outcome(variant, pos.flipped(), opts) is not None:
        return 1  # the game is already over (judged as after the previous player's play)
    return _perft(variant, pos, depth, opts)


def start_position(variant: str) -> Pos:
    """The starting position (§1.2); in Narde both players are on their first turn."""
    if variant in HITTING:
        b = [0] * NPOINTS
        b[0], b[11], b[16], b[18] = 2, 5, 3, 5
        return Pos(tuple(b), tuple(b))
    b = tuple([15] + [0] * 23)
    first = variant == "narde"
    return Pos(b, b, mover_first_turn=first, opp_first_turn=first)


__all__ = [
    "VARIANTS", "DEFAULTS", "ROLLS", "BAR", "OFF", "Pos", "resolve_options", "validate",
    "legal_plays", "apply_steps", "outcome", "perft", "start_position", "opp_index",
    "opp_in_my_frame",
]
