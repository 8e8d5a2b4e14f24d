"""Who takes a discard several players claim (issue 29): the page's fields (fields.py), what it shows
(presenter.py) and its answer as HTML (render.py). No Django: the phone draws it too (issue 22)."""
