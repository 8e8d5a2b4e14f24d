"""What the pages show, as plain values and HTML, without Django: the hand's fields and the engine request
(handquery), the result card (cards, who_pays, strip, tiles, entered, words) and its rendering (render), given a
`Locale` (locale) that the server builds from Django and the phone from the compiled catalogue."""
