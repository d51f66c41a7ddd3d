"""gnubg's own contact-net learner (gnubg-nn's Trainer: its 250 contact inputs, 128 hidden units,
per-position backpropagation) fitted from random weights to tavli's own labels, the missing quadrant
of stop 38's question (README.md here).

    python nets-work/gnubg-learner/train.py WORK OUT.weights MINUTES [SEED]

WORK: a tavli.supervised work directory (positions, candidates, their labels); only the rows gnubg
classifies as contact are used, 5% of them (seeded) held out. The contact net of gnubg's weights file
is replaced by uniform(-0.1, 0.1) weights; its crashed and race nets are gnubg's own. Alpha starts at
20 (gnubg-nn's training default) and falls by a fifth whenever the held-out error improves by less
than 0.5%, to 0.5 at least; the net with the best held-out error is saved."""
import sys
import time

import numpy as np

sys.path.insert(0, "nets-work/gnubg-learner")
from common import randomized_weights, rows_and_labels, training_lines  # noqa: E402
import gnubg_nn  # noqa: E402

work, out, minutes = sys.argv[1], sys.argv[2], float(sys.argv[3])
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
rng = np.random.default_rng(seed)
rows, y = rows_and_labels(work)
lines = training_lines(rows, y, gnubg_nn.c_contact)
perm = rng.permutation(len(lines))
held = len(lines) // 20
test = [lines[i] for i in perm[:held]]
train = [lines[i] for i in perm[held:]]
print(f"{len(rows)} rows, {len(lines)} gnubg-contact: {len(train)} train, {len(test)} held out", flush=True)
randomized_weights(out + ".init", seed=seed)
handle = gnubg_nn.net_load(out + ".init", 0)
gnubg_nn.net_use(handle)
trainer, tester = gnubg_nn.Trainer(train), gnubg_nn.Trainer(test)
alpha, best, previous, t0, epoch = 20.0, float("inf"), float("inf"), time.time(), 0
while time.time() - t0 < minutes * 60:
    trainer.train(alpha, [int(i) for i in rng.permutation(len(train))])
    epoch += 1
    err = tester.errors()[0]
    if err < best:
        best = err
        gnubg_nn.net_save(out)
    if err > 0.995 * previous:
        alpha = max(0.5, alpha * 0.8)
    previous = err
    print(f"epoch {epoch} alpha {alpha:.2f} held-out {err:.5f} best {best:.5f} "
          f"train {trainer.errors()[0] if epoch % 10 == 0 else float('nan'):.5f} {time.time() - t0:.0f} s", flush=True)
