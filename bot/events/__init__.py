"""Tournaments: sign-up, pairing (single elimination, Swiss, duplicate), rounds and standings.

The pure parts (``model``, ``swiss``, ``elimination``, ``duplicate``) decide from what they are
given and do no I/O; ``service`` runs a tournament through the table service and the store.
"""
