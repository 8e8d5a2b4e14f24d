"""The verdict as a picture for the group chat (issue 32): one hand's answer (verdict.py) or a table's evening
(evening.py), placed (draw.py, text.py, frame.py) for the one SVG template, jinja2/picture.svg, that the phone
draws and the server turns into the links' preview image; and the words of that preview (preview.py)."""
