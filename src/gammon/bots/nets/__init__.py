"""Neural-network bots for the variants off the backgammon board, trained by TD(λ).

plakoto, fevga, long nardy, jacquet and acey-deucey each get a small net
(:mod:`.net`) over an encoding of the position (:mod:`.features`), trained by
self-play (:mod:`.td`, ``scripts/train_variant_net.py``) and played by
:class:`~gammon.bots.nets.bot.NetBot`.  The weights ship in ``data/<variant>.npz``.
"""

from gammon.bots.nets.bot import NetBot, has_net, load_net

__all__ = ["NetBot", "has_net", "load_net"]
