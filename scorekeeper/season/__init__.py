"""A club's season (season.md of the specification, docs/season.md here): players as
identities across games and tournaments, their statistics, head-to-head, the season rating
and its standings, read from a season file or from results kept elsewhere.

- `results`: one game's or table's result as the season counts it (`TableResult`), computed
  once from its sheet and kept;
- `players`: the directory, the merges and who a seat is;
- `statistics`, `rating`: the numbers, pure and exact;
- `compute`: everything of one season from (directory, merges, start, events) to the report;
- `file`: the `scorekeeper-season/1` file and its refusals; `text`, `csv`: for people.
"""
