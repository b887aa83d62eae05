"""Club tournaments: tours of tables, tournament points, Swiss seating (docs/tournament.md).

The arithmetic is pure and lives in `scorekeeper.rules.tournament`; this package reads and
writes the tournament file (`file`), words it for people (`text`), makes random tournaments
for tests and benchmarks (`sample`), and serves the tournament at the club (`service`).
"""
