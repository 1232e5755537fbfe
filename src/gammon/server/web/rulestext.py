"""The rules as the site explains them (issue #18): the pages ``/rules`` and
``/rules/{variant}`` and the explanation beside each table option in the lobby, in English,
French and Italian.  The texts follow docs/rules.md (the rules gammon enforces); keep both
true together.

>>> sorted(VARIANT_TEXT["fr"]) == sorted(VARIANT_TEXT["en"]) == sorted(VARIANT_TEXT["it"])
True
>>> option_help("it", "jacoby")[:6]
'Denaro'
"""

from __future__ import annotations

from typing import Final

__all__ = ["BASICS", "FIELD_HELP", "OPTION_HELP", "VARIANT_TEXT", "option_help", "rules_text"]

#: The basics of backgammon, a few sentences a language.
BASICS: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "Each player moves 15 checkers round the board towards their home board (points 1-6) and bears them off; the first to bear off all 15 wins.",
        "Each die is a separate move, and one checker may use both. Both dice must be played when possible; when only one can be, the larger one. A double is played four times.",
        "A single checker (a blot) hit by the other side goes to the bar and must enter in the other side's home board before anything else moves.",
        "Bearing off starts once all 15 are home: a die bears off from its own point, or from a lower point when no checker sits higher.",
        "A game won while the loser has borne nothing off is a gammon (2 points); with, in addition, a checker on the bar or in the winner's home board it is a backgammon (3 points).",
        "The doubling cube: before rolling, a player may double the stakes; the other takes (and owns the cube) or drops and loses the points at stake before the double.",
    ),
    "fr": (
        "Chaque joueur fait avancer ses 15 pions autour du plateau vers son jan intérieur (cases 1 à 6), puis les sort ; le premier à sortir les 15 gagne.",
        "Chaque dé est un déplacement, et un même pion peut jouer les deux. Il faut jouer les deux dés si c'est possible ; quand un seul peut l'être, le plus grand. Un double se joue quatre fois.",
        "Un pion seul (une dame découverte) frappé par l'adversaire va sur la barre et doit rentrer dans le jan intérieur adverse avant tout autre mouvement.",
        "La sortie commence quand les 15 pions sont dans le jan intérieur : un dé sort un pion de sa case, ou d'une case plus basse quand aucun pion n'est plus haut.",
        "Une partie gagnée alors que le perdant n'a rien sorti est un gammon (2 points) ; s'il a en plus un pion sur la barre ou dans le jan intérieur du gagnant, c'est un backgammon (3 points).",
        "Le videau : avant de lancer les dés, un joueur peut doubler l'enjeu ; l'autre accepte (et prend le videau) ou refuse et perd les points en jeu avant le doublement.",
    ),
    "it": (
        "Ogni giocatore porta le sue 15 pedine intorno al tavoliere verso la propria casa (punte 1-6) e poi le porta fuori; vince chi porta fuori per primo tutte le 15.",
        "Ogni dado è una mossa a sé e una pedina può usarli entrambi. Si devono giocare entrambi i dadi quando si può; se se ne può giocare uno solo, il più alto. Un doppio si gioca quattro volte.",
        "Una pedina sola (scoperta) colpita dall'avversario va sulla barra e deve rientrare nella casa avversaria prima di ogni altra mossa.",
        "Si porta fuori quando tutte le 15 sono in casa: un dado porta fuori dalla sua punta, o da una punta più bassa se nessuna pedina sta più in alto.",
        "Una partita vinta mentre il perdente non ha portato fuori nulla è un gammon (2 punti); se in più ha una pedina sulla barra o nella casa del vincitore è un backgammon (3 punti).",
        "Il cubo del raddoppio: prima di tirare, un giocatore può raddoppiare la posta; l'altro accetta (e prende il cubo) o rifiuta e perde i punti in gioco prima del raddoppio.",
    ),
}

