"""The players: accounts and sessions, moderation and the operator's commands, the
inbox and live news on the user socket, the rating graph.
"""
