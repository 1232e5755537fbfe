"""The French and Italian of the players' pages (profiles, leaderboards, history, the
rated option), merged into :data:`gammon.server.i18n.MESSAGES`.

>>> PLAYER_MESSAGES["fr"]["Leaderboards"], PLAYER_MESSAGES["it"]["pool.backgammon"]
('Classements', 'backgammon')
"""

from __future__ import annotations

from typing import Final

__all__ = ["PLAYER_ENGLISH", "PLAYER_ERRORS", "PLAYER_MESSAGES"]

#: The English of the rating pools' names (``pool.<name>``).
PLAYER_ENGLISH: Final[dict[str, str]] = {
    "pool.backgammon": "backgammon",
    "pool.hypergammon": "hypergammon",
    "pool.caucasian": "Caucasian",
    "pool.tavla": "tavla (Turkish)",
    "pool.portes": "portes (Greek)",
    "pool.plakoto": "plakoto (Greek)",
    "pool.fevga": "fevga (Greek)",
    "pool.long-nardy": "long nardy (Russian)",
    "pool.jacquet": "jacquet (French)",
    "pool.acey-deucey": "acey-deucey (American)",
    "pool.tavli": "tavli (Greek: portes, plakoto, fevga)",
}

PLAYER_MESSAGES: Final[dict[str, dict[str, str]]] = {
    "fr": {
        "pool.backgammon": "backgammon",
        "pool.hypergammon": "hypergammon",
        "pool.caucasian": "caucasien",
        "pool.tavla": "tavla (turc)",
        "pool.portes": "portes (grec)",
        "pool.plakoto": "plakoto (grec)",
        "pool.fevga": "fevga (grec)",
        "pool.long-nardy": "long nardy (russe)",
        "pool.jacquet": "jacquet (français)",
        "pool.acey-deucey": "acey-deucey (américain)",
        "pool.tavli": "tavli (grec : portes, plakoto, fevga)",
        "Leaderboards": "Classements",
        "Matches of": "Parties de",
        "Result": "Résultat",
        "Rating": "Classement Elo",
        "Ratings": "Classements Elo",
        "Links": "Liens",
        "bot": "robot",
        "rated": "classée",
        "won": "gagné",
        "lost": "perdu",
        "error rate": "taux d'erreur",
        "analysis": "analyse",
        "dice": "dés",
        "Wins": "Victoires",
        "Losses": "Défaites",
        "Money sessions and unfinished tables": "Sessions d'argent et tables inachevées",
        "Average error rate": "Taux d'erreur moyen",
        "analysed matches": "parties analysées",
        "No analysed match yet.": "Aucune partie analysée pour l'instant.",
        "experience": "expérience",
        "No rated match yet.": "Aucune partie classée pour l'instant.",
        "Matches": "Parties",
        "all": "toutes",
        "Filter": "Filtrer",
        "No match here.": "Aucune partie ici.",
        "Newest matches": "Parties les plus récentes",
        "Older matches": "Parties plus anciennes",
        "{n} rated matches: from {first} to {last}": "{n} parties classées : de {first} à {last}",
        "Rating pools": "Catégories de classement",
        "Players with at least 3 rated matches in this pool.": (
            "Joueurs ayant au moins 3 parties classées dans cette catégorie."
        ),
        "The bots have fixed ratings, calibrated against each other and against gnubg.": (
            "Les robots ont un classement fixe, étalonné entre eux et contre gnubg."
        ),
        "Rated matches": "Parties classées",
        "fixed rating": "classement fixe",
        "Nobody has played 3 rated matches in this pool yet.": (
            "Personne n'a encore joué 3 parties classées dans cette catégorie."
        ),
        "Your public profile": "Votre profil public",
        "Your matches": "Vos parties",
        "Escrow lines (amount 0) are grouped: they hold or release part of the balance at "
        "staked tables and move no money.": (
            "Les lignes de dépôt (montant 0) sont regroupées : elles bloquent ou libèrent une "
            "part du solde aux tables à mise et ne déplacent pas d'argent."
        ),
        "Escrow": "Dépôt",
        "holds and releases": "blocages et libérations",
        "Rated match": "Partie classée",
        "Rated: a match between two signed-in accounts, no bot; the result changes both ratings.": (
            "Classée : une partie entre deux comptes connectés, sans robot ; le résultat "
            "modifie les deux classements."
        ),
    },
    "it": {
        "pool.backgammon": "backgammon",
        "pool.hypergammon": "hypergammon",
        "pool.caucasian": "caucasico",
        "pool.tavla": "tavla (turco)",
        "pool.portes": "portes (greco)",
        "pool.plakoto": "plakoto (greco)",
        "pool.fevga": "fevga (greco)",
        "pool.long-nardy": "long nardy (russo)",
        "pool.jacquet": "jacquet (francese)",
        "pool.acey-deucey": "acey-deucey (americano)",
        "pool.tavli": "tavli (greco: portes, plakoto, fevga)",
        "Leaderboards": "Classifiche",
        "Matches of": "Partite di",
        "Result": "Risultato",
        "Rating": "Punteggio",
        "Ratings": "Punteggi",
        "Links": "Collegamenti",
        "bot": "robot",
        "rated": "valida per la classifica",
        "won": "vinta",
        "lost": "persa",
        "error rate": "tasso di errore",
        "analysis": "analisi",
        "dice": "dadi",
        "Wins": "Vittorie",
        "Losses": "Sconfitte",
        "Money sessions and unfinished tables": "Sessioni a soldi e tavoli non finiti",
        "Average error rate": "Tasso di errore medio",
        "analysed matches": "partite analizzate",
        "No analysed match yet.": "Ancora nessuna partita analizzata.",
        "experience": "esperienza",
        "No rated match yet.": "Ancora nessuna partita valida per la classifica.",
        "Matches": "Partite",
        "all": "tutte",
        "Filter": "Filtra",
        "No match here.": "Nessuna partita qui.",
        "Newest matches": "Partite più recenti",
        "Older matches": "Partite meno recenti",
        "{n} rated matches: from {first} to {last}": (
            "{n} partite valide per la classifica: da {first} a {last}"
        ),
        "Rating pools": "Categorie di classifica",
        "Players with at least 3 rated matches in this pool.": (
            "Giocatori con almeno 3 partite valide in questa categoria."
        ),
        "The bots have fixed ratings, calibrated against each other and against gnubg.": (
            "I robot hanno un punteggio fisso, tarato tra loro e contro gnubg."
        ),
        "Rated matches": "Partite valide",
        "fixed rating": "punteggio fisso",
        "Nobody has played 3 rated matches in this pool yet.": (
            "Nessuno ha ancora giocato 3 partite valide in questa categoria."
        ),
        "Your public profile": "Il tuo profilo pubblico",
        "Your matches": "Le tue partite",
        "Escrow lines (amount 0) are grouped: they hold or release part of the balance at "
        "staked tables and move no money.": (
            "Le righe di deposito (importo 0) sono raggruppate: bloccano o liberano parte del "
            "saldo ai tavoli con posta e non spostano denaro."
        ),
        "Escrow": "Deposito",
        "holds and releases": "blocchi e sblocchi",
        "Rated match": "Partita valida per la classifica",
        "Rated: a match between two signed-in accounts, no bot; the result changes both ratings.": (
            "Valida: una partita tra due account registrati, senza robot; il risultato cambia "
            "entrambi i punteggi."
        ),
    },
}

