"""Experiment tool (needs PyTorch: `pip install torch`, not a tavli dependency): refit a net to the
labels of a `python -m tavli.supervised` work directory with Adam in minibatches instead of
supervised.h's per-example SGD, and write it as a TAVLINET file. Same split as tavli.supervised
(the first tenth of the self-play rows held out, candidates train only), same loss (cross-entropy
of each sigmoid output), same one-hidden-layer shape. Also reports the mean squared error against a
second work directory's labels (--test, e.g. 2-ply labels of other positions). --work may be given
several times (e.g. a contact, a crashed and a race directory): their rows are fitted together,
each directory's first tenth held out.

    python tools/fit_adam.py --work nets-work/contact-1ply --init python/tavli/nets/backgammon.tnet \\
        --epochs 12 --lr 3e-4 --threads 2 --out contact.tnet

--groups FILE adds sibling groups: an .npz with `succ` (M x ROW_BYTES uint8: every distinct play's
resulting position of N decisions, decision by decision, the other side to move), `lab` (M x 5
labels) and `counts` (N: plays per decision). Each step then also fits a share of the groups, by the
same cross-entropy plus --rank-weight x the squared error of each sibling's equity relative to its
group's mean: what a 0-ply chooser needs right is the order of one roll's plays, not their level.

Measured with it (docs/classnets.md, "Fitted value iteration", "Stop 35", "Stop 36"): 1-ply labels
alone gain nothing against gnubg; with the sibling groups' 2-ply order and the "expert3" inputs,
the engine's own labels reach 48.3% of the points against gnubg-nn 0-ply (the shipped net 46.6%).
--drop-units holds input columns at zero (an ablation: the net never reads them)."""

from __future__ import annotations

import argparse
import glob
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from gnubg_decisions import gnubg_equity  # noqa: E402
from tavli.nn import Net  # noqa: E402
from tavli.supervised import error, net_inputs  # noqa: E402


DROPPED: list[int] = []  # --drop-units: input columns held at zero
VARIANT = ["backgammon"]  # --variant: the game whose rows are encoded


def encoded(rows: np.ndarray, encoding: str) -> np.ndarray:
    x = net_inputs(rows, VARIANT[0], encoding)
    x[:, DROPPED] = 0
    return x


