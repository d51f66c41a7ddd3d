"""Independent pure-Python reference move generator for Fevga and Moultezim.

Written only from the project's rule book (``shared/RULES.md`` §1, §6, §7.1, §8, §9, §10) and
its own brief; it deliberately shares no code with the C++ engine. Clarity over speed.

Conventions (RULES.md §1.1)
---------------------------
* Every position is seen from the side to move, the *mover* X; O is the opponent.
* Each side counts points by its own route index r = 0..23 (r0 = start, r18..23 = home board).
  OFF = 24: a step r -> 24 is a bear-off.
* Parallel movement: the opponent's checker on opponent index r' stands on my point (r' + 12) % 24,
  and my checker on my point r stands on the opponent's point (r + 12) % 24.
* ``mover`` / ``opp`` are sequences of 24 checker counts, each in its owner's frame;
  ``mover_off`` / ``opp_off`` are the numbers borne off. Each side has 15 checkers in all.

Legality pipeline (RULES.md §1.4), implemented literally
---------------------------------------------------------
Candidates are all legal step sequences of every length 0..n (n = 2, or 4 for a double; a
non-double in both die orders). Then:

1. step legality on the current intermediate position (landing, runner rule, bear-off
   eligibility, and R1 when ``startq_check == "step"``);
2. hard whole-play constraints on the final position (R1 when ``startq_check == "play"``, R2);
3. keep the candidates that use the maximum number of dice;
4. higher die: if that maximum is one die, the roll is not a double and a one-step candidate
   with the larger die survives, keep only candidates that used the larger die;
5. soft filter (unblock R4/R3): keep the candidates satisfying the preference if one does
   (with ``unblock_priority == "before_max_dice"`` this runs between steps 2 and 3);
6. deduplicate by resulting position.

Every filter only looks at (final position, dice used), so sequences are merged per level of
the search whenever they reach the same intermediate position with the same dice left; this is
an exact optimisation (the step rules depend only on the current position and off count) that
keeps doubles fast.
"""

from __future__ import annotations

OFF = 24
NPOINTS = 24
NCHECKERS = 15

FEVGA_DEFAULTS = {
    "runner_threshold": 13,
    "startq_check": "play",
    "opp_start_quarter": "off",
    "unblock": "R4_result",
    "unblock_priority": "after_max_dice",
}

MOULTEZIM_DEFAULTS = {
    "runner_threshold": 13,
    "primes": "R2c",
    "startq_check": "play",
    "unblock": "none",
    "unblock_priority": "after_max_dice",
}

_ALLOWED = {
    "runner_threshold": (12, 13),
    "startq_check": ("play", "step", "off"),
    "opp_start_quarter": ("off", "R2a", "R2b", "R2c"),
    "unblock": ("R4_result", "R3_bkgm_start_of_turn", "none"),
    "unblock_priority": ("after_max_dice", "before_max_dice"),
    "primes": ("R2c", "R1", "none"),
}


# ---------------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------------

def _check_value(key, value):
    allowed = _ALLOWED[key]
    if key == "runner_threshold":
        ok = type(value) is int and value in allowed  # bool is rejected on purpose
    else:
        ok = isinstance(value, str) and value in allowed
    if not ok:
        raise ValueError(f"option {key!r}: invalid value {value!r} (allowed: {allowed})")


def resolve_options(variant: str, options: dict | None = None) -> dict:
    """Merge ``options`` into the variant's defaults; return the fevga-style flag dict.

    Keys of the result: runner_threshold, startq_check, opp_start_quarter, unblock,
    unblock_priority.  For Moultezim the ``primes`` flag is mapped:
    "R2c" -> opp_start_quarter R2c, no R1; "R1" -> R1 with the given startq_check timing
    ("play" or "step"), no R2; "none" -> neither.
    """
    options = dict(options or {})
    if variant == "fevga":
        defaults = FEVGA_DEFAULTS
    elif variant == "moultezim":
        defaults = MOULTEZIM_DEFAULTS
    else:
        raise ValueError(f"unknown variant {variant!r} (expected 'fevga' or 'moultezim')")
    for key, value in options.items():
        if key not in defaults:
            raise ValueError(f"unknown option {key!r} for variant {variant!r}")
        _check_value(key, value)
    merged = dict(defaults)
    merged.update(options)
    if variant == "fevga":
        return merged
    primes = merged["primes"]
    if primes == "R1":
        if merged["startq_check"] not in ("play", "step"):
            raise ValueError("moultezim primes 'R1' needs startq_check 'play' or 'step'")
        startq, r2 = merged["startq_check"], "off"
    elif primes == "R2c":
        startq, r2 = "off", "R2c"
    else:  # "none"
        startq, r2 = "off", "off"
    return {
        "runner_threshold": merged["runner_threshold"],
        "startq_check": startq,
        "opp_start_quarter": r2,
        "unblock": merged["unblock"],
        "unblock_priority": merged["unblock_priority"],
    }


# ---------------------------------------------------------------------------------------------
# Board helpers
# ---------------------------------------------------------------------------------------------

