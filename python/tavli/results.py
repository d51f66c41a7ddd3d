"""The value types of analysis results: probabilities, evaluations, ranked plays, rollouts and
rollouts of a roll's plays (the search is the core's). Imports nothing of tavli at run time, so
that every layer may use them."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Sequence, TypedDict

if TYPE_CHECKING:
    from ._core import Play
    from .cube_rollout import CubefulRollout


class GameResult(TypedDict):
    """A finished game of a match (tavli.Match.results): its variant, the starter and the winner
    (0 White, 1 Black; winner None for a draw), the points won and the kind (as Outcome's)."""

    variant: str
    starter: int
    winner: int | None
    points: int
    kind: str


class Probabilities(NamedTuple):
    """GNU Backgammon's cumulative probabilities for one side, plus the chance of a draw (Plakoto).
    A double is a gammon, a mars or a mother win; a triple a backgammon (or Narde's koks).
    `margin`: expected points beyond one per decided game where results vary in size (Tawla 31
    scores the loser's checkers left); 0 in the other games."""

    win: float
    win_double: float
    win_triple: float
    lose_double: float
    lose_triple: float
    draw: float = 0.0
    margin: float = 0.0

    @property
    def lose(self) -> float:
        return 1.0 - self.win - self.draw

    @property
    def equity(self) -> float:
        """Expected points (cubeless): win - lose + doubles + triples, each counted once more, + margin."""
        return (
            self.win - self.lose + (self.win_double - self.lose_double) + (self.win_triple - self.lose_triple)
            + self.margin
        )


class Evaluation(NamedTuple):
    """A position before the roll, for the side to move."""

    probabilities: Probabilities
    equity: float
    plies: int  # depth completed
    nodes: int  # static evaluations made
    interrupted: bool  # the time or node limit stopped a deeper iteration


class AnalyzedPlay(NamedTuple):
    """One legal play with its value for the side that plays it."""

    play: Play
    probabilities: Probabilities
    equity: float
    plies: int  # depth this play was searched to (plays cut by the root filter keep 0)

    def __str__(self) -> str:
        return f"{self.play!s:<28} {self.equity:+.3f}  ({self.plies}-ply)"


class Analysis(list[AnalyzedPlay]):
    """The legal plays of a roll, best first (a list of AnalyzedPlay), with the search's totals."""

    def __init__(self, plays: Sequence[AnalyzedPlay], plies: int, nodes: int, interrupted: bool) -> None:
        super().__init__(plays)
        self.plies = plies
        self.nodes = nodes
        self.interrupted = interrupted

    @property
    def best(self) -> AnalyzedPlay:
        return self[0]


class Rollout(NamedTuple):
    """A rollout's estimate of a position before the roll, for its side to move (the original
    mover): the means of the trials' outcomes and their standard errors (sample standard
    deviation / sqrt(trials); conservative with stratified rolls, see cpp/include/tavli/rollout.h)."""

    probabilities: Probabilities  # mean outcome vector
    equity: float  # mean equity (cubeless points)
    std_errors: Probabilities  # standard error of each field's mean (its lose and equity mean nothing)
    equity_std_error: float
    trials: int
    truncated: int  # trials valued by the evaluator instead of played to the end


class RolledOutPlay(NamedTuple):
    """One play of a roll rolled out (Board.rollout_plays), for the side that plays it: its
    rollout, and how far its equity trails the best play's with that difference's standard error
    from the paired trials (the same dice for every play: below the unpaired sqrt(se_a² + se_b²) by
    as much as the two plays' games share their luck)."""

    play: Play
    rollout: Rollout | CubefulRollout  # cubeful with Board.rollout_plays(cube=, match=)
    difference: float  # equity minus the best play's (0.0 for the best)
    difference_std_error: float  # of `difference`, paired (0.0 for the best)

    @property
    def equity(self) -> float:
        return self.rollout.equity

    def __str__(self) -> str:
        half = 1.96 * self.rollout.equity_std_error
        line = f"{self.play!s:<28} {self.equity:+.3f} ± {half:.3f}"
        if self.difference_std_error:
            line += f"   {self.difference:+.3f} ± {1.96 * self.difference_std_error:.3f}"
        return line


class PlayRollouts(list[RolledOutPlay]):
    """A roll's candidate plays rolled out on common dice, best first by rolled-out equity (a list
    of RolledOutPlay). `difference_std_errors[a][b]`: the standard error of play a's equity minus
    play b's (this list's order), from the paired trials."""

    def __init__(self, plays: Sequence[RolledOutPlay], difference_std_errors: list[list[float]]) -> None:
        super().__init__(plays)
        self.difference_std_errors = difference_std_errors

    @property
    def best(self) -> RolledOutPlay:
        return self[0]
