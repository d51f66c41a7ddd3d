#!/bin/sh
# The supervised stage on the shipped 1M-game block2 TD net (narde-b2-1m.tnet), as fevga-fit.sh:
# rows valued by its 1-ply search, sibling groups by its 2-ply search, then the Adam fit
# (run from the repository root).
set -e
export PYTHONPATH=python
W=nets-work/games
N=$W/narde-b2-1m.tnet
python -m tavli.supervised --variant narde --class contact --encoding block2 --games 20000 --max-positions 400000 --candidates 150000 --label-plies 1 --chunk 50000 --label-contact $N --init $N --epochs 0 --seed 71 --threads 1 --work $W/narde-contact-1ply
python -m tavli.supervised --variant narde --class crashed --encoding block2 --games 20000 --max-positions 80000 --candidates 30000 --label-plies 1 --chunk 50000 --label-contact $N --init $N --epochs 0 --seed 72 --threads 1 --work $W/narde-crashed-1ply
python -m tavli.supervised --variant narde --class race --encoding block2 --games 20000 --max-positions 80000 --candidates 30000 --label-plies 1 --chunk 50000 --label-contact $N --init $N --epochs 0 --seed 73 --threads 1 --work $W/narde-race-1ply
python tools/sibling_groups.py --variant narde --work $W/narde-contact-1ply --decisions 6000 --plies 2 --threads 1 --seed 137 --label-contact $N --out $W/narde-groups.npz
python tools/fit_adam.py --variant narde --work $W/narde-contact-1ply --work $W/narde-crashed-1ply --work $W/narde-race-1ply --groups $W/narde-groups.npz --rank-weight 20 --init $N --encoding block2 --hidden 128 --epochs 16 --lr 1e-3 --threads 1 --out $W/narde-fit-A.tnet
