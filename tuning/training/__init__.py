"""Training learners in the holdem-lab env: masked PPO (the ``rl`` extra) and its evidence.

Modules: ``config`` (``TrainConfig``), ``observation_features`` (the env's observation as one
flat vector), ``sb3_env`` (SB3's ``VecEnv`` over ``envs.vector_env``), ``policy`` (a trained
policy as an agent), ``curve`` (learning curves), ``trainer`` (``train`` / ``resume``).
Importing this package does not import torch; ``sb3_env``, ``policy`` and ``trainer`` do.
"""
