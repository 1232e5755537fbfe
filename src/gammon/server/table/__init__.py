"""A table in play: its state folded from the journal, the actors that apply every
action, the bots and click-to-move answers, what each viewer is sent, and the table's
WebSocket.
"""
