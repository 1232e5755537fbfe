"""Reviewing play: match analysis and the grandmaster's deep work off the event loop, the
analysers by variant, positions without a match, replays, downloads, XG's analysis
beside ours, training puzzles and the fair-play check.
"""
