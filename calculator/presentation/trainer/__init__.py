"""The trainer without Django (issue 13 §3, issue 21 §9), so that the phone runs it too (issue 22): questions.py
deals and grades a question from its link, practice.py spaces out the patterns a learner misses, presenter.py makes
the page's values, render.py draws the question's section (jinja2/trainer.html). The trainer page
(calculator/pages/trainer/views.py) and the offline pack (calculator/offline/phone.py) call `render.trainer_html`."""