def labelled(work: str, encoding: str) -> tuple[np.ndarray, np.ndarray, int]:
    """The work directory's encoded rows with labels (self-play rows first), and how many are held out."""
    rows = np.load(f"{work}/positions.npy")
    held = max(1, len(rows) // 10)
    y = np.concatenate([np.load(f) for f in sorted(glob.glob(f"{work}/labels_*.npy"))])
    x = encoded(rows[:len(y)], encoding)
    cand = sorted(glob.glob(f"{work}/candidate_labels_*.npy"))
    if cand:
        cy = np.concatenate([np.load(f) for f in cand])
        x = np.concatenate([x, encoded(np.load(f"{work}/candidates.npy")[:len(cy)], encoding)])
        y = np.concatenate([y, cy])
    return x, y.astype(np.float32), held


class Groups:
    """Sibling groups of decisions with two or more plays, a seeded share of them each step."""

    def __init__(self, paths: list[str], encoding: str, steps: int, seed: int) -> None:
        files = [np.load(p) for p in paths]
        self.seed = seed
        self.x = torch.from_numpy(encoded(np.concatenate([z["succ"] for z in files]), encoding))
        self.y = torch.from_numpy(np.concatenate([z["lab"] for z in files]).astype(np.float32)).clamp(0, 1)
        self.counts = np.concatenate([z["counts"] for z in files])
        self.offsets = np.concatenate([[0], np.cumsum(self.counts)])
        self.multi = np.flatnonzero(self.counts >= 2)
        self.per_step = max(1, len(self.multi) // steps)

    def batch(self, epoch: int, step: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        if step == 0:
            self.order = np.random.default_rng([self.seed, epoch]).permutation(self.multi)
        first = (step * self.per_step) % len(self.order)
        chosen = self.order[first:first + self.per_step]
        rows = np.concatenate([np.arange(self.offsets[g], self.offsets[g + 1]) for g in chosen])
        gid = np.repeat(np.arange(len(chosen)), self.counts[chosen])
        return self.x[rows], self.y[rows], torch.from_numpy(gid)


def group_loss(model: torch.nn.Module, groups: Groups, epoch: int, step: int, loss_fn: torch.nn.Module,
               rank_weight: float) -> tuple[torch.Tensor, float]:
    """One step's share of the groups: their cross-entropy per row plus rank_weight x the mean
    squared relative error (returned apart too, for the log)."""
    gx, gy, gid = groups.batch(epoch, step)
    logits = model(gx)
    # Each sibling's equity error less its group's mean error: the order within a roll.
    d = gnubg_equity(None, torch.sigmoid(logits).T) - gnubg_equity(None, gy.T)
    n = torch.bincount(gid).clamp(min=1)
    r = ((d - (torch.zeros(len(n)).index_add_(0, gid, d) / n)[gid]) ** 2).mean()
    return loss_fn(logits, gy) / len(gy) + rank_weight * r, float(r.detach())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", required=True, action="append",
                    help="a work directory (repeatable: their rows together, each one's tenth held out)")
    ap.add_argument("--test", help="another work directory whose labelled rows are a test set")
    ap.add_argument("--variant", default="backgammon", help="the game of the rows (the net serves its family)")
    ap.add_argument("--encoding", default="expert")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--init", help="start from this net's weights (same hidden size; narrower encodings widen)")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-4, help="Adam's rate, cosine-annealed over the epochs")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--groups", action="append", help="sibling groups (.npz: succ, lab, counts) fitted beside "
                    "the rows; repeat to join several files")
    ap.add_argument("--rank-weight", type=float, default=0.0, help="weight of the groups' relative-equity error")
    ap.add_argument("--drop-units", default="", help="input units held at zero (e.g. 219:222,229:232): an "
                    "ablation; widened from --init their weights stay zero, so the net never reads them")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    for part in filter(None, a.drop_units.split(",")):
        lo, _, hi = part.partition(":")
        DROPPED.extend(range(int(lo), int(hi) if hi else int(lo) + 1))
    VARIANT[0] = a.variant
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)

    parts = [labelled(w, a.encoding) for w in a.work]  # each directory's held-out tenth kept apart
    xv, yv = np.concatenate([x[:h] for x, _, h in parts]), np.concatenate([y[:h] for _, y, h in parts])
    xt, yt = np.concatenate([x[h:] for x, _, h in parts]), np.concatenate([y[h:] for _, y, h in parts])
    del parts
    tests = [(torch.from_numpy(xv), torch.from_numpy(yv))]
    if a.test:
        tx, ty, _ = labelled(a.test, a.encoding)
        tests.append((torch.from_numpy(tx), torch.from_numpy(ty)))
    inputs = xv.shape[1]
    l1, l2 = torch.nn.Linear(inputs, a.hidden), torch.nn.Linear(a.hidden, 5)
    if a.init:
        start = Net.load(a.init)
        h = start.hidden
        if h > a.hidden:
            raise SystemExit(f"--init has {h} hidden units, more than {a.hidden}")
        # Wider than --init: the new units keep their random input weights and get zero output
        # weights, so the net starts evaluating exactly as --init.
        with torch.no_grad():
            w1 = l1.weight.detach().numpy().T.copy()
            w1[:, :h] = 0
            w1[:start.inputs, :h] = start.w1.reshape(start.inputs, h)
            b1 = l1.bias.detach().numpy().copy()
            b1[:h] = start.b1
            w2 = np.zeros((5, a.hidden), np.float32)
            w2[:, :h] = start.w2.reshape(5, h)
            l1.weight.copy_(torch.from_numpy(w1.T.copy()))
            l1.bias.copy_(torch.from_numpy(b1))
            l2.weight.copy_(torch.from_numpy(w2))
            l2.bias.copy_(torch.from_numpy(start.b2))
    model = torch.nn.Sequential(l1, torch.nn.Sigmoid(), l2)

    def mse() -> str:
        with torch.no_grad():
            return ", ".join(f"{float(((torch.sigmoid(model(tx)) - ty) ** 2).sum(1).mean()):.6f}" for tx, ty in tests)

    print(f"{len(xt)} training rows, {len(xv)} held out; mse (held out{', test' if a.test else ''}): {mse()}")
    xt_t, yt_t = torch.from_numpy(xt), torch.from_numpy(yt).clamp(0, 1)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, a.epochs)
    loss_fn = torch.nn.BCEWithLogitsLoss(reduction="sum")  # over the 5 outputs, then the batch's mean
    groups = Groups(a.groups, a.encoding, (len(xt_t) + a.batch - 1) // a.batch, a.seed) if a.groups else None
    for epoch in range(a.epochs):
        t0 = time.time()
        order = torch.randperm(len(xt_t))
        rank = 0.0
        for step, i in enumerate(range(0, len(order), a.batch)):
            idx = order[i:i + a.batch]
            opt.zero_grad()
            loss = loss_fn(model(xt_t[idx]), yt_t[idx]) / len(idx)
            if groups:
                extra_loss, r = group_loss(model, groups, epoch, step, loss_fn, a.rank_weight)
                loss = loss + extra_loss
                rank += r
            loss.backward()
            opt.step()
        sched.step()
        extra = f", groups' relative mse {rank / (step + 1):.6f}" if groups else ""
        print(f"epoch {epoch + 1}: mse {mse()}{extra} ({time.time() - t0:.0f}s)", flush=True)
    net = Net(Net.load(a.init).family if a.init else a.variant, a.hidden, seed=0, encoding=a.encoding)
    net.w1 = np.ascontiguousarray(l1.weight.detach().numpy().T)
    net.b1 = l1.bias.detach().numpy().copy()
    net.w2 = l2.weight.detach().numpy().copy()
    net.b2 = l2.bias.detach().numpy().copy()
    held_out = error(net, xv, yv)
    print(f"held-out mse by tavli: {held_out:.6f}")
    # The file keeps the command that made it (and the torch version: float sums may differ
    # across versions and thread counts).
    net.metadata = json.dumps({"format": "tavli-fit-adam/1", "command": shlex.join(["python", "tools/fit_adam.py", *sys.argv[1:]]),
                               "held_out_mse": held_out, "torch": torch.__version__})
    net.save(a.out)


if __name__ == "__main__":
    main()
