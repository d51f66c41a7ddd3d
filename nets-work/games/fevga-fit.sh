#!/bin/sh
# The supervised stage on the 1M-game block2 TD net (fevga-b2-1m.tnet): rows valued by its 1-ply
# search, sibling groups by its 2-ply search, then the Adam fit (run from the repository root).
set -e
export PYTHONPATH=python
W=nets-work/games
N=$W/fevga-b2-1m.tnet
python -m tavli.supervised --variant fevga --class crashed --encoding block2 --games 20000 --max-positions 80000 --candidates 30000 --label-plies 1 --chunk 50000 --label-contact $N --init $N --epochs 0 --seed 62 --threads 1 --work $W/fevga-crashed-1ply
python -m tavli.supervised --variant fevga --class race --encoding block2 --games 20000 --max-positions 80000 --candidates 30000 --label-plies 1 --chunk 50000 --label-contact $N --init $N --epochs 0 --seed 63 --threads 1 --work $W/fevga-race-1ply
python tools/sibling_groups.py --variant fevga --work $W/fevga-contact-1ply --decisions 6000 --plies 2 --threads 1 --seed 127 --label-contact $N --out $W/fevga-groups.npz
