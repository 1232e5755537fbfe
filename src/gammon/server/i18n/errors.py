"""The server's refusals that the pages show, in French and Italian."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["ERRORS"]

#: The server's refusals that people see on the pages (form validation first): the English
#: message as a pattern, and its French and Italian with the same ``{groups}``.
ERRORS: Final[tuple[tuple[re.Pattern[str], dict[str, str]], ...]] = tuple(
    (re.compile(pattern), texts)
    for pattern, texts in (
        (
            r"(?P<name>beaver|raccoon|jacoby) is a money-play option; it is refused in a "
            r"(?P<n>\d+)-point match",
            {
                "fr": "{name} est une option des parties d'argent : refusée dans un match en {n} points",
                "it": "{name} è un'opzione del gioco a soldi: non ammessa in un match a {n} punti",
            },
        ),
        (
            r"automatic doubles are a money-play option; refused in a (?P<n>\d+)-point match",
            {
                "fr": "les doublés automatiques sont une option des parties d'argent : refusés dans un match en {n} points",
                "it": "i raddoppi automatici sono un'opzione del gioco a soldi: non ammessi in un match a {n} punti",
            },
        ),
        (
            r"stakes are per point of a money session; a match has none",
            {
                "fr": "la mise est par point d'une partie d'argent : un match n'en a pas",
                "it": "la posta è per punto di una sessione a soldi: un match non ne ha",
            },
        ),
        (
            r"a staked table needs a cube limit \(or no cube\) so that the largest loss is known",
            {
                "fr": "une table avec mise a besoin d'une limite du videau (ou pas de videau) pour que la perte maximale soit connue",
                "it": "un tavolo con posta ha bisogno di un limite del cubo (o di nessun cubo) perché la perdita massima sia nota",
            },
        ),
        (
            r"only the players may chat at this table \(visitors may not\)",
            {
                "fr": "seuls les joueurs peuvent écrire dans le chat de cette table (pas les visiteurs)",
                "it": "solo i giocatori possono scrivere nella chat di questo tavolo (i visitatori no)",
            },
        ),
        (
            r"raccoon needs beaver",
            {"fr": "le raccoon demande le beaver", "it": "il raccoon richiede il beaver"},
        ),
        (
            r"cube_limit needs the cube",
            {
                "fr": "la limite du videau demande le videau",
                "it": "il limite del cubo richiede il cubo",
            },
        ),
        (
            r"beaver, raccoon and automatic doubles need the cube",
            {
                "fr": "beaver, raccoon et doublés automatiques demandent le videau",
                "it": "beaver, raccoon e raddoppi automatici richiedono il cubo",
            },
        ),
        (
            r"the (?P<variant>[\w-]+) variant is played without a cube",
            {
                "fr": "la variante {variant} se joue sans videau",
                "it": "la variante {variant} si gioca senza cubo",
            },
        ),
        (
            r"match_length (?P<n>\d+) is too long \(at most 255\)",
            {
                "fr": "un match en {n} points est trop long (255 au plus)",
                "it": "un match a {n} punti è troppo lungo (al massimo 255)",
            },
        ),
        (
            r"(?P<name>\w+) must be an integer|(?P<name2>\w+) must be a non-negative integer, got .*",
            {
                "fr": "{name} doit être un nombre entier positif ou nul",
                "it": "{name} deve essere un numero intero non negativo",
            },
        ),
        (
            r"(?P<name>[\w ]+) must be a number of seconds|clock (?P<name2>\w+) must be 0\.\.86400 seconds, got .*",
            {
                "fr": "{name} : un nombre de secondes entre 0 et 86400",
                "it": "{name}: un numero di secondi tra 0 e 86400",
            },
        ),
        (
            r"a user name is 3 to 20 letters, digits, '_' or '-'",
            {
                "fr": "un nom d'utilisateur a de 3 à 20 lettres, chiffres, « _ » ou « - »",
                "it": "un nome utente ha da 3 a 20 lettere, cifre, '_' o '-'",
            },
        ),
        (
            r"user names starting with 'guest-' are kept for guests",
            {
                "fr": "les noms commençant par « guest- » sont réservés aux invités",
                "it": "i nomi che iniziano con 'guest-' sono riservati agli ospiti",
            },
        ),
        (
            r"a password has 8 to 200 characters",
            {
                "fr": "un mot de passe a de 8 à 200 caractères",
                "it": "una password ha da 8 a 200 caratteri",
            },
        ),
        (
            r"wrong user name or password",
            {
                "fr": "nom d'utilisateur ou mot de passe incorrect",
                "it": "nome utente o password errati",
            },
        ),
        (
            r"the user name (?P<name>.+) is taken",
            {"fr": "le nom {name} est déjà pris", "it": "il nome {name} è già in uso"},
        ),
        (
            r"too many .+; wait a minute",
            {
                "fr": "trop d'essais depuis cette adresse : attendez une minute",
                "it": "troppi tentativi da questo indirizzo: aspetta un minuto",
            },
        ),
        (
            r"your balance(?: not held at other tables,)? (?P<balance>\d+),? does not cover "
            r"this table's stake x cube limit x end coefficient = (?P<need>\d+)",
            {
                "fr": "votre solde {balance} ne couvre pas mise x limite du videau x coefficient de fin = {need}",
                "it": "il tuo saldo {balance} non copre posta x limite del cubo x coefficiente di fine = {need}",
            },
        ),
        (
            r"bot_level must be one of .*",
            {"fr": "niveau du robot inconnu", "it": "livello del robot sconosciuto"},
        ),
        (
            r"no such table",
            {"fr": "cette table n'existe pas", "it": "questo tavolo non esiste"},
        ),
        (
            r"the table is finished",
            {"fr": "la table est terminée", "it": "il tavolo è chiuso"},
        ),
        (
            r"seat (?P<seat>\d) is taken",
            {"fr": "la place {seat} est prise", "it": "il posto {seat} è occupato"},
        ),
        (
            r"sign in to import a match|sign in to see your imported matches",
            {
                "fr": "connectez-vous pour importer un match",
                "it": "accedi per importare un match",
            },
        ),
        (
            r"you keep at most (?P<n>\d+) imported matches: delete one to import another",
            {
                "fr": "vous gardez au plus {n} matchs importés : supprimez-en un pour en importer un autre",
                "it": "puoi tenere al massimo {n} match importati: eliminane uno per importarne un altro",
            },
        ),
        (
            r"no such imported match",
            {"fr": "ce match importé n'existe pas", "it": "questo match importato non esiste"},
        ),
        (
            r"choose a \.mat, \.sgf or \.xg file",
            {
                "fr": "choisissez un fichier .mat, .sgf ou .xg",
                "it": "scegli un file .mat, .sgf o .xg",
            },
        ),
        (
            r"(?P<name>.+): the site reads \.mat, \.txt, \.sgf and \.xg files",
            {
                "fr": "{name} : le site lit les fichiers .mat, .txt, .sgf et .xg",
                "it": "{name}: il sito legge i file .mat, .txt, .sgf e .xg",
            },
        ),
        (
            r"(?P<name>.+): larger than (?P<n>\d+) KB",
            {"fr": "{name} : plus de {n} KB", "it": "{name}: più di {n} KB"},
        ),
        (
            r"sign in first",
            {"fr": "connectez-vous d'abord", "it": "accedi prima"},
        ),
    )
)