#: What each variant changes (docs/rules.md, "Variants").
VARIANT_TEXT: Final[dict[str, dict[str, str]]] = {
    "en": {
        "standard": "Backgammon as described above, with the doubling cube.",
        "nackgammon": "Backgammon with two more back checkers: 2 on the 24-point, 2 on the 23-point, 4 on the 13, 3 on the 8 and 4 on the 6. Longer, more complex games.",
        "hypergammon": "Backgammon with three checkers each, on the 24, 23 and 22 points: short games, every roll counts.",
        "caucasian": "Backgammon where a checker that hits in its own home board may not, for the rest of that turn, land on a point already holding its own checkers.",
        "tavla": "Turkish backgammon without the cube and without backgammons (1 or 2 points); a checker that hits in its own home board may not move again that turn. The roll-off numbers are played by the winner.",
        "portes": "Greek backgammon without the cube and without backgammons (1 or 2 points); the roll-off winner rolls both dice again to start.",
        "plakoto": "Greek: all 15 checkers start on the 24-point. Nothing is hit: landing on a single opposing checker pins it until the pinner leaves. Losing the last checker of your 24-point to a pin (the mother) loses 2 points at once.",
        "fevga": "Greek: all 15 start on the 24-point and both sides go round the same way. One checker holds a point; nobody may land where the other side has a checker. A second checker leaves the start only once the first has passed the other side's start; nobody may hold all six points of their own starting quarter, and a side whose six points in a row have every opposing checker left stuck right behind them must open one when the dice allow.",
        "tavli": "The Greek match: portes, plakoto and fevga in turn, one game each, to the match length, each by its own rules (no cube, 1 or 2 points a game). The winner of a game starts the next.",
        "long-nardy": "Russian nardy: the start, direction and blocking of fevga. One checker a turn may leave the head (the 24-point), two with 6-6, 4-4 or 3-3 on the first turn.",
        "jacquet": "French: the start, direction and blocking of fevga. The first checker must reach the last quarter before any other leaves the start; six in a row only when you hold your own 1- and 2-points.",
        "acey-deucey": "All checkers start off the board and enter in the other side's home board. After a 1-2 you play the 1 and the 2, choose any double and play it four times, then roll again. Gammons and backgammons count.",
    },
    "fr": {
        "standard": "Le backgammon décrit ci-dessus, avec le videau.",
        "nackgammon": "Backgammon avec deux pions de plus au fond : 2 sur la case 24, 2 sur la 23, 4 sur la 13, 3 sur la 8 et 4 sur la 6. Des parties plus longues et plus riches.",
        "hypergammon": "Backgammon avec trois pions chacun, sur les cases 24, 23 et 22 : des parties courtes où chaque lancer compte.",
        "caucasian": "Backgammon où un pion qui frappe dans son propre jan intérieur ne peut plus, pendant ce tour, s'arrêter sur une case déjà occupée par ses propres pions.",
        "tavla": "Backgammon turc sans videau et sans backgammon (1 ou 2 points) ; un pion qui frappe dans son jan intérieur ne peut plus bouger pendant ce tour. Le gagnant du lancer d'ouverture joue ces dés.",
        "portes": "Backgammon grec sans videau et sans backgammon (1 ou 2 points) ; le gagnant du lancer d'ouverture relance les deux dés pour commencer.",
        "plakoto": "Grec : les 15 pions partent de la case 24. On ne frappe pas : s'arrêter sur un pion adverse seul le cloue jusqu'au départ de celui qui le cloue. Se faire clouer le dernier pion de sa case 24 (la mère) fait perdre 2 points aussitôt.",
        "fevga": "Grec : les 15 pions partent de la case 24 et les deux camps tournent dans le même sens. Un seul pion tient une case ; personne ne s'arrête où l'adversaire a un pion. Un deuxième pion ne quitte le départ que lorsque le premier a dépassé le départ adverse ; personne ne peut tenir les six cases de son propre quart de départ, et un camp dont six cases de suite bloquent tous les pions adverses restants juste derrière doit en ouvrir une quand les dés le permettent.",
        "tavli": "Le match grec : portes, plakoto et fevga à tour de rôle, une partie chacun, jusqu'à la longueur du match, chacun avec ses règles (sans videau, 1 ou 2 points la partie). Le gagnant d'une partie commence la suivante.",
        "long-nardy": "Nardy russe : le départ, le sens et le blocage du fevga. Un seul pion par tour peut quitter la tête (la case 24), deux avec 6-6, 4-4 ou 3-3 au premier tour.",
        "jacquet": "Français : le départ, le sens et le blocage du fevga. Le premier pion (le courrier) doit atteindre le dernier quart avant qu'un autre ne quitte le talon ; six cases de suite seulement si l'on tient ses propres cases 1 et 2.",
        "acey-deucey": "Tous les pions partent hors du plateau et entrent dans le jan intérieur adverse. Après un 1-2, on joue le 1 et le 2, on choisit un double que l'on joue quatre fois, puis on relance. Gammons et backgammons comptent.",
    },
    "it": {
        "standard": "Il backgammon descritto sopra, con il cubo del raddoppio.",
        "nackgammon": "Backgammon con due pedine in più in fondo: 2 sulla punta 24, 2 sulla 23, 4 sulla 13, 3 sulla 8 e 4 sulla 6. Partite più lunghe e ricche.",
        "hypergammon": "Backgammon con tre pedine ciascuno, sulle punte 24, 23 e 22: partite brevi dove ogni tiro conta.",
        "caucasian": "Backgammon in cui una pedina che colpisce nella propria casa non può più, in quel turno, fermarsi su una punta già occupata dalle proprie pedine.",
        "tavla": "Backgammon turco senza cubo e senza backgammon (1 o 2 punti); una pedina che colpisce nella propria casa non può più muovere in quel turno. Chi vince il tiro d'apertura gioca quei dadi.",
        "portes": "Backgammon greco senza cubo e senza backgammon (1 o 2 punti); chi vince il tiro d'apertura tira di nuovo entrambi i dadi per cominciare.",
        "plakoto": "Greco: le 15 pedine partono dalla punta 24. Non si colpisce: fermarsi su una pedina avversaria sola la inchioda finché chi la inchioda non se ne va. Farsi inchiodare l'ultima pedina della propria punta 24 (la madre) fa perdere subito 2 punti.",
        "fevga": "Greco: le 15 pedine partono dalla punta 24 ed entrambi girano nello stesso senso. Una pedina sola tiene una punta; nessuno si ferma dove l'avversario ha una pedina. Una seconda pedina lascia la partenza solo quando la prima ha superato la partenza avversaria; nessuno può tenere tutte e sei le punte del proprio quarto di partenza, e chi con sei punte di fila blocca tutte le pedine avversarie rimaste subito dietro deve aprirne una quando i dadi lo permettono.",
        "tavli": "Il match greco: portes, plakoto e fevga a turno, una partita ciascuno, fino alla lunghezza del match, ognuno con le sue regole (senza cubo, 1 o 2 punti a partita). Chi vince una partita comincia la successiva.",
        "long-nardy": "Nardy russo: partenza, senso e blocco del fevga. Una sola pedina per turno può lasciare la testa (la punta 24), due con 6-6, 4-4 o 3-3 al primo turno.",
        "jacquet": "Francese: partenza, senso e blocco del fevga. La prima pedina (il corriere) deve raggiungere l'ultimo quarto prima che un'altra lasci la partenza; sei punte di fila solo tenendo le proprie punte 1 e 2.",
        "acey-deucey": "Tutte le pedine partono fuori dal tavoliere ed entrano nella casa avversaria. Dopo un 1-2 si giocano l'1 e il 2, si sceglie un doppio da giocare quattro volte e si tira di nuovo. Gammon e backgammon contano.",
    },
}

