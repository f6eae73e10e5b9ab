"""holdem-lab tuning and tools: the ``holdem-lab`` command line, and later the Optuna studies.

Dependencies point one way: envs <- agents <- tuning.
"""
