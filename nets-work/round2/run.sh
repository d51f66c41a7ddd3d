# Stop 45's second round: the shipped recipe's rows and contact groups (nets-work/ship/backgammon-stages.json,
# the same sizes and seeds as nets-work/recipe-e4's replicate), labelled by the shipped (fitted) net's
# own 1-ply and 2-ply search instead of the TD net's; then the recipe's fit from the TD net.
# Run from nets-work/round2 with PYTHONPATH pointing at the package.
set -e
S=../../python/tavli/nets/backgammon.tnet
TD=../../python/tavli/nets/backgammon-td.tnet
python -m tavli.supervised --variant backgammon --class contact --encoding expert3 --games 40000 --max-positions 1000000 --candidates 500000 --label-plies 1 --chunk 100000 --label-contact $S --label-crashed $S --label-race $S --init $S --epochs 0 --seed 41 --threads 2 --work contact-1ply > contact-rows.log 2>&1
python -m tavli.supervised --variant backgammon --class crashed --encoding expert3 --games 30000 --max-positions 150000 --candidates 60000 --label-plies 1 --chunk 50000 --label-contact $S --label-crashed $S --label-race $S --init $S --epochs 0 --seed 51 --threads 2 --work crashed-1ply > crashed-rows.log 2>&1
python -m tavli.supervised --variant backgammon --class race --encoding expert3 --games 20000 --max-positions 150000 --candidates 60000 --label-plies 1 --chunk 50000 --label-contact $S --label-crashed $S --label-race $S --init $S --epochs 0 --seed 52 --threads 2 --work race-1ply > race-rows.log 2>&1
python ../../tools/sibling_groups.py --work contact-1ply --decisions 60000 --keep 15000 --plies 2 --threads 2 --label-contact $S --out groups-own.npz > contact-groups.log 2>&1
python ../../tools/fit_adam.py --work contact-1ply --work crashed-1ply --work race-1ply --groups groups-own.npz --rank-weight 20 --init $TD --encoding expert3 --hidden 128 --epochs 24 --lr 1e-3 --threads 2 --seed 1 --out round2.tnet > fit.log 2>&1
python ../../bench/strength.py gnubg --contact round2.tnet --race $S --crashed $S --games 20000 --seed 11 > v-gnubg.log 2>&1
