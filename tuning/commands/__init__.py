"""The sub-commands of ``holdem-lab``, one module each (see ``tuning.cli.COMMANDS``)."""
