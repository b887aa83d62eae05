"""Values worked out once and kept for the next request: a bounded, thread-safe map.

The server keeps a few things from one request to the next (a game's replayed states, the
deals read for a state, the deal form drawn for a seat). Each is named by a key that names
everything it was made from, so a kept value is never stale; the least recently used are
dropped first, so memory stays bounded however many games are played.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """At most `size` values by key, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._values: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The kept value, or make()'s, kept (made outside the lock: two threads asking at
        once may both make it; either result is the same value)."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def values(self) -> list[V]:
        with self._lock:
            return list(self._values.values())

    def __iter__(self) -> Iterator[K]:
        with self._lock:
            return iter(list(self._values))
