"""Tournaments: sign-up, pairing (single elimination, Swiss, duplicate), rounds and standings.

``pairing/`` holds the pure parts (a tournament's values and how its rounds are paired), which
decide from what they are given and do no I/O; ``service`` runs a tournament through the
table service and the store.
"""
