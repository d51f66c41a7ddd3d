"""Put trained nets into the package: copies each weight file to python/tavli/nets/<family>.tnet
and records it in python/tavli/nets/manifest.json with the variants it serves and how it was
trained (read from the file's metadata, which `python -m tavli.train` writes).

    python tools/ship_nets.py fevga.tnet:fevga,moultezim --minutes fevga=25 ...
    python tools/ship_nets.py hypergammon=hyper.tnet:hypergammon
    python tools/ship_nets.py final.tnet:backgammon,portes --stages nets-work/ship/backgammon-stages.json

A net serves only the variants listed after its path: those where bench/strength.py measured it
stronger than what served them before. The entry is named by the net's family, or by NAME= (a
game's own net within a family: its entry records the family; the family's net then no longer
serves that game). `--minutes NAME=N` records the training's wall time.

--stages FILE ships a net made in several stages (TD self-play, then labels by its own search, then
a fit): FILE lists them in order ({"name", "what", "command", "minutes"}; a stage with a "file"
instead of a command is a TD net whose command its metadata gives, and which ships beside the net
as NAME-STAGE.tnet). The commands run from one empty directory, each reading what the earlier ones
wrote; the net's own recorded command must be the last stage's (paths and --threads aside)."""

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


def command_settings(command: str) -> list[str]:
    """A command's words without --threads and with every path cut to its last component: what
    must agree between two runs of the same training (paths and thread counts change no weight)."""
    words = shlex.split(command)
    keep = [w for i, w in enumerate(words) if w != "--threads" and (i == 0 or words[i - 1] != "--threads")]
    return [pathlib.PurePath(w).name if "/" in w else w for w in keep]


def td_record(meta: dict, net: tavli.nn.Net, file: str, minutes: float | None) -> dict:
    """A TD net's manifest fields: its settings, as its trainer recorded them, and its command."""
    return {
        "trained_on": meta["variant"],
        "options": meta["options"],
        "encoding": net.encoding,
        "layers": [net.inputs, net.hidden, net.outputs],
        "games": meta["games"],
        "seed": meta["seed"],
        "alpha": meta["alpha"],
        "lambda": meta["lambda"],
        "alpha_steps": meta.get("alpha_steps", []),
        "command": reproduce(meta, net, file),
        "minutes": minutes,
    }


def staged_entry(name: str, path: str, net: tavli.nn.Net, stages_file: str) -> dict:
    """The manifest entry of a net made in the stages of `stages_file` (module docstring)."""
    stages = json.loads(pathlib.Path(stages_file).read_text())
    recorded = json.loads(net.metadata or "{}").get("command", "")
    if command_settings(recorded) != command_settings(stages[-1]["command"]):
        raise SystemExit(f"{path} was made by {recorded!r}, not by the last stage's command")
    out, td = [], None
    for stage in stages:
        if "file" in stage:
            snet = tavli.nn.Net.load(stage["file"])
            smeta = read_metadata(snet, stage["file"])
            target = NETS / f"{name}-{stage['name']}.tnet"
            if pathlib.Path(stage["file"]).resolve() != target.resolve():
                shutil.copyfile(stage["file"], target)
            td = td or smeta
            out.append({"name": stage["name"], "what": stage["what"], "file": target.name,
                        **td_record(smeta, snet, target.name, stage.get("minutes"))})
        else:
            out.append({k: stage[k] for k in ("name", "what", "command", "minutes") if k in stage})
    if td is None:
        raise SystemExit(f"{stages_file}: no TD stage (a stage with a \"file\")")
    return {"trained_on": td["variant"], "options": td["options"], "encoding": net.encoding,
            "layers": [net.inputs, net.hidden, net.outputs], "command": stages[-1]["command"], "stages": out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="+", metavar="[NAME=]PATH:VARIANT,...")
    ap.add_argument("--minutes", action="append", default=[], metavar="NAME=N")
    ap.add_argument("--stages", help="a net made in stages: their JSON list (module docstring); one net only")
    args = ap.parse_args()
    if args.stages and len(args.nets) != 1:
        raise SystemExit("--stages ships one net")
    minutes = {k: float(v) for k, v in (m.split("=", 1) for m in args.minutes)}
    NETS.mkdir(exist_ok=True)
    manifest_path = NETS / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    for spec in args.nets:
        named, _, variants = spec.rpartition(":")
        name, _, path = named.rpartition("=")
        net = tavli.nn.Net.load(path)
        name = name or net.family
        served = [v for v in variants.split(",") if v]
        for v in served:
            if tavli.nn.family(v) != net.family:
                raise SystemExit(f"{path}: a {net.family} net cannot serve {v}")
        target = NETS / f"{name}.tnet"
        if args.stages:
            record = staged_entry(name, path, net, args.stages)
        else:
            record = td_record(read_metadata(net, path), net, target.name, minutes.get(name))
        shutil.copyfile(path, target)
        for other, entry in manifest.items():  # one net serves a game by default
            if other != name:
                entry["variants"] = [v for v in entry["variants"] if v not in served]
        pruner = manifest.get(name, {}).get("pruner")  # the entry's pruning net stays
        manifest[name] = {"file": target.name, **({"family": net.family} if name != net.family else {}),
                          "variants": served, **record, **({"pruner": pruner} if pruner else {})}
        print(f"{target}: {net.family} {net.inputs}-{net.hidden}-5 {net.encoding}, serves {served}")
    manifest_path.write_text(json.dumps(dict(sorted(manifest.items())), indent=2) + "\n")


if __name__ == "__main__":
    main()
