"""The game options' form fields moved to scorekeeper.web.options (every blueprint's new-game
form shares them); this name stays for the benchmarks in bench/, until they import that."""

from ..options import preset_values

__all__ = ["preset_values"]
