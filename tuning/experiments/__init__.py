"""Experiments that measure the agents rather than tune them.

``learning_switch``: a paper agent's winnings over a match with its opponent modelling on and
off (``holdem-lab learning-curve``).
"""
