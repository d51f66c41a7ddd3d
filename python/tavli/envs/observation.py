"""What an agent sees: the engine's encoding of the position (tavli.encode, layouts in
cpp/include/tavli/encode.h) with the roll, and where it stands in its turn.

Units, F being the game's encoding size (tesauro 198: Backgammon, Portes, Tavla, Nackgammon,
Hypergammon; plakoto 198; block 152: Fevga, Moultezim, Narde, Jacquet, Tawla 31):

    [0, F)            the position, the observing agent's checkers first (the encoder's "mover"
                      block), then the opponent's; its last two units say who is to move
                      (white, black)
    [F, F + 21)       one-hot of the roll among the 21 (1-1, 2-1, 2-2, 3-1, ...); zeros when the
                      observing agent has no roll to play
    [F + 21, F + 27)  dice already used this turn, per face 1..6, as count / 4
    F + 27            steps left to play this turn / 4

During a turn the position is the one after the steps taken so far (hits and pins included).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..jobs.batch import encode

EXTRA = 21 + 7
HIGH = 8.0  # the largest unit: tesauro's bar / 2 with 15 checkers is 7.5


class Observer:
    def __init__(self, variant: str, options: dict[str, Any], start_row: np.ndarray) -> None:
        self.variant, self.options = variant, options
        self.encoding_size = encode(start_row[None], variant, **options).shape[1]
        self.size = self.encoding_size + EXTRA
        self._side = (self.encoding_size - 2) // 2  # each side's block: encode.h encodes both alike

    def __call__(
        self,
        row: np.ndarray,
        *,
        flip: bool = False,
        dice: tuple[int, int] | None = None,
        dice_used: Sequence[int] = (),
        steps_left: int = 0,
    ) -> np.ndarray:
        """The observation of `row` (seen from its side to move, or from the other side when
        `flip`: the encoding's two side blocks swapped, which also serves positions the encoder
        refuses to see from the winner's side, such as the end of a game), with the roll when the
        observer is to play it."""
        obs = np.zeros(self.size, dtype=np.float32)
        f, h = self.encoding_size, self._side
        if dice is None:
            encode(row[None], self.variant, out=obs[None, :f], **self.options)
        else:
            encode(row[None], self.variant, dice=[dice], out=obs[None, : f + 21], **self.options)
        if flip:
            obs[:h], obs[h : 2 * h] = obs[h : 2 * h].copy(), obs[:h].copy()
        for d in dice_used:
            obs[f + 20 + d] += 0.25
        obs[f + 27] = steps_left / 4
        return obs