def other_frame(board) -> tuple:
    """Counts of one side re-indexed by the other side's route index (parallel movement).

    If ``board`` gives side A's checkers by A's index, the result gives them by B's index:
    A's point a is B's point (a + 12) % 24, i.e. B's point b holds board[(b + 12) % 24].
    """
    return tuple(board[(b + 12) % NPOINTS] for b in range(NPOINTS))


def _validate(mover, opp, mover_off, opp_off):
    for name, board, off in (("mover", mover, mover_off), ("opp", opp, opp_off)):
        if len(board) != NPOINTS:
            raise ValueError(f"{name}: need 24 counts, got {len(board)}")
        if any(type(c) is not int or c < 0 for c in board):
            raise ValueError(f"{name}: counts must be non-negative ints")
        if type(off) is not int or off < 0:
            raise ValueError(f"{name}_off must be a non-negative int")
        if sum(board) + off != NCHECKERS:
            raise ValueError(f"{name}: {sum(board)} on board + {off} off != 15")
    opp_mine = other_frame(opp)
    for r in range(NPOINTS):
        if mover[r] and opp_mine[r]:
            raise ValueError(f"point r{r} (mover frame) holds checkers of both sides")


def _runner_phase(board, off, threshold) -> bool:
    """§6.4: nothing borne off and no checker on r >= threshold."""
    return off == 0 and not any(board[r] for r in range(threshold, NPOINTS))


def _may_bear_off(board) -> bool:
    """§1.5: all checkers still on the board stand in the home board r18..23."""
    return not any(board[r] for r in range(18))


def _holds_all(board, points) -> bool:
    return all(board[p] > 0 for p in points)


def single_steps(board, off, blockers, die, threshold, startq_step=False):
    """All legal single steps with ``die`` for the side whose counts are ``board``.

    ``blockers`` are the other side's checkers in this side's frame (a point with >= 1 is
    closed for landing). Returns a list of ((from, to), (new_board, new_off)), to == 24 for a
    bear-off. ``startq_step``: R1 as a step rule (a step after which r0..r5 are all held is
    illegal).
    """
    if _runner_phase(board, off, threshold) and any(board[r] for r in range(1, threshold)):
        # Runner phase with a checker away from the start: the start stack is frozen.
        sources = [r for r in range(1, NPOINTS) if board[r]]
    else:
        sources = [r for r in range(NPOINTS) if board[r]]
    bear = _may_bear_off(board)
    out = []
    for r in sources:
        t = r + die
        if t < OFF:
            if blockers[t]:
                continue  # closed: one opposing checker controls a point
        else:
            if not bear:
                continue
            if t > OFF and any(board[x] for x in range(r)):
                continue  # overshoot only from the farthest checker
            t = OFF
        nb = list(board)
        nb[r] -= 1
        noff = off
        if t == OFF:
            noff += 1
        else:
            nb[t] += 1
        nb = tuple(nb)
        if startq_step and _holds_all(nb, range(6)):
            continue
        out.append(((r, t), (nb, noff)))
    return out


def completely_blocked(opp, opp_off, mover_board, threshold) -> bool:
    """§6.5 R4: O has a checker on the board, may not bear off, and has no legal single step
    for any die 1..6 under O's own step rules (landing, runner rule, bear-off eligibility);
    O's whole-play constraints (R1/R2) are ignored.  ``opp`` in O's frame, ``mover_board`` in
    the mover's frame."""
    if sum(opp) == 0:
        return False
    if _may_bear_off(opp):
        return False
    blockers = other_frame(mover_board)  # mover's checkers in O's frame
    for die in range(1, 7):
        if single_steps(opp, opp_off, blockers, die, threshold, startq_step=False):
            return False
    return True


def r3_trap_points(mover, opp):
    """§6.5 R3 trigger at the start of the mover's turn.

    Returns the six trap points in the mover's frame when every O checker on the board stands
    on one point s' (O frame), s' + 6 <= 23, and the mover holds O's s'+1..s'+6; else None.
    """
    pts = [r for r in range(NPOINTS) if opp[r]]
    if len(pts) != 1:
        return None
    s = pts[0]
    if s + 6 > 23:
        return None
    six = [(s + k + 12) % NPOINTS for k in range(1, 7)]
    if _holds_all(mover, six):
        return six
    return None


def _violates_hard(final, opp, opts) -> bool:
    """§1.4 step 2: whole-play constraints on the final position."""
    if opts["startq_check"] == "play" and _holds_all(final, range(0, 6)):
        return True  # R1: all six of r0..r5 held
    r2 = opts["opp_start_quarter"]
    if r2 == "R2a" and _holds_all(final, range(12, 18)):
        return True
    if r2 == "R2b" and opp[0] > 0 and _holds_all(final, range(13, 19)):
        return True
    if r2 == "R2c" and sum(1 for r in range(12, 18) if final[r]) > 4:
        return True
    return False


# ---------------------------------------------------------------------------------------------
# Move generation
# ---------------------------------------------------------------------------------------------

