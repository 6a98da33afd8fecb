"""Pure game rules: cards and amounts in, results out. No I/O, no database, no globals.

A pit boss reruns these in a dispute, so the same cards must give the same answer forever.
"""
