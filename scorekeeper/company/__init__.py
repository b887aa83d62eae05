"""The company: a table of regulars, its evenings added up (standings, balance, files).

No Flask here: the web and the tests call it; the numbers come from scorekeeper.rules.company.
"""
