"""The phone's first start (static/js/offline-worker.js, before it keeps a snapshot): the pack's Python compiled to
bytecode while the interpreter's heap is nearly empty, then imported and warmed.

Pyodide writes no bytecode when it imports (`sys.dont_write_bytecode`), so each module would be compiled from its
source as it is first imported, and the compiler's passing peak (MBs for the largest: Jinja2's compiler.py, the
card's template) would land on top of everything imported before it. A WebAssembly memory never shrinks, and
Pyodide 314.0.8 restores a snapshot only while the memory is still the 30 MiB it starts with
(pyodide/pyodide#6254). The standard library's `compileall` writes the bytecode into the pack's folder first
(the browser's memory, not the interpreter's heap), and the imports read it; measured with
scripts/offline_heap.py.
"""

from __future__ import annotations

import compileall
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calculator.offline.phone import Phone


def started(root: str) -> Phone:
    """The pack unpacked at `root`, compiled, imported and warmed: what the first start keeps a snapshot of."""
    compileall.compile_dir(root, quiet=1)
    from calculator.offline.phone import Phone  # imported once compiled: from its bytecode

    phone = Phone(root)
    phone.warm(1, True)
    return phone
