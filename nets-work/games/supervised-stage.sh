#!/bin/sh
# The supervised stage of a block2 / plakoto2 TD net (the backgammon recipe, run from the
# repository root): contact, crashed and race rows valued by the net's 1-ply search, every play of
# DECISIONS contact decisions valued by its 2-ply search, then the Adam fit to both.
#
#   sh nets-work/games/supervised-stage.sh GAME ENCODING NET DECISIONS ROW_SEED GROUP_SEED
#
# The runs of stops 43-44 (work directories and nets in nets-work/games/, GAME-fit-A.tnet):
#   fevga     block2   fevga-b2-1m.tnet     6000 61 127
#   narde     block2   narde-b2-1m.tnet     6000 71 137
#   moultezim block2   moultezim-b2-1m.tnet 6000 74 157
#   plakoto   plakoto2 plakoto-p2-1m.tnet   3000 81 147   (its 2-ply labels cost about twice Fevga's)
#   jacquet   block2   jacquet-b2-1m.tnet   4000 91 167
#   tawla31   block2   tawla31-b2.tnet      4000 94 177
set -e
[ $# -eq 6 ] || { echo "usage: $0 GAME ENCODING NET DECISIONS ROW_SEED GROUP_SEED" >&2; exit 2; }
G=$1 E=$2 D=$4 S=$5 GS=$6
export PYTHONPATH=python
W=nets-work/games
N=$W/$3
rows() {  # class, positions, candidates, seed
  python -m tavli.supervised --variant "$G" --class "$1" --encoding "$E" --games 20000 --max-positions "$2" \
    --candidates "$3" --label-plies 1 --chunk 50000 --label-contact "$N" --init "$N" --epochs 0 --seed "$4" \
    --threads 1 --work "$W/$G-$1-1ply"
}
rows contact 400000 150000 "$S"
rows crashed 80000 30000 $((S + 1))
rows race 80000 30000 $((S + 2))
python tools/sibling_groups.py --variant "$G" --work "$W/$G-contact-1ply" --decisions "$D" --plies 2 --threads 1 \
  --seed "$GS" --label-contact "$N" --out "$W/$G-groups.npz"
python tools/fit_adam.py --variant "$G" --work "$W/$G-contact-1ply" --work "$W/$G-crashed-1ply" --work "$W/$G-race-1ply" \
  --groups "$W/$G-groups.npz" --rank-weight 20 --init "$N" --encoding "$E" --hidden 128 --epochs 16 --lr 1e-3 \
  --threads 1 --out "$W/$G-fit-A.tnet"
