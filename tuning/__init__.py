"""holdem-lab's tools on top of the agents.

* ``tuning.cli``: the ``holdem-lab`` command line, one module per sub-command;
* Optuna studies of an agent's parameters: ``tuning.studies`` says what a study tunes (one
  spec per agent: BPP, Loki-1, Loki-2), and the machinery around a spec is agent-free
  (``study``, ``launch``, ``objective``, ``evaluation``, ``reevaluate``, ``report``,
  ``summary``, ``plots``, ``compare``, ``samplers``, ``storage``);
* ``tuning.training``: masked-PPO learners; ``tuning.experiments``: measurements of the agents;
  ``tuning.loki_fit``: the fits of Loki's lost tables.

Dependencies point one way: envs <- agents <- tuning.
"""
