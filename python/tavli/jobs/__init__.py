"""The heavy jobs: simulations and matches (simulate), self-play training data (selfplay), rollout
training data (rollouts) and the bulk calls on arrays of positions (batch). Each validates its
arguments, then hands its shard function to the chosen backend (tavli.backends): the local
executor's chunks, or the Ray executor's tasks. tavli.distributed names their Ray entry points."""
