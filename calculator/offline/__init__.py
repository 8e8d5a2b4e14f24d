"""The offline pack (issue 22): the app's own Python, run in the phone by Pyodide in a Web Worker.

- `pack`: builds the pack at set-up time (`manage.py build_offline_pack`): the engine, the presentation package,
  the Jinja2 templates compiled to Python, the compiled catalogues, the static URLs and Jinja2 itself, zipped, with
  a manifest that names the pinned Pyodide's files and every part's hash.
- `phone`: the pack's entry point inside the phone (no Django): scores a request and renders the strip and the
  result card with the same presenter and templates as the server.
- `start`: the phone's first start: the pack's Python compiled to bytecode before it is imported, then warmed.
- `served`: the Django side: the manifest as the pages offer it, and the view that serves the pack.
"""
