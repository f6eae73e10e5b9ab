"""holdem-lab's tools on top of the agents: the ``holdem-lab`` command line (``tuning.cli``),
Optuna studies of BPP's parameters (study, objective, evaluation, re-evaluation, reports),
masked-PPO training (``tuning.training``), experiments (``tuning.experiments``) and the fits of
Loki's lost tables (``tuning.loki_fit``).

Dependencies point one way: envs <- agents <- tuning.
"""
