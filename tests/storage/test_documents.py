"""One store of keyed JSON documents (gammon.storage.documents) behind ``analyses`` and
``rollouts``: the same replace-and-race semantics for both, and no second copy of it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from gammon.storage import Database, Store, analyses, rollouts
from gammon.storage.documents import SubjectDocuments


def test_both_stores_are_the_one_helper(store: Store) -> None:
    assert isinstance(store.analyses, SubjectDocuments)
    assert isinstance(store.rollouts, SubjectDocuments)
    for module in (analyses, rollouts):  # the twin must not come back: no SQL of their own
        own = {"insert", "delete", "select", "and_", "IntegrityError"} & set(vars(module))
        assert not own, (module.__name__, own)


def test_racing_writers_keep_one_row_each(db: Database, store: Store) -> None:
    """Eight servers storing the same analysis and the same rollout at once all succeed."""

    def write(n: int) -> None:
        store.analyses.put("t1", "expert", 1, '{"schema": 1}', n)
        store.rollouts.put("t1", "12:checker", '{"trials": 144}', n)

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(write, range(8)))
    assert store.analyses.get("t1", "expert", 1) == '{"schema": 1}'
    assert store.analyses.count() == 1 and store.rollouts.count() == 1
    assert store.analyses.of_subject("t1") == {"expert": '{"schema": 1}'}
    assert store.rollouts.of_subject("t1") == {"12:checker": '{"trials": 144}'}
    assert store.analyses.delete("t1") == 1 and store.rollouts.delete("t1") == 1
