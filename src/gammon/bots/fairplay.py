"""The fair-play check: does one player's analysed rated match look bot-assisted?

From a match analysis (:class:`~gammon.bots.analysis.model.MatchAnalysis`, or its JSON as
the site stores it) :func:`seat_decisions` takes each seat's decisions as the analysis
counts them (non-forced checker plays, doubles, close no-doubles, answers: the same set as
``PlayerStats.error_rate``) with the equity each lost, and :func:`check` compares them with
the player's own :class:`History` (their earlier checks):

* **error rate** (mEMG per decision): how far this match's mean error is *below* the
  baseline, in standard errors of the difference (a z-score; the per-decision spread is
  the one the player's baseline implies, :func:`error_z`, never less than
  :attr:`FairPlayParams.sigma_floor`);
* **agreement** with the analyser's first choice (a decision that lost nothing): how
  improbable so many agreements are for this player, as the upper tail of a
  beta-binomial: the player's own rate is not known exactly (their history, plus a weak
  prior of :attr:`FairPlayParams.prior_weight` decisions), and it varies from match to
  match (:attr:`FairPlayParams.concentration`), turned into a z-score (the normal
  quantile of the tail).

The ``score`` is their sum over ``sqrt(2)``, higher is more suspicious; a check is
``flagged`` when the player made at least :attr:`FairPlayParams.min_decisions` decisions
and the score reaches :attr:`FairPlayParams.threshold`.  The threshold and the constants
were chosen on simulated honest accounts (``benchmarks/fairplay.py``) so that at most
about 1% of honest checks are flagged; docs/fairplay.md has the figures.  A flag is for a
moderator to look at, never a sanction: see the limits there.

Everything is deterministic (no randomness, the same inputs give the same score) and pure
(the standard library only: no bot, no database).

>>> honest = SeatDecisions((0.0, 0.02, 0.0, 0.05, 0.0) * 12)   # 60 decisions
>>> past = History(decisions=600, error_rate=14.0, agreement=0.6)
>>> r = check(honest, past)
>>> r.decisions, round(r.error_rate, 2), round(r.agreement, 2), r.flagged
(60, 14.0, 0.6, False)
>>> cheat = SeatDecisions((0.0,) * 58 + (0.01, 0.02))           # the bot's moves
>>> r = check(cheat, past)
>>> r.flagged, r.score > DEFAULT_PARAMS.threshold
(True, True)
>>> check(SeatDecisions((0.0,) * 30), past).flagged             # too few decisions
False
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from gammon.bots.analysis.model import MatchAnalysis

__all__ = [
    "AGREE_EPS",
    "DEFAULT_PARAMS",
    "HISTORY_MATCHES",
    "FairPlayError",
    "FairPlayParams",
    "FairPlayResult",
    "History",
    "SeatDecisions",
    "binomial_tail_z",
    "check",
    "check_against",
    "error_z",
    "seat_decisions",
]

#: A decision that lost at most this much equity is the analyser's first choice (the
#: analysis writes the move played as the best one then: ``judge`` in the analysis).
AGREE_EPS: Final = 1e-9
#: The history of a check: the player's last this many checks before the recent ones.
HISTORY_MATCHES: Final = 20
#: The largest z-score either test gives (beyond it the tails are below 1e-30 anyway).
Z_CAP: Final = 12.0
_NORMAL: Final = NormalDist()


class FairPlayError(ValueError):
    """Input the check cannot use (a seat that is not 0 or 1, an analysis without
    decisions' errors, a history with impossible figures)."""


@dataclass(frozen=True, slots=True)
class SeatDecisions:
    """One player's decisions in one match: the normalised equity each lost (>= 0).

    >>> d = SeatDecisions((0.0, 0.1, 0.0, 0.02))
    >>> d.decisions, d.agreed, round(d.error_rate, 1), d.agreement
    (4, 2, 30.0, 0.5)
    """

    errors: tuple[float, ...]
    agreed: int = field(init=False)

    def __post_init__(self) -> None:
        if any(not math.isfinite(e) or e < 0 for e in self.errors):
            raise FairPlayError("a decision's error is a finite equity loss >= 0")
        object.__setattr__(self, "agreed", sum(1 for e in self.errors if e <= AGREE_EPS))

    @property
    def decisions(self) -> int:
        """How many decisions (non-forced) the player made."""
        return len(self.errors)

    @property
    def error_rate(self) -> float:
        """mEMG per decision (``1000 * mean error``), as ``PlayerStats.error_rate``."""
        return 1000.0 * math.fsum(self.errors) / len(self.errors) if self.errors else 0.0

    @property
    def agreement(self) -> float:
        """The share of decisions equal to the analyser's first choice."""
        return self.agreed / len(self.errors) if self.errors else 0.0


@dataclass(frozen=True, slots=True)
class History:
    """A player's figures over earlier checks (decision-weighted means).

    >>> h = History.of([(60, 10.0, 0.5), (40, 20.0, 0.75)])
    >>> h.decisions, h.error_rate, h.agreement
    (100, 14.0, 0.6)
    >>> History.of([]) is None
    True
    """

    decisions: int
    error_rate: float
    agreement: float

    def __post_init__(self) -> None:
        if self.decisions < 0 or self.error_rate < 0 or not 0.0 <= self.agreement <= 1.0:
            raise FairPlayError(
                f"a history has decisions >= 0, an error rate >= 0 and an agreement in "
                f"[0, 1], not {self.decisions}, {self.error_rate}, {self.agreement}"
            )

    @classmethod
    def of(cls, checks: Iterable[tuple[int, float, float]]) -> History | None:
        """The history of earlier checks ``(decisions, error_rate, agreement)`` (None: none
        with a decision)."""
        rows = [(n, e, a) for n, e, a in checks if n > 0]
        total = sum(n for n, _, _ in rows)
        if not total:
            return None
        return cls(
            total,
            math.fsum(n * e for n, e, _ in rows) / total,
            math.fsum(n * a for n, _, a in rows) / total,
        )


@dataclass(frozen=True, slots=True)
class FairPlayParams:
    """The constants of the check (docs/fairplay.md says how each was chosen)."""

    #: No flag below this many decisions in the match.
    min_decisions: int = 40
    #: The matches pooled in the window test (this one and the last ``window - 1``) ...
    window: int = 3
    #: ... made only when the history before them has at least this many decisions (the
    #: window is recent play against older play: against the prior alone it would flag
    #: every bot-level newcomer a second and third time).
    window_history: int = 100
    #: The flag's threshold on ``score``.
    threshold: float = 3.5
    #: The population's error rate (mEMG) and agreement, the prior of a thin history.
    prior_error_rate: float = 10.0
    prior_agreement: float = 0.7
    #: The prior counts as this many decisions (a weak prior: a real history soon wins).
    prior_weight: int = 20
    #: A player's agreement varies from match to match (the positions differ) more than
    #: a fixed rate would make it: the match's rate is taken to follow a Beta of this
    #: concentration around the baseline (fitted on honest bots: a spread of 0.09 between
    #: 80-decision matches at 0.64 and at 0.74 both give about 40).
    concentration: int = 40
    #: Likewise a player's error rate varies from match to match by about this share of
    #: its mean, beyond the decisions' own spread (fitted the same way: 0.2 at 15 and at
    #: 5 mEMG).
    error_spread: float = 0.2
    #: The least per-decision standard deviation of errors (normalised equity): a match
    #: of near-perfect play says little about the spread.
    sigma_floor: float = 0.02


#: The constants the site and the benchmark use.
DEFAULT_PARAMS: Final = FairPlayParams()


@dataclass(frozen=True, slots=True)
class FairPlayResult:
    """One player's check of one match.

    ``baseline`` is the error rate compared with (the history's, None without one: then
    the prior's was used), ``z_error`` and ``z_agreement`` the match's two tests,
    ``match_score`` their combination, ``window_score`` the same of the last matches
    pooled (None: no recent checks), ``score`` the larger and ``flagged`` whether a
    moderator should look.
    """

    decisions: int
    error_rate: float
    agreement: float
    baseline: float | None
    baseline_agreement: float | None
    z_error: float
    z_agreement: float
    match_score: float
    window_score: float | None
    score: float
    flagged: bool

    def detail(self) -> dict[str, Any]:
        """The figures a moderator sees with a flag (JSON-ready, rounded)."""
        return {
            "decisions": self.decisions,
            "error_rate": round(self.error_rate, 2),
            "baseline": None if self.baseline is None else round(self.baseline, 2),
            "agreement": round(self.agreement, 4),
            "baseline_agreement": (
                None if self.baseline_agreement is None else round(self.baseline_agreement, 4)
            ),
            "z_error": round(self.z_error, 2),
            "z_agreement": round(self.z_agreement, 2),
            "match_score": round(self.match_score, 2),
            "window_score": None if self.window_score is None else round(self.window_score, 2),
            "score": round(self.score, 2),
        }


def seat_decisions(analysis: MatchAnalysis | Mapping[str, Any], seat: int) -> SeatDecisions:
    """The decisions of ``seat`` (0 or 1) in an analysis, or in its JSON (``to_dict()``).

    >>> data = {"games": [{"decisions": [
    ...     {"player": 0, "error": 0.0}, {"player": 1, "error": 0.1},
    ...     {"player": 0, "error": 0.05}]}]}
    >>> seat_decisions(data, 0).errors, seat_decisions(data, 1).agreed
    ((0.0, 0.05), 0)
    """
    if seat not in (0, 1):
        raise FairPlayError(f"a seat is 0 or 1, not {seat!r}")
    try:
        if isinstance(analysis, Mapping):
            found = [
                float(d["error"])
                for g in analysis.get("games") or ()
                for d in g.get("decisions") or ()
                if d.get("player") == seat
            ]
        else:
            found = [float(d.error) for d in analysis.decisions if d.player == seat]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise FairPlayError(f"an analysis lists each decision's player and error: {exc}") from exc
    return SeatDecisions(tuple(found))


def _z_of_tail(log_tail: float) -> float:
    """The z-score whose upper normal tail is ``exp(log_tail)``, within ``±Z_CAP``."""
    if log_tail >= 0.0:
        return -Z_CAP
    if log_tail < -600.0:  # beyond float's reach: the tail's asymptote
        return Z_CAP
    z = -_NORMAL.inv_cdf(max(math.exp(log_tail), 1e-300))
    return max(-Z_CAP, min(Z_CAP, z))


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def binomial_tail_z(agreed: int, decisions: int, alpha: float, beta: float) -> float:
    """The z-score of ``agreed`` or more agreements in ``decisions`` when the player's
    rate follows Beta(``alpha``, ``beta``) (a beta-binomial's upper tail, exact).

    >>> round(binomial_tail_z(50, 100, 500.0, 500.0), 2)   # the mean: about 0
    -0.1
    >>> binomial_tail_z(100, 100, 50.0, 50.0) > 3 > binomial_tail_z(60, 100, 50.0, 50.0)
    True
    """
    if not 0 <= agreed <= decisions or alpha <= 0 or beta <= 0:
        raise FairPlayError("agreements are between 0 and the decisions; alpha, beta > 0")
    if agreed == 0:
        return -Z_CAP
    log_denominator = _log_beta(alpha, beta)
    terms = [
        math.lgamma(decisions + 1)
        - math.lgamma(k + 1)
        - math.lgamma(decisions - k + 1)
        + _log_beta(k + alpha, decisions - k + beta)
        - log_denominator
        for k in range(agreed, decisions + 1)
    ]
    top = max(terms)
    log_tail = top + math.log(math.fsum(math.exp(t - top) for t in terms))
    return _z_of_tail(min(0.0, log_tail))


def error_z(
    decisions: SeatDecisions,
    baseline: float,
    baseline_agreement: float,
    baseline_weight: float,
    sigma_floor: float,
    *,
    spread: float = 0.0,
) -> float:
    """How far the match's mean error is below ``baseline`` (normalised equity per
    decision, known from ``baseline_weight`` decisions), in standard errors.

    The spread is the player's own, as their baseline implies it (not this match's, which
    a few lucky decisions make small): a decision agrees with the analyser with chance
    ``a`` (``baseline_agreement``), else loses an exponential amount of mean ``m / (1 - a)``
    (``m`` the baseline), so its standard deviation is ``m * sqrt(2 / (1 - a) - 1)``; never
    less than ``sigma_floor``.  ``spread`` adds the match-to-match variation of the
    player's mean, as a share of it.

    >>> d = SeatDecisions((0.0,) * 50)
    >>> round(error_z(d, 0.01, 0.6, 500, 0.02), 2)
    3.37
    >>> round(error_z(d, 0.01, 0.6, 500, 0.02, spread=0.2), 2)
    2.8
    >>> error_z(d, 0.0, 1.0, 500, 0.02)
    0.0
    """
    n = decisions.decisions
    if n == 0:
        return 0.0
    mean = math.fsum(decisions.errors) / n
    miss = max(1.0 - baseline_agreement, 1e-6)
    sigma = max(baseline * math.sqrt(max(2.0 / miss - 1.0, 0.0)), sigma_floor)
    variance = sigma**2 * (1.0 / n + 1.0 / max(baseline_weight, 1.0)) + (spread * baseline) ** 2
    return max(-Z_CAP, min(Z_CAP, (baseline - mean) / math.sqrt(variance)))


def _tests(
    n: int, agreed: int, mean: float, matches: float, history: History | None, p: FairPlayParams
) -> tuple[float, float]:
    """Both z-scores of ``n`` decisions over ``matches`` (effective) matches, ``agreed`` of
    them the analyser's choice, losing ``mean`` each, against ``history`` and the prior."""
    past_n = history.decisions if history is not None else 0
    past_err = history.error_rate if history is not None else 0.0
    past_agree = history.agreement if history is not None else 0.0
    # the baseline: the history and a weak prior, decision-weighted
    weight = past_n + p.prior_weight
    baseline = (past_n * past_err + p.prior_weight * p.prior_error_rate) / weight / 1000.0
    agree = (past_n * past_agree + p.prior_weight * p.prior_agreement) / weight
    if n == 0:
        return 0.0, 0.0
    miss = max(1.0 - agree, 1e-6)
    sigma = max(baseline * math.sqrt(max(2.0 / miss - 1.0, 0.0)), p.sigma_floor)
    variance = sigma**2 * (1.0 / n + 1.0 / weight) + (p.error_spread * baseline) ** 2 / matches
    z_err = max(-Z_CAP, min(Z_CAP, (baseline - mean) / math.sqrt(variance)))
    # several matches pooled vary less around the player's rate than one does
    strength = min(weight, p.concentration * matches)
    alpha = max(agree * strength, 1e-3)
    beta = max((1.0 - agree) * strength, 1e-3)
    return z_err, binomial_tail_z(agreed, n, alpha, beta)


def check(
    decisions: SeatDecisions,
    history: History | None,
    params: FairPlayParams = DEFAULT_PARAMS,
    *,
    recent: Sequence[tuple[int, float, float]] = (),
) -> FairPlayResult:
    """One player's check of one match (see the module notes).

    ``recent`` are the player's last checks ``(decisions, error_rate, agreement)``, newest
    first (the first ``params.window - 1`` are used), and ``history`` sums up the checks
    before them.  The match alone is compared with all of them; the match pooled with
    ``recent`` (the last ``window`` matches) with ``history`` alone: a player who cheats on
    a fraction of the decisions of several matches in a row stands out there sooner.

    >>> past = History(decisions=600, error_rate=14.0, agreement=0.6)
    >>> lately = [(70, 6.0, 0.8), (80, 5.0, 0.82)]
    >>> match = SeatDecisions((0.0,) * 64 + (0.03,) * 16)       # 80% agreement, 6 mEMG
    >>> alone, pooled = check(match, past), check(match, past, recent=lately)
    >>> alone.window_score is None, pooled.window_score > alone.match_score
    (True, True)
    """
    p = params
    n = decisions.decisions
    mean = math.fsum(decisions.errors) / n if n else 0.0
    window = [r for r in recent[: max(0, p.window - 1)] if r[0] > 0]
    past = [(r.decisions, r.error_rate, r.agreement) for r in (history,) if r is not None]
    everything = History.of([*window, *past])
    z_err, z_agree = _tests(n, decisions.agreed, mean, 1.0, everything, p)
    match_score = (z_err + z_agree) / math.sqrt(2.0)
    window_score = None
    if window and n and history is not None and history.decisions >= p.window_history:
        sizes = [n, *(r[0] for r in window)]
        total = sum(sizes)
        agreed = decisions.agreed + sum(round(r[0] * r[2]) for r in window)
        pooled = (n * mean + math.fsum(r[0] * r[1] / 1000.0 for r in window)) / total
        matches = total**2 / sum(k * k for k in sizes)
        w_err, w_agree = _tests(total, min(agreed, total), pooled, matches, history, p)
        window_score = (w_err + w_agree) / math.sqrt(2.0)
    score = match_score if window_score is None else max(match_score, window_score)
    return FairPlayResult(
        n,
        decisions.error_rate,
        decisions.agreement,
        everything.error_rate if everything is not None else None,
        everything.agreement if everything is not None else None,
        z_err,
        z_agree,
        match_score,
        window_score,
        score,
        n >= p.min_decisions and score >= p.threshold,
    )


def check_against(
    decisions: SeatDecisions,
    past: Sequence[tuple[int, float, float]],
    params: FairPlayParams = DEFAULT_PARAMS,
) -> FairPlayResult:
    """:func:`check` against a player's earlier checks ``(decisions, error_rate,
    agreement)``, newest first: the last ``window - 1`` are the recent ones, the next
    :data:`HISTORY_MATCHES` the history (what the site and the benchmark do).

    >>> past = [(80, 2.0, 0.95)] * 3 + [(80, 20.0, 0.55)] * 10
    >>> check_against(SeatDecisions((0.0,) * 80), past).flagged
    True
    """
    cut = max(0, params.window - 1)
    recent, older = list(past[:cut]), past[cut : cut + HISTORY_MATCHES]
    return check(decisions, History.of(older), params, recent=recent)
