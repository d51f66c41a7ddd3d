#!/bin/sh
# The supervised stage on the shipped 1M-game plakoto2 TD net (plakoto-p2-1m.tnet), as
# fevga-fit.sh, with half the sibling groups (Plakoto's 2-ply labels cost about twice Fevga's):
# rows valued by its 1-ply search, sibling groups by its 2-ply search, then the Adam fit
# (run from the repository root).
set -e
export PYTHONPATH=python
W=nets-work/games
N=$W/plakoto-p2-1m.tnet
python -m tavli.supervised --variant plakoto --class contact --encoding plakoto2 --games 20000 --max-positions 400000 --candidates 150000 --label-plies 1 --chunk 50000 --label-contact $N --init $N --epochs 0 --seed 81 --threads 1 --work $W/plakoto-contact-1ply
python -m tavli.supervised --variant plakoto --class crashed --encoding plakoto2 --games 20000 --max-positions 80000 --candidates 30000 --label-plies 1 --chunk 50000 --label-contact $N --init $N --epochs 0 --seed 82 --threads 1 --work $W/plakoto-crashed-1ply
python -m tavli.supervised --variant plakoto --class race --encoding plakoto2 --games 20000 --max-positions 80000 --candidates 30000 --label-plies 1 --chunk 50000 --label-contact $N --init $N --epochs 0 --seed 83 --threads 1 --work $W/plakoto-race-1ply
python tools/sibling_groups.py --variant plakoto --work $W/plakoto-contact-1ply --decisions 3000 --plies 2 --threads 1 --seed 147 --label-contact $N --out $W/plakoto-groups.npz
python tools/fit_adam.py --variant plakoto --work $W/plakoto-contact-1ply --work $W/plakoto-crashed-1ply --work $W/plakoto-race-1ply --groups $W/plakoto-groups.npz --rank-weight 20 --init $N --encoding plakoto2 --hidden 128 --epochs 16 --lr 1e-3 --threads 1 --out $W/plakoto-fit-A.tnet
