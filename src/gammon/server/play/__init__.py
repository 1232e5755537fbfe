"""Finding opponents: challenges, quick pairing (seeks and pools), the tables the server
arranges, and tournaments in every format (knockout, round robin, Swiss, arena).
"""