#: The refusals of rated tables that the pages show: pattern, then French and Italian.
PLAYER_ERRORS: Final[tuple[tuple[str, dict[str, str]], ...]] = (
    (
        r"a rated match is played between two signed-in accounts: sign up or sign in to sit "
        r"at a rated table",
        {
            "fr": "une partie classée se joue entre deux comptes connectés : inscrivez-vous ou "
            "connectez-vous pour vous asseoir à une table classée",
            "it": "una partita valida per la classifica si gioca tra due account registrati: "
            "registrati o accedi per sederti a un tavolo valido",
        },
    ),
    (
        r"a rated match is played between two signed-in accounts: no bot sits at a rated table",
        {
            "fr": "une partie classée se joue entre deux comptes connectés : aucun robot ne "
            "s'assoit à une table classée",
            "it": "una partita valida per la classifica si gioca tra due account registrati: "
            "nessun robot siede a un tavolo valido",
        },
    ),
    (
        r"a rated match is played between two signed-in accounts: this player plays as a guest",
        {
            "fr": "une partie classée se joue entre deux comptes connectés : ce joueur joue "
            "en invité",
            "it": "una partita valida per la classifica si gioca tra due account registrati: "
            "questo giocatore gioca come ospite",
        },
    ),
    (
        r"only a match of at least 1 point is rated; money sessions are never rated",
        {
            "fr": "seule une partie d'au moins 1 point est classée ; les sessions d'argent ne "
            "le sont jamais",
            "it": "solo una partita di almeno 1 punto è valida per la classifica; le sessioni "
            "a soldi non lo sono mai",
        },
    ),
    (
        r"no such player",
        {"fr": "ce joueur n'existe pas", "it": "questo giocatore non esiste"},
    ),
)
