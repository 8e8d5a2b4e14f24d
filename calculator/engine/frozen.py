"""`FrozenDict`: a dict nobody can change, so that one remembered explanation line or payment row can sit in many
answers at once.

The answers are plain JSON-shaped dicts (API.md). Their lines and rows that depend only on a few small values
(the 底番 line, the dealer's extra row …) are made once and remembered; handing out the same dict to every answer
is safe only if no caller can change it. Every changing method raises instead (a loud error, never a wrong
number in a later answer); `dict(row)` gives a changeable copy, and `copy`, `deepcopy` and pickling give plain
dicts. `json.dumps` writes it as any dict.
"""

from __future__ import annotations

import copy


class FrozenDict(dict):
    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("this line or row is shared between answers and cannot change: change a copy, dict(it)")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo) -> dict:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __reduce__(self):
        return (dict, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"
