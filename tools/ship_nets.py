"""Put trained nets into the package: copies each weight file to python/tavli/nets/<family>.tnet
and records it in python/tavli/nets/manifest.json with the variants it serves and how it was
trained (read from the file's metadata, which `python -m tavli.train` writes).

    python tools/ship_nets.py fevga.tnet:fevga,moultezim --minutes fevga=25 ...
    python tools/ship_nets.py hypergammon=hyper.tnet:hypergammon

A net serves only the variants listed after its path: those where bench/strength.py measured it
stronger than what served them before. The entry is named by the net's family, or by NAME= (a
game's own net within a family: its entry records the family; the family's net then no longer
serves that game). `--minutes NAME=N` records the training's wall time."""

from __future__ import annotations

import argparse
import json
import pathlib
import shlex
import shutil

import tavli
from tavli.train import read_metadata

NETS = pathlib.Path(__file__).resolve().parents[1] / "python" / "tavli" / "nets"


def reproduce(meta: dict, net: tavli.nn.Net, out: str) -> str:
    """The command that trains this net from scratch: rebuilt from the settings the trainer
    recorded (a run resumed from checkpoints, or stopped early at a game boundary, gives the same
    weights as this single uninterrupted run)."""
    words = ["python", "-m", "tavli.train", "--variant", meta["variant"]]
    for k, v in meta["options"].items():
        words += ["--option", f"{k}={v}"]
    if net.encoding != tavli.nn.Net(net.family, 1).encoding:
        words += ["--encoding", net.encoding]
    words += ["--games", str(meta["games"]), "--hidden", str(net.hidden), "--alpha", repr(meta["alpha"])]
    for game, alpha in meta.get("alpha_steps", []):
        words += ["--alpha-step", f"{game}:{alpha!r}"]
    words += ["--lambda", repr(meta["lambda"]), "--seed", str(meta["seed"])]
    if meta["epsilon"]:
        words += ["--epsilon", repr(meta["epsilon"])]
    if meta["max_plies"] != 10_000:
        words += ["--max-plies", str(meta["max_plies"])]
    return shlex.join(words + ["--out", out])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="+", metavar="[NAME=]PATH:VARIANT,...")
    ap.add_argument("--minutes", action="append", default=[], metavar="NAME=N")
    args = ap.parse_args()
    minutes = {k: float(v) for k, v in (m.split("=", 1) for m in args.minutes)}
    NETS.mkdir(exist_ok=True)
    manifest_path = NETS / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    for spec in args.nets:
        named, _, variants = spec.rpartition(":")
        name, _, path = named.rpartition("=")
        net = tavli.nn.Net.load(path)
        name = name or net.family
        meta = read_metadata(net, path)
        served = [v for v in variants.split(",") if v]
        for v in served:
            if tavli.nn.family(v) != net.family:
                raise SystemExit(f"{path}: a {net.family} net cannot serve {v}")
        target = NETS / f"{name}.tnet"
        shutil.copyfile(path, target)
        for other, entry in manifest.items():  # one net serves a game by default
            if other != name:
                entry["variants"] = [v for v in entry["variants"] if v not in served]
        manifest[name] = {
            "file": target.name,
            **({"family": net.family} if name != net.family else {}),
            "variants": served,
            "trained_on": meta["variant"],
            "options": meta["options"],
            "encoding": net.encoding,
            "layers": [net.inputs, net.hidden, net.outputs],
            "games": meta["games"],
            "seed": meta["seed"],
            "alpha": meta["alpha"],
            "lambda": meta["lambda"],
            "alpha_steps": meta.get("alpha_steps", []),
            "command": reproduce(meta, net, f"{name}.tnet"),
            "minutes": minutes.get(name),
        }
        print(f"{target}: {net.family} {net.inputs}-{net.hidden}-5 {net.encoding}, {meta['games']} games, serves {served}")
    manifest_path.write_text(json.dumps(dict(sorted(manifest.items())), indent=2) + "\n")


if __name__ == "__main__":
    main()