#: One sentence beside each table option (lobby and rules pages).
OPTION_HELP: Final[dict[str, dict[str, str]]] = {
    "en": {
        "end_setting": "Caps what a game can score: Oin a single game only, Mars up to a gammon (2), Cox up to a backgammon (3).",
        "cube_limit": "The highest value the cube may reach; at a staked table it bounds what one game can cost.",
        "crawford": "Matches: when a player first needs one point to win, nobody may double in the next game (the Crawford game).",
        "jacoby": "Money: gammons and backgammons count single while nobody has doubled.",
        "beaver": "Money: a player who is doubled may redouble at once and keep the cube (a beaver).",
        "raccoon": "Money: after a beaver the doubler may double once more (a raccoon).",
        "automatic_doubles": "Money: each tie of the opening roll doubles the cube, up to this number of times.",
        "first_move": "Who starts games after the first: a roll-off, the previous game's loser, its winner, or each player in turn; traditional: the variant's custom (the winner in tavli, else a roll-off).",
        "draw_last_roll": "When the player who started bears off first, the other rolls once more: bearing off everything with it draws the game.",
        "spectator_chat": "Visitors (signed in, not seated) may write in the table's chat; off by default at rated and staked tables, where a kibitzer could coach a player.",
    },
    "fr": {
        "end_setting": "Plafonne ce qu'une partie rapporte : Oin seulement la partie simple, Mars jusqu'au gammon (2), Cox jusqu'au backgammon (3).",
        "cube_limit": "La plus haute valeur du videau ; à une table avec enjeu, elle borne ce qu'une partie peut coûter.",
        "crawford": "Matchs : quand un joueur a besoin d'un seul point pour gagner, personne ne double pendant la partie suivante (la partie Crawford).",
        "jacoby": "Argent : gammons et backgammons comptent simple tant que personne n'a doublé.",
        "beaver": "Argent : le joueur doublé peut redoubler aussitôt en gardant le videau (un beaver).",
        "raccoon": "Argent : après un beaver, celui qui a doublé peut encore doubler (un raccoon).",
        "automatic_doubles": "Argent : chaque égalité au lancer d'ouverture double le videau, jusqu'à ce nombre de fois.",
        "first_move": "Qui commence les parties après la première : un lancer d'ouverture, le perdant de la précédente, son gagnant, ou chacun son tour ; traditionnel : l'usage de la variante (le gagnant au tavli, sinon un lancer d'ouverture).",
        "draw_last_roll": "Quand celui qui a commencé sort tout en premier, l'autre lance encore une fois : s'il sort tout avec ce lancer, la partie est nulle.",
        "spectator_chat": "Les visiteurs (connectés, non assis) peuvent écrire dans le chat de la table ; désactivé par défaut aux tables classées ou avec mise, où un spectateur pourrait conseiller un joueur.",
    },
    "it": {
        "end_setting": "Limita quanto vale una partita: Oin solo la partita semplice, Mars fino al gammon (2), Cox fino al backgammon (3).",
        "cube_limit": "Il valore più alto del cubo; a un tavolo con posta limita quanto può costare una partita.",
        "crawford": "Match: quando un giocatore ha bisogno di un solo punto per vincere, nessuno raddoppia nella partita seguente (la partita Crawford).",
        "jacoby": "Denaro: gammon e backgammon contano semplici finché nessuno ha raddoppiato.",
        "beaver": "Denaro: chi viene raddoppiato può subito ri-raddoppiare tenendo il cubo (un beaver).",
        "raccoon": "Denaro: dopo un beaver chi ha raddoppiato può raddoppiare ancora (un raccoon).",
        "automatic_doubles": "Denaro: ogni pareggio del tiro d'apertura raddoppia il cubo, fino a questo numero di volte.",
        "first_move": "Chi comincia le partite dopo la prima: un tiro d'apertura, chi ha perso la precedente, chi l'ha vinta, o a turno; tradizionale: l'uso della variante (chi vince nel tavli, altrimenti un tiro d'apertura).",
        "draw_last_roll": "Quando chi ha cominciato porta fuori tutto per primo, l'altro tira ancora una volta: se porta fuori tutto con quel tiro, la partita è patta.",
        "spectator_chat": "I visitatori (con accesso, non seduti) possono scrivere nella chat del tavolo; disattivato di norma ai tavoli classificati o con posta, dove uno spettatore potrebbe consigliare un giocatore.",
    },
}


