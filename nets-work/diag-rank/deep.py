"""Capacity experiment: a deeper torch net (ReLU layers) fitted like tools/fit_adam.py --groups, its
imitation loss on groups-test.npz (imitation.py).
    python nets-work/diag-rank/deep.py WORK ENCODING LAYERS(e.g. 512,256) EPOCHS RANKW [OUT.pt]
OUT.pt (torch.save of the model) is what deep_player.py plays against gnubg."""
import sys, time
import numpy as np, torch
sys.path.insert(0, "python"); sys.path.insert(0, "tools"); sys.path.insert(0, "bench"); sys.path.insert(0, "nets-work/diag-rank")
from tavli.supervised import net_inputs
from fit_adam import Groups, group_loss, labelled
from gnubg_decisions import gnubg_equity
from imitation import loss as imitation

work, enc, layers, epochs, rankw = sys.argv[1], sys.argv[2], [int(v) for v in sys.argv[3].split(",")], int(sys.argv[4]), float(sys.argv[5])
torch.set_num_threads(2); torch.manual_seed(1)
x, y, held = labelled(work, enc)
xv, yv = torch.from_numpy(x[:held]), torch.from_numpy(y[:held])
xt, yt = torch.from_numpy(x[held:]), torch.from_numpy(y[held:]).clamp(0, 1)
mods, n = [], x.shape[1]
for h in layers:
    mods += [torch.nn.Linear(n, h), torch.nn.ReLU()]; n = h
model = torch.nn.Sequential(*mods, torch.nn.Linear(n, 5))
steps = (len(xt) + 255) // 256
groups = Groups("nets-work/diag-rank/groups.npz", enc, steps, 1)
zt = np.load("nets-work/diag-rank/groups-test.npz"); tx = torch.from_numpy(net_inputs(zt["succ"], "backgammon", enc))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
bce = torch.nn.BCEWithLogitsLoss(reduction="sum")
for ep in range(epochs):
    t0 = time.time(); order = torch.randperm(len(xt))
    for s in range(steps):
        idx = order[s * 256:(s + 1) * 256]
        l = bce(model(xt[idx]), yt[idx]) / len(idx) + group_loss(model, groups, ep, s, bce, rankw)[0]
        opt.zero_grad(); l.backward(); opt.step()
    sched.step()
    with torch.no_grad():
        m = float(((torch.sigmoid(model(xv)) - yv) ** 2).sum(1).mean())
        im = imitation(gnubg_equity(None, torch.sigmoid(model(tx)).T).numpy(), zt)
    print(f"epoch {ep + 1}: mse {m:.6f} imitation {im[0]:.2f} ± {im[1]:.2f} mp ({time.time() - t0:.0f}s)", flush=True)
if len(sys.argv) > 6:
    torch.save({"encoding": enc, "model": model}, sys.argv[6])