def _candidates(mover, mover_off, blockers, dice, opts):
    """All legal step sequences of every length, merged per (position, dice used).

    Returns a list of (state, used, steps): state = (board tuple, off); used = tuple of the die
    values used (sorted for non-doubles); steps = one representative list of (from, to).
    """
    thr = opts["runner_threshold"]
    sq_step = opts["startq_check"] == "step"
    start = (tuple(mover), mover_off)
    d1, d2 = dice

    def expand(level, die):
        nxt = {}
        for (board, off), steps in level.items():
            for step, state in single_steps(board, off, blockers, die, thr, sq_step):
                if state not in nxt:
                    nxt[state] = steps + [step]
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
        lev_a = expand({start: []}, d1)  # d1 used first
        lev_b = expand({start: []}, d2)  # d2 used first
        cands.extend((s, (d1,), seq) for s, seq in lev_a.items())
        cands.extend((s, (d2,), seq) for s, seq in lev_b.items())
        both = expand(lev_a, d2)
        for s, seq in expand(lev_b, d1).items():
            both.setdefault(s, seq)
        used = tuple(sorted(dice))
        cands.extend((s, used, seq) for s, seq in both.items())
    return cands


def _soft_filter(cands, mover, opp, opp_off, opts):
    mode = opts["unblock"]
    if mode == "none":
        return cands
    if mode == "R4_result":
        thr = opts["runner_threshold"]
        good = [c for c in cands if not completely_blocked(opp, opp_off, c[0][0], thr)]
    else:  # R3_bkgm_start_of_turn
        six = r3_trap_points(mover, opp)
        if six is None:
            return cands
        good = [c for c in cands if not _holds_all(c[0][0], six)]
    return good if good else cands


def _legal_plays_resolved(mover, opp, mover_off, opp_off, dice, opts):
    mover = tuple(mover)
    opp = tuple(opp)
    blockers = other_frame(opp)  # O's checkers in the mover's frame
    cands = _candidates(mover, mover_off, blockers, dice, opts)

    # 2. hard whole-play constraints
    cands = [c for c in cands if not _violates_hard(c[0][0], opp, opts)]
    if not cands:
        # Only possible when the start position itself violates a hard constraint and no
        # play repairs it: the turn passes.
        return {(mover, mover_off): []}

    before = opts["unblock_priority"] == "before_max_dice"
    if before:
        cands = _soft_filter(cands, mover, opp, opp_off, opts)

    # 3. maximum number of dice
    most = max(len(c[1]) for c in cands)
    cands = [c for c in cands if len(c[1]) == most]

    # 4. higher die
    d1, d2 = dice
    if most == 1 and d1 != d2:
        hi = max(d1, d2)
        if any(c[1] == (hi,) for c in cands):
            cands = [c for c in cands if c[1] == (hi,)]

    # 5. soft filter
    if not before:
        cands = _soft_filter(cands, mover, opp, opp_off, opts)

    # 6. dedupe by resulting position
    result = {}
    for state, _used, steps in cands:
        if state not in result:
            result[state] = list(steps)
    return result


def legal_plays(mover, opp, mover_off, opp_off, dice, variant="fevga", options=None) -> dict:
    """Distinct legal plays: {(tuple(24 mover counts after), mover_off_after): steps}.

    ``steps`` is one representative list of (from, to) in the mover's frame (to == 24 for a
    bear-off). If no step is legal the single entry is the unchanged position with [].
    """
    opts = resolve_options(variant, options)
    _validate(mover, opp, mover_off, opp_off)
    d1, d2 = dice
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"bad dice {dice!r}")
    return _legal_plays_resolved(mover, opp, mover_off, opp_off, (d1, d2), opts)


def apply_steps(mover, mover_off, steps):
    """Apply (from, to) steps (to == 24: bear-off) without legality checks."""
    board = list(mover)
    off = mover_off
    for frm, to in steps:
        if board[frm] <= 0:
            raise ValueError(f"no checker on r{frm}")
        board[frm] -= 1
        if to == OFF:
            off += 1
        else:
            board[to] += 1
    return tuple(board), off


ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))  # 21 rolls, d1 >= d2


def _perft(mover, opp, mover_off, opp_off, depth, opts):
    if depth == 0 or mover_off == NCHECKERS or opp_off == NCHECKERS:
        return 1
    total = 0
    for dice in ROLLS:
        plays = _legal_plays_resolved(mover, opp, mover_off, opp_off, dice, opts)
        for (board, off) in plays:
            total += _perft(opp, board, opp_off, off, depth - 1, opts)
    return total


def perft(mover, opp, mover_off, opp_off, depth, variant="fevga", options=None) -> int:
    """Leaf count over the 21 distinct rolls (unweighted) and the distinct plays of each."""
    opts = resolve_options(variant, options)
    _validate(mover, opp, mover_off, opp_off)
    return _perft(tuple(mover), tuple(opp), mover_off, opp_off, depth, opts)


__all__ = [
    "FEVGA_DEFAULTS", "MOULTEZIM_DEFAULTS", "resolve_options", "legal_plays", "apply_steps",
    "perft", "single_steps", "completely_blocked", "r3_trap_points", "other_frame", "ROLLS",
]