#: A short hint under each other field of the lobby's form (issue #33: every control
#: explained), tied to it with ``aria-describedby``; not listed on the rules page.
FIELD_HELP: Final[dict[str, dict[str, str]]] = {
    "en": {
        "variant": "Which game: backgammon or one of its cousins (see the rules).",
        "match_length": "Points to win the match; 0 plays a money session, game after game.",
        "stake": "Money sessions only: what each point costs from your balance; 0 plays for nothing.",
        "cube": "Lets a player double the stakes; the other takes or passes.",
        "clock": "Each move has a delay, then time comes off a reserve; out of time loses the match.",
        "clock_delay": "Free seconds for each move before the reserve runs.",
        "clock_reserve_base": "Seconds in each player's reserve at the start.",
        "clock_reserve_per_point": "Seconds added to the reserve for each point of the match length.",
        "clock_days": "Play at your pace: days for each move, and you are told when it is your turn.",
        "seat": "Light checkers or dark ones; who starts is rolled.",
        "opponent": "Wait for a player (the table is listed, or share its link) or play the bot at once.",
        "bot_level": "How strong the bot plays, from beginner to grandmaster.",
        "private": "The table is not listed in the lobby: only those with its link can sit.",
    },
    "fr": {
        "variant": "Quel jeu : le backgammon ou l'un de ses cousins (voir les règles).",
        "match_length": "Points pour gagner le match ; 0 joue une session d'argent, partie après partie.",
        "stake": "Sessions d'argent seulement : ce que coûte chaque point sur votre solde ; 0 pour rien.",
        "cube": "Permet à un joueur de doubler l'enjeu ; l'autre accepte ou abandonne.",
        "clock": "Chaque coup a un délai, puis le temps est pris sur une réserve ; à court de temps, le match est perdu.",
        "clock_delay": "Secondes offertes à chaque coup avant que la réserve ne s'écoule.",
        "clock_reserve_base": "Secondes dans la réserve de chaque joueur au départ.",
        "clock_reserve_per_point": "Secondes ajoutées à la réserve pour chaque point du match.",
        "clock_days": "Jouez à votre rythme : des jours pour chaque coup, et vous êtes prévenu quand c'est à vous.",
        "seat": "Pions clairs ou foncés ; qui commence est tiré aux dés.",
        "opponent": "Attendre un joueur (la table est listée, ou partagez son lien) ou jouer tout de suite contre le robot.",
        "bot_level": "La force du robot, de débutant à grand maître.",
        "private": "La table n'est pas listée dans le salon : seuls ceux qui ont son lien peuvent s'asseoir.",
    },
    "it": {
        "variant": "Quale gioco: il backgammon o uno dei suoi cugini (vedi le regole).",
        "match_length": "Punti per vincere il match; 0 gioca una sessione a denaro, partita dopo partita.",
        "stake": "Solo sessioni a denaro: quanto costa ogni punto dal tuo saldo; 0 per niente.",
        "cube": "Permette a un giocatore di raddoppiare la posta; l'altro accetta o abbandona.",
        "clock": "Ogni mossa ha un ritardo, poi il tempo si prende da una riserva; senza tempo si perde il match.",
        "clock_delay": "Secondi gratuiti per ogni mossa prima che scorra la riserva.",
        "clock_reserve_base": "Secondi nella riserva di ogni giocatore all'inizio.",
        "clock_reserve_per_point": "Secondi aggiunti alla riserva per ogni punto del match.",
        "clock_days": "Gioca con calma: giorni per ogni mossa, e ti avvisiamo quando tocca a te.",
        "seat": "Pedine chiare o scure; chi comincia si decide ai dadi.",
        "opponent": "Aspetta un giocatore (il tavolo è in lista, o condividi il link) o gioca subito contro il bot.",
        "bot_level": "Quanto forte gioca il bot, da principiante a gran maestro.",
        "private": "Il tavolo non è in lista nella sala: solo chi ha il link può sedersi.",
    },
}


def option_help(lang: str, option: str) -> str:
    """The sentence explaining a table option or a field of the lobby's form, in ``lang``
    (English when unknown)."""
    texts = OPTION_HELP.get(lang, OPTION_HELP["en"])
    if option in texts:
        return texts[option]
    return FIELD_HELP.get(lang, FIELD_HELP["en"])[option]


def rules_text(lang: str, variant: str) -> str:
    """What a variant changes, in ``lang`` (English when unknown).

    >>> rules_text("fr", "standard")
    'Le backgammon décrit ci-dessus, avec le videau.'
    """
    return VARIANT_TEXT.get(lang, VARIANT_TEXT["en"])[variant]
